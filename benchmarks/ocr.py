"""OCR quality and cost on generated pages whose text is known, and what OCR costs `ask`.

    python -m benchmarks.ocr [--docs N] [--compare]

Invoices, letters, flyers and receipts are written from word lists and rendered as a scanner
or a phone would give them: clean at 300 and 150 dpi, a 200 dpi scan turned by up to 1.5
degrees with noise and JPEG artefacts, and a phone photo (perspective, uneven light, blur,
JPEG). Printed per kind and condition: character error rate and word recall of brainq's OCR
(benchmarks/RESULTS.md holds the targets), seconds per page; with --compare, the same for
RapidOCR's previous generation (`pip install --no-deps rapidocr_onnxruntime==1.4.4`, PP-OCRv4).
Then the documents are ingested twice, as scans and phone photos and as plain-text notes of the
same words, and the same generated questions are asked of both: p@1 of each, side by side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from brainq import ocr
from brainq.config import Limits, load_config

FONTS = Path("/usr/share/fonts/truetype/dejavu")
PLACES = ["Northgate", "Riverside", "Maple Hill", "Summit", "Harbor", "Oakwood", "Pinecrest", "Lakeview",
          "Cedar Point", "Brookside", "Highland", "Willow Creek", "Granite", "Foxglove"]  # fmt: skip
TRADES = ["Plumbing", "Electric", "Roofing", "Landscaping", "Dental Care", "Auto Repair", "Pest Control", "Heating & Cooling"]
FIRST = ["Dana", "Marcus", "Irene", "Tobias", "Lena", "Samir", "Colette", "Owen", "Priyanka", "Felix", "Nora", "Hugo"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Brennan", "Takahashi", "Alvarez", "Kowalski", "Haddad", "Fischer", "Quinn"]
SUBJECTS = ["lease renewal", "property tax assessment", "school enrollment", "insurance claim", "water main repairs",
            "parking permit", "library card", "tree removal", "fence permit", "meter reading"]  # fmt: skip
EVENTS = ["bake sale", "book fair", "block party", "yard sale", "blood drive", "spring concert", "farmers market",
          "open house", "chess tournament", "coat drive"]  # fmt: skip
STORES = ["Market", "Hardware", "Pharmacy", "Bakery", "Garden Center", "Pet Supply", "Books", "Deli"]
GOODS = ["oat milk", "sourdough loaf", "batteries AA", "potting soil", "dog food", "light bulbs", "coffee beans",
         "paper towels", "tomatoes", "olive oil", "wood screws", "notebook", "dish soap", "rice 2kg"]  # fmt: skip
CONDITIONS = ["scan-300", "scan-150", "scan-200-worn", "phone"]


@dataclass
class Doc:
    kind: str
    name: str
    lines: list[str]
    question: str
    size: tuple[float, float]  # inches
    point: float  # body text size


def when(rng: random.Random) -> date:
    return date(2026, 1, 5) + timedelta(days=rng.randrange(300))


def invoice(rng: random.Random, i: int) -> Doc:
    vendor = f"{rng.choice(PLACES)} {rng.choice(TRADES)}"
    day = when(rng)
    amount = f"${rng.randrange(60, 2400)}.{rng.randrange(100):02d}"
    lines = [vendor.upper(), f"{rng.randrange(10, 999)} {rng.choice(PLACES)} Road", f"INVOICE #{rng.randrange(1000, 9999)}",
             f"Invoice date: {day:%B %d, %Y}", f"Bill to: {rng.choice(FIRST)} {rng.choice(LAST)}",
             f"Service: {rng.choice(['inspection', 'repair', 'annual visit', 'replacement part'])} and labour",
             f"Amount due: {amount}", f"Please pay by {day + timedelta(days=30):%B %d, %Y}"]  # fmt: skip
    return Doc("invoice", f"invoice-{i}", lines, f"How much do we owe {vendor}?", (8.5, 11), 12)


def letter(rng: random.Random, i: int) -> Doc:
    sender, subject = f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice(SUBJECTS)
    day = when(rng)
    lines = [f"{day:%B %d, %Y}", f"Dear {rng.choice(FIRST)},",
             f"I am writing about your {subject}. The office has reviewed",
             f"the papers you sent on {day - timedelta(days=rng.randrange(5, 40)):%B %d} and everything is in order.",
             f"Your reference number is {rng.choice('ABCDEFGH')}{rng.randrange(10000, 99999)}. Please keep it",
             f"for your records and bring it to the {rng.choice(PLACES)} office if you visit.",
             "Sincerely,", sender]  # fmt: skip
    return Doc("letter", f"letter-{i}", lines, f"What did {sender} write about the {subject}?", (8.5, 11), 11)


def flyer(rng: random.Random, i: int) -> Doc:
    event, place = rng.choice(EVENTS), f"{rng.choice(PLACES)} Community Hall"
    day = when(rng)
    lines = [f"{place.split()[0].upper()} {event.upper()}", f"{day:%A, %B %d}", f"{rng.randrange(8, 12)} am to {rng.randrange(1, 5)} pm",
             f"at the {place}", "Everyone welcome, bring a friend", f"Questions? Call {rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}"]  # fmt: skip
    return Doc("flyer", f"flyer-{i}", lines, f"When is the {place.split()[0]} {event}?", (8.5, 11), 22)


def receipt(rng: random.Random, i: int) -> Doc:
    store = f"{rng.choice(PLACES)} {rng.choice(STORES)}"
    items = rng.sample(GOODS, 4)
    prices = [rng.randrange(150, 2500) / 100 for _ in items]
    lines = [store.upper(), f"{when(rng):%m/%d/%Y} {rng.randrange(8, 20)}:{rng.randrange(60):02d}",
             *(f"{item:<16}{price:>7.2f}" for item, price in zip(items, prices)),
             f"TOTAL{sum(prices):>18.2f}", "VISA ****" + str(rng.randrange(1000, 9999)), "THANK YOU"]  # fmt: skip
    return Doc("receipt", f"receipt-{i}", lines, f"What did we buy at {store}?", (3.2, 6), 9)


def documents(per_kind: int, seed: int = 11) -> list[Doc]:
    rng = random.Random(seed)
    return [make(rng, i) for make in (invoice, letter, flyer, receipt) for i in range(per_kind)]


def font(points: float, dpi: int, mono: bool):
    name = "DejaVuSansMono.ttf" if mono else "DejaVuSans.ttf"
    size = round(points * dpi / 72)
    return ImageFont.truetype(str(FONTS / name), size) if (FONTS / name).exists() else ImageFont.load_default(size)


def render(doc: Doc, dpi: int) -> Image.Image:
    width, height = (round(side * dpi) for side in doc.size)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    face = font(doc.point, dpi, mono=doc.kind == "receipt")
    y = round(0.6 * dpi * min(1, doc.size[0] / 8.5) + 0.2 * dpi)
    for line in doc.lines:
        draw.text((round(0.12 * width), y), line, fill=0, font=face)
        y += round(doc.point * dpi / 72 * 1.7)
    return page


def degrade(page: Image.Image, condition: str, rng: random.Random) -> Image.Image:
    """The page as a scanner or a phone gives it back."""
    if condition.startswith("scan") and condition != "scan-200-worn":
        return page.convert("RGB")
    if condition == "scan-200-worn":
        page = page.rotate(rng.uniform(-1.5, 1.5), resample=Image.BICUBIC, expand=True, fillcolor=255)
        page = _noisy(page, rng)
        return _jpeg(page.convert("RGB"), 55)
    # phone: the page lies on a table, seen from above and a little to the side, in lamp light
    w, h = page.size
    table = Image.new("L", (round(w * 1.25), round(h * 1.2)), 90)
    table.paste(page, (round(w * 0.12), round(h * 0.1)))
    tw, th = table.size
    skew = [rng.uniform(0.02, 0.06) * tw for _ in range(4)]
    # The source corners, as PIL wants them: upper left, lower left, lower right, upper right.
    quad = (skew[0], skew[1] * 0.5, 0, th - skew[3] * 0.5, tw, th, tw - skew[2], 0)
    seen = table.transform(table.size, Image.QUAD, quad, resample=Image.BICUBIC)
    light = Image.linear_gradient("L").resize(seen.size).point(lambda v: 255 - v // 4)
    seen = Image.composite(seen, Image.new("L", seen.size, 0), light)
    seen = seen.filter(ImageFilter.GaussianBlur(0.8))
    return _jpeg(seen.convert("RGB"), 70)


def _noisy(page: Image.Image, rng: random.Random) -> Image.Image:
    import numpy as np

    pixels = np.asarray(page, dtype=np.int16) + np.random.default_rng(rng.randrange(1 << 30)).normal(0, 18, page.size[::-1])
    return Image.fromarray(pixels.clip(0, 255).astype("uint8"))


def _jpeg(image: Image.Image, quality: int) -> Image.Image:
    import io

    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")


def condition_dpi(condition: str) -> int:
    return {"scan-300": 300, "scan-150": 150}.get(condition, 200)


# -- scoring -----------------------------------------------------------------------------------


def normal(text: str) -> str:
    return " ".join(text.split())


def cer(reference: str, read: str) -> float:
    """Edit distance over the reference's length, on whitespace-collapsed text."""
    a, b = normal(reference), normal(read)
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] / max(len(a), 1)


