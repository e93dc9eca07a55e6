"""PDF extraction: sniffing, dates from metadata, encryption, scans, limits, and the PDF corpus."""

from __future__ import annotations

import io
import json
import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader, PdfWriter

from brainq.config import Limits, read_passwords
from brainq.documents import Item
from brainq.errors import ConfigError, ExtractError
from brainq.extract import extract_item, extractor_for, pdf
from brainq.extract.pdf import parse_pdf_date
from tests.conftest import CORPORA

CORPUS = CORPORA / "pdfs"
JPEG_HEAD = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"


def build_pdf(pages=("Hello",), info: dict | None = None, xmp: str | None = None) -> bytes:
    """A small valid PDF with one line of Helvetica text per page, written object by object."""
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "",  # the page tree, once the pages are numbered
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    kids = []
    for text in pages:
        content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET"
        objects.append(f"<< /Length {len(content)} >>\nstream\n{content}\nendstream")
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects)} 0 R >>"
        )
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    if xmp:
        objects.append(f"<< /Type /Metadata /Subtype /XML /Length {len(xmp)} >>")
        objects[-1] += f"\nstream\n{xmp}\nendstream"
        objects[0] = f"<< /Type /Catalog /Pages 2 0 R /Metadata {len(objects)} 0 R >>"
    trailer = f"/Size {len(objects) + 2} /Root 1 0 R"
    if info:
        objects.append("<< " + " ".join(f"/{key} ({value})" for key, value in info.items()) + " >>")
        trailer += f" /Info {len(objects)} 0 R"
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    return out + f"trailer\n<< {trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()


def encrypt(data: bytes, user_password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def extract(data: bytes, name: str = "doc.pdf", limits: Limits = Limits()):
    return list(pdf.extract(Item(path=Path("/home/u") / name, name=name, data=data), limits))


@pytest.mark.parametrize(
    "name, head, expected",
    [
        ("report.pdf", b"%PDF-1.7\n", True),
        ("scan.jpg", b"%PDF-1.4\n", True),  # content first: a PDF named .jpg is a PDF
        ("junk-first.bin", b"Some junk before the header\n%PDF-1.4", True),
        ("far.bin", b"x" * 2000 + b"%PDF-1.4", False),
        ("photo.jpg", JPEG_HEAD, False),
        ("notes.txt", b"a PDF- like line", False),
        ("broken.pdf", b"", True),  # the name claims it, so its failure is reported as a PDF's
    ],
)
def test_sniff(name, head, expected):
    assert pdf.sniff(name, head) is expected


def test_pdf_named_jpg_goes_to_the_pdf_extractor_and_jpeg_does_not():
    assert extractor_for(Item(path=Path("x.jpg"), name="x.jpg", data=build_pdf())) is pdf
    assert extractor_for(Item(path=Path("x.jpg"), name="x.jpg", data=JPEG_HEAD)) is not pdf


def tz(hours: int, minutes: int = 0) -> timezone:
    return timezone(timedelta(hours=hours, minutes=minutes))


UTC, PLUS_2 = timezone.utc, tz(2)


@pytest.mark.parametrize(
    "raw, expected, precision",
    [
        ("D:20220403180542+02'00'", datetime(2022, 4, 3, 18, 5, 42, tzinfo=PLUS_2), "instant"),
        ("D:20220519170759+02'00", datetime(2022, 5, 19, 17, 7, 59, tzinfo=PLUS_2), "instant"),
        ("D:20100316021332-0100", datetime(2010, 3, 16, 2, 13, 32, tzinfo=tz(-1)), "instant"),
        ("D:20230410074654Z07'46'", datetime(2023, 4, 10, 7, 46, 54, tzinfo=UTC), "instant"),
        ("D:20210107113443+03'34'", datetime(2021, 1, 7, 11, 34, 43, tzinfo=tz(3, 34)), "instant"),
        ("D:20210409192208", datetime(2021, 4, 9, 19, 22, 8), "instant"),  # no zone: naive
        ("20040210213642Z", datetime(2004, 2, 10, 21, 36, 42, tzinfo=timezone.utc), "instant"),
        ("D:20220403", datetime(2022, 4, 3), "day"),
        ("D:202204", datetime(2022, 4, 1), "month"),
        ("D:2022", datetime(2022, 1, 1), "year"),
    ],
)
def test_parse_pdf_date(raw, expected, precision):
    parsed, parsed_precision = parse_pdf_date(raw)
    assert parsed == expected
    assert (parsed.tzinfo is None) == (expected.tzinfo is None)
    assert parsed_precision == precision


@pytest.mark.parametrize(
    "raw", ["", "D:", "yesterday", "D:20221301000000", "D:20220431", "D:20220101000000+24'00'"]
)
def test_parse_pdf_date_rejects_invalid(raw):
    assert parse_pdf_date(raw) is None


def test_text_title_and_creation_date():
    info = {"Title": "Roof repair", "CreationDate": "D:20230502101500-05'00'"}
    data = build_pdf(("Invoice 1234", "Amount due 42.00"), info)
    (doc,) = extract(data, "roof.pdf")
    assert doc.kind == "pdf" and doc.locator is None and doc.path == "/home/u/roof.pdf"
    assert doc.title == "Roof repair"
    assert "Invoice 1234" in doc.text and "Amount due 42.00" in doc.text
    assert doc.source_date == datetime(2023, 5, 2, 15, 15, tzinfo=timezone.utc)
    assert (doc.date_source, doc.date_precision) == ("pdf_meta", "instant")
    assert doc.doc_type is None  # rules decide invoice, receipt, manual or static_pdf
    assert doc.notes == []


@pytest.mark.parametrize("info", [None, {"Title": "untitled"}, {"Title": " "}])
def test_title_falls_back_to_the_file_name(info):
    (doc,) = extract(build_pdf(info=info), "2023-furnace-manual.pdf")
    assert doc.title == "2023-furnace-manual"
    assert doc.source_date is None and doc.date_source is None


def test_xmp_create_date_when_the_info_dictionary_has_none():
    xmp = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">'
        "<xmp:CreateDate>2021-06-01T10:00:00+02:00</xmp:CreateDate>"
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
    )
    (doc,) = extract(build_pdf(xmp=xmp))
    assert doc.source_date == datetime(2021, 6, 1, 8, 0, tzinfo=timezone.utc)
    assert doc.date_source == "xmp"


