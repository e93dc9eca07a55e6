"""patterns.yaml is validated on load, and errors name the bad key and its line."""

import signal

import pytest

from brainq.config import DEFAULT_PATTERNS_FILE, load_config, parse_config
from brainq.errors import ConfigError

GOOD = DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8")


def test_shipped_patterns_load():
    config = load_config()
    assert set(config.patterns) == {"logistical", "entity", "historical"}
    assert config.patterns["logistical"].decay.half_life_days == 7
    assert config.patterns["entity"].decay.half_life_by_type["manual"] == 365
    assert config.timeline[-1].max_days is None


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("half_life_days: 7,", "half_life_days: soon,", "patterns.logistical.decay.half_life_days: expected a number"),
        ("model: exponential", "model: cubic", "patterns.logistical.decay.model: must be exponential, linear or none"),
        ("default_pattern: entity", "default_pattern: urgent", "default_pattern: 'urgent' is not one of the patterns"),
        ("  candidates: 60", "  candidate: 60", "retrieval.candidate: unknown key"),
        ("  max_pages: 2000", "  max_pages: -5", "limits.max_pages: must not be negative"),
        ("lexical_max_chunks: 5000", "lexical_max_chunks: 0", "retrieval.lexical_max_chunks: must be at least 1"),
        ("- {name: ESTABLISHED HISTORY}", "- {name: ESTABLISHED HISTORY, max_days: 9}", "timeline: the last bucket"),
        ("weights: {calendar_event: 1.0,", "weights: {calendar_event: high,", "weights.calendar_event: expected a number"),
        ("prevails_when: [day_ahead]", "prevails_when: [friday]", "patterns.logistical.prevails_when[0]: must be one of"),
        ("skip_mail: [Junk,", "skip_mail: Junk #", "limits.skip_mail: expected a list, got 'Junk'"),
        ("skip_mail: [Junk,", "skip_mail: [7,", "limits.skip_mail[0]: expected text, got 7"),
        ("default_pattern: entity", "default_pattern: 2026-02-30", "default_pattern: '2026-02-30' is not one of the patterns"),
        ("relevance_floor: 0.43", "relevance_floor: .nan", "retrieval.relevance_floor: expected a number, got nan"),
        ("half_life_days: 7,", "half_life_days: .inf,", "patterns.logistical.decay.half_life_days: expected a number, got inf"),
        ("relevance_floor: 0.43", "relevance_floor: " + "9" * 400, "retrieval.relevance_floor: expected a number, got 9999"),
        ("  verify_confidence: 0.5", "  verify_confidence: 0.8", "verdicts.verify_confidence: must be above 0 and below answer_confidence"),
        ("  answer_confidence: 0.8", "  answer_confidence: 1.8", "verdicts.answer_confidence: must be above 0 and at most 1"),
        ("weights: {calendar_event: 1.0, email:", "weights: {calendar_event: 1.0, emial:", "patterns.logistical.weights.emial: unknown doc_type 'emial'"),
        ("half_life_by_type: {manual:", "half_life_by_type: {manuals:", "patterns.entity.decay.half_life_by_type.manuals: unknown doc_type"),
        ("  candidates: 60", "  candidates: 0", "retrieval.candidates: must be at least 1"),
        ("  refine: 6", "  refine: 0", "retrieval.refine: must be at least 1"),
        ("relevance_floor: 0.43", "relevance_floor: 4.3", "retrieval.relevance_floor: must be between 0 and 1"),
        ("- {name: PREVIOUSLY, max_days: 365}", "- {name: PREVIOUSLY, max_days: 10}", "timeline[1].max_days: must be more than"),
        ("- {name: PREVIOUSLY, max_days: 365}", "- {name: RECENT, max_days: 365}", "timeline[1].name: 'RECENT' names an earlier bucket"),
        ("- {name: PREVIOUSLY, max_days: 365}", "- {name: PREVIOUSLY}", "timeline[1].max_days: missing"),
        ("numeric_dates: auto", "numeric_dates: dd/mm/yyyy", "numeric_dates: must be one of auto, day_first, month_first"),
    ],
)
def test_errors_name_key_and_line(old, new, message):
    assert old in GOOD
    bad = GOOD.replace(old, new, 1)
    line = bad[: bad.index(new)].count("\n") + 1
    with pytest.raises(ConfigError) as exc:
        parse_config(bad, "p.yaml")
    assert message in str(exc.value)
    assert str(exc.value).startswith(f"p.yaml:{line}:") or "timeline" in message


@pytest.mark.parametrize(
    "text, message",
    [
        ("embedding:\n  precision: int8\n", "default_pattern: missing"),
        ("default_pattern: entity\n", "patterns: missing"),
    ],
)
def test_a_missing_top_level_key_is_named(text, message):
    def hung(signum, frame):
        raise AssertionError("parse_config still looking for the key's line after 10 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    try:
        with pytest.raises(ConfigError) as exc:
            parse_config(text, "p.yaml")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert str(exc.value) == f"p.yaml: {message} (start from a copy of {DEFAULT_PATTERNS_FILE})"


def test_bad_regex_and_bad_yaml():
    with pytest.raises(ConfigError, match=r"cues\[0\]: not a valid regular expression"):
        parse_config(GOOD.replace("    cues:\n", "    cues:\n      - '(unclosed'\n", 1))
    with pytest.raises(ConfigError, match="not valid YAML"):
        parse_config("patterns: [unclosed")


def test_missing_file():
    with pytest.raises(ConfigError, match="cannot read"):
        load_config("/nonexistent/patterns.yaml")
