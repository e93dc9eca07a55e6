"""`brainq eval`: run a question set against the store and measure brainq against its promise.

Per pattern: classification accuracy, precision@1 (the first source is an expected one),
recall@3 (the share of expected sources among the first three) and verdict accuracy. The
baseline ranks the same questions by semantic similarity alone, one result per document, and
always answers: what a plain semantic search would do.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

from brainq.ask import Embed, ask
from brainq.config import Config
from brainq.errors import UsageError
from brainq.scoring import visible
from brainq.store import Store

METRICS = ("classification", "precision@1", "recall@3", "verdict")


@dataclass
class Question:
    question: str
    pattern: str
    expect: list[str]  # absolute paths
    verdict: str
    as_of: date


@dataclass
class Outcome:
    question: Question
    pattern: str
    paths: list[str]
    verdict: str
    baseline_paths: list[str] = field(default_factory=list)

    def metrics(self, paths: list[str], verdict: str) -> dict[str, float]:
        expect = self.question.expect
        if expect:
            p1 = float(bool(paths) and paths[0] in expect)
            r3 = sum(1 for e in expect if e in paths[:3]) / len(expect)
        else:  # nothing to find: right when nothing is offered as the answer
            p1 = r3 = float(verdict == "unknown")
        return {
            "classification": float(self.pattern == self.question.pattern),
            "precision@1": p1,
            "recall@3": r3,
            "verdict": float(verdict == self.question.verdict),
        }


@dataclass
class EvalReport:
    outcomes: list[Outcome]
    baseline: bool

    def table(self, which: str = "brainq") -> dict[str, dict[str, float]]:
        rows: dict[str, list[dict]] = defaultdict(list)
        for o in self.outcomes:
            if which == "brainq":
                m = o.metrics(o.paths, o.verdict)
            else:
                m = o.metrics(o.baseline_paths, "answer" if o.baseline_paths else "unknown")
            rows[o.question.pattern].append(m)
            rows["all"].append(m)
        return {
            pattern: {"questions": len(ms), **{k: round(sum(m[k] for m in ms) / len(ms), 3) for k in METRICS}}
            for pattern, ms in rows.items()
        }

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if min(o.metrics(o.paths, o.verdict).values()) < 1.0]

    def to_json(self) -> dict:
        data = {"brainq": self.table("brainq")}
        if self.baseline:
            data["baseline"] = self.table("baseline")
        data["failures"] = [
            {
                "question": o.question.question,
                "expected_pattern": o.question.pattern,
                "pattern": o.pattern,
                "expected": o.question.expect,
                "got": o.paths[:3],
                "expected_verdict": o.question.verdict,
                "verdict": o.verdict,
            }
            for o in self.failures()
        ]
        return data


def load_queries(path: Path) -> list[Question]:
    """Read a queries.yaml; expected paths are relative to its folder."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"cannot read questions from {path}: {exc}") from None
    root = path.resolve().parent
    default_as_of = _day(data.get("as_of"), path)
    questions = []
    for i, q in enumerate(data.get("queries") or []):
        try:
            questions.append(
                Question(
                    question=q["question"],
                    pattern=q["pattern"],
                    expect=[str(root / e) for e in q.get("expect") or []],
                    verdict=q["verdict"],
                    as_of=_day(q.get("as_of"), path) or default_as_of or date.today(),
                )
            )
        except (KeyError, TypeError) as exc:
            raise UsageError(f"{path}: queries[{i}]: missing or malformed {exc}") from None
    return questions


def _day(value, path: Path) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise UsageError(f"{path}: as_of must be YYYY-MM-DD, got {value!r}") from None


def evaluate(questions: list[Question], store: Store, config: Config, embed: Embed, baseline: bool) -> EvalReport:
    outcomes = []
    for q in questions:
        result = ask(q.question, store, config, embed, q.as_of, top_k=10)
        outcome = Outcome(q, result.intent.pattern, [s.doc.path for s in result.results], result.verdict.level)
        if baseline:
            outcome.baseline_paths = semantic_only(store, embed, q.question, q.as_of)
        outcomes.append(outcome)
    return EvalReport(outcomes, baseline)


def semantic_only(store: Store, embed: Embed, question: str, as_of: date) -> list[str]:
    """Plain semantic search: the documents of the nearest chunks, in order, once each."""
    hits = store.semantic(embed([question])[0], 30)
    docs = store.get_documents(h.doc_id for h in hits)
    paths: list[str] = []
    for hit in hits:
        doc = docs.get(hit.doc_id)
        if doc and visible(doc, as_of) and doc.path not in paths:
            paths.append(doc.path)
    return paths
