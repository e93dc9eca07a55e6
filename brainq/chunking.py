"""Split a document's text into chunks that fit the embedding model's window.

all-MiniLM-L6-v2 silently drops everything past 256 word pieces; ~200 English words are ~290
pieces, so chunks hold at most `max_words` (160 by default) words, title included. Every chunk
starts with the title, so a chunk from page 3 of an invoice still says whose invoice it is.
Chunks end at sentence or line boundaries where possible, and overlap a little so a fact that
straddles a boundary is whole in at least one chunk.
"""

from __future__ import annotations

import re

from brainq.config import Chunking

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*•]|\s*\d+[.)]\s)")
_TITLE_WORDS = 16  # a long subject line must not eat the chunk


def chunk_text(title: str, text: str, config: Chunking) -> list[str]:
    """Chunks of `text`, each prefixed with the (shortened) title."""
    title_words = title.split()[:_TITLE_WORDS]
    head = " ".join(title_words)
    budget = max(20, config.max_words - len(title_words))
    overlap = min(config.overlap_words, budget // 2)
    bodies = _windows(_pieces(text, budget), budget, overlap)
    if not bodies:
        return [head] if head else []
    return [f"{head}\n{body}" if head else body for body in bodies]


def _pieces(text: str, budget: int) -> list[list[str]]:
    """Sentences (as word lists), with any sentence longer than the budget cut to size."""
    pieces = []
    for sentence in _SENTENCE_END.split(text):
        words = sentence.split()
        for start in range(0, len(words), budget):
            pieces.append(words[start : start + budget])
    return [p for p in pieces if p]


def _windows(pieces: list[list[str]], budget: int, overlap: int) -> list[str]:
    """Greedy packing of whole sentences; the next window repeats the last `overlap` words."""
    windows: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and len(current) + len(piece) > budget:
            windows.append(" ".join(current))
            carry = current[-overlap:] if overlap else []
            current = carry if len(carry) + len(piece) <= budget else []
        current.extend(piece)
    if current:
        windows.append(" ".join(current))
    return windows
