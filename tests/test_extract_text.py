"""Text notes: sniffing, titles from headings or first lines, limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from brainq.config import Limits
from brainq.documents import Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, text
from brainq.extract.text import title_of

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
        ("latin1.txt", "caf\u00e9 cr\u00e8me".encode("latin-1"), False),
        ("binary.txt", b"abc\x00def", False),
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


def test_bad_bytes_after_the_head_are_replaced(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"Shopping list\n" + b"a" * 5000 + b"\xff\n")
    assert extract_file(path).text.endswith("\ufffd\n")


@pytest.mark.parametrize("data", [b"", b"  \n\t\n"])
def test_empty_file_raises_extract_error(tmp_path, data):
    path = tmp_path / "empty.txt"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match="empty file"):
        extract_file(path)
