"""Text in pictures: a scanned invoice, a photographed receipt and a screenshot are found by
what they say; a picture of anything else stays a photo."""

import json
from datetime import datetime

import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.conftest import ROOT, ask_json, run_cli

pytestmark = pytest.mark.slow


def page(lines: list[str], size=(1700, 2200), font_size=42) -> Image.Image:
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=font_size)
    for i, line in enumerate(lines):
        draw.text((120, 150 + i * font_size * 2), line, fill="black", font=font)
    return image


@pytest.fixture(scope="module")
def pictures(tmp_path_factory, embedder):
    tree = tmp_path_factory.mktemp("pictures")
    page(["NORTHWIND PLUMBING CO.", "INVOICE #A-7731", "Invoice date: March 3, 2026",
          "Service: replaced kitchen faucet cartridge", "Amount due: $212.50", "Due by: March 31, 2026"],
         ).save(tree / "scan-0031.pdf", resolution=200, creationDate=datetime(2026, 3, 4, 9, 0).timetuple())  # fmt: skip
    receipt = page(["CORNER MARKET", "Receipt", "2 x oat milk 7.98", "sourdough loaf 5.49", "TOTAL $13.47",
                    "PAID - thank you for your purchase"], size=(900, 1200), font_size=40)  # fmt: skip
    exif = Image.Exif()
    exif.get_ifd(0x8769)[0x9003] = "2026:03:07 10:15:00"  # DateTimeOriginal
    receipt.rotate(2, expand=True, fillcolor="white").save(tree / "IMG_2041.jpg", quality=70, exif=exif)
    page(["Your reservation is confirmed", "Confirmation number: QX7-4419-ZP",
          "Lakeside Inn, 2 nights from June 12, 2026"], size=(1200, 500), font_size=36).save(tree / "Screenshot 1.png")  # fmt: skip
    Image.new("RGB", (800, 600), (40, 120, 200)).save(tree / "IMG_2042.jpg")
    store = tree / "store"
    result = run_cli("ingest", "--json", str(tree), store=store)
    assert result.exit_code == 0, result.output
    return tree, store


def listed(store):
    docs = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    return {d["path"].rsplit("/", 1)[-1]: d for d in docs}


def test_what_pictures_say_is_read_and_typed(pictures):
    _, store = pictures
    docs = listed(store)
    assert docs["scan-0031.pdf"]["doc_type"] == "invoice"
    assert docs["IMG_2041.jpg"]["doc_type"] == "receipt" and docs["IMG_2041.jpg"]["source_date"].startswith("2026-03-07")
    assert docs["IMG_2042.jpg"]["doc_type"] == "photo"  # no text: EXIF only
    # list says which text OCR read, as --explain does
    assert any("read by OCR" in note for note in docs["scan-0031.pdf"]["notes"])
    # scanned the day after it was written: dated by the date printed on it, not the scanner's
    assert docs["scan-0031.pdf"]["source_date"].startswith("2026-03-03") and docs["scan-0031.pdf"]["date_source"] == "text"
    assert "scanned 2026-03-04; dated by the date printed in it" in docs["scan-0031.pdf"]["notes"]
    assert not any("OCR" in note for note in docs["IMG_2042.jpg"]["notes"])
    marked = [line for line in run_cli("list", store=store).stdout.splitlines() if line.endswith("(OCR)")]
    assert len(marked) == 3
    assert all(any(name in line for line in marked) for name in ("scan-0031.pdf", "IMG_2041.jpg", "Screenshot 1.png"))


@pytest.mark.parametrize(
    "question, found",
    [
        ("How much do we owe the plumber?", "scan-0031.pdf"),
        ("What was the total at the corner market?", "IMG_2041.jpg"),
        ("What's the confirmation number for the Lakeside Inn?", "Screenshot 1.png"),
    ],
)
def test_each_is_found_first_by_what_it_says(pictures, question, found):
    _, store = pictures
    answer = ask_json(store, question, as_of="2026-06-01")
    assert answer["results"][0]["path"].endswith(found), answer["results"][:2]


