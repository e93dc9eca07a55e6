"""Fit the ranking's fusion weights on the development sets, and say how well each choice orders.

    python -m benchmarks.fit [--trials N] [--limit N]

The ordering score of a candidate is its fused relevance, as a share of the question's best,
raised to `relevance_exponent`, times its temporal weight and the question's time factors
(brainq/scoring.py). The fused relevance weighs a chunk's BM25 and its similarity, each scaled
by the best of the question's candidates, and a sentence holding the kind of fact asked for
(brainq/query/candidates.py, fuse). Those few numbers of patterns.yaml's `retrieval:` are fit
here, on the three development sets only (corpus_samples, household-b, LoCoMo's first five
conversations), each set weighing the same: every question's candidates are ranked once, with
their features, and the weights are then searched over in numpy. The held-out LoCoMo
conversations are never read.
Printed: the shipped weights' figures, the best found, and its figures per set; nothing is
written, the numbers go into patterns.yaml by hand.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

import numpy as np

from benchmarks import locomo
from benchmarks.quality import HOUSEHOLDS, STORES
from brainq.ask import rank
from brainq.embedding import lazy_question_embed
from brainq.config import load_config
from brainq.evaluate import Question, load_queries
from brainq.ingest import ingest
from brainq.scoring import effective_day
from brainq.store import Store

FEATURES = ("bm25", "semantic", "coverage", "identifiers", "states", "asks_back", "temporal", "time", "day",
            "superseded", "expected", "date")  # fmt: skip
SEARCHED = {  # name: (low, high)
    "rank_lexical_weight": (0.0, 1.0),
    "rank_dense_weight": (0.0, 1.0),
    "rank_coverage_weight": (0.0, 1.0),
    "relevance_exponent": (1.0, 8.0),
    "answer_type_boost": (0.0, 0.6),
    "day_boost": (0.0, 0.6),
    "superseded_factor": (0.1, 1.0),
    "out_of_range_factor": (0.005, 0.3),
}


@dataclass
class Case:
    """One question's candidates as a matrix of FEATURES, and how it orders (for first/last)."""

    set: str
    features: np.ndarray
    order: str | None
    expected: int


def cases_of(name: str, questions: list[Question], store: Store, config, top: int = 40) -> list[Case]:
    embed = lazy_question_embed(store, config.embedding)
    found = []
    for q in questions:
        if not q.expect:
            continue
        r = rank(q.question, store, config, embed, q.as_of)
        rows = []
        for s in r.ranked[:top]:
            c, doc = s.candidate, s.doc
            day = effective_day(doc.source_date, doc.date_precision).toordinal() if doc.source_date else 0
            rows.append([
                c.bm25, c.semantic, c.lexical, len(c.identifiers), float(c.answers_in_kind), float(c.asks_back),
                s.temporal_weight, s.time_factor, 0.0 if s.day_factor == 1.0 else (1.0 if s.day_factor > 1 else -1.0),
                float(bool(s.superseded_by)), float(doc.path in q.expect), day,
            ])  # fmt: skip
        if rows:
            found.append(Case(name, np.asarray(rows, dtype=float), r.time.order, len(q.expect)))
    return found


def development_cases(config, limit: int | None, log=print) -> list[Case]:
    cases = []
    for name in ("corpus_samples", "household-b"):
        tree, queries = HOUSEHOLDS[name]
        store = Store(STORES / name)
        ingest(store, config, [tree])
        cases += cases_of(name, load_queries(queries), store, config)
        log(f"  {name}: {sum(c.set == name for c in cases)} questions")
    L = locomo.locomo()
    index = L.load_index()
    chosen, _ = L.questions(L.load_data(), [1, 2, 3, 4], limit, set(locomo.DEVELOPMENT.split(",")))
    for sid, qs in chosen:
        store = Store(STORES / "locomo" / sid)
        ingest(store, config, [L.MAIL / sid])
        files = {s["session"]: str((L.MAIL / sid / s["file"]).resolve()) for s in index[sid]["sessions"]}
        from datetime import date

        as_of = date.fromisoformat(index[sid]["as_of"])
        questions = [Question(q["question"], None, [files[s] for s in q["sessions"]], None, as_of) for q in qs]
        cases += cases_of("locomo", questions, store, config)
    log(f"  locomo: {sum(c.set == 'locomo' for c in cases)} questions")
    return cases


