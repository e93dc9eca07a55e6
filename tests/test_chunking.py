"""Chunks fit the model's window, keep the title, and overlap at the edges."""

import pytest

from brainq.chunking import chunk_text, unquoted
from brainq.config import Chunking


@pytest.mark.parametrize("words", [0, 5, 159, 160, 400, 5000])
def test_chunks_stay_within_the_window(words):
    text = " ".join(f"word{i}." if i % 12 == 11 else f"word{i}" for i in range(words))
    config = Chunking(max_words=160, overlap_words=30)
    chunks = chunk_text("Invoice 1234 from Cool Air HVAC", text, config)
    assert chunks, "even an empty document keeps its title"
    for chunk in chunks:
        assert chunk.startswith("Invoice 1234 from Cool Air HVAC")
        assert len(chunk.split()) <= 160
    body_words = {w for c in chunks for w in c.split("\n", 1)[-1].split()}
    assert {w.rstrip(".") for w in body_words} >= {f"word{i}" for i in range(words)}


def test_overlap_repeats_the_end_of_the_previous_chunk():
    sentences = [f"Sentence number {i} says something useful here." for i in range(60)]
    chunks = chunk_text("t", " ".join(sentences), Chunking(max_words=50, overlap_words=10))
    assert len(chunks) > 3
    for first, second in zip(chunks, chunks[1:]):
        tail = first.split()[-5:]
        assert " ".join(tail) in second


def test_a_long_title_does_not_eat_the_chunk():
    chunks = chunk_text("very " * 100 + "long subject", "the body text", Chunking())
    assert chunks[0].endswith("the body text")
    assert len(chunks[0].split()) <= 160


def test_a_reply_is_read_without_the_message_it_quotes():
    reply = (
        "Re: practice\nPractice is back on for Thursday.\nCoach Mike\n"
        "On Tue, Mar 10, 2026 at 7:48 PM Priya Whitaker wrote: > Thanks, Mike.\n"
        "Leo will be sad. > Any chance of a makeup practice before Saturday?"
    )
    assert unquoted(reply) == "Re: practice\nPractice is back on for Thursday.\nCoach Mike"
    assert unquoted("Re: x\n> quoted line\nown line") == "Re: x\nown line"