def test_encrypted_with_the_empty_password_opens():
    plain = build_pdf(("Permit 77",), {"CreationDate": "D:20240101120000Z"})
    data = encrypt(plain, user_password="")
    (doc,) = extract(data)
    assert "Permit 77" in doc.text
    assert doc.source_date == datetime(2024, 1, 1, 12, tzinfo=timezone.utc)


def test_encrypted_with_a_user_password_is_reported_as_such():
    with pytest.raises(ExtractError, match=r"^encrypted: needs a password \(name a passwords file"):
        extract(encrypt(build_pdf(), user_password="secret"))


def test_passwords_are_tried_in_order_until_one_opens_it():
    data = encrypt(build_pdf(("Lease renewal",)), user_password="s3cret")
    (doc,) = extract(data, limits=Limits(passwords=("wrong", "s3cret", "other")))
    assert "Lease renewal" in doc.text
    with pytest.raises(ExtractError, match=r"none of the 2 passwords given opens it"):
        extract(data, limits=Limits(passwords=("wrong", "other")))


def test_a_passwords_file_others_can_read_is_refused(tmp_path):
    path = tmp_path / "passwords"
    path.write_text("first\n\nsecond pass\n", encoding="utf-8")
    path.chmod(0o644)
    with pytest.raises(ConfigError, match=r"readable by you alone \(mode 644\); run: chmod 600"):
        read_passwords(path)
    path.chmod(0o600)
    assert read_passwords(path) == ("first", "second pass")
    assert "first" not in repr(Limits(passwords=read_passwords(path)))


def test_pypdf_unreadable_files_are_read_by_pdfium():
    # A cross-reference table pypdf gives up on; pdfium rebuilds it, as viewers do.
    data = build_pdf(("Boiler service report",)).replace(b"startxref", b"startxrfe")
    data = b"junk before the header\n" * 3 + data
    (doc,) = extract(data)
    assert "Boiler service report" in doc.text


def test_image_only_pdf_is_a_document_noted_as_without_text(tmp_path):
    image = pytest.importorskip("PIL.Image")
    path = tmp_path / "scan.pdf"
    image.new("RGB", (40, 40), "white").save(path, "PDF", title="Scanned receipt")
    (doc,) = list(extract_item(Item(path=path, name=path.name), Limits()))
    assert doc.notes == ["no text layer found"]
    assert doc.title == "Scanned receipt"
    assert "Scanned receipt" in doc.text


def test_max_pages():
    (doc,) = extract(build_pdf(("page one", "page two", "page three")), limits=Limits(max_pages=2))
    assert "page two" in doc.text and "page three" not in doc.text
    assert doc.notes == ["only the first 2 of 3 pages read"]


