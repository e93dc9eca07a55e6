"""The records the store keeps and hands out, and their forms in the catalog and in Chroma.

Plain data: retrieval, scoring and rendering pass these around without opening a store.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from functools import cached_property

from brainq.chunking import unquoted
from brainq.dates import DAY_FIRST_NOTE


@dataclass
class StoredDocument:
    """A document as the catalog keeps it (what `list`, scoring and output need)."""

    doc_id: str
    path: str
    locator: str | None
    kind: str
    doc_type: str
    title: str
    sender: str | None
    source_date: datetime | None
    date_source: str | None
    date_precision: str | None
    event_dates: list[date] = field(default_factory=list)
    thread: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    ingested_at: str = ""
    chunks: int = 0
    # The same for every copy of one document: a message in two folders, a file saved twice, an
    # announcement sent to several lists the same day (ingest.copy_key). Copies are one
    # document to a reader: listed, counted and shown once.
    copy_key: str | None = None
    copies: list[str] = field(default_factory=list)  # the other copies' places, when listed

    @property
    def place(self) -> str:
        """Where it is: its file, and within it the message's or attachment's locator."""
        return self.path + (f"#{self.locator}" if self.locator else "")

    @property
    def ocr(self) -> bool:
        """Whether some of its text was read by OCR (and may hold misread words)."""
        return any(note.startswith("text read by OCR") or (note.startswith("text of page(s)") and note.endswith("read by OCR"))
                   for note in self.notes)

    @property
    def written_day(self) -> date | None:
        """The day it was written: what the days its text names ("Friday", "the 30th") are
        read from."""
        return self.source_date.date() if self.source_date else None

    @property
    def day_first(self) -> bool:
        """Whether its numeric dates were read day first when it was read: its text writes them so
        ("25/11/2026"), or patterns.yaml said the household does."""
        return DAY_FIRST_NOTE in self.notes

    def to_json(self) -> dict:
        """The `list --json` record: the fields scripts ask for."""
        return {
            "doc_id": self.doc_id,
            "path": self.path,
            "locator": self.locator,
            "source_date": self.source_date.isoformat() if self.source_date else None,
            "date_source": self.date_source,
            "date_precision": self.date_precision,
            "doc_type": self.doc_type,
            "title": self.title,
            "sender": self.sender,
            "event_dates": [d.isoformat() for d in self.event_dates],
            "ingested_at": self.ingested_at,
            "chunks": self.chunks,
            "copies": self.copies,
            "notes": self.notes,  # what was left out, read by OCR, or read as dated day first
        }


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    text: str

    @cached_property
    def embedded_text(self) -> str:
        """What the chunk's vector is made of: what its sender says, not what a reply quotes.
        A quoted earlier message is in the store as its own document, with its own vector;
        left in, it pulled a short reply toward questions about the message it answers, and
        cost the model as many word pieces again as the reply itself."""
        return unquoted(self.text)

    @cached_property
    def text_sha(self) -> str:
        """The hash a stored vector is found by: of the text it is made of, so chunks that embed
        the same words share one, and a vector made of other words (a reply's, by a version that
        embedded its quote) is not taken for it. Kept: ingest asks for it at every step."""
        return hashlib.sha1(self.embedded_text.encode("utf-8", "surrogatepass")).hexdigest()


# Why a file is in the catalog without documents, though its reading did not fail: it is
# passed over until it changes, as a file that failed is, but is no error to report.
EMPTY = "empty"
NOT_A_KIND = "not a kind brainq reads"


@dataclass
class FileRecord:
    path: str
    size: int
    mtime_ns: int
    sha256: str | None
    pending: bool
    error: str | None
    derived: int  # what its documents were derived with (brainq/ingest.py's `derivation`)
    read_offset: int | None = None  # an mbox: the bytes read so far (see brainq/store/writes.py)
    messages: int | None = None  # an mbox: the messages in those bytes


@dataclass
class FileWrite:
    """One file's new state, as `Store.save_files` writes it."""

    path: str
    size: int
    mtime_ns: int
    sha256: str
    documents: list[StoredDocument]
    chunks: list[Chunk]
    vectors: list[list[float]]
    error: str | None = None
    derived: int = 0
    read_offset: int | None = None  # an mbox: see FileRecord
    messages: int | None = None
    unread_parts: list[str] = field(default_factory=list)  # why each of its parts was not read


@dataclass
class Hit:
    """One chunk found by a search, with its rank-able score (higher is better)."""

    chunk_id: str
    doc_id: str
    text: str
    score: float


