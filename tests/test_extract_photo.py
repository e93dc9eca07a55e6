"""Photo extraction: sniffing, the EXIF date fallback order, camera, GPS, and the photo corpus."""

from __future__ import annotations

import io
import json
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brainq.config import Limits
from brainq.documents import Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, photo
from brainq.extract.photo import parse_exif_date
from tests.conftest import CORPORA

Image = pytest.importorskip("PIL.Image")

CORPUS = CORPORA / "photos"

# EXIF tag numbers (CIPA DC-008): IFD0, the Exif IFD and the GPS IFD.
MAKE, MODEL, DESCRIPTION, MODIFIED, XP_COMMENT = 0x010F, 0x0110, 0x010E, 0x0132, 0x9C9C
EXIF_IFD, ORIGINAL, DIGITIZED, OFFSET_ORIGINAL = 0x8769, 0x9003, 0x9004, 0x9011
GPS_IFD = 0x8825


def jpeg(ifd0: dict | None = None, exif: dict | None = None, gps: dict | None = None) -> bytes:
    """A tiny JPEG carrying the given EXIF tags."""
    tags = Image.Exif()
    for tag, value in (ifd0 or {}).items():
        tags[tag] = value
    for pointer, values in ((EXIF_IFD, exif), (GPS_IFD, gps)):
        if values:
            tags.get_ifd(pointer).update(values)
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "JPEG", exif=tags)
    return out.getvalue()


def extract(data: bytes, name: str = "IMG_1234.jpg"):
    (doc,) = photo.extract(Item(path=Path("/photos") / name, name=name, data=data), Limits())
    return doc


@pytest.mark.parametrize(
    "name, head, expected",
    [
        ("a.jpg", b"\xff\xd8\xff\xe1\x00\x10Exif", True),
        ("a.tif", b"II*\x00\x08\x00\x00\x00", True),
        ("a.ARW", b"II*\x00\x08\x00\x00\x00", True),
        ("a.tiff", b"MM\x00*\x00\x00\x00\x08", True),
        ("a.png", b"\x89PNG\r\n\x1a\n\x00\x00", True),
        ("a.webp", b"RIFF\x00\x01\x00\x00WEBPVP8X", True),
        ("IMG.HEIC", b"\x00\x00\x00\x28ftypheic\x00\x00\x00\x00", True),
        ("heic-named.jpg", b"\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00", True),
        ("a.avif", b"\x00\x00\x00\x20ftypavif\x00\x00\x00\x00", True),
        ("a.jxl", b"\x00\x00\x00\x0cJXL \r\n\x87\n\x00", True),
        ("a.bin", b"\xff\x0a\xfa\x1f", True),  # a bare JPEG XL codestream
        ("no-name", b"\xff\xd8\xff\xdb\x00\x43", True),  # content first: no extension needed
        ("empty.jpg", b"", True),  # the name claims it, so its failure is reported as a photo's
        ("clip.mp4", b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00", False),
        ("doc.pdf", b"%PDF-1.7\n", False),
        ("notes.txt", b"hello", False),
    ],
)
def test_sniff(name, head, expected):
    assert photo.sniff(name, head) is expected


def zone(hours: int, minutes: int = 0) -> timezone:
    return timezone(timedelta(hours=hours, minutes=minutes))


@pytest.mark.parametrize(
    "value, offset, expected",
    [
        ("2024:05:01 14:03:00", "", datetime(2024, 5, 1, 14, 3)),
        ("2024:05:01 14:03:00", "+01:00", datetime(2024, 5, 1, 14, 3, tzinfo=zone(1))),
        ("2024:05:01 14:03:00", "-04:30", datetime(2024, 5, 1, 14, 3, tzinfo=zone(-4, -30))),
        ("2024:05:01 14:03:00", "garbage", datetime(2024, 5, 1, 14, 3)),
        ("0000:00:00 00:00:00", "", None),
        ("    :  :     :  :  ", "", None),
        ("2024:13:01 00:00:00", "", None),
        ("", "", None),
    ],
)
def test_parse_exif_date(value, offset, expected):
    assert parse_exif_date(value, offset) == expected


ORIGINAL_TIME = "2024:05:01 14:03:00"
DIGITIZED_TAGS = {DIGITIZED: "2024:05:02 09:00:00"}
MODIFIED_TAGS = {MODIFIED: "2024:06:30 18:00:00"}
DATE_BY_SOURCE = {
    "exif": datetime(2024, 5, 1, 14, 3),
    "exif_digitized": datetime(2024, 5, 2, 9),
    "exif_modified": datetime(2024, 6, 30, 18),
    None: None,
}


@pytest.mark.parametrize(
    "ifd0, exif, source",
    [
        (MODIFIED_TAGS, {ORIGINAL: ORIGINAL_TIME, **DIGITIZED_TAGS}, "exif"),
        (MODIFIED_TAGS, DIGITIZED_TAGS, "exif_digitized"),
        (MODIFIED_TAGS, {}, "exif_modified"),
        (MODIFIED_TAGS, {ORIGINAL: "0000:00:00 00:00:00"}, "exif_modified"),  # a never-set clock
        ({MAKE: "Canon"}, {}, None),
    ],
)
def test_date_fallback_order(ifd0, exif, source):
    doc = extract(jpeg(ifd0, exif))
    assert (doc.source_date, doc.date_source) == (DATE_BY_SOURCE[source], source)
    assert doc.date_precision == ("instant" if source else None)


def test_offset_time_original_makes_the_date_aware():
    doc = extract(jpeg(exif={ORIGINAL: ORIGINAL_TIME, OFFSET_ORIGINAL: "-04:00"}))
    assert doc.source_date == datetime(2024, 5, 1, 18, 3, tzinfo=timezone.utc)
    assert doc.source_date.replace(tzinfo=None) == datetime(2024, 5, 1, 14, 3)  # local time kept


def test_sentence_with_camera_gps_and_description():
    doc = extract(
        jpeg(
            {MAKE: "Apple", MODEL: "iPhone 13 Pro Max", DESCRIPTION: "Maggie at the vet",
             XP_COMMENT: "annual check-up".encode("utf-16-le")},
            {ORIGINAL: ORIGINAL_TIME},
            {1: "N", 2: (40.0, 42.0, 46.08), 3: "W", 4: (74.0, 0.0, 21.6)},
        )
    )
    assert doc.text == (
        "Photo IMG_1234.jpg taken 2024-05-01 14:03 with Apple iPhone 13 Pro Max"
        " at 40.7128, -74.0060. Description: Maggie at the vet; annual check-up"
    )
    assert (doc.title, doc.doc_type, doc.kind) == ("IMG_1234.jpg", "photo", "photo")
    assert doc.locator is None
    assert doc.path == "/photos/IMG_1234.jpg"


@pytest.mark.parametrize(
    "tags, expected",
    [
        ({MAKE: "Canon", MODEL: "Canon EOS 40D"}, "Photo a.jpg with Canon EOS 40D."),
        ({MAKE: "OLYMPUS", DESCRIPTION: "OLYMPUS DIGITAL CAMERA  "}, "Photo a.jpg with OLYMPUS."),
        ({DESCRIPTION: "   "}, "Photo a.jpg."),
    ],
)
def test_camera_boilerplate_is_left_out(tags, expected):
    assert extract(jpeg(tags), "a.jpg").text == expected


@pytest.mark.parametrize(
    "gps",
    [
        {1: "S", 2: (95.0, 0.0, 0.0), 3: "E", 4: (10.0, 0.0, 0.0)},  # latitude beyond the pole
        {1: "N", 2: (0.0, 0.0, 0.0), 3: "E", 4: (0.0, 0.0, 0.0)},  # no fix
        {1: "N", 2: (40.0, 0.0, 0.0)},  # no longitude
    ],
)
def test_implausible_or_partial_gps_is_ignored(gps):
    assert " at " not in extract(jpeg(exif={ORIGINAL: ORIGINAL_TIME}, gps=gps)).text


def test_recognised_image_without_exif_is_a_photo_without_a_date():
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "PNG")
    doc = extract(out.getvalue(), "scan.png")
    assert doc.source_date is None and doc.date_source is None
    assert doc.notes == ["no EXIF metadata found"]
    assert doc.text == "Photo scan.png."


