"""Paths as text. Linux names are bytes; one in another encoding than UTF-8 (copied from an
old archive or another system) can be opened, but neither kept in the catalog, nor sent to
Chroma, nor printed as it is. A name may also hold any control character but "/" and NUL: a
newline, or an ESC that would drive the terminal it is printed to."""

import re


NOT_UTF8 = "its name is not UTF-8: rename it to ingest it"
BROKEN_LINK = "a broken symbolic link (its target is gone, or a loop of links)"


def unnamable(text: str) -> bool:
    """Whether a name (or any argument) holds bytes that are no UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def printable(text: str) -> str:
    """The text with its bytes that are no UTF-8 written as escapes (caf\\xe9.eml), and a lone
    surrogate (as JSON may carry one) as its code (\\ud800)."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def shown(path: str) -> str:
    """A path as a terminal may print it: its control characters written as escapes (a
    newline as \\n, an ESC as \\x1b), so a downloaded file named to clear the screen or
    retitle the window does neither, and each path stays on its line. `--json` keeps it exact."""
    return _CONTROLS.sub(lambda m: repr(m.group())[1:-1], printable(path))