def test_ocr_can_be_turned_off(pictures, tmp_path):
    tree, _ = pictures
    patterns = tmp_path / "patterns.yaml"
    patterns.write_text((ROOT / "patterns.yaml").read_text().replace("\n  ocr: true", "\n  ocr: false"))
    store = tmp_path / "store"
    assert run_cli("--patterns", str(patterns), "ingest", "--quiet", str(tree), store=store).exit_code == 0
    assert {d["doc_type"] for name, d in listed(store).items() if name.startswith(("IMG", "Screenshot"))} == {"photo"}


def test_a_blank_page_is_passed_over_but_faint_print_and_a_lone_page_number_are_not():
    """The back of a duplex scan costs seconds of OCR and holds nothing; a page with one
    printed character, or with faint print that OCR reads well, is not blank."""
    import random

    from brainq import ocr

    back = Image.new("RGB", (1700, 2200), (236, 234, 228))  # off-white paper
    draw = ImageDraw.Draw(back)
    rng = random.Random(7)
    for _ in range(3000):  # paper grain, a few grey levels from the paper
        x, y = rng.randrange(1700), rng.randrange(2200)
        draw.point((x, y), fill=(226, 224, 218))
    for _ in range(4):  # specks of dust
        x, y = rng.randrange(1700), rng.randrange(2200)
        draw.rectangle((x, y, x + 1, y + 1), fill="black")
    assert ocr.blank(back) and ocr.blank(Image.new("RGB", (1700, 2200), "white"))
    assert not ocr.blank(page(["7"], font_size=28))
    faint = Image.new("RGB", (1700, 2200), "white")
    ImageDraw.Draw(faint).text((120, 150), "Total $13.47", fill=(220, 220, 220), font=ImageFont.load_default(size=42))
    assert not ocr.blank(faint)


def test_a_duplex_scan_with_a_blank_back_is_a_scan(tmp_path):
    """Its back is an image with nothing on it: the document is still all images, and the
    scanner's date yields to the one printed on its front."""
    from pathlib import Path

    from brainq.config import Limits
    from brainq.documents import Item
    from brainq.extract import extract_item

    front = page(["Water bill", "Bill date: January 9, 2025", "Amount due: $41.20"])
    path = tmp_path / "scan-0040.pdf"
    front.save(path, resolution=200, save_all=True, append_images=[Image.new("RGB", (1700, 2200), "white")],
               creationDate=datetime(2026, 11, 2, 9, 0).timetuple())  # fmt: skip
    (doc,) = extract_item(Item(path=Path(path), name=path.name), Limits())
    assert doc.date_source == "scan" and "Bill date: January 9, 2025" in doc.text


def _box(left, top, right, bottom):
    return [[left, top], [right, top], [right, bottom], [left, bottom]]


def test_a_label_and_its_value_on_one_row_are_one_line_and_columns_of_prose_are_not():
    """The engine reads a receipt's "TOTAL" and its "$22.95", far apart on one row, as two
    lines; prose in two columns stays two lines, each column read down."""
    from brainq.ocr import _rows

    receipt = [(_box(86, 263, 339, 299), "PVC PIPE 10FT"), (_box(468, 262, 598, 304), "$12.48"),
               (_box(84, 425, 203, 464), "TOTAL"), (_box(418, 425, 547, 468), "$22.95"),
               (_box(85, 480, 334, 517), "VISA****4421")]  # fmt: skip
    assert _rows(receipt) == ["PVC PIPE 10FT $12.48", "TOTAL $22.95", "VISA****4421"]
    columns = [(_box(80, 100, 700, 130), "The school board met on Tuesday to discuss"),
               (_box(760, 101, 1400, 131), "Parking on Elm Street will be closed for the")]  # fmt: skip
    assert _rows(columns) == [text for _, text in columns]
