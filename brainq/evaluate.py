"""`brainq eval`: run a question set against the store and measure brainq against plain baselines.

Ordering and confidence are measured apart. Ordering, per pattern: precision@1 (the first
source is an expected one), recall@3 (the share of expected sources among the first three) and
hit@5 (an expected source among the first five, LoCoMo's recall@5). Confidence: verdict
accuracy, and a reliability table saying, for each verdict brainq gave, how often its first
source was right; "confidently wrong" counts the answers given where the first source was
wrong or the question wanted a verify or an "I don't know".

The baselines rank the same questions over the same chunks, one result per document, with no
notion of time or type, and always answer: BM25 alone (the full-text index), dense alone
(the vectors), and their reciprocal-rank fusion. brainq earns its complexity only where it
beats the best of them.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

from brainq.ask import Embed, ask, check_as_of, check_question
from brainq.config import Config, load_yaml
from brainq.errors import UsageError
from brainq.query.lexical import plain_query
from brainq.scoring import visible
from brainq.store import Store
from brainq.verdict import LEVELS

METRICS = ("classification", "precision@1", "recall@3", "hit@5", "verdict")
BASELINES = ("bm25", "dense", "fusion")
DEPTH = 10  # results kept per question and method
RRF_K = 60  # reciprocal rank fusion's constant, as in its paper and most systems
@dataclass
class Question:
    question: str
    pattern: str | None  # None: the set does not say (classification is not scored)
    expect: list[str]  # absolute paths
    verdict: str | None  # None: the set does not say (verdict accuracy is not scored)
    as_of: date
    group: str | None = None  # how results are grouped besides the pattern (LoCoMo's category)


@dataclass
class Outcome:
    question: Question
    pattern: str
    paths: list[str]
    verdict: str
    baselines: dict[str, list[str]] = field(default_factory=dict)
    source: str | None = None  # the first result relevant enough to be evidence, if any

    @property
    def first_source(self) -> str | None:
        """What brainq offers first: the evidence its verdict and answer line speak of (a weaker
        result may rank above it), else the closest result."""
        return self.source or (self.paths[0] if self.paths else None)

    def metrics(self, paths: list[str], verdict: str) -> dict[str, float | None]:
        q = self.question
        if q.expect:
            p1 = float(bool(paths) and paths[0] in q.expect)
            r3 = sum(1 for e in q.expect if e in paths[:3]) / len(q.expect)
            h5 = float(any(e in paths[:5] for e in q.expect))
        else:  # nothing to find: right when nothing is offered as the answer
            p1 = r3 = h5 = float(verdict == "unknown")
        return {
            "classification": None if q.pattern is None else float(self.pattern == q.pattern),
            "precision@1": p1,
            "recall@3": r3,
            "hit@5": h5,
            "verdict": None if q.verdict is None else float(verdict == q.verdict),
        }

    @property
    def confidently_wrong(self) -> bool:
        """An answer given where the source it quotes was wrong, or where none should have been."""
        if self.verdict != "answer":
            return False
        return self.first_source not in self.question.expect or self.question.verdict in ("verify", "unknown")


@dataclass
class EvalReport:
    outcomes: list[Outcome]
    baselines: tuple[str, ...]

    def table(self, which: str = "brainq", by: str = "pattern") -> dict[str, dict]:
        """Each metric's mean per pattern (or group) and over all questions; a metric the
        set does not score is None."""
        rows: dict[str, list[dict]] = defaultdict(list)
        for o in self.outcomes:
            if which == "brainq":
                m = o.metrics(o.paths, o.verdict)
            else:
                ranked = o.baselines[which]
                m = {**o.metrics(ranked, "answer" if ranked else "unknown"), "classification": None}
            key = o.question.pattern if by == "pattern" else o.question.group
            if key:
                rows[key].append(m)
            rows["all"].append(m)
        return {key: _means(ms) for key, ms in sorted(rows.items(), key=lambda kv: kv[0] == "all")}

    def reliability(self) -> dict:
        """For each verdict brainq gave: how many, and how often its first source was right (an
        "I don't know" to a question nothing answers is right, as precision@1 scores it); then
        the confidently wrong answers and the share of answerable questions answered."""
        table = {}
        for level in LEVELS:
            given = [o for o in self.outcomes if o.verdict == level]
            right = [
                o for o in given
                if o.first_source in o.question.expect or (level == "unknown" and not o.question.expect)
            ]  # fmt: skip
            table[level] = {"given": len(given), "first_source_right": _share(len(right), len(given))}
        answerable = [o for o in self.outcomes if o.question.expect and o.question.verdict in ("answer", None)]
        wrong = sum(o.confidently_wrong for o in self.outcomes)
        return {
            **table,
            "confidently_wrong": wrong,
            "confidently_wrong_share": _share(wrong, len(self.outcomes)),
            "wrong_among_answers": _share(wrong, table["answer"]["given"]),
            "answered_of_answerable": _share(sum(o.verdict == "answer" for o in answerable), len(answerable)),
        }

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if min(v for v in o.metrics(o.paths, o.verdict).values() if v is not None) < 1.0]

    def to_json(self) -> dict:
        data = {"brainq": self.table("brainq"), "reliability": self.reliability()}
        for name in self.baselines:
            data[name] = self.table(name)
        if any(o.question.group for o in self.outcomes):
            data["by_group"] = {name: self.table(name, by="group") for name in ("brainq", *self.baselines)}
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


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _means(ms: list[dict]) -> dict:
    row = {"questions": len(ms)}
    for k in METRICS:
        values = [m[k] for m in ms if m[k] is not None]
        row[k] = round(sum(values) / len(values), 3) if values else None
    return row


def load_queries(path: Path, patterns: Iterable[str] | None = None) -> list[Question]:
    """Read a queries.yaml; expected paths are relative to its folder, and name files that are
    there. A mistyped key, value or path is an error naming it: one silently ignored would
    change the scores without a word. `patterns`: the names a question may expect."""
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read questions from {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise UsageError(f"{where}: not YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("queries"), list):
        raise UsageError(f"{path}: expected a mapping with a 'queries' list")
    _known_keys(data, _FILE_KEYS, path, "")
    root = path.resolve().parent
    default_as_of = _day(data.get("as_of"), f"{path}: as_of")
    questions = []
    for i, q in enumerate(data["queries"]):
        def bad(key: str, wanted: str):
            return UsageError(f"{path}: queries[{i}].{key}: expected {wanted}, got {q.get(key)!r}")

        if not isinstance(q, dict):
            raise UsageError(f"{path}: queries[{i}]: expected a mapping with a 'question', got {q!r}")
        _known_keys(q, _QUESTION_KEYS, path, f"queries[{i}].")
        if not isinstance(q.get("question"), str):
            raise bad("question", "the question as text")
        try:
            check_question(q["question"])
        except UsageError as exc:
            raise UsageError(f"{path}: queries[{i}].question: {exc}") from None
        expect = q.get("expect") or []
        if not isinstance(expect, list) or not all(isinstance(e, str) for e in expect):
            raise bad("expect", "a list of paths")
        if q.get("verdict") not in (None, *LEVELS):
            raise bad("verdict", " or ".join(LEVELS))
        if patterns is not None and q.get("pattern") not in (None, *patterns):
            raise bad("pattern", " or ".join(patterns))
        if missing := next((e for e in expect if not os.path.isfile(root / e)), None):
            raise UsageError(f"{path}: queries[{i}].expect: no such file: {missing}")
        questions.append(
            Question(
                question=q["question"],
                pattern=None if q.get("pattern") is None else str(q["pattern"]),
                expect=[os.path.abspath(root / e) for e in expect],  # as ingest names paths: "../x" too
                verdict=q.get("verdict"),
                as_of=_day(q.get("as_of"), f"{path}: queries[{i}].as_of") or default_as_of or date.today(),
                group=None if q.get("group") is None else str(q["group"]),
            )
        )
    return questions


_FILE_KEYS = ("as_of", "queries")
_QUESTION_KEYS = ("question", "pattern", "expect", "verdict", "as_of", "group", "note")


def _known_keys(mapping: dict, known: tuple[str, ...], path: Path, where: str) -> None:
    """A misspelt key ("expects:") would be ignored, and the question scored as something else."""
    for key in mapping:
        if key not in known:
            raise UsageError(f"{path}: {where}{key}: unknown key; the keys are {', '.join(known)}")


def _day(value, where: str) -> date | None:
    if value is None:
        return None
    try:
        return check_as_of(date.fromisoformat(str(value)))
    except ValueError:
        raise UsageError(f"{where}: expected a day as YYYY-MM-DD, got {value!r}") from None
    except UsageError as exc:  # known before the first question is asked, not at it
        raise UsageError(f"{where}: {exc}") from None


def evaluate(
    questions: list[Question], store: Store, config: Config, embed: Embed, baseline: bool, progress=None
) -> EvalReport:
    unknown = sorted({q.pattern for q in questions if q.pattern is not None} - set(config.patterns))
    if unknown:  # scored as a pattern of its own, always wrong, without a word
        raise UsageError(f"the questions expect pattern {unknown[0]!r}: choose one of {', '.join(config.patterns)}")
    outcomes = []
    for q in questions:
        result = ask(q.question, store, config, embed, q.as_of, top_k=DEPTH)
        source = result.source.doc.path if result.source else None
        outcome = Outcome(q, result.intent.pattern, [s.doc.path for s in result.results], result.verdict.level, source=source)
        if baseline:
            outcome.baselines = baselines(store, embed, q.question, q.as_of)
        outcomes.append(outcome)
        if progress:
            progress()
    return EvalReport(outcomes, BASELINES if baseline else ())


def baselines(store: Store, embed: Embed, question: str, as_of: date) -> dict[str, list[str]]:
    """The question ranked by BM25 alone, dense alone and their fusion: paths, once each."""
    bm25 = _paths(store, store.lexical(plain_query(question), 100), as_of)
    dense = _paths(store, store.semantic(embed([question])[0], 100), as_of)
    return {"bm25": bm25[:DEPTH], "dense": dense[:DEPTH], "fusion": fuse([bm25, dense])[:DEPTH]}


def fuse(rankings: list[list[str]]) -> list[str]:
    """Reciprocal rank fusion: each item scores the sum of 1 / (RRF_K + its rank) in each list."""
    scores: dict[str, float] = defaultdict(float)
    for ranking in rankings:
        for rank, item in enumerate(ranking, 1):
            scores[item] += 1.0 / (RRF_K + rank)
    return sorted(scores, key=scores.get, reverse=True)


def _paths(store: Store, hits, as_of: date) -> list[str]:
    docs = store.get_documents(h.doc_id for h in hits)
    paths: list[str] = []
    for hit in hits:
        doc = docs.get(hit.doc_id)
        if doc and visible(doc, as_of) and doc.path not in paths:
            paths.append(doc.path)
    return paths
