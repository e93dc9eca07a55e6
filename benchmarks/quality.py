"""Answer quality on every development set, beside the plain baselines, in one run.

    python -m benchmarks.quality [--held-out] [--patterns FILE] [--no-baselines] [--sets a,b,c]

Sets: corpus_samples (its own questions), household-b (written blind) and LoCoMo's first five
conversations; `--held-out` adds LoCoMo's last five, to report, never to tune on. Each set is
ingested once into a store kept under /tmp (or $BRAINQ_QUALITY_STORES; later runs only ask), then asked in this process.
Printed per set: precision@1, recall@3 and hit@5 of brainq and of BM25 alone, dense alone and
their fusion (RRF), brainq's verdict accuracy, and its confidently wrong answers.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

from benchmarks import locomo
from brainq.embedding import lazy_question_embed
from brainq.config import load_config
from brainq.evaluate import EvalReport, evaluate, load_queries
from brainq.ingest import ingest
from brainq.store import Store

ROOT = Path(__file__).resolve().parents[1]
HOUSEHOLDS = {
    "corpus_samples": (ROOT / "corpus_samples" / "household", ROOT / "corpus_samples" / "queries.yaml"),
    "household-b": (ROOT / "corpus_samples" / "household-b" / "household", ROOT / "corpus_samples" / "household-b" / "queries.yaml"),
}  # fmt: skip
STORES = Path(os.environ.get("BRAINQ_QUALITY_STORES", "/tmp/brainq-quality-stores"))  # kept between runs


def household(name: str, config, baselines: bool) -> EvalReport:
    tree, queries = HOUSEHOLDS[name]
    # One store per checkout: a store keeps the paths it was given, and another checkout's
    # copies of the same files would be folded into the first one's, under its paths.
    store = Store(STORES / f"{name}-{hashlib.sha1(str(tree).encode()).hexdigest()[:8]}")
    ingest(store, config, [tree])
    report = evaluate(load_queries(queries), store, config, lazy_question_embed(store, config.embedding), baselines)
    store.close()
    return report


def run(sets: list[str], config, baselines: bool, limit: int | None = None, log=print) -> dict[str, EvalReport]:
    reports = {}
    for name in sets:
        started = time.monotonic()
        if name in HOUSEHOLDS:
            reports[name] = household(name, config, baselines)
        else:
            conversations = (locomo.HELD_OUT if name == "locomo-held-out" else locomo.DEVELOPMENT).split(",")
            reports[name] = locomo.run(conversations, [1, 2, 3, 4], STORES / "locomo", config, lambda *_: None,
                                       baselines, limit)
        log(f"  ({name}: {time.monotonic() - started:.0f} s)")
    return reports


def print_reports(reports: dict[str, EvalReport]) -> None:
    print(f"{'set':<16} {'method':<7} {'p@1':>6} {'r@3':>6} {'hit@5':>6} {'verdict':>8} {'conf.wrong':>11} {'n':>5}")
    for name, report in reports.items():
        r = report.reliability()
        for method in ("brainq", *report.baselines):
            row = report.table(method)["all"]
            verdict = f"{row['verdict']:.3f}" if method == "brainq" and row["verdict"] is not None else "-"
            wrong = f"{r['confidently_wrong_share']:.3f}" if method == "brainq" else "-"
            print(f"{name:<16} {method:<7} {row['precision@1']:>6.3f} {row['recall@3']:>6.3f} {row['hit@5']:>6.3f} "
                  f"{verdict:>8} {wrong:>11} {row['questions']:>5}")  # fmt: skip
        temporal = next((row for g, row in report.table("brainq", by="group").items() if g.startswith("2 ")), None)
        if temporal:
            line = "  ".join(f"{m} {report.table(m, by='group')[g]['hit@5']:.3f}"
                             for m in ("brainq", *report.baselines) for g in [next(k for k in report.table(m, by='group') if k.startswith('2 '))])  # fmt: skip
            print(f"{'':<16} temporal hit@5: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--held-out", action="store_true", help="also LoCoMo's last five conversations (report only)")
    parser.add_argument("--patterns", help="a patterns.yaml to use instead of the shipped one")
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--sets", default="corpus_samples,household-b,locomo")
    parser.add_argument("--limit", type=int, help="at most this many LoCoMo questions per conversation")
    args = parser.parse_args(argv)
    sets = args.sets.split(",") + (["locomo-held-out"] if args.held_out else [])
    reports = run(sets, load_config(args.patterns), not args.no_baselines, args.limit)
    print_reports(reports)
    return 0


if __name__ == "__main__":
    sys.exit(main())
