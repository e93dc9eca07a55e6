"""patterns.yaml: everything a user may tune, loaded into typed objects and validated.

Validation is driven by the dataclasses below: each YAML key must match a field of the right
type, unknown keys are refused (a typo must not silently fall back to a default), and every
error names the file, the line and the dotted key.
"""

from __future__ import annotations

import dataclasses
import math
import re
import stat
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from brainq.errors import ConfigError

DEFAULT_PATTERNS_FILE = Path(__file__).with_name("patterns.yaml")
EMBEDDING_PRECISIONS = ("auto", "fp32", "bf16", "int8")
NUMERIC_DATE_ORDERS = ("auto", "day_first", "month_first")


class _Loader(yaml.SafeLoader):
    """YAML as brainq reads its files (patterns.yaml, question sets): a date stays text, for the
    field that wants one to check. PyYAML's own reading of `2026-02-30` raised ValueError,
    naming neither key nor line."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_yaml(text: str):
    return yaml.load(text, Loader=_Loader)


def _shipped(section: str):
    """A frozen dataclass whose field defaults are the shipped patterns.yaml's `section`: the
    one place every tunable number is written. A user's patterns file may leave out any key of
    these sections; it then takes the shipped value."""

    def build(cls):
        shipped = load_yaml(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8"))[section]
        for name in cls.__annotations__:
            if name not in vars(cls):  # a field given its own default is no patterns.yaml key
                value = shipped[name]  # a missing key fails here, at import, in the tests
                setattr(cls, name, tuple(value) if isinstance(value, list) else value)
        return dataclass(frozen=True)(cls)

    return build


@dataclass(frozen=True)
class Decay:
    """How fast evidence loses weight with age, per query pattern."""

    model: str = "none"  # exponential: 2^(-age/h); linear: max(0, 1 - age/(2h)); none
    half_life_days: float = 0.0
    floor: float = 0.0  # decay is a preference, not a filter: relevant evidence keeps this much
    day_floor: float = 0.0  # ... and evidence about the very day the question asks about this much
    half_life_by_type: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Cutoff:
    """Evidence older than `days` is kept only as a fallback, its weight multiplied by `factor`."""

    days: float | None = None
    factor: float = 1.0


@dataclass(frozen=True)
class VerdictRule:
    """When evidence is fresh enough to answer without a caveat."""

    fresh_days: float | None = None  # logistical: newest relevant source at most this old
    min_weight: float | None = None  # entity: decayed weight of the best source at least this
    # Fresh sources that state different values of the fact asked for are a conflict to verify;
    # a pattern about the past turns this off (old facts differ because things changed).
    conflicts: bool = True


@dataclass(frozen=True)
class Pattern:
    description: str
    cues: list[str]  # regular expressions, matched case-insensitively against the question
    decay: Decay
    weights: dict[str, float]
    default_weight: float = 0.5
    cutoff: Cutoff = field(default_factory=Cutoff)
    verdict: VerdictRule = field(default_factory=VerdictRule)
    # How a tie between patterns whose cues all matched is settled (intent.py): this pattern
    # wins when the question has one of these shapes (QUESTION_SHAPES) ...
    prevails_when: list[str] = field(default_factory=list)
    # ... and, if true, yields to the others when the question is in the present or future tense.
    yields_in_present: bool = False


# The shapes of question that settle a tie between patterns (intent.py), most telling first.
QUESTION_SHAPES = ("latest_state", "past_event", "day_ahead")


@dataclass(frozen=True)
class DocTypeRule:
    """A document of one of `kinds` becomes `doc_type` when any header (but where one of
    `unless_headers` is there too) or enough cues match; a header is `Name` (present) or
    `Name: regex` (its value matches)."""

    doc_type: str
    kinds: list[str]
    headers: list[str] = field(default_factory=list)
    unless_headers: list[str] = field(default_factory=list)
    cues: list[str] = field(default_factory=list)  # regular expressions over title + text
    min_cues: int = 1


@dataclass(frozen=True)
class DocTypes:
    rules: list[DocTypeRule]
    default_by_kind: dict[str, str]

    def unknown(self, name: str | None) -> str | None:
        """Why a doc_type asked for (`list --type`, a tool's filter) can match nothing, or None:
        a misspelt type would list an empty store, not the mistake."""
        names = sorted({rule.doc_type for rule in self.rules} | set(self.default_by_kind.values()))
        if name is None or name in names:
            return None
        return f"unknown doc_type {name!r}: choose one of {', '.join(names)}"


@_shipped("limits")
class Limits:
    """Bounds that keep one hostile or huge file from stalling or exhausting a run.

    Every one is reported when it cuts something: a file as a failure, the rest in a note.
    """

    max_file_mb: float  # a larger file is reported, not read; in an mbox, a larger message
    max_pages: int  # pages of one PDF read for text
    # One PDF stream or one XML part of a Word or OpenDocument file, decompressed (pypdf's own
    # default is 75 MB), or one web page. A "zip bomb" that inflates to gigabytes stops here;
    # the largest page of ordinary PDFs is well under 1 MB.
    max_stream_mb: float
    max_attachments: int  # per message
    max_depth: int  # nesting of attachments inside attachments (message/rfc822)
    max_text_chars: int  # per document; reading stops there
    seconds_per_file: float  # 0: no limit
    # A decade of a busy person's calendar is a few thousand events.
    max_events: int
    # Days one occurrence of an event covers; a longer event is a date typo.
    max_event_days: int
    # Recurrences are expanded up to `recurrence_days` after the calendar's stamp (its start, if
    # later), at most `max_occurrences` times, those nearest it (a daily event), and the start ...
    recurrence_days: int
    max_occurrences: int
    # ... and for `recurrence_seconds` per calendar file. An ordinary rule takes about a
    # millisecond; only a hostile file spends this long, and its remaining rules stay unexpanded.
    recurrence_seconds: float
    # Text in pictures (brainq/ocr.py), and how much of it: pages of one PDF, seconds a page or
    # photo may take (the next stops its file's OCR), the resolution pages are read at, the lines
    # a photo must show to be read, and the confidence a line read must have. A picture or page
    # larger than `ocr_max_megapixels` is not decoded at all: a small file can declare a
    # gigapixel image, and its pixels would be allocated before a single one is read.
    ocr: bool
    ocr_pages: int
    ocr_seconds_per_page: float
    ocr_dpi: int
    ocr_min_lines: int
    ocr_min_score: float
    ocr_max_megapixels: float
    # Mail a mail client set apart as spam or deleted: folders and mbox files of these names,
    # found under a source (not one named as a source), and mbox messages a Gmail export
    # labels so. Such mail is a mail client's bin, not what the household wrote or was told.
    skip_mail: tuple[str, ...]
    # Tried in order on an encrypted PDF the empty password does not open. Read from the file
    # patterns.yaml's `passwords` or --passwords names (read_passwords), never from the YAML
    # itself, and left out of everything brainq prints or stores.
    passwords: tuple[str, ...] = field(default=(), repr=False, metadata={"secret": True})


@_shipped("chunking")
class Chunking:
    # all-MiniLM-L6-v2 truncates at 256 word pieces; ~160 English words stay within it.
    max_words: int
    overlap_words: int


@_shipped("retrieval")
class Retrieval:
    candidates: int
    refine: int
    refine_sentences: int
    support_share: float
    sentence_context: float
    semantic_weight: float
    lexical_weight: float
    relevance_floor: float
    lexical_max_share: float
    lexical_max_chunks: int
    entity_boost: float
    passage_lines: int
    answer_type_boost: float
    asking_factor: float
    day_boost: float
    relevance_exponent: float
    floor_missing_exponent: float
    expansion_min_similarity: float
    expansion_per_word: int
    rank_lexical_weight: float
    rank_dense_weight: float
    rank_coverage_weight: float
    order_min_share: float
    out_of_range_factor: float
    superseded_factor: float
    supersede_min_similarity: float


@_shipped("verdicts")
class Verdicts:
    answer_confidence: float
    verify_confidence: float
    conflict_min_relevance: float
    conflict_min_similarity: float
    conflict_sources: int
    another_day_days: int


@dataclass(frozen=True)
class Bucket:
    name: str
    max_days: float | None = None  # None: everything older


@_shipped("embedding")
class Embedding:
    batch_tokens: int
    question_batch_tokens: int
    # auto: int8, the fastest on every CPU measured (brainq/embedding/ says why); fp32, bf16
    # or int8 force one.
    precision: str


@dataclass(frozen=True)
class Config:
    default_pattern: str
    patterns: dict[str, Pattern]
    doc_types: DocTypes
    synonyms: list[list[str]]
    timeline: list[Bucket]
    limits: Limits = field(default_factory=Limits)
    chunking: Chunking = field(default_factory=Chunking)
    retrieval: Retrieval = field(default_factory=Retrieval)
    verdicts: Verdicts = field(default_factory=Verdicts)
    embedding: Embedding = field(default_factory=Embedding)
    passwords: str | None = None  # a file of PDF passwords (read_passwords); relative to this file
    numeric_dates: str = "auto"  # the order of "8/12/2026": one of NUMERIC_DATE_ORDERS
    source_file: str = ""


class _Lines:
    """Line numbers of every dotted key in a YAML document, for error messages."""

    def __init__(self, text: str):
        self.lines: dict[str, int] = {}
        node = yaml.compose(text)
        if node is not None:
            self._walk(node, "")

    def _walk(self, node, prefix):
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                path = f"{prefix}.{key.value}" if prefix else str(key.value)
                self.lines[path] = key.start_mark.line + 1
                self._walk(value, path)
        elif isinstance(node, yaml.SequenceNode):
            for i, value in enumerate(node.value):
                path = f"{prefix}[{i}]"
                self.lines[path] = value.start_mark.line + 1
                self._walk(value, path)

    def of(self, path: str) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = re.sub(r"(^|\.)[^.\[]*$|\[\d+\]$", "", path)  # up one level; a top-level key to ""
        return None


class _Builder:
    def __init__(self, source: str, lines: _Lines):
        self.source = source
        self.lines = lines

    def fail(self, path: str, message: str) -> typing.NoReturn:
        line = self.lines.of(path)
        where = f"{self.source}:{line}" if line else self.source
        raise ConfigError(f"{where}: {path or 'top level'}: {message}")

    def build(self, tp, value, path: str):
        origin = typing.get_origin(tp)
        if dataclasses.is_dataclass(tp):
            return self._dataclass(tp, value, path)
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if value is None:
                return None
            return self.build(args[0], value, path)
        if origin in (list, tuple):  # a tuple is a frozen dataclass's list: tuple[str, ...]
            if not isinstance(value, list):
                self.fail(path, f"expected a list, got {_show(value)}")
            arg = typing.get_args(tp)[0]
            return origin(self.build(arg, v, f"{path}[{i}]") for i, v in enumerate(value))
        if origin is dict:
            if not isinstance(value, dict):
                self.fail(path, f"expected a mapping, got {_show(value)}")
            _, arg = typing.get_args(tp)
            return {str(k): self.build(arg, v, f"{path}.{k}") for k, v in value.items()}
        if tp is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
                self.fail(path, f"expected a number, got {_show(value)}")
            if value < 0:
                self.fail(path, f"must not be negative, got {value}")
            return float(value)
        if tp is int:
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(path, f"expected a whole number, got {_show(value)}")
            if value < 0:
                self.fail(path, f"must not be negative, got {value}")
            return value
        if tp is bool:
            if not isinstance(value, bool):
                self.fail(path, f"expected true or false, got {_show(value)}")
            return value
        if tp is str:
            if not isinstance(value, str):
                self.fail(path, f"expected text, got {_show(value)}")
            return value
        raise TypeError(tp)  # a field type this builder does not know: a bug, not bad input

    def _dataclass(self, cls, value, path):
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {_show(value)}")
        hints = typing.get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "source_file" and not f.metadata.get("secret")}
        unknown = sorted(set(value) - set(fields))
        if unknown:
            key = f"{path}.{unknown[0]}" if path else str(unknown[0])
            self.fail(key, f"unknown key (expected one of: {', '.join(fields)})")
        kwargs = {}
        for name, f in fields.items():
            sub = f"{path}.{name}" if path else name
            if name in value:
                kwargs[name] = self.build(hints[name], value[name], sub)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                self.fail(sub, f"missing (start from a copy of {DEFAULT_PATTERNS_FILE})")
        return cls(**kwargs)


def _finite(value: int | float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # a whole number of 400 digits is no float
        return False


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_config(text: str, source: str = "patterns.yaml") -> Config:
    """Build a Config from YAML text; raises ConfigError naming the bad key and its line."""
    try:
        data = load_yaml(text)
        lines = _Lines(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark else source
        raise ConfigError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    builder = _Builder(source, lines)
    config = builder.build(Config, data if data is not None else {}, "")
    _check(config, builder)
    return dataclasses.replace(config, source_file=source)


def _check(config: Config, b: _Builder) -> None:
    """Rules that types alone cannot express."""
    if config.default_pattern not in config.patterns:
        b.fail("default_pattern", f"{config.default_pattern!r} is not one of the patterns")
    for name, pattern in config.patterns.items():
        base = f"patterns.{name}"
        if pattern.decay.model not in ("exponential", "linear", "none"):
            b.fail(f"{base}.decay.model", f"must be exponential, linear or none, got {pattern.decay.model!r}")
        if pattern.decay.model != "none" and pattern.decay.half_life_days <= 0:
            b.fail(f"{base}.decay.half_life_days", "must be positive for a decaying pattern")
        if pattern.decay.floor > 1:
            b.fail(f"{base}.decay.floor", "must be between 0 and 1")
        for i, cue in enumerate(pattern.cues):
            _regex(cue, b, f"{base}.cues[{i}]")
        for i, shape in enumerate(pattern.prevails_when):
            if shape not in QUESTION_SHAPES:
                b.fail(f"{base}.prevails_when[{i}]", f"must be one of {', '.join(QUESTION_SHAPES)}, got {shape!r}")
        # A misspelt doc_type would weigh its documents by default_weight without a word.
        for key, by_type in (("weights", pattern.weights), ("decay.half_life_by_type", pattern.decay.half_life_by_type)):
            for doc_type in by_type:
                if why := config.doc_types.unknown(doc_type):
                    b.fail(f"{base}.{key}.{doc_type}", why)
    for i, rule in enumerate(config.doc_types.rules):
        for j, cue in enumerate(rule.cues):
            _regex(cue, b, f"doc_types.rules[{i}].cues[{j}]")
        for key in ("headers", "unless_headers"):
            for j, header in enumerate(getattr(rule, key)):
                _regex(header.partition(":")[2].strip(), b, f"doc_types.rules[{i}].{key}[{j}]")
    if not config.timeline or config.timeline[-1].max_days is not None:
        b.fail("timeline", "the last bucket must have no max_days (it holds everything older)")
    for i, bucket in enumerate(config.timeline):
        if bucket.name in (other.name for other in config.timeline[:i]):
            b.fail(f"timeline[{i}].name", f"{bucket.name!r} names an earlier bucket too")
        if bucket.max_days is None and i < len(config.timeline) - 1:
            b.fail(f"timeline[{i}].max_days", "missing: only the last bucket holds everything older")
        if i and bucket.max_days is not None and bucket.max_days <= config.timeline[i - 1].max_days:
            b.fail(f"timeline[{i}].max_days", "must be more than the bucket's before it (newest bucket first)")
    if config.chunking.overlap_words >= config.chunking.max_words:
        b.fail("chunking.overlap_words", "must be smaller than chunking.max_words")
    if not 0 < config.verdicts.answer_confidence <= 1:
        b.fail("verdicts.answer_confidence", "must be above 0 and at most 1")
    if not 0 < config.verdicts.verify_confidence < config.verdicts.answer_confidence:
        b.fail("verdicts.verify_confidence", "must be above 0 and below answer_confidence")
    for key in ("conflict_min_relevance", "conflict_min_similarity"):
        if getattr(config.verdicts, key) > 1:
            b.fail(f"verdicts.{key}", "must be between 0 and 1")
    if config.numeric_dates not in NUMERIC_DATE_ORDERS:
        b.fail("numeric_dates", f"must be one of {', '.join(NUMERIC_DATE_ORDERS)}, got {config.numeric_dates!r}")
    if config.embedding.precision not in EMBEDDING_PRECISIONS:
        b.fail("embedding.precision", f"must be one of {', '.join(EMBEDDING_PRECISIONS)}, got {config.embedding.precision!r}")
    for key in ("batch_tokens", "question_batch_tokens"):
        if getattr(config.embedding, key) < 1:
            b.fail(f"embedding.{key}", "must be at least 1")
    if not 0 < config.retrieval.lexical_max_share <= 1:
        b.fail("retrieval.lexical_max_share", "must be above 0 and at most 1")
    for key in _RETRIEVAL_SHARES:
        if getattr(config.retrieval, key) > 1:
            b.fail(f"retrieval.{key}", "must be between 0 and 1")
    for key in ("candidates", "refine", "refine_sentences", "passage_lines", "lexical_max_chunks"):
        if getattr(config.retrieval, key) < 1:
            b.fail(f"retrieval.{key}", "must be at least 1")


# Settings of `retrieval` that are shares or similarities, or factors of at most 1 (a boost
# also weighs down, by 1 minus itself).
_RETRIEVAL_SHARES = (
    "relevance_floor", "support_share", "sentence_context", "order_min_share", "out_of_range_factor",
    "superseded_factor", "supersede_min_similarity", "expansion_min_similarity", "asking_factor",
    "day_boost", "answer_type_boost",
)  # fmt: skip


def _regex(pattern: str, b: _Builder, path: str) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        b.fail(path, f"not a valid regular expression ({exc})")


def with_passwords(config: Config, path: str | None = None) -> Config:
    """`config` with the PDF passwords of the file `path`, or else of the file its `passwords`
    key names (relative to the patterns file), in its limits."""
    if path is None and config.passwords:
        path = str(Path(config.source_file).parent / Path(config.passwords).expanduser())
    if path is None:
        return config
    return dataclasses.replace(config, limits=dataclasses.replace(config.limits, passwords=read_passwords(Path(path))))


def read_passwords(path: Path) -> tuple[str, ...]:
    """The passwords in `path`, one a line, in order. The file must be readable by its owner
    alone: a list of passwords anyone on the machine can read protects nothing."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise ConfigError(f"{path}: a passwords file is a file, one password a line, not a folder")
        if mode & 0o077:
            raise ConfigError(f"{path}: a passwords file must be readable by you alone (mode {mode & 0o777:o}); run: chmod 600 {path}")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the passwords file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: a passwords file must be UTF-8 text, one password a line") from None
    return tuple(line for line in text.splitlines() if line)


@cache
def load_config(path: str | None = None) -> Config:
    """Load patterns.yaml from `path`, or the one that ships with brainq."""
    file = Path(path) if path else DEFAULT_PATTERNS_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_config(text, str(file))
