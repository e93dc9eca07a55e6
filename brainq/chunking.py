"""Split a document's text into chunks that fit the embedding model's window.

all-MiniLM-L6-v2 silently drops everything past 256 word pieces; ~200 English words are ~290
pieces, so chunks hold at most `max_words` (160 by default) words, title included. Every chunk
starts with the title, so a chunk from page 3 of an invoice still says whose invoice it is.
Chunks are made of whole sentences (or lines: headers, list items, table rows), one per line,
so the sentence that answers a question can be picked out of its chunk later; consecutive
chunks share their last sentences so a fact that straddles a boundary is whole in one of them.
"""

from __future__ import annotations

import re

from brainq import cjk
from brainq.config import Chunking
from brainq.dates import MONTHS, WEEKDAY_ABBREVIATIONS

_TITLE_WORDS = 16  # a long subject line must not eat the chunk
_PARAGRAPH = re.compile(r"\n\s*\n")
# A line that starts something new rather than continuing a hard-wrapped sentence:
# a list item, a numbered step, or a "Label: value" line (mail headers, invoice fields).
_NEW_ITEM = re.compile(r"^\s*(?:[-*•▪]\s|\d{1,3}[.)]\s|[A-Z][\w'/# -]{0,30}:\s)")
_SHORT_LINE = 40  # columns: headings, greetings and signature lines end where they end
# A dot leader ("Monthly plan ........ $40.00") makes a line a table row: a line of its own, never
# part of a hard-wrapped sentence, and its dots end no sentence.
DOT_LEADER = re.compile(r"\s*\.{4,}\s*")
_SENTENCE_END = re.compile(rf"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9{cjk.CHARACTERS}])")
# Chinese and Japanese end a sentence with a full-width stop, and start the next without a space.
_ANY_SENTENCE_END = re.compile(rf"{_SENTENCE_END.pattern}|(?<=[\u3002\uff01\uff1f])\s*(?=[^\s\u300d\u300f\uff09\u3002\uff01\uff1f])")
_ABBREVIATION = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|Jr|Sr|St|Mt|No|Inc|Ltd|Co|vs|etc|approx|e\.g|i\.e|[A-Z])\.$")
# "Nov. 21", "Thurs. Nov. 26": a month's or a weekday's abbreviation before a day or a month
# ends no sentence (a Canadian or an AP-style date; "in Sept. We" does).
_SHORT_MONTHS = [m for m in MONTHS if any(other != m and other.startswith(m) for other in MONTHS)]  # "Sept", not "May"
_DATE_ABBREVIATION = re.compile(rf"\b(?:{'|'.join(a.capitalize() for a in [*_SHORT_MONTHS, *WEEKDAY_ABBREVIATIONS])})\.$")
_DAY_OR_MONTH_NEXT = re.compile(rf"\d|(?:{'|'.join(sorted((m.capitalize() for m in MONTHS), key=len, reverse=True))})\b")
_QUOTE_START = re.compile(r"^(?:On .{4,160}\bwrote:|-+ ?Original Message ?-+)", re.IGNORECASE)
FORWARD_WORDS = 4  # fewer words of its own before a quote: a forward (chunking and mail extraction agree)


def split_sentences(text: str) -> list[str]:
    """Sentences and lines of a text, hard-wrapped lines joined again, one string each. Every
    sentence of a quoted (">") line is marked quoted, not only its first: what a reply quotes
    is read as no statement of the reply, sentence by sentence (see `unquoted`)."""
    found = []
    for paragraph in _PARAGRAPH.split(text):
        for line in _unwrap(paragraph):
            pieces = _split_line(line)
            if line.startswith(">"):
                pieces = [p if p.startswith(">") else f"> {p}" for p in pieces]
            found.extend(pieces)
    return found


def _unwrap(paragraph: str) -> list[str]:
    """Hard-wrapped lines joined again; a quoted line only continues a quoted one, and an
    unquoted line an unquoted one. A bare ">" is a quote's blank line: it ends a paragraph."""
    lines: list[str] = []
    previous = ""
    for raw in paragraph.splitlines():
        line = " ".join(raw.split())
        quoted = line.startswith(">")
        content = line.lstrip("> ") if quoted else line
        if not content:
            previous = ""
            continue
        if (
            lines
            and quoted == lines[-1].startswith(">")
            and not _NEW_ITEM.match(content)
            and cjk.columns(previous) >= _SHORT_LINE
            and not DOT_LEADER.search(previous)
            and not DOT_LEADER.search(content)
        ):
            # A line of Chinese or Japanese wraps inside a word: no space was there.
            joint = " " if content.isascii() or not (cjk.UNSPACED.match(content) and cjk.UNSPACED.match(lines[-1][-1])) else ""
            lines[-1] += joint + content
        else:
            lines.append(line)
        previous = line
    return lines


