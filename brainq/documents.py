"""The records that flow through brainq: what an extractor yields and what the store keeps."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

FUTURE_SLACK = timedelta(days=1)  # time zones and clocks a little ahead are no future


def in_the_future(when: datetime, now: datetime) -> bool:
    """Whether a date a document gives for its writing lies after `now`, when it is read (an
    aware time): nothing is written after it is read, so it is a broken clock's (a camera set
    to 2099, a calendar stamped 9999)."""
    if when.tzinfo is None:  # a camera's or a calendar's local time: the slack covers its zone
        when = when.replace(tzinfo=timezone.utc)
    return when > now + FUTURE_SLACK


@dataclass
class Item:
    """Bytes to extract: a file on disk, or an attachment held in memory.

    `path` is always the file on disk the bytes came from (for an attachment, the email's file),
    so every document can be traced back to something the user can open.
    """

    path: Path
    name: str
    data: bytes | None = None
    depth: int = 0  # attachment nesting depth: 0 for a file on disk
    charset: str | None = None  # an attachment's text, as its message declares it (MIME)
    # Bytes the archives inside one file on disk may still inflate, shared by all of them
    # however deeply nested (an archive of archives would otherwise multiply the limit).
    allowance: list[int] | None = None

    def read(self, max_bytes: int | None = None) -> bytes:
        if self.data is not None:
            return self.data
        with open(self.path, "rb") as fh:
            return fh.read() if max_bytes is None else fh.read(max_bytes)

    def head(self, n: int = 4096) -> bytes:
        if self.data is not None:
            return self.data[:n]
        with open(self.path, "rb") as fh:
            return fh.read(n)


@dataclass
class Document:
    """One searchable unit: a file, a message in a mailbox, an attachment, a calendar event."""

    path: str
    locator: str | None
    kind: str  # the extractor that produced it: email, pdf, office, html, photo, calendar, text
    title: str
    text: str
    source_date: datetime | None = None
    date_source: str | None = None  # header, exif, pdf_meta, xmp, office_meta, html_meta, text, ics, mtime ...
    # instant, day, month or year: a month-precise date is never treated as its first day
    date_precision: str | None = None
    sender: str | None = None
    doc_type: str | None = None  # set by the extractor when the kind decides it, else by rules
    headers: dict[str, str] = field(default_factory=dict)  # cues for doc_type rules (List-Id ...)
    event_dates: list[date] = field(default_factory=list)  # days the document is about
    thread: str | None = None  # thread key: root Message-ID or normalised subject
    notes: list[str] = field(default_factory=list)  # e.g. "no text layer found"
    # For a file inside another (an archive's), the time it was last written, which stands in
    # for the mtime of a file on disk; not stored.
    file_time: datetime | None = None

    @property
    def doc_id(self) -> str:
        """Stable id: the same file, message or attachment re-ingested gets the same id."""
        key = f"{self.path}\0{self.locator or ''}"
        return hashlib.sha1(key.encode("utf-8", "surrogateescape")).hexdigest()[:20]


@dataclass
class Failure:
    """A file, message or attachment that was skipped, with a reason a user can act on."""

    path: str
    reason: str


@dataclass
class Nested:
    """An item inside another (an email's attachment) for the extractor registry to read with
    whichever extractor fits: an extractor yields it rather than calling the registry, which
    imports every extractor."""

    item: Item
    label: str  # what a failure of it is reported as ("attachment invoice.pdf")
    adopt: Callable[[Document | Failure], Document | Failure]  # places its results under the parent
    optional: bool = False  # named in the parent only: skipped, not failed, if no extractor reads it
