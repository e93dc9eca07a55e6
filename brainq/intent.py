"""Which query pattern a question follows, by the cues in patterns.yaml.

A pattern scores one point for each of its cues (regular expressions, case-insensitive) found
in the question; the patterns with a point are the candidates. Cues alone cannot weigh a
question's tense against the things it names, so between candidates (or, when no cue matches,
among all patterns) the question's shape decides first; which pattern each shape favours is
configured per pattern (`prevails_when`, `yields_in_present`). The shapes, most telling first:
- latest_state: "when was X's last ..." asks for a thing's latest state;
- past_event: a past-tense question with a year ("in 2023") or a date ("on March 13"), or one
  that opens with who/what/where/when/which/how ("who was", "what did we", "when did we"), asks
  what happened, even if it also names a size or an amount;
- day_ahead: a day ("today", "tomorrow", "Friday", "this weekend", "April 3", "the 27th") in a
  present or future question asks what happens that day.
Then a present or future question asks how things are now: a pattern that `yields_in_present`
("the filter we bought") gives way to any other's cues ("what's the size"). Otherwise the most
cues win; a tie goes to the default pattern if it is tied, else to the pattern listed first in
patterns.yaml. No cue and no shape: the default pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from brainq.config import Config, Pattern
from brainq.dates import DAY_WORDS, MONTH_RE, TYPED_WEEKDAY_RE
from brainq.errors import UsageError
from brainq.timeref import NOT_AN_ORDINAL, SEASONS, is_past_tense


@dataclass(frozen=True)
class Intent:
    """The pattern a question follows, and why, for --explain."""

    pattern: str  # a key of config.patterns
    reason: str  # in words, for --explain: which cue matched, or why the default was used
    scores: dict[str, float]


# "last" naming a time ("when was spring break last year?") asks about that time, not the latest.
_A_TIME = rf"(?:year|month|week|weekend|night|{'|'.join(SEASONS)}|{MONTH_RE}|{TYPED_WEEKDAY_RE})\b"
_LATEST_STATE = re.compile(rf"\bwhen\s+(?:was|were)\b.*\b(?:last(?!\s+{_A_TIME})|latest|most\s+recent)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20|21)\d\d\b")
_WH_OPENING = re.compile(r"^\W*(?:who|whom|whose|what|where|when|which|how)\b", re.I)
_DATE = (
    rf"{MONTH_RE}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}/\d{{1,2}}\b|\bthe\s+\d{{1,2}}(?:st|nd|rd|th)\b{NOT_AN_ORDINAL}"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RE}|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
)
_DAY_WORD = re.compile(
    rf"\b(?:{'|'.join(DAY_WORDS)}|this\s+(?:weekend|morning|afternoon|evening))\b|{TYPED_WEEKDAY_RE}|{_DATE}",
    re.I,
)
_PAST_DATE = re.compile(_DATE, re.I)


@dataclass(frozen=True)
class _Shape:
    applies: Callable[[str], bool]
    reason: str


_SHAPES = {  # config.QUESTION_SHAPES names them, in this order, for patterns.yaml
    "latest_state": _Shape(
        lambda q: bool(_LATEST_STATE.search(q)),
        'a "when was ... last" question asks for the latest state of a thing',
    ),
    "past_event": _Shape(
        lambda q: is_past_tense(q) and bool(_YEAR.search(q) or _PAST_DATE.search(q) or _WH_OPENING.search(q)),
        "a past-tense question with a year, a date or a who/what/where/when opening asks what happened",
    ),
    "day_ahead": _Shape(
        lambda q: not is_past_tense(q) and bool(_DAY_WORD.search(q)),
        "a day in a present or future question asks what happens that day",
    ),
}


def classify(question: str, config: Config, override: str | None = None) -> Intent:
    """The pattern of `question`: `override` if given, else by cues and the rules above."""
    matches = {name: _matches(question, p.cues) for name, p in config.patterns.items()}
    scores = {name: float(len(found)) for name, found in matches.items()}
    if override is not None:
        override = next((name for name in config.patterns if name.lower() == override.lower()), override)
        if override not in config.patterns:
            valid = ", ".join(config.patterns)
            raise UsageError(f"unknown pattern {override!r}: choose one of {valid}")
        return Intent(override, "chosen with --pattern", scores)
    candidates = [name for name, score in scores.items() if score > 0]
    if not candidates:
        # The question's shape still tells: "who built the fence?" names no cue, and asks what
        # happened.
        winner, why = _by_shape(question, list(config.patterns), scores, config.patterns, config.default_pattern)
        if winner:
            return Intent(winner, f"no cue matched; {why}", scores)
        return Intent(config.default_pattern, "no cue matched; default pattern", scores)
    winner, why = _decide(question, candidates, scores, config.patterns, config.default_pattern)
    cues = f"cues matched: {_describe(matches)}"
    return Intent(winner, f"{why} ({cues})" if why else cues, scores)


def _decide(question: str, candidates: list[str], scores: dict[str, float], patterns: dict[str, Pattern], default: str):
    """The winner among patterns whose cues matched, and the rule that chose it (or "")."""
    if len(candidates) == 1:
        return candidates[0], ""
    winner, why = _by_shape(question, candidates, scores, patterns, default)
    if winner:
        return winner, why
    yielding = [c for c in candidates if patterns[c].yields_in_present]
    others = [c for c in candidates if c not in yielding]
    if yielding and others and not is_past_tense(question):
        if max(scores[c] for c in yielding) >= max(scores[c] for c in others):
            why = "a present or future question asks how things are now"
            return _most_cues(others, scores, default), why
        candidates = others
    winner = _most_cues(candidates, scores, default)
    tied = [name for name in candidates if scores[name] == scores[winner]]
    if len(tied) > 1:
        chosen = "the default pattern" if winner == default else "the first listed"
        return winner, f"cues tied between {' and '.join(tied)}; {chosen} wins"
    return winner, "more cues than the others"


def _by_shape(question: str, candidates: list[str], scores: dict[str, float], patterns: dict[str, Pattern], default: str):
    """The candidate the question's shape favours, and the shape's reason; (None, "") if none."""
    for name, shape in _SHAPES.items():
        prevailing = [c for c in candidates if name in patterns[c].prevails_when]
        if prevailing and shape.applies(question):
            return _most_cues(prevailing, scores, default), shape.reason
    return None, ""


def _most_cues(candidates: list[str], scores: dict[str, float], default: str) -> str:
    """The candidate with the most cues; of tied ones the default, else the first listed."""
    best = max(scores[name] for name in candidates)
    tied = [name for name in candidates if scores[name] == best]
    return default if default in tied else tied[0]


@cache
def _compiled(cue: str) -> re.Pattern:
    return re.compile(cue, re.IGNORECASE)


def _matches(question: str, cues: list[str]) -> list[str]:
    """The text each matching cue found in the question."""
    found = (_compiled(cue).search(question) for cue in cues)
    return [m.group(0) for m in found if m is not None]


def _describe(matches: dict[str, list[str]]) -> str:
    """'logistical "cancelled", "today"; entity "how much"', shortened for one line."""
    parts = []
    for name, found in matches.items():
        if found:
            quoted = ", ".join(f'"{_shorten(" ".join(text.split()))}"' for text in found)
            parts.append(f"{name} {quoted}")
    return "; ".join(parts)


def _shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "\u2026"
