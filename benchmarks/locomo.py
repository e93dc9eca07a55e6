"""LoCoMo in-process: brainq and the plain baselines on the same stores, in one run.

    python -m benchmarks.locomo [--held-out] [--conversations conv-26,...] [--categories 1,2,3,4]

The official harness (../shared/evalsets/locomo/run_locomo.py) starts a brainq process per
question, which takes half an hour for five conversations; this runs the same questions,
scored the same way (a hit at k when a session named by a question's evidence is among the
first k results), through `brainq.evaluate` in one process, beside BM25 alone, dense alone
and their fusion over the same chunks. Each conversation's sessions, one dated email each (the
harness's make_mail.py writes them), are ingested into a store kept under --stores, so a second
run only asks. Development uses the first five conversations; `--held-out` runs the last five,
which are for reporting only: never choose a rule or a number on them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from brainq.embedding import lazy_question_embed
from brainq.config import load_config
from brainq.evaluate import BASELINES, EvalReport, Question, evaluate
from brainq.ingest import ingest
from brainq.store import Store

HARNESS = Path(__file__).resolve().parents[1].parent / "shared" / "evalsets" / "locomo"
DEVELOPMENT = "conv-26,conv-30,conv-41,conv-42,conv-43"
HELD_OUT = "conv-44,conv-47,conv-48,conv-49,conv-50"


def locomo():
    """The harness's own library: question selection, evidence sessions, mail index."""
    if not HARNESS.is_dir():
        raise SystemExit(f"LoCoMo's harness is not at {HARNESS}")
    sys.path.insert(0, str(HARNESS))
    import locomolib

    return locomolib


def run(conversations: list[str], categories: list[int], stores: Path, config=None, log=print, baseline=True,
        limit: int | None = None) -> EvalReport:
    L = locomo()
    if not (L.MAIL / "index.json").exists():
        subprocess.run([sys.executable, str(HARNESS / "make_mail.py")], check=True, capture_output=True)
    config = config or load_config(None)
    index = L.load_index()
    chosen, _ = L.questions(L.load_data(), categories, limit, set(conversations))
    outcomes = []
    for sid, qs in chosen:
        entry, folder = index[sid], L.MAIL / sid
        store = Store(stores / sid)
        started = time.monotonic()
        ingest(store, config, [folder])
        files = {s["session"]: str((folder / s["file"]).resolve()) for s in entry["sessions"]}
        as_of = date.fromisoformat(entry["as_of"])
        questions = [
            Question(q["question"], None, [files[s] for s in q["sessions"]], None, as_of,
                     f"{q['category']} {L.CATEGORIES[q['category']]}")
            for q in qs
        ]  # fmt: skip
        report = evaluate(questions, store, config, lazy_question_embed(store, config.embedding), baseline)
        outcomes += report.outcomes
        row = report.table()["all"]
        log(f"{sid}: {len(qs)} questions, p@1 {row['precision@1']:.3f}, hit@5 {row['hit@5']:.3f} "
            f"({time.monotonic() - started:.0f} s)")  # fmt: skip
        store.close()
    return EvalReport(outcomes, BASELINES if baseline else ())


def summary(report: EvalReport) -> dict[str, dict[str, float]]:
    """LoCoMo's figures per method: r@1, r@5 and temporal r@5 (category 2)."""
    figures = {}
    for name in ("brainq", *report.baselines):
        overall, groups = report.table(name)["all"], report.table(name, by="group")
        temporal = next((row for group, row in groups.items() if group.startswith("2 ")), None)
        figures[name] = {
            "r@1": overall["precision@1"],
            "r@5": overall["hit@5"],
            "temporal_r@5": temporal["hit@5"] if temporal else None,
            "n": overall["questions"],
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--held-out", action="store_true", help="the last five conversations: report only")
    parser.add_argument("--conversations", help=f"comma-separated (default: {DEVELOPMENT})")
    parser.add_argument("--categories", default="1,2,3,4")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/brainq-locomo-stores"))
    parser.add_argument("--misses", action="store_true", help="print every question brainq missed at 5")
    args = parser.parse_args(argv)
    conversations = (args.conversations or (HELD_OUT if args.held_out else DEVELOPMENT)).split(",")
    report = run(conversations, [int(c) for c in args.categories.split(",")], args.stores)
    label = "held out" if args.held_out else "development"
    print(f"LoCoMo ({label}: {', '.join(conversations)}), categories {args.categories}")
    print(f"  {'method':<8} {'r@1':>6} {'r@5':>6} {'temporal r@5':>13} {'n':>5}")
    for name, f in summary(report).items():
        print(f"  {name:<8} {f['r@1']:>6.3f} {f['r@5']:>6.3f} {f['temporal_r@5'] or 0:>13.3f} {f['n']:>5}")
    by_group = {name: report.table(name, by="group") for name in ("brainq", *report.baselines)}
    for group in by_group["brainq"]:
        print(f"  {group:<16} " + "  ".join(f"{n} {t[group]['hit@5']:.3f}" for n, t in by_group.items()))
    if args.misses:
        for o in report.outcomes:
            if o.metrics(o.paths, o.verdict)["hit@5"] < 1:
                got = [p.rsplit("/", 1)[-1] for p in o.paths[:5]]
                want = [p.rsplit("/", 1)[-1] for p in o.question.expect]
                bm = "bm25 hit" if any(e in o.baselines["bm25"][:5] for e in o.question.expect) else "bm25 miss"
                print(f"  MISS [{o.question.group}] {o.question.question}  got {got} want {want} ({bm})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