@pytest.mark.parametrize("prefix", [b"", b"Exif\x00\x00"])
def test_a_webp_is_dated_by_its_exif_bare_or_after_jpegs_marker(prefix):
    """Pillow and libwebp write the EXIF chunk bare, as WebP's specification says; some tools
    keep JPEG's "Exif\\0\\0" before it."""
    tags = Image.Exif()
    tags.get_ifd(EXIF_IFD)[ORIGINAL] = "2023:08:05 19:45:00"
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "WEBP", exif=tags)
    data = out.getvalue()
    at = data.find(b"EXIF")
    size = int.from_bytes(data[at + 4 : at + 8], "little")
    block = prefix + data[at + 8 : at + 8 + size]
    chunk = b"EXIF" + len(block).to_bytes(4, "little") + block + bytes(len(block) % 2)
    body = b"WEBP" + data[12:at] + chunk + data[at + 8 + size + size % 2 :]
    webp = b"RIFF" + len(body).to_bytes(4, "little") + body
    assert extract(webp, "tahoe.webp").source_date == datetime(2023, 8, 5, 19, 45)


def test_jpeg_xl_codestream_exifread_cannot_parse_is_still_a_photo():
    doc = extract(b"\xff\x0a" + bytes(200), "frame.jxl")
    assert doc.source_date is None and doc.doc_type == "photo"


@pytest.mark.parametrize(
    "data, reason",
    [(b"", "empty file"), (b"this is not a picture", "not a recognised image format")],
)
def test_unreadable_files_raise_extract_error(tmp_path, data, reason):
    path = tmp_path / "holiday.jpg"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match=reason):
        list(extract_item(Item(path=path, name=path.name), Limits()))


@settings(max_examples=100)
@given(st.binary(max_size=2000))
def test_any_bytes_after_an_exif_header_yield_a_photo(tail):
    assert extract(b"\xff\xd8\xff\xe1\x00\x40Exif\x00\x00" + tail).doc_type == "photo"


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".json")


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"photo corpus not present at {CORPUS}")
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file(path):
    """Every file is a photo, quickly; only DateTimeOriginal is claimed as the capture time."""
    truths = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))
    truth = truths[str(path.relative_to(CORPUS))]
    started = time.monotonic()
    (doc,) = extract_item(Item(path=path, name=path.name), Limits())
    # A guard against a hang, not a speed target: OCR of a picture with text takes seconds.
    assert time.monotonic() - started < 15, "a photo must not stall a run"
    assert doc.kind == "photo" and doc.path == str(path)
    if truth is None:
        assert doc.date_source != "exif", "a date from elsewhere must not pass for the capture time"
    else:
        # The truth is the naive local time the camera wrote; a zone, when recorded, is extra.
        assert doc.date_source == "exif"
        assert doc.source_date.replace(tzinfo=None) == datetime.fromisoformat(truth)