def words(text: str) -> Counter:
    return Counter(w for w in (t.strip(".,:;!?()$#*").lower() for t in text.split()) if w)


def word_recall(reference: str, read: str) -> float:
    wanted, got = words(reference), words(read)
    return sum(min(n, got[w]) for w, n in wanted.items()) / max(sum(wanted.values()), 1)


class PreviousGeneration:
    """rapidocr_onnxruntime 1.4.4 (PP-OCRv4), read the way brainq reads with its engine."""

    def __init__(self):
        from rapidocr_onnxruntime import RapidOCR

        self.engine = RapidOCR()

    def __call__(self, image: Image.Image) -> str:
        import numpy as np

        found, _ = self.engine(np.asarray(image)[:, :, ::-1])
        return "\n".join(text for _, text, score in found or () if float(score) >= Limits().ocr_min_score)


# -- the runs ---------------------------------------------------------------------------------


def quality(docs: list[Doc], engines: dict, rng: random.Random) -> None:
    rows: dict[tuple, list] = {}
    for doc in docs:
        truth = "\n".join(doc.lines)
        for condition in CONDITIONS:
            image = degrade(render(doc, condition_dpi(condition)), condition, rng)
            for name, read in engines.items():
                started = time.monotonic()
                text = read(image)
                rows.setdefault((name, doc.kind, condition), []).append((cer(truth, text), word_recall(truth, text), time.monotonic() - started))
    print(f"{'engine':<12} {'kind':<8} {'condition':<14} {'CER':>6} {'words':>6} {'s/page':>7}")
    for (name, kind, condition), values in sorted(rows.items(), key=lambda kv: (kv[0][0], CONDITIONS.index(kv[0][2]), kv[0][1])):
        c, w, s = (statistics.mean(v[i] for v in values) for i in range(3))
        print(f"{name:<12} {kind:<8} {condition:<14} {c:>6.3f} {w:>6.3f} {s:>7.2f}")
    for name in engines:
        for condition in CONDITIONS:
            values = [v for (n, _, c), vs in rows.items() if n == name and c == condition for v in vs]
            print(f"{name:<12} {'all':<8} {condition:<14} {statistics.mean(v[0] for v in values):>6.3f} "
                  f"{statistics.mean(v[1] for v in values):>6.3f} {statistics.mean(v[2] for v in values):>7.2f}")  # fmt: skip


