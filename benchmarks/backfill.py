"""A backfill over an unchanged tree against merely listing the tree.

    python -m benchmarks.backfill [--files N]

Writes N small notes (100 to a folder) to a temporary folder and ingests them once into a
fresh store, through the real pipeline and catalog but with stand-ins for the model (one
constant vector) and for Chroma (which takes ~10 ms per file written): this benchmark
measures the unchanged path (stat each file, look it up in the catalog, read nothing), and
that path touches neither; the run checks it. Then it times, best of three, a second
`ingest` of the unchanged tree (what `brainq backfill` runs), a recursive `os.scandir` walk
of the same tree that only collects file names, and the whole `brainq backfill --quiet`
process as cron starts it (interpreter, imports, lock, run log). All are measured in the
same run on the same machine, so the ratio holds however busy the machine is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from brainq.config import load_config
from brainq.embedding import DIMENSIONS
from brainq.ingest import ingest
from brainq.store import Store
from brainq.store.vectors import Chroma

PER_FOLDER = 100


def write_notes(root: Path, files: int) -> None:
    for i in range(files):
        folder = root / f"{i // PER_FOLDER:04d}"
        if i % PER_FOLDER == 0:
            folder.mkdir(parents=True)
        (folder / f"note-{i:05d}.txt").write_text(
            f"Note {i}: the furnace filter is 16x25x{i % 7 + 1}; bought at the hardware store, "
            f"{1 + i % 28} March.\n"
        )


def stand_in(texts: list[str]) -> list[list[float]]:
    """One unit vector for every text (cosine distance needs a non-zero vector)."""
    return [[1.0] + [0.0] * (DIMENSIONS - 1) for _ in texts]


class NoVectors:
    """Stands in for the Chroma collection while the store is seeded."""

    def upsert(self, **kwargs) -> None:
        pass

    def get(self, **kwargs) -> dict:
        return {"ids": [], "embeddings": []}

    def delete(self, **kwargs) -> None:
        pass


@contextmanager
def without_chroma():
    real = Chroma.collection
    Chroma.collection = property(lambda self: NoVectors())
    try:
        yield
    finally:
        Chroma.collection = real


def no_model(texts: list[str]) -> list[list[float]]:
    raise AssertionError("an unchanged tree needed the model")


def scandir_walk(root: str, stat: bool = False) -> int:
    """How many files the tree holds, by directory entries alone (or with a stat() of each)."""
    count, folders = 0, [root]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    count += 1
                    if stat:
                        entry.stat()  # on Linux a system call: directory entries carry no sizes
    return count


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()
    config = load_config()

    with tempfile.TemporaryDirectory() as tmp:
        tree, home = Path(tmp) / "notes", Path(tmp) / "store"
        write_notes(tree, args.files)
        store = Store(home)
        store.add_source(str(tree))
        started = time.perf_counter()
        with without_chroma():
            first = ingest(store, config, [tree], stand_in)
        seeding = time.perf_counter() - started
        assert first.added == args.files, first.to_json()

        def unchanged():
            report = ingest(store, config, [tree], no_model)
            assert report.unchanged == args.files, report.to_json()

        def command():
            cmd = [sys.executable, "-m", "brainq", "--store", str(home), "backfill", "--quiet"]
            subprocess.run(cmd, check=True)

        assert scandir_walk(str(tree)) == args.files
        walk = best_of(3, lambda: scandir_walk(str(tree)))
        walk_stat = best_of(3, lambda: scandir_walk(str(tree), stat=True))
        backfill = best_of(3, unchanged)
        process = best_of(3, command)
        assert not (home / "chroma").exists(), "the unchanged path opened Chroma"

    print(f"files: {args.files} (first ingest with stand-ins: {seeding:.1f} s)")
    print(f"os.scandir walk:             {walk:7.3f} s")
    print(f"os.scandir walk + stat:      {walk_stat:7.3f} s")
    print(f"backfill, unchanged tree:    {backfill:7.3f} s")
    print(f"ratio:                       {backfill / walk:7.1f}x the walk")
    print(f"`brainq backfill` process:   {process:7.3f} s  (interpreter and imports included)")


if __name__ == "__main__":
    main()
