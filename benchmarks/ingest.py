"""Ingest throughput against the raw embedding throughput of the same model on the same texts.

    python -m benchmarks.ingest [--messages N]

Writes N synthetic emails (a Maildir) to a temporary folder, chunks them as ingest would and
times `Embedder.embed` on those chunks alone; then times a full `ingest` of the folder into a
fresh store (parsing, chunking, embedding, Chroma and catalog writes). Both are measured in
the same run on the same machine, so the ratio holds however busy the machine is.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from pathlib import Path

from brainq.chunking import chunk_text
from brainq.config import load_config
from brainq.embedding import get_embedder
from brainq.ingest import ingest
from brainq.store import Store

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=400)
    args = parser.parse_args()
    config = load_config()
    embedder = get_embedder(config.embedding.batch_size)
    embedder.embed(["warm up the model once"])

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "Maildir"
        write_maildir(tree, args.messages)
        from brainq.extract import extract_item
        from brainq.documents import Item

        texts = []
        for path in sorted((tree / "cur").iterdir()):
            for doc in extract_item(Item(path, path.name), config.limits):
                texts.extend(chunk_text(doc.title, doc.text, config.chunking))

        started = time.perf_counter()
        embedder.embed(texts)
        raw = len(texts) / (time.perf_counter() - started)

        store = Store(Path(tmp) / "store")
        started = time.perf_counter()
        report = ingest(store, config, [tree], embedder.embed)
        full = report.chunks / (time.perf_counter() - started)

    print(f"messages: {args.messages}, chunks: {len(texts)} (ingest stored {report.chunks})")
    print(f"raw encode:  {raw:8.1f} chunks/s")
    print(f"ingest:      {full:8.1f} chunks/s")
    print(f"ratio:       {full / raw:8.2f}  (target >= 0.85)")


if __name__ == "__main__":
    main()
