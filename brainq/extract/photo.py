"""Photos: when, with what and where a picture was taken, from its EXIF metadata (exifread)."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import exifread

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError

KIND = "photo"

# exifread logs a warning for every file without EXIF; a photo without one is still a photo.
logging.getLogger("exifread").setLevel(logging.CRITICAL)

# ISO BMFF brands of still images: HEIC/HEIF (ISO/IEC 23008-12) and AVIF.
HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis")
JXL_CONTAINER = b"\x00\x00\x00\x0cJXL \r\n\x87\n"
EXTENSIONS = {
    ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".heic", ".heif", ".avif", ".jxl",
    ".dng", ".arw", ".nef", ".cr2", ".orf", ".rw2",
}

# Capture time in the order of trust, each with the tag that gives its zone
# (EXIF 2.31) and the date_source that tells a verdict which one it was: only the first is the
# moment the picture was taken; the last is when software last saved the file.
DATE_TAGS = (
    ("EXIF DateTimeOriginal", "EXIF OffsetTimeOriginal", "exif"),
    ("EXIF DateTimeDigitized", "EXIF OffsetTimeDigitized", "exif_digitized"),
    ("Image DateTime", "EXIF OffsetTime", "exif_modified"),
)
DATE_WORDS = {"exif": "taken", "exif_digitized": "digitized", "exif_modified": "last saved"}
EXIF_DATE = re.compile(r"(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})")
EXIF_OFFSET = re.compile(r"([+-])(\d{2}):(\d{2})$")

DESCRIPTION_TAGS = ("Image ImageDescription", "Image XPTitle", "Image XPSubject", "Image XPComment")
# Cameras fill ImageDescription with their own name ("OLYMPUS DIGITAL CAMERA", "SONY DSC").
BOILERPLATE = re.compile(r"[A-Z ]*(DIGITAL CAMERA|DSC)")


def sniff(name: str, head: bytes) -> bool:
    """An image signature; an image extension too, so a broken one is reported as an image."""
    return _is_image(head) or Path(name).suffix.lower() in EXTENSIONS


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document describing the photo; a recognised image without EXIF still gets one."""
    data = item.read()
    if not data:
        raise ExtractError("empty file")
    tags, notes = _exif(data)
    if not tags and not _is_image(data):
        raise ExtractError("not a recognised image format")
    taken, date_source = _capture_time(tags)
    camera = _camera(tags)
    position = _position(tags)
    # A description can be as long as the file; extract_item cuts the text at the limit.
    text = _sentence(item.name, taken, date_source, camera, position, _description(tags, camera))
    shown = _text_shown(data, limits, notes)
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=item.name,
        text=f"{text}\n{shown}" if shown else text,
        source_date=taken,
        date_source=date_source,
        date_precision="instant" if taken else None,
        # A picture of a receipt or a flyer is typed by what it says, as a PDF would be.
        doc_type=None if shown else "photo",
        notes=notes,
    )


def _text_shown(data: bytes, limits: Limits, notes: list[str]) -> str:
    """The text a photo or screenshot shows (a receipt, a flyer, a confirmation), read by OCR
    when a detection pass finds lines of it; "" for a picture of anything else."""
    if not limits.ocr:
        return ""
    from brainq import ocr

    image = ocr.open_image(data, limits, notes)
    if image is None:
        return ""
    try:
        if not ocr.holds_text(image, limits):
            return ""
        reading = ocr.read(image, limits)
    except Exception as exc:  # the OCR engine on a hostile image: the photo stays EXIF only
        notes.append(f"OCR failed ({type(exc).__name__})")
        return ""
    if reading.text:
        notes.append(f"text read by OCR ({reading.lines} lines)")
    return reading.text