def found_by_ask(docs: list[Doc], rng: random.Random) -> None:
    """p@1 of the generated questions over the documents as scans and phone photos, and over
    the same words as text notes."""
    from brainq.embedding import lazy_question_embed
    from brainq.evaluate import evaluate, load_queries
    from brainq.ingest import ingest
    from brainq.store import Store

    config = load_config()
    with tempfile.TemporaryDirectory(prefix="brainq-ocr-") as tmp:
        for form in ("pictures", "text"):
            tree = Path(tmp) / form / "tree"
            tree.mkdir(parents=True)
            queries = ["as_of: 2027-01-15", "queries:"]
            for doc in docs:
                if form == "text":
                    name = f"{doc.name}.txt"
                    (tree / name).write_text("\n".join(doc.lines) + "\n", encoding="utf-8")
                elif doc.kind in ("invoice", "letter"):
                    name = f"{doc.name}.pdf"
                    degrade(render(doc, 200), "scan-200-worn", rng).save(tree / name, resolution=200)
                else:
                    name = f"{doc.name}.jpg"
                    degrade(render(doc, 200), "phone", rng).save(tree / name, quality=80)
                queries.append(f"  - question: {doc.question!r}\n    expect: [tree/{name}]")
            (Path(tmp) / form / "queries.yaml").write_text("\n".join(queries) + "\n", encoding="utf-8")
            store = Store(Path(tmp) / form / "store")
            started = time.monotonic()
            ingest(store, config, [tree])
            seconds = time.monotonic() - started
            report = evaluate(load_queries(Path(tmp) / form / "queries.yaml"), store, config, lazy_question_embed(store, config.embedding), False)
            row = report.table()["all"]
            print(f"ask over {form:<9} p@1 {row['precision@1']:.3f}  r@3 {row['recall@3']:.3f}  "
                  f"({len(docs)} documents, ingest {seconds:.0f} s)")  # fmt: skip
            store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=6, help="documents of each kind (default 6)")
    parser.add_argument("--compare", action="store_true", help="also read every page with RapidOCR 1.4.4 (PP-OCRv4)")
    args = parser.parse_args(argv)
    docs = documents(args.docs)
    limits = Limits()
    engines = {"brainq": lambda image: ocr.read(image, limits).text}
    if args.compare:
        engines["PP-OCRv4"] = PreviousGeneration()
    for read in engines.values():
        read(Image.new("RGB", (64, 64), "white"))  # models loaded before anything is timed
    quality(docs, engines, random.Random(5))
    found_by_ask(docs, random.Random(6))


if __name__ == "__main__":
    main()