def test_max_text_chars():
    (doc,) = extract(build_pdf(("a" * 50, "b" * 50)), limits=Limits(max_text_chars=60))
    assert len(doc.text) == 60 and doc.notes == ["text cut at 60 characters"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("we made the pur-\nchase in May", "we made the purchase in May"),
        ("co-\u00ad\noperate", "co-\u00ad\noperate"),  # not one hyphen: left alone
        ("the soft\u00ad\nware", "the software"),  # a soft hyphen
        ("ver- \n  schieben", "verschieben"),
        # Written with a hyphen elsewhere, and never without: the hyphen stays.
        ("she is self-\nemployed, self-employed since 2019", "she is self-employed, self-employed since 2019"),
        # Not a word broken in two: a name, a list, a span of years.
        ("Dr. Smith-\nJones", "Dr. Smith-\nJones"),
        ("tools:\n- hammer", "tools:\n- hammer"),
        ("the 2020-\n2021 season", "the 2020-\n2021 season"),
    ],
)
def test_words_hyphenated_at_a_line_end_are_whole(text, expected):
    assert pdf.rejoin_hyphenated(text) == expected


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"PDF corpus not present at {CORPUS}")
@pytest.mark.parametrize("name", ["pdfjs/tracemonkey.pdf", "pdfjs/freeculture.pdf"])
def test_typeset_corpus_pdfs_keep_no_word_broken_at_a_line_end(name):
    (doc,) = extract((CORPUS / name).read_bytes())
    assert not re.search(r"[^\W\d_]-\n[a-z]", doc.text)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty file"),
        (JPEG_HEAD + b"\x00" * 100, "not a PDF"),
        (b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog", "unreadable PDF"),
    ],
)
def test_unreadable_files_raise_extract_error(data, reason):
    with pytest.raises(ExtractError, match=reason):
        extract(data)


@settings(max_examples=100)
@given(st.binary(max_size=2000))
def test_any_bytes_after_a_header_yield_a_document_or_an_extract_error(tail):
    try:
        extract(b"%PDF-1.4\n" + tail)
    except ExtractError:
        pass


def test_zero_byte_file_on_disk(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(ExtractError, match="empty file"):
        list(extract_item(Item(path=path, name=path.name), Limits()))


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".json")


def _corpus_json(name: str) -> dict:
    return json.loads((CORPUS / name).read_text(encoding="utf-8"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"PDF corpus not present at {CORPUS}")
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file(path):
    """Every file yields a document or a reason, quickly; creation dates match the ground truth."""
    rel = str(path.relative_to(CORPUS))
    truth = _corpus_json("truth.json").get(rel)
    needs_password = _corpus_json("details.json").get(rel, {}).get("needs_password")
    started = time.monotonic()
    try:
        docs, error = list(extract_item(Item(path=path, name=path.name), Limits())), None
    except ExtractError as exc:
        docs, error = [], exc
    assert time.monotonic() - started < 15, "a PDF must not stall a run"
    if error:
        assert str(error), "a failure must carry a reason"
        assert truth is None, f"{rel} has a CreationDate but was not read: {error}"
        assert not needs_password or "needs a password" in str(error)
        return
    assert not needs_password
    (doc,) = docs
    assert doc.kind == "pdf" and doc.path == str(path)
    if truth is None:
        assert doc.source_date is None, "no CreationDate may be invented"
    else:
        expected = datetime.fromisoformat(truth)
        assert doc.date_source in ("pdf_meta", "scan")  # "scan": every page read by OCR
        assert (doc.source_date.tzinfo is None) == (expected.tzinfo is None)
        assert doc.source_date == expected


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"PDF corpus not present at {CORPUS}")
def test_every_corpus_pdf_that_needs_a_password_opens_with_the_passwords_file(tmp_path):
    passwords = tmp_path / "passwords"
    known = [p for entry in _corpus_json("passwords.json").values() for p in (entry.get("user"), entry.get("owner")) if p]
    passwords.write_text("\n".join(dict.fromkeys(known)) + "\n", encoding="utf-8")
    passwords.chmod(0o600)
    limits = Limits(ocr=False, passwords=read_passwords(passwords))
    opened = 0
    for rel, facts in _corpus_json("details.json").items():
        if not facts.get("needs_password"):
            continue
        (doc, *_) = list(extract_item(Item(path=CORPUS / rel, name=rel), limits))
        expected = facts.get("creation_iso_with_password")
        assert doc.source_date == (datetime.fromisoformat(expected) if expected else None), rel
        opened += 1
    assert opened == 13

