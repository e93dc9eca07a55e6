"""Chunks fit the model's window, keep the title, and overlap at the edges."""

import pytest

from brainq.chunking import chunk_text, split_sentences, unquoted
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
    body = (
        "Practice is back on for Thursday at the usual field.\nCoach Mike\n\n"
        "On Tue, Mar 10, 2026 at 7:48 PM Priya Whitaker wrote:\n"
        "> Thanks, Mike. Leo will be sad to miss it. Any chance of a makeup practice\n"
        "> before Saturday? He could come on Friday.\n"
    )
    [chunk] = chunk_text("Re: practice", body, Chunking())
    assert unquoted(chunk) == "Re: practice\nPractice is back on for Thursday at the usual field.\nCoach Mike"
    # every sentence of the wrapped quote stays marked, the last ones too
    assert "> before Saturday?" not in chunk and "> He could come on Friday." in chunk.split("\n")
    assert unquoted("Re: x\n> quoted line\nown line") == "Re: x\nown line"


def test_a_quotes_blank_line_ends_its_paragraph():
    body = "> The first quoted paragraph runs on over a long wrapped line\n>\n> Second paragraph.\n"
    assert chunk_text("t", body, Chunking()) == [
        "t\n> The first quoted paragraph runs on over a long wrapped line\n> Second paragraph."
    ]


def test_a_forward_is_read_as_what_it_forwards():
    body = (
        "FYI\n\nOn Mon, Mar 9, 2026 at 4:12 PM Bob Roofer <bob@roof.example> wrote:\n"
        "The quote for replacing the north slope of the roof is $8,400, including\n"
        "tear-off and disposal.\n"
    )
    [chunk] = chunk_text("Fwd: roof quote", body, Chunking())
    assert "The quote for replacing the north slope of the roof is $8,400, including tear-off and disposal." in unquoted(chunk)


def test_a_row_with_a_dot_leader_is_a_line_of_its_own():
    """A table of a schedule or a bill: joined as hard-wrapped prose and cut at its dots, a row's
    time ended up beside the next row's place ("7:44 AM (new stop) Heron Bend Rd ....")."""
    body = (
        "Morning times change as follows:\n\n"
        "  Sandpiper Way & Kestrel Ct ......... 7:44 AM (new stop)\n"
        "  Heron Bend Rd & Marsh Ln ........... 7:53 AM (was 7:41 AM)\n\n"
        "Afternoon drop-off times are unchanged. Please be at the stop five minutes early.\n"
    )
    [chunk] = chunk_text("Route 22", body, Chunking())
    assert chunk.split("\n")[1:] == [
        "Morning times change as follows:",
        "Sandpiper Way & Kestrel Ct ......... 7:44 AM (new stop)",
        "Heron Bend Rd & Marsh Ln ........... 7:53 AM (was 7:41 AM)",
        "Afternoon drop-off times are unchanged.",
        "Please be at the stop five minutes early.",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Your Saturday (Nov. 21) shift is now 2 to 8. See you then.",
         ["Your Saturday (Nov. 21) shift is now 2 to 8.", "See you then."]),
        ("Visit Thurs. Nov. 26 at 3 pm. Bring ID.", ["Visit Thurs. Nov. 26 at 3 pm.", "Bring ID."]),
        ("We moved in Sept. We love it.", ["We moved in Sept.", "We love it."]),  # no day follows
    ],
)
def test_an_abbreviated_month_or_weekday_before_a_day_ends_no_sentence(text, expected):
    assert split_sentences(text) == expected
