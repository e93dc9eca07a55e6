"""Text notes: sniffing, titles from headings or first lines, limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from brainq.config import Limits
from brainq.documents import Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, text
from brainq.extract.text import decode_bytes, title_of

FIXTURES = Path(__file__).parent / "fixtures/text"


def extract_file(path: Path, limits: Limits = Limits()):
    (doc,) = extract_item(Item(path=path, name=path.name), limits)
    return doc


@pytest.mark.parametrize(
    "name, head, expected",
    [
        ("notes.txt", b"Guest WiFi\n", True),
        ("README.md", "# Caf\u00e9 menu\n".encode(), True),
        ("plan.markdown", b"", True),
        ("cut.txt", "na\u00efve".encode()[:-1], True),  # a character cut at the end of the head
        ("latin1.txt", "caf\u00e9 cr\u00e8me".encode("latin-1"), True),  # a Windows code page
        ("unicode.txt", "caf\u00e9".encode("utf-16"), True),  # Notepad's "Unicode", with its BOM
        ("binary.txt", b"abc\x00def", False),
        ("binary.txt", b"\x8b\x02\x17\x05\x1a\xff" + b"x" * 100, False),  # no UTF-8, control codes
        ("cyrillic.txt", "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440".encode("cp1251"), False),  # no Western text
        ("script.py", b"print('hi')\n", False),
        ("photo.jpg", b"\xff\xd8\xff", False),
    ],
)
def test_sniff(name, head, expected):
    assert text.sniff(name, head) is expected


def test_markdown_note():
    doc = extract_file(FIXTURES / "hvac.md")
    assert (doc.kind, doc.locator, doc.path) == ("text", None, str(FIXTURES / "hvac.md"))
    assert doc.title == "HVAC filter and furnace notes"  # front matter skipped
    assert "16x25x4" in doc.text
    # The pipeline dates notes from the text or the file's mtime.
    assert (doc.source_date, doc.date_source, doc.doc_type) == (None, None, None)


def test_text_note_titled_by_its_first_line():
    assert extract_file(FIXTURES / "wifi.txt").title == "Guest WiFi"


@pytest.mark.parametrize(
    "body, expected",
    [
        ("# Title #\nbody", "Title"),
        ("intro line\n\n## Packing list\n- boots", "Packing list"),
        ("Title\n=====\nbody", "Title"),
        ("#hashtag not a heading\nbody", "#hashtag not a heading"),
        ("word " * 30, " ".join(["word"] * 15) + "\u2026"),  # cut between words, within 80
        ("x" * 100, "x" * 79 + "\u2026"),
        ("---\n\n***\n\nAfter the rules", "After the rules"),  # a title names something
        ("---\ntitle: ignored\n---\n\nReal first line", "Real first line"),
        ("\n\n   \n", ""),
        ("Date: 2023-05-02\nRoof replaced by Apex", "Roof replaced by Apex"),  # it says when, not what
        ("Last updated: March 2025\n\n# Alarm codes", "Alarm codes"),
        ("Date: 2023", ""),  # the file's name then
        ("Updated: recipes I love\nPancakes", "Updated: recipes I love"),  # no date: it says what
    ],
)
def test_title_of(body, expected):
    assert title_of(body) == expected


def test_title_falls_back_to_file_stem_and_bom_is_dropped(tmp_path):
    path = tmp_path / "packing.md"
    path.write_bytes(b"\xef\xbb\xbf---\ntags: [trip]\n---\n")
    doc = extract_file(path)
    assert doc.title == "packing"
    assert doc.text.startswith("---")


def test_max_text_chars(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("a" * 100, encoding="utf-8")
    doc = extract_file(path, Limits(max_text_chars=10))
    assert doc.text == "a" * 10 and doc.notes == ["text cut at 10 characters"]


def test_a_stray_bad_byte_in_utf8_is_replaced(tmp_path):
    """A UTF-8 note with one broken byte stays UTF-8 (the byte replaced), where bytes that are
    no UTF-8 at all are read in the Windows code page."""
    path = tmp_path / "mixed.txt"
    path.write_bytes("Caf\u00e9\n".encode() + b"a" * 5000 + b"\x96\n")
    text = extract_file(path).text
    assert text.startswith("Caf\u00e9\n") and text.endswith("\ufffd\n")


def test_a_byte_order_mark_before_windows_text_is_dropped(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfCaf\xe9 \x96 menu\n")
    assert extract_file(path).text == "Caf\u00e9 \u2013 menu\n"


def test_a_declared_charset_is_the_texts():
    """A .txt attachment whose message says it is Latin-9, where 0xA4 is the euro sign."""
    item = Item(path=Path("/mail/inbox.mbox"), name="prices.txt", data=b"Coffee: 3 \xa4\n", charset="iso-8859-15")
    (doc,) = extract_item(item, Limits())
    assert doc.text == "Coffee: 3 \u20ac\n"


@pytest.mark.parametrize(
    "data, expected",
    [
        # Windows' additions (①, ㈱, Ⅲ), half-width katakana (ESC ( I) and JIS-Roman between
        (b"\x1b$B-!-j\x1b(B \x1b$B-7\x1b(B \x1b(I123\x1b(J ok", "①㈱ Ⅲ ｱｲｳ ok"),
        (b"\x1b$B2q5D\x1b(B", "会議"),  # plain JIS X 0208, as Python's codec reads it
        (b"\x1b$B-!\x1b(B \x1b(I123\r\n", "① ｱｲｳ\r\n"),  # a line's end is no katakana
        (b"\x1b$(D0!\x1b(B", "\x1b$(D0!\x1b(B"),  # JIS X 0212: not Windows', left as it is
    ],
)
def test_iso_2022_jp_as_windows_writes_it(data, expected):
    assert decode_bytes(data, "iso-2022-jp") == expected


@pytest.mark.parametrize(
    "data, charset, expected",
    [
        # a mailer's default label on UTF-8 bytes: read as "EnvoyÃ©" before
        ("Envoy\u00e9 par".encode(), "us-ascii", "Envoy\u00e9 par"),
        (b"Caf\xe9 \x96 menu", "us-ascii", "Caf\u00e9 \u2013 menu"),  # the label's own superset
        # a Western label stands, though its bytes happen to be valid UTF-8
        ("CAF\u00c9\u2019S MENU".encode("cp1252"), "iso-8859-1", "CAF\u00c9\u2019S MENU"),
        ("Spa\u00df\u2026".encode("cp1252"), "windows-1252", "Spa\u00df\u2026"),
        # Latin-1 under a UTF-8 label: a replacement character before
        (b"Fr\xf6sche", "utf-8", "Fr\u00f6sche"),
        (b"Det h\xe4r \xe4r", "UTF-8", "Det h\u00e4r \u00e4r"),
        ("\u201eViel Spa\u00df\u201c w\u00fcnscht".encode("cp1252"), None, "\u201eViel Spa\u00df\u201c w\u00fcnscht"),
    ],
)
def test_a_wrong_charset_label_does_not_garble_the_text(data, charset, expected):
    assert decode_bytes(data, charset) == expected


@pytest.mark.parametrize(
    "encoding", ["cp1252", "utf-16", "utf-16-be", "utf-8-sig"]  # utf-16 writes its BOM, little-endian here
)
def test_notes_written_by_windows_editors_are_read(tmp_path, encoding):
    """Notepad saves ANSI (the Windows code page) or "Unicode" (UTF-16 with a BOM) as often as
    UTF-8; a note not in UTF-8 was once passed over as no kind brainq reads."""
    body = "Passport renewal \u2013 caf\u00e9 receipt \u201cA-1234\u201d\n"
    data = body.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path = tmp_path / "note.txt"
    path.write_bytes(data)
    doc = extract_file(path)
    assert doc.text == body and doc.title == body.strip()


@pytest.mark.parametrize("data", [b"", b"  \n\t\n"])
def test_empty_file_raises_extract_error(tmp_path, data):
    path = tmp_path / "empty.txt"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match="empty file"):
        extract_file(path)


@pytest.mark.parametrize(
    "name, reason",
    [
        ("notes.txt", "not text brainq reads (binary, or in a code page"),  # claims to be text
        ("letter.docx", "its content is not what its name says, nor any kind brainq reads"),  # claims another kind
        ("blob.bin", "not a kind brainq reads ("),  # claims none
    ],
)
def test_binary_bytes_are_no_note_and_the_reason_says_whether_the_name_claimed_one(name, reason):
    with pytest.raises(ExtractError) as raised:
        list(extract_item(Item(path=Path(f"/docs/{name}"), name=name, data=b"\x00\x01\x02binary\xff" * 50), Limits()))
    assert str(raised.value).startswith(reason)
