"""The long fuzz run: the suite's hostile-input strategies with many more cases and new seeds.

    python -m benchmarks.fuzz [--cases N] [--seed S] [--corpora]

Runs N cases of each strategy of tests/test_fuzz.py (email, PDF, photo, calendar, notes) and N
mutations (truncated, bit-flipped, header-mangled) of files drawn from ../shared/corpora, each
with the suite's checks: documents or an ExtractError, nothing else, within the time bound and
the text limits. A failing case is shrunk by hypothesis and printed so it can be replayed.
`--corpora` also ingests the corpora unchanged (with a stand-in for the model) and counts the
files ingested and reported. Exit status 1 when any case failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings

from tests.test_fuzz import (
    CASE_SECONDS, CORPORA, MUTATIONS, NOT_SOURCES, SLOWEST, STRATEGIES, TALLY, Case, check, mutate,
)  # fmt: skip

MAX_FILE = 2_000_000  # bytes: mutated corpus files larger than this only slow the run down


def run_strategy(name: str, cases: int, run_seed: int) -> str | None:
    """`cases` generated cases of one strategy; None, or the failure and where its case is."""
    failing: list[Case] = []

    @seed(run_seed)
    @settings(max_examples=cases, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(STRATEGIES[name])
    def run(case: Case):
        try:
            check(case, group=name)
        except BaseException:
            failing.append(case)
            raise

    try:
        run()
    except Exception:  # hypothesis re-raises the failure after shrinking it: the last one failing
        case = failing[-1]
        saved = Path(tempfile.gettempdir()) / f"brainq-fuzz-{name}-{run_seed}-{case.name}"
        saved.write_bytes(case.data)
        return f"{traceback.format_exc(limit=-4)}\n    the case, {len(case.data)} bytes: {saved}"
    return None


def run_mutations(cases: int, run_seed: int) -> list[str]:
    """`cases` mutations of files drawn from the shared corpora; a line per failing case."""
    files = [p for p in CORPORA.rglob("*")
             if p.is_file() and p.name not in NOT_SOURCES and p.stat().st_size <= MAX_FILE]  # fmt: skip
    if not files:
        return [f"no corpora at {CORPORA}"]
    rng = random.Random(run_seed)
    failures = []
    for _ in range(cases):
        path, mutation = rng.choice(files), rng.choice(MUTATIONS)
        case_seed = f"{run_seed}:{rng.random()}"
        try:
            check(Case(path.name, mutate(path.read_bytes(), mutation, case_seed)), group=f"corpus {mutation}")
        except Exception as exc:
            failures.append(f"{path} {mutation} seed {case_seed!r}: {type(exc).__name__}: {exc}")
    return failures


def ingest_corpora() -> None:
    """The corpora as they are, through `ingest`: how many files are ingested and reported."""
    from brainq.config import load_config
    from brainq.embedding import DIMENSIONS
    from brainq.ingest import Progress, ingest
    from brainq.store import Store

    class Statuses(Progress):
        def total(self, files: int) -> None:
            self.files, self.by_status = files, {}

        def file_done(self, path: str, status: str, chunks: int) -> None:
            self.by_status[path] = status

    roots = [CORPORA / name for name in ("mail", "pdfs", "photos") if (CORPORA / name).is_dir()]
    progress = Statuses()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as home:
        store = Store(Path(home) / "store")
        vector = [1.0] + [0.0] * (DIMENSIONS - 1)  # a stand-in for the model: counts, not answers
        report = ingest(store, load_config(), roots, lambda texts: [vector for _ in texts], progress)
        store.close()
    reported = {path for path, status in progress.by_status.items() if status == "failed"}
    silent = progress.files - report.added - len(reported) - report.skipped
    print(f"corpora: {progress.files} files in {time.monotonic() - started:.0f} s: {report.added} ingested "
          f"({report.documents} documents), {len(reported)} reported, {report.skipped} not a kind brainq "
          f"reads, {silent} without a document but with their parts' failures listed; "
          f"{len(report.failures) - len(reported)} messages or attachments inside files reported")  # fmt: skip
    reasons = Counter(f.reason.split(" (")[0][:80] for f in report.failures if f.path in reported)
    for reason, count in reasons.most_common(12):
        print(f"  {count:5d}  {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases per strategy and of corpus mutations")
    parser.add_argument("--seed", type=int, default=None, help="replay a run (default: a new seed)")
    parser.add_argument("--corpora", action="store_true", help="also ingest the unchanged corpora and count")
    args = parser.parse_args()
    run_seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"fuzz: {args.cases} cases per strategy, seed {run_seed} (replay with --seed {run_seed})")
    failed = False
    started = time.monotonic()
    for name in STRATEGIES:
        began = time.monotonic()
        failure = run_strategy(name, args.cases, run_seed)
        print(f"  {name:9s} {time.monotonic() - began:6.1f} s  {'FAILED' if failure else 'ok'}")
        if failure:
            failed = True
            print(failure)
    began = time.monotonic()
    failures = run_mutations(args.cases, run_seed)
    print(f"  {'corpora':9s} {time.monotonic() - began:6.1f} s  {'FAILED' if failures else 'ok'}")
    for line in failures:
        failed = True
        print("    " + line)
    total = sum(TALLY.values())
    print(f"fuzz: {total} cases in {time.monotonic() - started:.0f} s (each allowed {CASE_SECONDS:g} s)")
    for (group, outcome), count in sorted(TALLY.items()):
        print(f"  {group:24s} {outcome:14s} {count:7d}")
    print("slowest: " + "; ".join(f"{s:.2f} s {what}" for s, what in SLOWEST))
    if args.corpora:
        ingest_corpora()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
