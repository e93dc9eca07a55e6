"""Paths as text. Linux names are bytes; one in another encoding than UTF-8 (copied from an
old archive or another system) can be opened, but neither kept in the catalog, nor sent to
Chroma, nor printed as it is."""


NOT_UTF8 = "its name is not UTF-8: rename it to ingest it"


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
