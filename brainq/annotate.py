"""What the extractors cannot decide alone: doc_type by rules, fallback dates, event dates.

The date fallback order: the content's own date (set by the extractor), then a date printed
prominently in the text (of a PDF, a note, or a photo's text read by OCR), and the file's
mtime only as a last resort, flagged in `date_source` and `notes` so a verdict can say the
date is uncertain. The mtime stands in only for documents that are files of their own (PDFs,
notes): a message's or a photo's file time says when it was copied, not when it was written
or taken, so an email without a valid Date header or a photo without EXIF dates and printed
dates stays undated.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from brainq import dates
from brainq.config import Config, DocTypes
from brainq.documents import Document, in_the_future

UNUSED_FUTURE = "lies in the future; not used"  # what a note says of a date left unused
CUE_SCAN_CHARS = 20_000  # doc_type cues are read from the start of a document only
DATE_FROM_FILE_KINDS = ("pdf", "office", "html", "text")
# A photo without EXIF dates that shows text (a receipt: read by OCR) is dated by a date printed
# in it under a label ("Date:"), as a scan is; a flyer's or a booking's first date is its event's.
DATE_FROM_TEXT_KINDS = ("pdf", "office", "html", "text", "photo")


def annotate(doc: Document, config: Config, mtime: float, now: datetime) -> Document:
    """Fill in doc_type, a fallback source_date and the event dates, in place; `now` is when
    the document is read (aware)."""
    if doc.doc_type is None:
        doc.doc_type = classify_doc_type(doc, config.doc_types)
    day_first = dates.reads_day_first(doc.text, config.numeric_dates)
    if day_first and dates.has_numeric_dates(doc.text):  # for its sentences at question time
        doc.notes.append(dates.DAY_FIRST_NOTE)
    unused = None
    if doc.source_date is not None and in_the_future(doc.source_date, now):
        # Kept, such a date would hide the document from every question asked before it (as
        # written later) and give it a negative age.
        unused = doc.source_date.date()
        doc.notes.append(f"its date ({unused}) {UNUSED_FUTURE}")
        doc.source_date, doc.date_source, doc.date_precision = None, None, None
    if doc.date_source == "scan":
        _printed_before_scan(doc, day_first)
    if doc.source_date is None:
        _fallback_date(doc, mtime, now, had_date=unused is not None, day_first=day_first)
    anchor = doc.source_date.date() if doc.source_date else None
    found = dates.find_event_dates(doc.text, anchor, day_first=day_first)
    # The unused date, printed in the text (a camera's "Taken" line), is no day it is about.
    doc.event_dates = sorted((set(doc.event_dates) | set(found)) - {unused})
    return doc


def classify_doc_type(doc: Document, rules: DocTypes) -> str:
    """The first rule of patterns.yaml that fits the document's kind, headers and cues."""
    headers = {name.lower(): str(value) for name, value in doc.headers.items()}
    sample = f"{doc.title}\n{doc.text[:CUE_SCAN_CHARS]}"
    for rule in rules.rules:
        if doc.kind not in rule.kinds:
            continue
        excepted = any(header_matches(h, headers) for h in rule.unless_headers)
        if not excepted and any(header_matches(h, headers) for h in rule.headers):
            return rule.doc_type
        if rule.cues and _cues_found(rule.cues, sample) >= rule.min_cues:
            return rule.doc_type
    return rules.default_by_kind.get(doc.kind, doc.kind)


def _cues_found(cues: list[str], sample: str) -> int:
    """How many cues the text holds, each in words of its own: "payment due by March 3" in a
    school's trip email is one cue, though both "payment due" and "due by" match it."""
    taken: list[tuple[int, int]] = []
    for cue in cues:
        for match in re.finditer(cue, sample, re.IGNORECASE):
            if all(match.end() <= start or match.start() >= end for start, end in taken):
                taken.append(match.span())
                break
    return len(taken)


def header_matches(rule: str, headers: dict[str, str]) -> bool:
    """`Name` is met by the header's presence, `Name: regex` by its value (case-insensitive)."""
    name, colon, pattern = rule.partition(":")
    value = headers.get(name.strip().lower())
    if value is None:
        return False
    return not colon or re.search(pattern.strip(), value, re.IGNORECASE) is not None


def _printed_before_scan(doc: Document, day_first: bool) -> None:
    """A scan is dated by the date printed on its page, when that comes before the scan: the
    paper was written then. A later one is a due date or an event's, and the scan's date stays."""
    found = dates.find_document_date(doc.text, day_first=day_first)
    if found and found[0].date() <= doc.source_date.date():
        doc.notes.append(f"scanned {doc.source_date.date()}; dated by the date printed in it")
        doc.source_date, doc.date_precision = found
        doc.date_source = "text"


def _fallback_date(doc: Document, mtime: float, now: datetime, had_date: bool, day_first: bool) -> None:
    """A date printed in the text, else the file's time; `had_date`: the file gave one, in the
    future, left unused (so its note does not say the file has none)."""
    if doc.kind in DATE_FROM_TEXT_KINDS:
        found = dates.find_document_date(doc.text, labelled_only=doc.kind == "photo", day_first=day_first)
        if found and not in_the_future(found[0], now):
            doc.source_date, doc.date_precision = found
            doc.date_source = "text"
            return
        if found:
            doc.notes.append(f"its date ({found[0].date()}) {UNUSED_FUTURE}")
            had_date = True
    if doc.kind not in DATE_FROM_FILE_KINDS or (doc.locator is not None and doc.file_time is None):
        # An attachment (located in its message) is no file of its own: its mailbox's file time
        # says when mail last arrived, not when it was written. A file in an archive has its own.
        doc.date_source = "none"  # known to be undated, unlike a document from an older brainq
        return
    written = doc.file_time if doc.locator is not None else datetime.fromtimestamp(mtime, timezone.utc)
    if in_the_future(written, now):  # a clock set wrong, or an archiver's (zip times run to 2107)
        doc.date_source = "none"
        return
    doc.source_date = written
    doc.date_source = "mtime"
    doc.date_precision = "instant"
    doc.notes.append(f"{'' if had_date else 'no date in the file itself; '}dated by its modification time")