def epoch_seconds(moment: datetime) -> float:
    """Naive datetimes (no zone known) are read as UTC: a few hours matter little for age."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def within(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies under it (both absolute)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def utc_now() -> str:
    """The moment as the store records it (when a file was checked, a run finished)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def fold_copies(docs: list[StoredDocument]) -> list[StoredDocument]:
    """The documents with each set of copies as one: the first of them, knowing the others'
    places (`copies`), in the order given."""
    first: dict[str, StoredDocument] = {}
    kept = []
    for doc in docs:
        key = doc.copy_key or doc.doc_id
        if key in first:
            first[key].copies.append(doc.place)
            continue
        first[key] = doc
        kept.append(doc)
    return kept


def document_of(chunk_id: str) -> str:
    """The document id in a chunk id (`{doc_id}:{version}:{index}`)."""
    return chunk_id.rsplit(":", 2)[0]


def document_row(d: StoredDocument) -> tuple:
    """A document as a row of the catalog's `documents` table."""
    return (
        d.doc_id,
        d.path,
        d.locator,
        d.kind,
        d.doc_type,
        d.title,
        d.sender,
        d.source_date.isoformat() if d.source_date else None,
        epoch_seconds(d.source_date) if d.source_date else None,
        d.date_source,
        d.date_precision,
        json.dumps([x.isoformat() for x in d.event_dates]),
        d.thread,
        json.dumps(d.headers),
        json.dumps(d.notes),
        d.ingested_at or utc_now(),
        d.chunks,
        d.copy_key,
    )


def document_from_row(row: tuple) -> StoredDocument:
    (doc_id, path, locator, kind, doc_type, title, sender, source_date, _ts, date_source,
     precision, event_dates, thread, headers, notes, ingested_at, chunks, copy_key) = row  # fmt: skip
    return StoredDocument(
        doc_id=doc_id,
        path=path,
        locator=locator,
        kind=kind,
        doc_type=doc_type,
        title=title,
        sender=sender,
        source_date=datetime.fromisoformat(source_date) if source_date else None,
        date_source=date_source,
        date_precision=precision,
        event_dates=[date.fromisoformat(x) for x in json.loads(event_dates or "[]")],
        thread=thread,
        headers=json.loads(headers or "{}"),
        notes=json.loads(notes or "[]"),
        ingested_at=ingested_at,
        chunks=chunks,
        copy_key=copy_key,
    )


def chunk_metadata(doc: StoredDocument, index: int) -> dict:
    """Chunk metadata in Chroma: the document's fields, dates also as numbers for range filters."""
    meta = {
        "doc_id": doc.doc_id,
        "path": doc.path,
        "locator": doc.locator or "",
        "doc_type": doc.doc_type,
        "title": doc.title[:500],
        "chunk": index,
        "source_date": doc.source_date.isoformat() if doc.source_date else "",
        "date_source": doc.date_source or "",
        "date_precision": doc.date_precision or "",
        "event_dates": ",".join(d.isoformat() for d in doc.event_dates),
    }
    if doc.source_date:
        meta["source_ts"] = int(epoch_seconds(doc.source_date))
        meta["source_day"] = int(epoch_seconds(doc.source_date) // 86400)
    return meta


def document_record(doc: StoredDocument, stamped: bool = True) -> str:
    """A document's catalog record as JSON, carried by its chunks on a Chroma server."""
    record = {**doc.to_json(), "kind": doc.kind, "thread": doc.thread, "headers": doc.headers,
              "copy_key": doc.copy_key}  # fmt: skip
    del record["copies"]
    if not stamped:
        del record["ingested_at"]  # when it was stored is no part of what it says
    return json.dumps(record, sort_keys=True)


def document_from_record(text: str) -> StoredDocument:
    r = json.loads(text)
    return StoredDocument(
        doc_id=r["doc_id"],
        path=r["path"],
        locator=r["locator"],
        kind=r["kind"],
        doc_type=r["doc_type"],
        title=r["title"],
        sender=r["sender"],
        source_date=datetime.fromisoformat(r["source_date"]) if r["source_date"] else None,
        date_source=r["date_source"],
        date_precision=r["date_precision"],
        event_dates=[date.fromisoformat(x) for x in r["event_dates"]],
        thread=r["thread"],
        headers=r["headers"],
        notes=r["notes"],
        ingested_at=r["ingested_at"],
        chunks=r["chunks"],
        copy_key=r.get("copy_key"),
    )
