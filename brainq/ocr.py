"""Text in pictures: scanned pages and photographed documents, read offline.

RapidOCR runs PP-OCR's detection, direction and recognition models on onnxruntime, which
brainq already has; the models ship inside the `rapidocr` wheel, so nothing is downloaded and
no system library is needed (Tesseract needs its binary; EasyOCR a torchvision no build of
brainq's torch matches). benchmarks/ocr.py measures it on generated pages, beside RapidOCR's
previous models. A photo is read only when a detection pass, a fraction of the cost of
reading, finds lines of text in it: a beach stays EXIF only.
"""

from __future__ import annotations

import io
import logging
import time
from dataclasses import dataclass
from functools import cache

from brainq.config import Limits

# RapidOCR reads an image's long side at up to 2,000 pixels; a detection pass needs far fewer.
DETECT_SIDE = 960
# A page is blank when fewer of its pixels than this share differ from its commonest grey by
# more than INK_CONTRAST levels: a speck or two, not one printed character (a 10-point digit at
# 200 dpi is about 1 in 20,000 of a page's pixels). The contrast is low, so that faint print (a
# faded receipt, pencil, yellow on white), which OCR reads well, is never taken for paper.
BLANK_MAX_INK = 1e-5
INK_CONTRAST = 16


@dataclass
class Reading:
    text: str  # the lines read, top to bottom
    lines: int
    seconds: float


@cache
def _engine():
    """The OCR engine, made once per process (loading its three models takes ~0.3 s)."""
    from rapidocr import RapidOCR

    engine = RapidOCR(params={"Global.log_level": "error"})
    # It logs a warning for every picture without text, which most photos are.
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    return engine


def read(image, limits: Limits) -> Reading:
    """The text of a picture (a PIL image), its lines in reading order."""
    started = time.monotonic()
    # Every step named: the engine keeps the last call's choice (holds_text's detection alone).
    found = _engine()(_array(image), use_det=True, use_cls=True, use_rec=True)
    read = [(box, text) for box, text, score in zip(found.boxes if found.boxes is not None else (), found.txts or (), found.scores or ())
            if score >= limits.ocr_min_score]  # fmt: skip
    lines = _rows(read)
    return Reading("\n".join(lines), len(lines), time.monotonic() - started)


# A piece of text this short, beside another on its row, is that row's value or label: a
# receipt's "$22.95" right of "TOTAL". Longer pieces side by side are columns of prose, each
# read down on its own.
ROW_PIECE_CHARS = 24


def _rows(read: list[tuple]) -> list[str]:
    """The lines read, in the engine's order (top to bottom), a short piece on the same row as
    the one before it joined to it: "TOTAL $22.95", where the engine gives "TOTAL" and
    "$22.95" as two lines, and the total's label no longer says what the amount is."""
    rows: list[tuple[float, float, list[tuple[float, str]]]] = []
    for box, text in read:
        ys, left = [point[1] for point in box], min(point[0] for point in box)
        middle = (min(ys) + max(ys)) / 2
        if rows and rows[-1][0] <= middle <= rows[-1][1] and min(len(text), len(rows[-1][2][-1][1])) <= ROW_PIECE_CHARS:
            rows[-1][2].append((left, text))
        else:
            rows.append((min(ys), max(ys), [(left, text)]))
    return [" ".join(text for _, text in sorted(pieces)) for _, _, pieces in rows]


def holds_text(image, limits: Limits) -> bool:
    """Whether a picture shows lines of text worth reading: a cheap detection pass on a
    smaller copy, no recognition."""
    small = image.copy()
    small.thumbnail((DETECT_SIDE, DETECT_SIDE))
    found = _engine()(_array(small), use_det=True, use_cls=False, use_rec=False)
    return len(found.boxes if found.boxes is not None else ()) >= limits.ocr_min_lines


def open_image(data: bytes, limits: Limits, notes: list[str]):
    """A picture's bytes as an RGB PIL image, or None when they are no image Pillow reads or
    more pixels than `limits.ocr_max_megapixels` (judged from the header, before decoding:
    a note says so)."""
    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data))
        image.draft("RGB", (2000, 2000))  # a JPEG decodes smaller when it is much larger
        if image.width * image.height > limits.ocr_max_megapixels * 1e6:
            notes.append(f"not read by OCR: {image.width * image.height / 1e6:.0f} megapixels, over the limit of {limits.ocr_max_megapixels:g}")
            return None
        return image.convert("RGB")
    except Exception:  # Pillow's decoders on a truncated or hostile file raise anything
        return None


def blank(image) -> bool:
    """Whether a rendered page shows nothing (the back of a duplex scan, a separator page):
    reading one costs seconds of OCR and finds nothing."""
    histogram = image.convert("L").histogram()
    paper = max(range(256), key=histogram.__getitem__)
    ink = sum(count for grey, count in enumerate(histogram) if abs(grey - paper) > INK_CONTRAST)
    return ink < BLANK_MAX_INK * image.width * image.height


def _array(image):
    import numpy as np

    return np.asarray(image)[:, :, ::-1]  # OpenCV's channel order