def _split_line(line: str) -> list[str]:
    parts: list[str] = []
    for piece in (_SENTENCE_END if line.isascii() else _ANY_SENTENCE_END).split(line):
        dated = parts and _DATE_ABBREVIATION.search(parts[-1]) and _DAY_OR_MONTH_NEXT.match(piece)
        if parts and (dated or _ABBREVIATION.search(parts[-1]) or parts[-1].endswith("....")):
            parts[-1] += " " + piece  # "Mr. Patel", "Dr. Hsu", "Checkup ..... due 05/14": no sentence end
        else:
            parts.append(piece)
    return parts


def chunk_text(title: str, text: str, config: Chunking) -> list[str]:
    """Chunks of `text`, each prefixed with the (shortened) title."""
    title_words = title.split()[:_TITLE_WORDS]
    head = " ".join(title_words)
    budget = max(20, config.max_words - size(head))
    overlap = min(config.overlap_words, budget // 2)
    bodies = _windows(_pieces(text, budget), budget, overlap)
    if not bodies:
        return [head] if head else []
    return [f"{head}\n{body}" if head else body for body in bodies]


def unquoted(chunk: str) -> str:
    """The chunk without what its sender did not write this time: the earlier message a reply
    quotes, and the signature and footers mail extraction marks with "> ". Those are someone
    else's earlier words, in the store as their own message, and must not lend the reply their
    names and days: neither in its word coverage nor in its vector. Where a quote's header
    ("On Tue, ... Sam wrote:", "-----Original Message-----") follows unmarked text, the text
    after it goes too, unless the chunk says next to nothing before it: a forward ("FYI") is
    what it forwards, as mail extraction reads it. A chunk that is all quote keeps its title."""
    title, *lines = chunk.split("\n")
    own = [line for line in lines if not line.startswith(">")]
    start = next((i for i, line in enumerate(own) if _QUOTE_START.match(line)), None)
    if start is not None and len(" ".join(own[:start]).split()) >= FORWARD_WORDS:
        own = own[:start]
    return "\n".join([title, *own])


def _pieces(text: str, budget: int) -> list[tuple[list[str], int]]:
    """Sentences as word lists with their sizes in words (cjk.words), any sentence larger than
    the budget cut to size."""
    pieces = []
    for sentence in split_sentences(text):
        words = sentence.split()
        if sentence.isascii():  # a word each
            pieces.extend((words[i : i + budget], min(budget, len(words) - i)) for i in range(0, len(words), budget))
            continue
        piece: list[str] = []
        size = 0
        for word in words:
            weight = _weight(word)
            if weight > budget:  # Chinese or Japanese that no stop ends: cut where it fits
                if piece:
                    pieces.append((piece, size))
                    piece, size = [], 0
                step = max(1, (budget - 1) * 3 // 2)
                pieces.extend(([part], _weight(part)) for part in (word[i : i + step] for i in range(0, len(word), step)))
                continue
            if piece and size + weight > budget:
                pieces.append((piece, size))
                piece, size = [], 0
            piece.append(word)
            size += weight
        if piece:
            pieces.append((piece, size))
    return pieces


def _weight(word: str) -> int:
    return 1 if word.isascii() else max(1, cjk.words(word))


def size(line: str) -> int:
    """A chunk line's size in words, as chunking counted it."""
    return sum(map(_weight, line.split()))


def _windows(pieces: list[tuple[list[str], int]], budget: int, overlap: int) -> list[str]:
    """Greedy packing of whole sentences; the next window repeats the last sentences of the
    previous one, up to `overlap` words."""
    windows: list[str] = []
    current: list[tuple[list[str], int]] = []
    for piece in pieces:
        if current and _size(current) + piece[1] > budget:
            windows.append(_join(current))
            carry = current[len(current) - carried([size for _, size in current], overlap) :]
            current = carry if _size(carry) + piece[1] <= budget else []
        current.append(piece)
    if current:
        windows.append(_join(current))
    return windows


def carried(lengths: list[int], overlap: int) -> int:
    """How many of a window's last sentences (their lengths in words) the next window repeats:
    as many as fit in `overlap` words. The store's reader of whole documents drops them again."""
    count = words = 0
    for length in reversed(lengths):
        words += length
        if words > overlap:
            break
        count += 1
    return count


def _size(pieces: list[tuple[list[str], int]]) -> int:
    return sum(size for _, size in pieces)


def _join(pieces: list[tuple[list[str], int]]) -> str:
    return "\n".join(" ".join(words) for words, _ in pieces)