def order(case: Case, p: dict) -> np.ndarray:
    """The candidates' order under the weights `p`, as scoring.score would give it."""
    f = case.features
    col = {name: f[:, i] for i, name in enumerate(FEATURES)}
    lexical = col["bm25"] / (col["bm25"].max() or 1.0)
    dense = np.clip(col["semantic"], 0, None) / (col["semantic"].max() or 1.0)
    weights = p["rank_lexical_weight"] + p["rank_dense_weight"] + p["rank_coverage_weight"] or 1.0
    fused = (p["rank_lexical_weight"] * lexical + p["rank_dense_weight"] * dense
             + p["rank_coverage_weight"] * col["coverage"]) / weights  # fmt: skip
    boost = p["answer_type_boost"]
    fused = fused * np.where(col["asks_back"] > 0, 1 - boost, np.where(col["states"] > 0, 1 + boost, 1.0))
    fused = fused * (1 + p["day_boost"] * col["day"])
    share = fused / (fused.max() or 1.0)
    outside = np.where(col["time"] < 1.0, p["out_of_range_factor"], 1.0)
    score = share ** p["relevance_exponent"] * col["temporal"] * outside
    score = score * np.where(col["superseded"] > 0, p["superseded_factor"], 1.0)
    ranked = np.argsort(-score, kind="stable")
    if case.order:
        close = [i for i in ranked if share[i] >= 0.8 and col["date"][i] > 0 and col["time"][i] == 1.0]
        if close:
            close.sort(key=lambda i: col["date"][i], reverse=case.order == "desc")
            ranked = np.array(close + [i for i in ranked if i not in close])
    return ranked


def figures(cases: list[Case], p: dict) -> dict[str, tuple[float, float]]:
    """precision@1 and recall@3 per set."""
    per_set: dict[str, list[tuple[float, float]]] = {}
    for case in cases:
        expected = case.features[order(case, p), FEATURES.index("expected")]
        per_set.setdefault(case.set, []).append((expected[0], expected[:3].sum() / case.expected))
    return {name: tuple(np.mean(v, axis=0)) for name, v in per_set.items()}


def objective(found: dict[str, tuple[float, float]]) -> float:
    return float(np.mean([(p1 + r3) / 2 for p1, r3 in found.values()]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=3000)
    parser.add_argument("--limit", type=int, help="at most this many LoCoMo questions per conversation")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    config = load_config(None)
    cases = development_cases(config, args.limit)
    print(fitted(cases, config, args.trials, args.seed))
    return 0


def fitted(cases: list[Case], config, trials: int, seed: int) -> str:
    """A random search around the shipped weights, and the figures of both."""
    r = config.retrieval
    shipped = {k: getattr(r, k) for k in SEARCHED}
    best, best_value = shipped, objective(figures(cases, shipped))
    rng = random.Random(seed)
    for trial in range(trials):
        if trial % 2:  # around the best so far
            p = {k: min(hi, max(lo, best[k] + rng.gauss(0, (hi - lo) / 10))) for k, (lo, hi) in SEARCHED.items()}
        else:
            p = {k: rng.uniform(lo, hi) for k, (lo, hi) in SEARCHED.items()}
        value = objective(figures(cases, p))
        if value > best_value:
            best, best_value = p, value
    lines = []
    for label, p in (("shipped", shipped), ("best", best)):
        lines.append(f"{label}: objective {objective(figures(cases, p)):.4f}  " + "  ".join(f"{k} {v:.3f}" for k, v in p.items()))
        for name, (p1, r3) in figures(cases, p).items():
            lines.append(f"    {name:<16} p@1 {p1:.3f}  r@3 {r3:.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
