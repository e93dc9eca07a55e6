"""Embedding and ingest throughput, measured side by side in one run on the same texts.

    python -m benchmarks.ingest [--messages N] [--rounds R]

Writes N synthetic emails (a Maildir) to a temporary folder and chunks them as ingest would.
Then, in R interleaved rounds (so a busy machine slows every path alike), times the raw encode
of those chunks by sentence-transformers as it comes (`encode` in fp32 at its default batch
size: the baseline) and by brainq's embedder in each precision (fp32, bf16, int8 ONNX), then a
full `ingest` of the folder into a fresh store with the precision `auto` chooses (parsing,
chunking, embedding, Chroma and catalog writes). Prints each path's chunks/s and speed-up over
the baseline, and the median over rounds of ingest's chunks/s over the raw encode of the same
round (the first round's ingest also pays the writer thread's first model calls, as any
ingest does).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from statistics import mean, median

from brainq.chunking import chunk_text
from brainq.config import load_config
from brainq.documents import Item
from brainq.embedding import PRECISIONS, choose_precision, get_embedder
from brainq.extract import extract_item
from brainq.ingest import ingest
from brainq.store import Store
from brainq.embedding.torch_backend import load_model

WORDS = (
    "school practice pickup dismissal invoice filter furnace roof plumber appointment vet dentist "
    "schedule friday monday game field trip permission slip lunch menu payment receipt warranty "
    "model serial repair replace install cancelled moved weather snow early late bus route"
).split()


def write_maildir(folder: Path, messages: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    cur = folder / "cur"
    cur.mkdir(parents=True)
    start = datetime(2025, 1, 1, 8, 0, tzinfo=timezone.utc)
    for i in range(messages):
        msg = EmailMessage()
        msg["From"] = f"sender{i % 40}@example.org"
        msg["To"] = "family@example.org"
        msg["Subject"] = " ".join(rng.choices(WORDS, k=5)).capitalize()
        msg["Date"] = format_datetime(start + timedelta(hours=7 * i))
        msg["Message-ID"] = f"<bench-{i}@example.org>"
        # Household mail is mostly short, sometimes long: 40 to 400 words.
        paragraphs = [" ".join(rng.choices(WORDS, k=rng.randint(8, 20))) + "." for _ in range(rng.randint(3, 25))]
        msg.set_content("\n\n".join(paragraphs))
        (cur / f"{1700000000 + i}.M{i}P1.bench:2,S").write_bytes(bytes(msg))


def chunks_of(tree: Path, config) -> list[str]:
    texts = []
    for path in sorted((tree / "cur").iterdir()):
        for doc in extract_item(Item(path, path.name), config.limits):
            texts.extend(chunk_text(doc.title, doc.text, config.chunking))
    return texts


PLAIN = "plain"  # sentence-transformers' own encode, fp32


def plain_encode(texts: list[str]):
    return load_model().encode(texts, normalize_embeddings=True, show_progress_bar=False)


def rate(embed, texts: list[str]) -> float:
    started = time.perf_counter()
    embed(texts)
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    config = load_config()
    chosen = choose_precision(config.embedding.precision)

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "Maildir"
        write_maildir(tree, args.messages)
        texts = chunks_of(tree, config)
        embedders = {p: get_embedder(p, Path(tmp) / "models", config.embedding) for p in PRECISIONS}
        for embedder in embedders.values():
            embedder.embed(["warm up the model once"])  # loads it (and makes the int8 model)
        paths = {PLAIN: plain_encode, **{p: e.embed for p, e in embedders.items()}}

        rates: dict[str, list[float]] = {p: [] for p in paths}
        ingests: list[float] = []
        for round_ in range(args.rounds):
            for path, embed in paths.items():
                rates[path].append(rate(embed, texts))
            store = Store(Path(tmp) / f"store-{round_}")
            started = time.perf_counter()
            report = ingest(store, config, [tree], embedders[chosen].embed)
            ingests.append(report.chunks / (time.perf_counter() - started))
            store.close()

    raw = {p: mean(r) for p, r in rates.items()}
    # Each round's ingest against the raw encode just before it: the load of that moment.
    ratios = [full / before for full, before in zip(ingests, rates[chosen])]
    print(f"messages: {args.messages}, chunks: {len(texts)} (ingest stored {report.chunks}), rounds: {args.rounds}")
    for path in paths:
        mark = "  <- auto" if path == chosen else ""
        print(f"raw encode {path:>5}: {raw[path]:8.1f} chunks/s  {raw[path] / raw[PLAIN]:5.2f}x {PLAIN}{mark}")
    print(f"speed-up:        {raw[chosen] / raw[PLAIN]:8.2f}x  ({chosen} vs {PLAIN}, target >= 2)")
    print(f"ingest ({chosen}):  {median(ingests):8.1f} chunks/s  (rounds: {', '.join(f'{r:.1f}' for r in ingests)})")
    print(f"ratio:           {median(ratios):8.2f}  (median of rounds: {', '.join(f'{r:.2f}' for r in ratios)};"
          f" ingest / raw {chosen} encode, target >= 0.90)")


if __name__ == "__main__":
    main()
