"""Plain-text and Markdown notes: the text as written, titled by its first heading or line."""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError

KIND = "text"

SUFFIXES = (".txt", ".md", ".markdown")
MAX_TITLE_CHARS = 80
# A heading further down titles a section, not the note.
TITLE_SEARCH_LINES = 20

# YAML front matter, as Jekyll, Hugo and Obsidian write it: metadata, not the note's first line.
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
HEADING = re.compile(r" {0,3}#{1,6}\s")  # an ATX heading starts "## " (and may end " ##")
# A line that only dates the note ("Date: 2023-05-02", "Updated: March 2025") says when, not what;
# "Updated: recipes I love", without a digit, says what.
DATE_LINE = re.compile(r"\s*(date|dated|written|created|updated|last updated|modified)\s*:[^\n]{0,30}\d", re.IGNORECASE)


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
HEAD_BYTES = 4096  # as much of a file as the extractors' sniffing reads
# Control codes other than tab, line feed, form feed and carriage return: text has next to none.
_CONTROL_BYTES = bytes([*range(0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
MAX_CONTROL_SHARE = 0.01
# Text in Windows' Western code page is mostly ASCII, a few accented letters and curly quotes
# among it; bytes that are mostly above ASCII are another code page (Cyrillic, Shift-JIS),
# which read as Western would be gibberish.
MAX_HIGH_SHARE = 0.25


def sniff(name: str, head: bytes) -> bool:
    """A note's name, and a head of text: UTF-8, Windows' Western code page, or UTF-16 with its
    byte-order mark (what Notepad saves as "Unicode"); not binary."""
    if not name.lower().endswith(SUFFIXES):
        return False
    return head.startswith(UTF16_BOMS) or is_text(head)


def is_text(head: bytes) -> bool:
    """Bytes with no NUL that are UTF-8 (a character cut at the end is fine), or else text in
    Windows' Western code page: next to no control codes, mostly ASCII."""
    if b"\x00" in head:
        return False
    if _utf8(head):
        return True
    head = head.removeprefix(codecs.BOM_UTF8)
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    high = sum(1 for byte in head if byte > 0x7F)
    return controls <= MAX_CONTROL_SHARE * len(head) and high <= MAX_HIGH_SHARE * len(head)


def _utf8(head: bytes, final: bool = False) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=final)
    except UnicodeDecodeError:
        return False
    return True


def decode(data: bytes, charset: str | None = None) -> str:
    """A text file's bytes as text: in the charset its message declares, else UTF-16 by its
    byte-order mark, else UTF-8 (a head whose own accented letters are UTF-8 makes a stray bad
    byte further on one, replaced), else Windows-1252, as Windows editors and Excel write it."""
    if data.startswith(UTF16_BOMS) and not charset:
        return data.decode("utf-16", "replace")
    data = data.removeprefix(codecs.BOM_UTF8)
    head = data[:HEAD_BYTES]
    if not charset and not head.isascii() and _utf8(head):
        return data.decode("utf-8", "replace")
    return decode_bytes(data, charset)


# Declared charsets read as the superset mailers actually write (WHATWG Encoding Standard):
# "iso-8859-1" mail is usually windows-1252, "gb2312" is GBK, "ks_c_5601-1987" is cp949.
_CHARSET_SUPERSETS = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "ansi_x3.4-1968": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "ks_c_5601-1987": "cp949",
    "euc-kr": "cp949",
    "shift_jis": "cp932",
    "x-sjis": "cp932",
    # RFC 1556: "-i" (and "-e") only mark the text direction of these Hebrew and Arabic sets.
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-8-e": "iso-8859-8",
    "iso-8859-6-i": "iso-8859-6",
    "iso-8859-6-e": "iso-8859-6",
}


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Bytes as text in the declared charset, else UTF-8, else Windows-1252: never fails.
    Undeclared 8-bit text is mostly Windows' Western code page, latin-1 with curly quotes and
    dashes where latin-1 has control codes ("Appointment \x96 cleaning"). An ASCII label on
    8-bit bytes is a mailer's default, not the text's charset: such bytes are read as UTF-8
    where they are, else as Windows-1252 (a Western label may be right on bytes that happen
    to be valid UTF-8, "CAF\xc9\x92S"; an ASCII one cannot be)."""
    codec = _codec(charset)
    if _label(charset) in _ASCII_LABELS and not data.isascii() and _utf8(data, final=True):
        return data.decode("utf-8")
    windows_jis = WINDOWS_JIS if codec and codec.startswith("iso2022_jp") else None
    for name in (codec, windows_jis, "utf-8"):
        if name:
            try:
                return _windows_jis(data) if name == WINDOWS_JIS else data.decode(name)
            # Some codecs are not charsets and fail with a bare UnicodeError (idna, punycode).
            except (UnicodeError, LookupError):
                pass
    text = data.decode("utf-8", "replace")
    if _mostly_decoded(text):
        return text
    # Under a UTF-8 label, bytes that are next to no UTF-8 are Western ("Fr\xf6sche").
    if codec and codec != "utf-8":
        try:
            return data.decode(codec, "replace")
        # a codec that is not a text encoding ("base64", "rot13") or not a charset ("undefined")
        except (LookupError, UnicodeError):
            pass
    return data.decode("cp1252", "replace")


_ASCII_LABELS = {"us-ascii", "ascii", "ansi_x3.4-1968"}


WINDOWS_JIS = "iso-2022-jp as Windows writes it"
# The escapes ISO-2022-JP switches with: JIS X 0208 (two bytes a character), ASCII or JIS-Roman,
# half-width katakana. Any other (JIS X 0212, ISO-2022-JP-2's sets) is not Windows'.
_JIS_ESCAPE = re.compile(rb"\x1b(\$[@B]|\([BJI])")


def _windows_jis(data: bytes) -> str:
    """ISO-2022-JP as Outlook and other Windows mailers write it (Windows' CP50220): JIS X
    0208 with the characters Windows' Japanese code page adds (①, ㈱, Ⅲ), which Python's
    codec refuses, leaving the text to be read as ASCII escapes. Each two-byte JIS character
    is moved to its Shift JIS code and read in that code page (cp932)."""
    out, mode = bytearray(), b"(B"
    for i, piece in enumerate(_JIS_ESCAPE.split(data)):
        if i % 2:
            mode = piece
        elif b"\x1b" in piece or (mode.startswith(b"$") and len(piece) % 2):
            raise UnicodeError("not ISO-2022-JP as Windows writes it")
        elif mode.startswith(b"$"):
            for first, second in zip(piece[::2], piece[1::2]):
                out += _shift_jis(first, second)
        else:
            out += bytes(b | 0x80 if 0x21 <= b <= 0x5F else b for b in piece) if mode == b"(I" else piece
    return out.decode("cp932")


def _shift_jis(first: int, second: int) -> bytes:
    """A JIS X 0208 code (row byte, cell byte, 0x21-0x7E each) as Shift JIS."""
    if not (0x21 <= first <= 0x7E and 0x21 <= second <= 0x7E):
        raise UnicodeError("not a JIS X 0208 code")
    lead = (first + 1) // 2 + (0x70 if first <= 0x5E else 0xB0)
    trail = second + 0x1F + (second >= 0x60) if first % 2 else second + 0x7E
    return bytes((lead, trail))


def _mostly_decoded(text: str) -> bool:
    """True for UTF-8 with a few bad bytes (a name cut mid-character), not for latin-1 text.

    Latin-1 letters almost never form valid UTF-8 sequences, so each becomes a U+FFFD.
    """
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ord(ch) > 127) - bad
    return good > 0 and good >= 4 * bad


def _label(charset: str | None) -> str:
    """A declared charset as compared: no quotes or spaces around it, in lower case."""
    return (charset or "").strip().strip('"').lower()


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    charset = _label(charset)
    charset = _CHARSET_SUPERSETS.get(charset, charset)
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError):  # unknown labels ("x-unknown"), NULs in the label
        return None


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document; the date is left to the pipeline (dates in the text, else the file's mtime)."""
    text = decode(item.read(), item.charset)
    if not text.strip():
        raise ExtractError("empty file")
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title_of(text) or Path(item.name).stem,
        text=text,
    )


def title_of(text: str) -> str:
    """The first Markdown heading near the top, else the first line that names something."""
    body = FRONT_MATTER.sub("", text, count=1)
    # A line without a letter or digit is a rule or a fence ("---", "```"), not a title.
    named = (line for line in body.splitlines() if any(c.isalnum() for c in line) and not DATE_LINE.match(line))
    lines = list(itertools.islice(named, TITLE_SEARCH_LINES))
    for line in lines:
        heading = _heading(line)
        if heading:
            return _shorten(heading)
    return _shorten(lines[0]) if lines else ""


def _heading(line: str) -> str:
    """The text of an ATX heading line ("## Title ##" is "Title"), or "".

    Done without a regular expression: one that also strips the closing #s backtracks on a
    long run of spaces, and a 40 kB line took half a minute.
    """
    opener = HEADING.match(line)
    if not opener:
        return ""
    text = line[opener.end() :].strip()
    content = text.rstrip("#")
    if content != text and content[-1:].isspace():  # a closing sequence needs a space before it
        text = content.rstrip()
    return text


def _shorten(line: str) -> str:
    """At most MAX_TITLE_CHARS, cut at a word boundary when there is one."""
    line = " ".join(line.split())
    if len(line) <= MAX_TITLE_CHARS:
        return line
    cut = line[: MAX_TITLE_CHARS - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
