"""A real mailbox's shape at scale: first ingest time, peak memory, and what duplicates cost.

    python -m benchmarks.mailscale [--messages 100000] [--small 10000]

Writes a Maildir tree as an IMAP sync leaves it: messages in an INBOX and label folders, a
fifth of them also in a second folder (the same file, as Gmail labels give), a third of them
replies that quote the message before them, a quarter of them HTML only (with links, images
and a tracking pixel). Each tree is ingested by a fresh `brainq ingest` process (real model,
real Chroma), timed, its peak resident set size read from the kernel. Printed: time and
peak memory for the small and the large tree, their ratio (flat: close to 1), and for the
large one the documents the store counts against the files, and the chunks embedded against
those stored: the copies should cost no embedding.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from benchmarks.memory import TOPICS, WORDS, peak_rss_of_ingest

FOLDERS = ("INBOX", "Family", "School", "Bills", "Receipts")


def write_mailbox(root: Path, messages: int, rng: random.Random) -> int:
    """The tree; returns how many files it holds (copies included)."""
    for folder in FOLDERS:
        (root / folder / "cur").mkdir(parents=True)
    start = datetime(2012, 1, 1, tzinfo=timezone.utc)
    previous = None
    files = 0
    for i in range(messages):
        topic = rng.choice(TOPICS)
        words = " ".join(rng.choices(WORDS, k=rng.randrange(40, 160)))
        msg = EmailMessage()
        msg["From"] = f"person{i % 211}@example.org"
        msg["To"] = "family@example.org"
        msg["Date"] = format_datetime(start + timedelta(minutes=7 * i + rng.randrange(7)))
        msg["Message-ID"] = f"<m{i}@example.org>"
        if previous and rng.random() < 1 / 3:
            msg["Subject"] = f"Re: {previous[0]}"
            msg["In-Reply-To"] = previous[1]
            quoted = "\n".join(f"> {line}" for line in previous[2].splitlines())
            body = f"Sounds good, {words}.\n\nOn {previous[3]}, {previous[4]} wrote:\n{quoted}\n"
        else:
            msg["Subject"] = f"About {topic} ({i})"
            body = f"Hello, a note about {topic}. {words}. Ref {i}.\n\nThanks,\nPerson {i % 211}\n"
        if rng.random() < 0.25:
            html = (
                f"<html><body><p>{body.replace(chr(10), '<br>')}</p>"
                f'<p><a href="https://example.org/track?id={i}">Read online</a></p>'
                f'<img src="https://example.org/pixel.gif?id={i}" width="1" height="1"></body></html>'
            )
            msg.set_content(html, subtype="html")
        else:
            msg.set_content(body)
        previous = (msg["Subject"], msg["Message-ID"], body, msg["Date"], msg["From"])
        data = msg.as_bytes()
        folder = FOLDERS[i % len(FOLDERS)]
        (root / folder / "cur" / f"{i:07d}.host:2,S").write_bytes(data)
        files += 1
        if rng.random() < 0.2:  # the same message under a second label
            other = FOLDERS[(i + 1 + rng.randrange(len(FOLDERS) - 1)) % len(FOLDERS)]
            (root / other / "cur" / f"{i:07d}.host:2,S").write_bytes(data)
            files += 1
    return files


def status(home: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "brainq", "--store", str(home), "status", "--json"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(done.stdout)


def embedded(home: Path) -> int:
    """Chunks the last run sent to the model (the rest took a stored vector)."""
    return status(home)["last_runs"][0]["embedded"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(19)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.small, args.messages):
            tree, home = Path(tmp) / f"mail-{n}", Path(tmp) / f"store-{n}"
            files = write_mailbox(tree, n, rng)
            started = time.perf_counter()
            rss, seconds = peak_rss_of_ingest(home, tree)
            info = status(home)
            rows[n] = (files, rss, seconds, info["documents"], info["copies_folded"], info["chunks"], embedded(home))
            shutil.rmtree(tree)
            print(f"  ({n} messages written and ingested in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    for n, (files, rss, seconds, documents, folded, chunks, fresh) in rows.items():
        print(f"{n:>7} messages in {files:>7} files: {seconds / 60:6.1f} min, peak RSS {rss:6.0f} MiB; "
              f"{documents} documents ({folded} copies folded); {fresh} of {chunks} chunks embedded")  # fmt: skip
    print(f"peak RSS {args.messages} / {args.small} messages: {rows[args.messages][1] / rows[args.small][1]:.2f}x")


if __name__ == "__main__":
    main()