def _exif(data: bytes) -> tuple[dict, list[str]]:
    """exifread's tags (maker notes, proprietary and often malformed, skipped); a note if none."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        data = _webp_exif(data)
    try:
        tags = exifread.process_file(io.BytesIO(data), details=False, extract_thumbnail=False) if data else {}
    except Exception:  # hostile EXIF makes exifread raise anything; the image is still a photo
        return {}, ["EXIF unreadable"]
    return tags, [] if tags else ["no EXIF metadata found"]


def _webp_exif(data: bytes) -> bytes:
    """The TIFF block of a WebP's EXIF chunk, b"" if it has none. libwebp, Pillow and cameras
    write it bare, as the WebP container's specification says; exifread reads only the blocks
    some tools write with JPEG's "Exif\\0\\0" before it, and would skip the bare one's first bytes."""
    at = 12
    while at + 8 <= len(data):
        size = int.from_bytes(data[at + 4 : at + 8], "little")
        if data[at : at + 4] == b"EXIF":
            return data[at + 8 : at + 8 + size].removeprefix(b"Exif\0\0")
        at += 8 + size + size % 2  # a chunk of odd size is padded to an even one
    return b""


def _is_image(head: bytes) -> bool:
    """Whether `head` starts like a JPEG, TIFF (and TIFF-based raw), PNG, WebP, HEIF/AVIF or JXL."""
    return (
        head.startswith((b"\xff\xd8\xff", b"II*\x00", b"MM\x00*", b"\x89PNG\r\n\x1a\n"))
        or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
        or (head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS)
        or head.startswith((b"\xff\x0a", JXL_CONTAINER))
    )


def _capture_time(tags: dict) -> tuple[datetime | None, str | None]:
    """The first valid date of DATE_TAGS with its date_source; aware when the zone is recorded."""
    for date_tag, offset_tag, source in DATE_TAGS:
        when = parse_exif_date(_text(tags, date_tag), _text(tags, offset_tag))
        if when:
            return when, source
    return None, None


def parse_exif_date(value: str, offset: str = "") -> datetime | None:
    """An EXIF "YYYY:MM:DD HH:MM:SS" (+ "+HH:MM") as a datetime; None for blanks and zeros."""
    match = EXIF_DATE.match(value)
    if not match:
        return None
    try:
        when = datetime(*map(int, match.groups()))
    except ValueError:  # "0000:00:00 00:00:00", written by cameras whose clock was never set
        return None
    zone = EXIF_OFFSET.match(offset)
    if zone:
        sign, hours, minutes = zone.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes))
        if delta < timedelta(hours=24):
            when = when.replace(tzinfo=timezone(-delta if sign == "-" else delta))
    return when


def _camera(tags: dict) -> str:
    """Make and model, without repeating the make ("Canon Canon EOS 40D" is "Canon EOS 40D")."""
    # JPEG XL files keep Make and Model in the EXIF IFD rather than in IFD0.
    make = _text(tags, "Image Make") or _text(tags, "EXIF Make")
    model = _text(tags, "Image Model") or _text(tags, "EXIF Model")
    if make and model.lower().startswith(make.lower()):
        return model
    return " ".join(part for part in (make, model) if part)


def _position(tags: dict) -> tuple[float, float] | None:
    """GPS latitude and longitude in decimal degrees, or None when absent or implausible."""
    latitude = _degrees(tags.get("GPS GPSLatitude"), _text(tags, "GPS GPSLatitudeRef"), "S")
    longitude = _degrees(tags.get("GPS GPSLongitude"), _text(tags, "GPS GPSLongitudeRef"), "W")
    if latitude is None or longitude is None:
        return None
    if abs(latitude) > 90 or abs(longitude) > 180 or (latitude, longitude) == (0, 0):
        return None  # 0, 0 is what receivers without a fix write
    return latitude, longitude


def _degrees(tag, ref: str, negative: str) -> float | None:
    """Degrees, minutes, seconds (EXIF rationals) as signed decimal degrees."""
    values = list(getattr(tag, "values", None) or [])
    if not 1 <= len(values) <= 3:
        return None
    try:
        degrees = sum(float(v) / 60**i for i, v in enumerate(values))
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return -degrees if ref.upper().startswith(negative) else degrees


def _description(tags: dict, camera: str) -> str:
    """What the photographer wrote about the picture, without camera boilerplate."""
    seen: list[str] = []
    for name in DESCRIPTION_TAGS:
        text = _xp_text(tags.get(name)) if name.startswith("Image XP") else _text(tags, name)
        if not text or BOILERPLATE.fullmatch(text) or text.lower() in camera.lower():
            continue
        if text not in seen:
            seen.append(text)
    return "; ".join(seen)


def _sentence(name, taken, date_source, camera, position, description) -> str:
    """A readable line for search: 'Photo IMG_1.jpg taken 2024-05-01 14:03 with ... at ...'."""
    parts = [f"Photo {name}"]
    if taken:
        parts.append(f"{DATE_WORDS[date_source]} {taken:%Y-%m-%d %H:%M}")
    if camera:
        parts.append(f"with {camera}")
    if position:
        parts.append(f"at {position[0]:.4f}, {position[1]:.4f}")
    sentence = " ".join(parts) + "."
    return f"{sentence} Description: {description}" if description else sentence


def _text(tags: dict, name: str) -> str:
    """A tag's printable value without padding (cameras pad with spaces and NULs), or ""."""
    tag = tags.get(name)
    return " ".join(str(getattr(tag, "printable", "")).replace("\x00", " ").split())


def _xp_text(tag) -> str:
    """Windows XP* tags hold UTF-16LE bytes; exifread leaves them as a list of byte values."""
    try:
        raw = bytes(tag.values)
    except (AttributeError, TypeError, ValueError):
        return ""
    return " ".join(raw.decode("utf-16-le", "replace").replace("\x00", " ").split())
