"""Word 97-2003 (.doc) files: text through the piece table, tables by row, fields as what they
show, headers after the body; locked, old and broken files refused with a reason."""

from __future__ import annotations

import io
import struct
import time
from datetime import datetime, timezone
from pathlib import Path

import olefile
import pytest

from brainq.annotate import annotate
from brainq.config import load_config
from brainq.documents import Failure, Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, extractor_for, msword
from tests.conftest import CORPORA

CONFIG = load_config()
NOW = datetime(2026, 4, 1, tzinfo=timezone.utc)
SECTOR = 512
FREE, END, FAT_SECTOR, NONE = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A Compound File (version 3) holding `streams` at its root, as Word writes one. Each
    stream is padded to 4096 bytes, past the mini stream's cutoff, so only the regular FAT is
    needed."""
    streams = {name: data.ljust(max(4096, -(-len(data) // SECTOR) * SECTOR), b"\0") for name, data in streams.items()}
    fat, body, starts = [], b"", {}
    for name, data in streams.items():
        count = len(data) // SECTOR
        starts[name] = len(fat)
        fat += [len(fat) + i + 1 for i in range(count - 1)] + [END]
        body += data
    entries = [_entry("Root Entry", 5, END, 0, child=1 if streams else NONE)]
    for i, (name, data) in enumerate(streams.items(), start=1):
        entries.append(_entry(name, 2, starts[name], len(data), right=i + 1 if i < len(streams) else NONE))
    directory = b"".join(entries).ljust(-(-len(entries) * 128 // SECTOR) * SECTOR, b"\0")
    first_directory = len(fat)
    fat += [len(fat) + i + 1 for i in range(len(directory) // SECTOR - 1)] + [END]
    fat_sectors = -(-(len(fat) + 1) // 128)
    fat_at = len(fat)
    fat += [FAT_SECTOR] * fat_sectors
    fat += [FREE] * (fat_sectors * 128 - len(fat))
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", b"\0" * 16, 0x3E, 3, 0xFFFE, 9, 6, b"\0" * 6,
        0, fat_sectors, first_directory, 0, 4096, END, 0, END, 0,
    )  # fmt: skip
    header += struct.pack("<109I", *([fat_at + i for i in range(fat_sectors)] + [FREE] * (109 - fat_sectors)))
    return header + body + directory + struct.pack(f"<{len(fat)}I", *fat)


def _entry(name: str, kind: int, start: int, size: int, child: int = NONE, right: int = NONE) -> bytes:
    encoded = (name + "\0").encode("utf-16-le")
    return struct.pack("<64sHBBIII16sI8s8sIII", encoded, len(encoded), kind, 1, NONE, right, child, b"\0" * 16, 0,
                       b"\0" * 8, b"\0" * 8, start, size, 0)  # fmt: skip


def word_file(body: str, headers: str = "", *, boxes: str = "", eight_bit: bool = False, ident: int = 0xA5EC,
              version: int = 193, flags: int = 0x0200, summary: bytes | None = None, rows: bool = False) -> bytes:  # fmt: skip
    """A Word 97 file: a FIB, the text as one piece (UTF-16, or 8-bit in Windows-1252), and a
    piece table in the 1Table stream: the main story, the headers' and the text boxes'; and the
    summary property set, if given. With `rows`, each "\x1d" in the body is a cell mark whose
    paragraph properties (one PapxFkp page) say it ends a table's row, as Word marks them."""
    row_ends = [i for i, c in enumerate(body) if c == "\x1d"] if rows else []
    body = body.replace("\x1d", "\x07") if rows else body
    text = body + headers + boxes
    at = 2048
    encoded = text.encode("cp1252") if eight_bit else text.encode("utf-16-le")
    fib = bytearray(at + len(encoded))
    struct.pack_into("<HH", fib, 0, ident, version)
    struct.pack_into("<H", fib, 0x0A, flags)
    struct.pack_into("<H", fib, 32, 14)  # csw, then 14 words
    longs = 32 + 2 + 28
    struct.pack_into("<H", fib, longs, 22)  # cslw, then 22 longs: ccpText, ccpFtn, ccpHdd at 3-5
    struct.pack_into("<7i", fib, longs + 2 + 12, len(body), 0, len(headers), 0, 0, 0, len(boxes))
    pairs = longs + 2 + 88
    struct.pack_into("<H", fib, pairs, 93)
    fib[at:] = encoded
    fc = (at * 2) | 0x40000000 if eight_bit else at
    plc = struct.pack("<IIHIH", 0, len(text), 0, fc, 0)
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    table = b"\0" * 16 + clx
    struct.pack_into("<II", fib, pairs + 2 + 8 * 33, 16, len(clx))
    if row_ends:
        width, page = (1 if eight_bit else 2), bytearray(512)
        bounds = sorted({at, at + width * len(text), *(at + width * i for r in row_ends for i in (r, r + 1))})
        for j, (first, end) in enumerate(zip(bounds, bounds[1:])):
            struct.pack_into("<II", page, 4 * j, first, end)
            if (first - at) // width in row_ends:
                page[4 * len(bounds) + 13 * (j)] = 200  # its properties at byte 400: sprmPFTtp = 1
        page[400:406] = bytes([3, 0, 0, 0x17, 0x24, 1])
        page[511] = len(bounds) - 1
        number = -(-len(fib) // 512)
        fib = fib.ljust(512 * number, b"\0") + page
        plc_at = len(table)
        table += struct.pack("<III", at, at + width * len(text), number)
        struct.pack_into("<II", fib, pairs + 2 + 8 * 13, plc_at, 12)
    streams = {"1Table": table, "WordDocument": bytes(fib)}
    return compound_file(streams if summary is None else {**streams, "\x05SummaryInformation": summary})


def summary(*properties: tuple[int, bytes]) -> bytes:
    """A SummaryInformation property set of (id, typed value) pairs ([MS-OLEPS])."""
    header = struct.pack("<HHI16sI16sI", 0xFFFE, 0, 0, b"\0" * 16, 1, b"\0" * 16, 48)
    table, values, at = b"", b"", 8 + 8 * len(properties)
    for pid, value in properties:
        table += struct.pack("<II", pid, at + len(values))
        values += value.ljust(-(-len(value) // 4) * 4, b"\0")
    return header + struct.pack("<II", 8 + len(table) + len(values), len(properties)) + table + values


def lpstr(text: bytes) -> bytes:
    return struct.pack("<II", 0x1E, len(text) + 1) + text + b"\0"


SAVED = struct.pack("<IQ", 0x40, int((datetime(2024, 3, 5, 10, 30) - datetime(1601, 1, 1)).total_seconds()) * 10**7)


def read(data: bytes, name: str = "minutes.doc"):
    return list(extract_item(Item(Path("/docs") / name, name, data=data), CONFIG.limits))


def test_a_word_97_file_reads_its_paragraphs_table_fields_and_headers():
    body = ("PTA minutes, March 10, 2009\r"
            "Treasurer: \x13 MERGEFIELD name \x14Dana Ortiz\x15 reported a balance of $1,204.\r"
            "Item\x07Cost\x07\x07Book fair\x07$310\x07\x07"
            "Next meeting\x0bTuesday 7 PM\x0c\x01\r")  # fmt: skip
    (doc,) = read(word_file(body, headers="Quarry Hill PTA \u2022 Room 12\r\x03\r"))
    assert doc.kind == "office" and doc.title == "PTA minutes, March 10, 2009"
    assert doc.text.split("\n") == [
        "PTA minutes, March 10, 2009", "Treasurer: Dana Ortiz reported a balance of $1,204.", "Item  |  Cost",
        "Book fair  |  $310", "Next meeting", "Tuesday 7 PM", "Quarry Hill PTA \u2022 Room 12",
    ]  # fmt: skip
    assert doc.source_date is None  # no summary properties: dated as a PDF is, by its text
    dated = annotate(doc, CONFIG, NOW.timestamp(), NOW)
    assert (dated.source_date.date().isoformat(), dated.date_source) == ("2009-03-10", "text")


def test_an_8_bit_piece_is_windows_1252():
    (doc,) = read(word_file("Caf\u00e9 \u2013 menu\r", eight_bit=True))
    assert doc.text == "Caf\u00e9 \u2013 menu"


@pytest.mark.parametrize(
    "data, reason",
    [
        (word_file("secret\r", flags=0x0300), "password-protected"),
        (word_file("old\r", ident=0xA5DC, version=101), "a Word 6 or Word 95 document"),
        (word_file("old\r", version=150), "a Word 6 or Word 95 document"),
        (compound_file({"Book": b"\x09\x08" + b"\0" * 100}), "a Compound File, not a Word document"),
        (word_file("\x13 SHAPE \x14\x01\x15\r"), "no text in the document"),
        (word_file("cut short\r")[:3000], "a damaged Word 97-2003 document"),
    ],
)
def test_files_that_cannot_be_read_say_why(data, reason):
    with pytest.raises(ExtractError, match=reason):
        read(data)


def test_only_doc_and_dot_names_are_word_97():
    data = word_file("x\r")
    assert extractor_for(Item(Path("a"), "report.DOC", data=data)) is msword
    assert extractor_for(Item(Path("a"), "letterhead.dot", data=data)) is msword
    assert extractor_for(Item(Path("a"), "data.bin", data=data)) is None


def test_a_real_word_attachment_reads_as_its_text_dated_when_saved():
    """A French note written in Word and mailed as .doc (zbateson's test corpus)."""
    path = CORPORA / "mail" / "zbateson" / "m0024.txt"
    if not path.exists():
        pytest.skip("shared corpus absent")
    results = read(path.read_bytes(), name=path.name)
    assert not [r for r in results if isinstance(r, Failure)]
    (doc,) = [r for r in results if r.kind == "office"]
    assert doc.locator.endswith(".doc") and doc.title == "Biodiversit\u00e9 de semaine en semaine"
    assert "persil \u00ab sauvage \u00bb (Petroselinum crispum)" in doc.text
    assert (doc.source_date, doc.date_source) == (datetime(2014, 7, 21, 15, 53, tzinfo=timezone.utc), "office_meta")
    assert any(r.kind == "email" for r in results)  # the message itself is read too, beside its attachment


def test_the_summary_gives_title_and_dates_in_its_own_code_page():
    """65001 (UTF-8) is written as a signed 16-bit number; a vector claiming four billion
    elements (olefile's reader looped on it past any timer) and a title of the wrong type are
    passed over."""
    props = summary((1, struct.pack("<Ih", 0x02, -535)), (2, lpstr("Caf\u00e9 \u2013 menu".encode())), (13, SAVED))
    (doc,) = read(word_file("Soup of the day\r", summary=props))
    assert doc.title == "Caf\u00e9 \u2013 menu"
    assert (doc.source_date, doc.date_source) == (datetime(2024, 3, 5, 10, 30, tzinfo=timezone.utc), "office_meta")
    hostile = summary((2, struct.pack("<II", 0x1000, 0xFFFFFFFF)), (12, struct.pack("<II", 0x1000, 0xFFFFFFFF)))
    (doc,) = read(word_file("Soup of the day\r", summary=hostile))
    assert (doc.title, doc.source_date) == ("Soup of the day", None)
    (doc,) = read(word_file("Soup of the day\r", summary=summary((2, struct.pack("<Ii", 0x03, 7)), (13, b"\x40"))))
    assert (doc.title, doc.source_date) == ("Soup of the day", None)


def test_text_boxes_and_column_breaks_are_read_and_an_unended_field_hides_nothing():
    body = "Permission slip\r\x13 Trip to the aquarium, May 3\rBring a packed lunch\x0eSigned:\r"
    (doc,) = read(word_file(body, boxes="Bus leaves at 8:15\r"))
    assert doc.text.split("\n") == [
        "Permission slip", "Trip to the aquarium, May 3", "Bring a packed lunch", "Signed:", "Bus leaves at 8:15",
    ]  # fmt: skip


def test_a_doc_that_is_a_docx_or_a_web_page_is_read_as_what_it_is():
    from tests.test_extract_office import docx_bytes

    assert read(docx_bytes(["Saved under the old name"]))[0].text == "Saved under the old name"
    page = b'<html xmlns:o="urn:schemas-microsoft-com:office:office"><body><p>Exported as Word</p></body></html>'
    assert read(page)[0].text.strip() == "Exported as Word"


def test_a_rows_end_is_told_from_an_empty_cell_by_its_paragraph():
    """A row's end and an empty cell are the same mark in the text; the paragraph properties
    say which ends the row (without them, "Dana" and her empty phone cell ran into Lee's row)."""
    body = "Name\x07Phone\x07\x1dDana\x07\x07\x1dLee\x07555-0101\x07\x1d\x07\x07\x1dAfter the table\r"
    (doc,) = read(word_file(body, rows=True))
    assert doc.text.split("\n") == ["Name  |  Phone", "Dana  |", "Lee  |  555-0101", "After the table"]
    (doc,) = read(word_file(body, rows=True, eight_bit=True))
    assert doc.text.split("\n") == ["Name  |  Phone", "Dana  |", "Lee  |  555-0101", "After the table"]


def test_paragraph_properties_cost_no_more_than_their_pages_and_the_texts_own_marks_are_no_rows():
    """A table of paragraph properties naming one page thirty thousand times reads it once
    (each entry copied the rest of the stream: 180 GB here); a U+001D the text holds itself is dropped, not
    taken for a row's end; a line of blank form characters is no line."""
    data = bytearray(word_file("A\x07\x1dB\r", rows=True))
    ole = olefile.OleFileIO(io.BytesIO(bytes(data)))
    table, fib = ole.openstream("1Table").read(), ole.openstream("WordDocument").read()
    (at, size) = struct.unpack_from("<II", fib, 32 + 2 + 28 + 2 + 88 + 2 + 8 * 13)
    first, end, page = struct.unpack_from("<III", table, at)
    plc = struct.pack(f"<{30_001}I", *([first] * 30_000 + [end])) + struct.pack(f"<{30_000}I", *([page] * 30_000))
    fib = bytearray(fib) + bytes(6 * 2**20)  # 6 MB of stream after the page, copied per entry before
    struct.pack_into("<II", fib, 32 + 2 + 28 + 2 + 88 + 2 + 8 * 13, len(table), len(plc))
    started = time.perf_counter()
    (doc,) = read(compound_file({"1Table": table + plc, "WordDocument": bytes(fib)}))
    assert time.perf_counter() - started < 5 and doc.text.split("\n") == ["A", "B"]
    (doc,) = read(word_file("A\x07B\x07\x07Note\x1dx\r"))
    assert doc.text.split("\n") == ["A  |  B", "Notex"]
    (doc,) = read(word_file("Name\r\u2002\u2002\u2002\rAfter\r"))
    assert doc.text.split("\n") == ["Name", "After"]
