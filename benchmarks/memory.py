"""Peak memory of an ingest as the archive grows: 1k against 10k documents.

    python -m benchmarks.memory [--small 1000] [--large 10000]

Writes a Maildir of short, distinct messages and ingests it with a fresh `brainq ingest`
process (real model, real Chroma), reading that process's peak resident set size from the
kernel (wait4). Files are streamed, one at a time, through parsing and a bounded queue of
batches to the embedder, so the peak should not grow with the archive: the ratio printed
is large / small, measured in one run.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

TOPICS = ["soccer practice", "the furnace filter", "a dentist visit", "the field trip", "library books",
          "the plumber", "car service", "the school play", "swim lessons", "the roof", "a birthday party"]
WORDS = ("please remember bring snacks form signed pickup early late schedule change moved cancelled "
         "invoice paid receipt thanks reminder next week tomorrow Friday Monday morning afternoon").split()


def write_maildir(root: Path, messages: int, rng: random.Random) -> None:
    cur = root / "cur"
    cur.mkdir(parents=True)
    start = datetime(2010, 1, 1, tzinfo=timezone.utc)
    for i in range(messages):
        msg = EmailMessage()
        topic = rng.choice(TOPICS)
        msg["From"] = f"person{i % 97}@example.org"
        msg["To"] = "family@example.org"
        msg["Subject"] = f"About {topic} ({i})"
        msg["Date"] = format_datetime(start + timedelta(minutes=rng.randrange(16 * 365 * 24 * 60)))
        msg["Message-ID"] = f"<m{i}@example.org>"
        msg.set_content(f"Hello, a note about {topic}. " + " ".join(rng.choices(WORDS, k=60)) + f" Ref {i}.")
        (cur / f"{i:07d}.host:2,S").write_bytes(msg.as_bytes())


def peak_rss_of_ingest(home: Path, maildir: Path) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of one `brainq ingest` process."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "brainq", "--store", str(home), "ingest", "--quiet", str(maildir)]
    process = subprocess.Popen(command)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"ingest failed: {command}")
    return usage.ru_maxrss / 1024, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(11)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.small, args.large):
            maildir = Path(tmp) / f"mail-{n}"
            write_maildir(maildir, n, rng)
            results[n] = peak_rss_of_ingest(Path(tmp) / f"store-{n}", maildir)
    for n, (rss, seconds) in results.items():
        print(f"ingest of {n:>6} messages: peak RSS {rss:7.0f} MiB ({seconds:.0f} s, {n / seconds:.1f} docs/s)")
    small, large = results[args.small][0], results[args.large][0]
    print(f"peak RSS {args.large} / {args.small} documents: {large / small:.2f}x (flat: close to 1)")


if __name__ == "__main__":
    main()
