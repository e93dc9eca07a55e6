"""How `brainq eval` scores: ordering beside plain baselines, and confidence as a reliability table."""

import re
from datetime import date

import pytest

from brainq.errors import UsageError
from brainq.config import load_config
from brainq.evaluate import EvalReport, Outcome, Question, evaluate, fuse, load_queries


def outcome(expect, paths, verdict, want="answer", pattern="entity"):
    return Outcome(Question("q", pattern, expect, want, date(2026, 3, 12)), pattern, paths, verdict,
                   {"bm25": paths[::-1], "dense": paths, "fusion": paths})  # fmt: skip


def test_reciprocal_rank_fusion():
    assert fuse([["a", "b", "c"], ["c", "a"]]) == ["a", "c", "b"]


def test_ordering_metrics():
    o = outcome(["x", "y"], ["z", "x", "w", "q", "y"], "answer")
    assert o.metrics(o.paths, o.verdict) == {
        "classification": 1.0, "precision@1": 0.0, "recall@3": 0.5, "hit@5": 1.0, "verdict": 1.0,
    }  # fmt: skip


def test_a_set_without_patterns_or_verdicts_is_not_scored_on_them():
    o = Outcome(Question("q", None, ["x"], None, date(2026, 3, 12)), "entity", ["x"], "verify")
    m = o.metrics(o.paths, o.verdict)
    assert m["classification"] is None and m["verdict"] is None and m["precision@1"] == 1.0


def test_reliability_counts_confident_mistakes():
    report = EvalReport(
        [
            outcome(["x"], ["x"], "answer"),  # right
            outcome(["x"], ["y"], "answer"),  # wrong first source
            outcome([], ["y"], "answer", want="unknown"),  # should not have answered
            outcome(["x"], ["y"], "verify", want="answer"),  # unsure, and rightly
            outcome([], ["y"], "unknown", want="unknown"),  # nothing answers it: right
            outcome(["x"], ["y"], "unknown"),  # the answer was there
        ],
        ("bm25", "dense", "fusion"),
    )
    r = report.reliability()
    assert r["answer"] == {"given": 3, "first_source_right": 0.333}
    assert r["unknown"] == {"given": 2, "first_source_right": 0.5}
    assert r["confidently_wrong"] == 2 and r["wrong_among_answers"] == 0.667
    assert r["answered_of_answerable"] == 0.5
    assert report.table("bm25")["all"]["classification"] is None


def test_an_answer_is_judged_by_the_source_it_quotes():
    """A result too weakly related to count as evidence may rank first; the answer then quotes
    the first relevant one, and that is the source it is right or wrong by."""
    quoted_wrong = Outcome(Question("q", None, ["x"], None, date(2026, 3, 12)), "entity", ["x", "y"], "answer",
                           source="y")  # fmt: skip
    quoted_right = Outcome(Question("q", None, ["y"], None, date(2026, 3, 12)), "entity", ["x", "y"], "answer",
                           source="y")  # fmt: skip
    assert quoted_wrong.metrics(quoted_wrong.paths, "answer")["precision@1"] == 1.0  # the ranking's own figure
    assert quoted_wrong.confidently_wrong and not quoted_right.confidently_wrong
    assert EvalReport([quoted_wrong, quoted_right], ()).reliability()["answer"]["first_source_right"] == 0.5


@pytest.mark.parametrize(
    "text, message",
    [
        ("queries: [\n", "q.yaml:2: not YAML"),
        ("questions:\n  - question: x\n", "expected a mapping with a 'queries' list"),
        ("queries:\n  - just text\n", "queries[0]: expected a mapping with a 'question'"),
        ("queries:\n  - question: 3\n", "queries[0].question: expected the question as text, got 3"),
        ("queries:\n  - question: x\n    expect: a.eml\n", "queries[0].expect: expected a list of paths, got 'a.eml'"),
        ("queries:\n  - question: x\n    verdict: maybe\n", "queries[0].verdict: expected answer or verify or unknown"),
        ("as_of: soon\nqueries: []\n", "q.yaml: as_of: expected a day as YYYY-MM-DD, got 'soon'"),
        ("as_of: 2026-02-30\nqueries: []\n", "q.yaml: as_of: expected a day as YYYY-MM-DD, got '2026-02-30'"),
        ("queries:\n  - question: x\n    as_of: 2026-13-12\n", "queries[0].as_of: expected a day as YYYY-MM-DD, got '2026-13-12'"),
        ("queries:\n  - question: x\n    as_of: 9999-12-31\n", "queries[0].as_of: as of 9999-12-31: brainq answers as of a day in"),
        ("as_off: 2026-03-12\nqueries: []\n", "q.yaml: as_off: unknown key"),
        ("queries:\n  - question: x\n    expects: [a.eml]\n", "queries[0].expects: unknown key"),
        ("queries:\n  - question: '?'\n", "queries[0].question: the question has no words"),
        ("queries:\n  - question: x\n    expect: [../nowhere/a.eml]\n", "queries[0].expect: no such file: ../nowhere/a.eml"),
        ("queries:\n  - question: x\n    pattern: bogus\n", "queries[0].pattern: expected logistical or entity or historical, got 'bogus'"),
    ],
)
def test_a_mistyped_question_file_is_refused_naming_the_key(tmp_path, text, message):
    """A key or value ignored without a word would change the scores without one."""
    path = tmp_path / "q.yaml"
    path.write_text(text)
    with pytest.raises(UsageError, match=re.escape(message)):
        load_queries(path, load_config().patterns)


def test_a_question_file_not_in_utf8_or_expecting_an_unknown_pattern_is_refused(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_bytes("queries:\n  - question: Wie spät?\n".encode("utf-16"))
    with pytest.raises(UsageError, match="q.yaml: not UTF-8 text"):
        load_queries(path)
    path.write_text("queries:\n  - question: x\n    pattern: bogus\n")
    with pytest.raises(UsageError, match="the questions expect pattern 'bogus': choose one of logistical, entity, historical"):
        evaluate(load_queries(path), None, load_config(), None, False)
