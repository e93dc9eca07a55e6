"""Rich Text Format: the text a reader sees, in the document's code page, titled and dated by
its `\\info`; fonts, pictures and field codes passed over; hostile nesting refused."""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime
from pathlib import Path

import pytest

from brainq.config import load_config
from brainq.documents import Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, extractor_for, rtf

LIMITS = load_config().limits

NOTE = rb"""{\rtf1\ansi\ansicpg1252\cocoartf2709
{\fonttbl\f0\fswiss\fcharset0 Helvetica;}
{\colortbl;\red255\green255\blue255;}
{\*\generator Riched20 10.0.19041}
{\info{\title Water heater}{\author Ana}{\creatim\yr2024\mo3\dy5\hr10\min30}{\revtim\yr2024\mo3\dy9\hr8\min5}}
{\header Dutton Plumbing \'b7 (555) 013-4477\par}
\paperw11900\margl1440\f0\fs24 \cf0 Caf\'e9 visit: the new heater is a Rheem \u8211\'96 40 gal.\par
\pard\intbl Part\cell Cost\cell\row
\pard\intbl Labour\cell $1,240\cell\row
{\field{\*\fldinst HYPERLINK "http://example.com/invoice"}{\fldrslt Invoice 2291}}\par
{\pict\pngblip 89504e470d0a1a0a}Warranty: 6 years\line parts and tank\par
\bin4 {}\\ Next check\tab March 2025\par
}"""  # \bin4 passes over the four bytes after it, whatever they are


def read(data: bytes, name: str = "note.rtf", limits=LIMITS):
    return list(extract_item(Item(Path("/docs") / name, name, data=data), limits))


def test_a_note_reads_as_its_text_titled_and_dated_by_its_info():
    (doc,) = read(NOTE)
    assert doc.kind == "office" and doc.title == "Water heater"
    assert doc.text.split("\n") == [
        "Caf\u00e9 visit: the new heater is a Rheem \u2013 40 gal.", "Part  |  Cost", "Labour  |  $1,240",
        "Invoice 2291", "Warranty: 6 years", "parts and tank", "Next check\tMarch 2025", "Dutton Plumbing \u00b7 (555) 013-4477",
    ]  # fmt: skip
    assert (doc.source_date, doc.date_source) == (datetime(2024, 3, 9, 8, 5), "office_meta")  # revised, not created


def test_bytes_are_read_in_the_documents_code_page_and_unicode_with_its_stand_in_passed_over():
    japanese = rb"{\rtf1\ansi\ansicpg932 \'82\'a0\'82\'a2 \uc2\u26085\'93\'fa done\par}"
    assert read(japanese)[0].text == "\u3042\u3044 \u65e5 done"
    unknown = rb"{\rtf1\ansi\ansicpg99999 caf\'e9\par}"  # a code page Python lacks: Windows-1252
    assert read(unknown)[0].text == "caf\u00e9"


def test_rtf_is_known_by_its_opening_whatever_its_name():
    """WordPad and many converters write RTF under a ".doc" name."""
    assert extractor_for(Item(Path("a"), "letter.doc", data=NOTE)) is rtf
    assert extractor_for(Item(Path("a"), "attachment", data=b"\xef\xbb\xbf {\\rtf1 x}")) is rtf
    assert extractor_for(Item(Path("a"), "notes.rtf", data=b"not rtf at all")) is None


@pytest.mark.parametrize(
    "data, reason",
    [
        (rb"{\rtf1{\fonttbl\f0 Arial;}{\pict 0011}}", "no text in the document"),
        (b"{\\rtf1 " + b"{" * 300 + b"x" + b"}" * 300 + b"}", "groups nested deeper than 256"),
    ],
)
def test_documents_without_text_or_built_to_exhaust_memory_are_refused(data, reason):
    with pytest.raises(ExtractError, match=reason):
        read(data)


def test_broken_rtf_is_read_as_far_as_it_goes_in_linear_time():
    assert read(rb"{\rtf1 Pickup at 3 PM.\par}}}}")[0].text == "Pickup at 3 PM."  # extra closers
    assert read(b"{\\rtf1 Pickup at 3 PM.\\")[0].text == "Pickup at 3 PM."  # a lone backslash, cut
    assert read(rb"{\rtf1 x\bin999999999 lost}")[0].text == "x"  # a \bin past the end
    start = time.perf_counter()
    read(b"{\\rtf1 " + b"\\u65\\'41" * 200_000 + b"{}" * 200_000 + b"\\par}")
    assert time.perf_counter() - start < 20


def test_text_is_read_to_the_limit():
    limits = dataclasses.replace(LIMITS, max_text_chars=100)
    (doc,) = read(b"{\\rtf1 " + b"word " * 10_000 + b"}", limits=limits)
    assert 100 <= len(doc.text) <= 110


@pytest.mark.parametrize(
    "data, text, title",
    [
        # what a skipped group holds stays out of headers and titles too (a watermark's shape)
        (rb"{\rtf1 {\headerr Page {\field{\*\fldinst PAGE}{\fldrslt 1}}{\shp{\*\shpinst{\sp{\sn shapeType}}}}\par}Body\par}",
         "Body\nPage 1", "Body"),
        (rb"{\rtf1 {\info{\upr{\title Caf\'e9 plan}{\*\ud{\title Caf\u233 e plan}}}}Body}", "Body", "Caf\u00e9 plan"),
        # an emoji written as its two UTF-16 halves, by TextEdit and by Word
        (rb"{\rtf1 Party \uc0\u55356 \u57225  tonight}", "Party \U0001f389 tonight", None),
        (rb"{\rtf1 Party \u-10179?\u-8704? tonight}", "Party \U0001f600 tonight", None),
        # Mac and DOS code pages, and a font's own charset in a Windows-1252 document
        (rb"{\rtf1\ansi\ansicpg10000 caf\'8e}", "caf\u00e9", None),
        (rb"{\rtf1\pc caf\'82}", "caf\u00e9", None),
        (rb"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f1\fcharset204 Calibri;}}\f1\'cf\'f0\'e8\'e2\'e5\'f2 \f0 caf\'e9}",
         "\u041f\u0440\u0438\u0432\u0435\u0442 caf\u00e9", None),
        # a broken escape loses nothing after it; a control word stands in for one character
        (rb"{\rtf1\ansi\ansicpg932 \'83A\'83C\'83\'93 end}", "\u30a2\u30a4\u30f3 end", None),  # a second byte as ASCII
        (rb"{\rtf1 Hello \'g1 world}", "Hello g1 world", None),
        (rb"{\rtf1 \uc1 a\u8212\emdash b}", "a\u2014b", None),
        # old list numbering, tracked deletions and hidden text are no text; notes come after
        (rb"{\rtf1 {\pn\pnlvlbody{\pntxta .}}First}", "First", None),
        (rb"{\rtf1 Keep{\deleted  DELETED} this. {\v HIDDEN}shown \v x\v0 y}", "Keep this. shown y", None),
        (rb"{\rtf1 Main text{\footnote A note.} continues.\par}", "Main text continues.\nA note.", None),
    ],
)  # fmt: skip
def test_what_word_textedit_and_wordpad_write_reads_as_shown(data, text, title):
    (doc,) = read(data)
    assert doc.text == text and doc.title == (title or doc.title)


def test_long_rows_and_runs_of_spaces_cost_no_more_than_their_length():
    start = time.perf_counter()
    read(b"{\\rtf1 " + b"\\cell " * 20_000 + b"x\\par " + b" " * 100_000 + b"x}")
    assert time.perf_counter() - start < 10  # a pattern over a row's cell ends took 14 s for 8,000
