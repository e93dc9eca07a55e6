"""The store: chunk vectors in ChromaDB, and beside them a SQLite catalog and lexical index.

The catalog knows every file (size, mtime, content hash, last error), every document (its
dates, type and title) and every chunk's text in an FTS5 index, so unchanged files are
skipped without parsing, `list`/`status` never load Chroma, and exact tokens are searchable.
Chroma holds vectors and metadata; texts are not stored there a second time (half of Chroma's
write cost was its copy of them), except on a server, where the other machines read them.

Writes keep both readers and crashes safe:
1. the file is marked pending in the catalog (committed), so a run killed at any later point
   leaves it pending and the next run redoes it;
2. its new chunks go into Chroma under new ids (the ids carry the file's content hash);
3. one catalog transaction swaps the file's old documents and chunk list for the new ones;
4. the old chunks are deleted from Chroma, and only then is the pending mark cleared (in step 3
   when there are none), so a crash leaves no chunk behind that the next run would not delete.
The catalog's `chunk_index` is the list of live chunks: search ignores Chroma chunks it does not
list, so a concurrent `ask` sees a file's old state or its new one, never a mix.

An mbox that only grew is not read again from the start. Its record keeps `read_offset`, the
bytes that were read (its size then), and `messages`, how many messages they held; its sha256
covers exactly those bytes. When the file is larger, the hash of its first `read_offset` bytes
is unchanged and a new message starts there, only the bytes after it are read, and their
documents are added beside the file's others (`add_documents`). Anything else (a changed
prefix, a last message that was still being written) reads the whole file again.

Vectors are addressed by content too: a chunk whose text (title included) is already stored
takes the stored vector, so moved files, re-derived metadata and grown mailboxes cost no
embedding.

With a Chroma server (`chroma_url`) several machines share one collection, and Chroma is the
shared truth. Each store has an `origin`, made once and kept in the catalog's meta. Its catalog
is the authority for the files this machine ingests, as above, and a copy of every other
origin's documents and chunks, so the lexical index and scoring see them all:
- every chunk carries its origin and a JSON copy of its document record in Chroma, so another
  machine can rebuild the catalog rows from Chroma alone;
- document ids are namespaced by origin (the same path on two machines is two documents),
  chunk ids carry a hash of the document record too (a re-derived record gets new ids, which
  is how the other machines notice it), and every path filter sent to Chroma names the origin;
- after writing, a writer announces a fresh revision in the `brainq_origins` collection, one
  record per origin, so announcements of different machines never overwrite each other;
- a reader compares each origin's revision with the one it copied last, and only for a changed
  origin lists that origin's chunk ids and copies the documents whose chunks came or went.
The local writer lock still serialises the writers of one origin; different origins write
disjoint ids. The embedded default keeps its ids, and none of this costs it anything.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

from brainq.crashpoints import reached
from brainq.errors import LockedError, StoreError, UsageError

SCHEMA_VERSION = 3  # 2: chunk_index links each chunk to its text in the FTS table; 3: copy_key
COLLECTION = "brainq_chunks"
ORIGINS = "brainq_origins"  # server mode: each origin's latest revision (see the module docstring)
VOCABULARY = "brainq_vocabulary"  # every word of the chunks, with its vector (brainq/vocabulary.py)
CHROMA_BATCH = 1000  # chunks per Chroma write: large batches amortise its per-call overhead
# Server mode: how stale the copy of other origins may be before a read looks at the server
# again (one small request); long-running processes re-check at most this often.
SYNC_SECONDS = 2.0
MAX_COUNTS = 10_000  # word counts a long-lived reader keeps while the catalog stays the same
# Pauses before reading embedded Chroma again when a writing process changed it mid-read.
READ_RETRY_SECONDS = (0.05, 0.2, 0.5)
_READS = frozenset({"get", "query", "count", "peek"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sources (path TEXT PRIMARY KEY, added_at TEXT);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT,
    pending INTEGER NOT NULL DEFAULT 0, error TEXT, checked_at TEXT, derived INTEGER NOT NULL DEFAULT 0,
    read_offset INTEGER, messages INTEGER);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, path TEXT NOT NULL, locator TEXT, kind TEXT, doc_type TEXT,
    title TEXT, sender TEXT, source_date TEXT, source_ts REAL, date_source TEXT,
    date_precision TEXT, event_dates TEXT, thread TEXT, headers TEXT, notes TEXT,
    ingested_at TEXT, chunks INTEGER, copy_key TEXT);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS chunk_index (
    chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, path TEXT NOT NULL, text_sha TEXT NOT NULL,
    text_rowid INTEGER);
CREATE INDEX IF NOT EXISTS chunk_index_sha ON chunk_index(text_sha);
CREATE INDEX IF NOT EXISTS chunk_index_path ON chunk_index(path);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(
    text, chunk_id UNINDEXED, doc_id UNINDEXED, tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, command TEXT, finished_at TEXT, summary TEXT);
CREATE TABLE IF NOT EXISTS remote_origins (origin TEXT PRIMARY KEY, revision TEXT, copied_at TEXT);
CREATE TABLE IF NOT EXISTS remote_documents (doc_id TEXT PRIMARY KEY, origin TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS remote_documents_origin ON remote_documents(origin);
"""
# Catalog rows of this store's own files: the others are copies of other origins' documents.
_OWN = "doc_id NOT IN (SELECT doc_id FROM remote_documents)"
# Columns added since stores were first written: the files' within schema 1 (older brainq
# ignore them), chunk_index's with schema 2 and documents' with schema 3 (older brainq refuse
# such a store).
_ADDED_COLUMNS = (
    ("files", "read_offset", "INTEGER"),
    ("files", "messages", "INTEGER"),
    ("chunk_index", "text_rowid", "INTEGER"),
    ("documents", "copy_key", "TEXT"),
)


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
    def ocr(self) -> bool:
        """Whether some of its text was read by OCR (and may hold misread words)."""
        return any(note.startswith("text read by OCR") or (note.startswith("text of page(s)") and note.endswith("read by OCR"))
                   for note in self.notes)

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
            "notes": self.notes,  # what was left out or read by OCR
        }


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    text: str

    @property
    def text_sha(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class FileRecord:
    path: str
    size: int
    mtime_ns: int
    sha256: str | None
    pending: bool
    error: str | None
    derived: int  # what its documents were derived with (brainq/ingest.py's `derivation`)
    read_offset: int | None = None  # an mbox: the bytes read so far (see the module docstring)
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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """One brainq store: a directory holding the catalog and (by default) Chroma's files."""

    def __init__(self, home: Path, chroma_url: str | None = None):
        self.home = Path(home).expanduser()
        self.chroma_url = chroma_url
        self._collection = None
        self._data_version = None
        self._origins = None
        self._origin: str | None = None
        self._copied_at = -SYNC_SECONDS  # server mode: when other origins were last looked at
        self._unannounced = False  # server mode: Chroma changed since the last announcement
        self._counts: dict[str | None, int] = {}  # see _counted
        self._counts_state: tuple[int, int] | None = None
        self._vocabulary = None
        self._open_home()
        self.db = self._connect()

    # -- opening ---------------------------------------------------------------------------

    def _open_home(self) -> None:
        # The store holds a person's mail: everything in it is readable by its owner only.
        os.umask(0o077)
        if self.home.exists() and not self.home.is_dir():
            raise StoreError(f"store path {self.home} is a file, not a directory")
        try:
            self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(self.home, 0o700)
        except OSError as exc:
            raise StoreError(f"cannot create store at {self.home}: {exc.strerror}") from None
        if not os.access(self.home, os.W_OK | os.X_OK):
            raise StoreError(f"store {self.home} is not writable")

    def _connect(self) -> sqlite3.Connection:
        path = self.home / "catalog.sqlite3"
        try:
            db = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open catalog {path}: {exc}") from None
        if version is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(version[0]) > SCHEMA_VERSION:
            raise StoreError(
                f"store {self.home} was written by a newer brainq (schema {version[0]}); upgrade brainq"
            )
        try:
            self._upgrade(db)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot upgrade catalog {path}: {exc}") from None
        return db

    @staticmethod
    def _upgrade(db: sqlite3.Connection) -> None:
        """Bring a catalog written by an older brainq up to this one's schema."""

        def behind():
            version = int(db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0])
            missing = [
                (table, column, kind)
                for table, column, kind in _ADDED_COLUMNS
                if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            ]
            return version, missing

        if behind() == (SCHEMA_VERSION, []):
            return
        db.execute("BEGIN IMMEDIATE")  # and look again: another process may have been first
        version, missing = behind()
        for table, column, kind in missing:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        if version < 2:
            # Found by chunk id once: FTS5 cannot index that column, so a temporary table does.
            db.execute("CREATE TEMP TABLE fts_rows AS SELECT chunk_id, rowid AS text_rowid FROM chunks")
            db.execute("CREATE INDEX temp.fts_rows_id ON fts_rows(chunk_id)")
            db.execute(
                "UPDATE chunk_index SET text_rowid = "
                "(SELECT text_rowid FROM fts_rows WHERE fts_rows.chunk_id = chunk_index.chunk_id)"
            )
            db.execute("DROP TABLE temp.fts_rows")
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")

    @property
    def origin(self) -> str:
        """This store's name among the machines sharing a Chroma server, made once."""
        if self._origin is None:
            name = re.sub(r"[^a-z0-9]+", "-", socket.gethostname().lower()).strip("-") or "brainq"
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('origin', ?)", (f"{name}-{secrets.token_hex(3)}",))
            self._origin = self._meta("origin")
        return self._origin

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def collection(self):
        """Chroma is imported only by commands that need vectors: it costs a second to load."""
        if self._collection is None:
            self._open_chroma()
        return self._collection

    @property
    def vocabulary(self):
        """The store's words and their vectors, a Chroma collection beside the chunks'."""
        if self._vocabulary is None:
            self._open_chroma()
        return self._vocabulary

    def _open_chroma(self) -> None:
        import chromadb
        from chromadb.config import Settings

        settings = Settings(anonymized_telemetry=False)
        bound = self._meta("chroma_url")
        if self.chroma_url:
            client = self._server_client(settings)
        elif bound:
            raise StoreError(
                f"store {self.home} keeps its vectors on the Chroma server at {bound}; "
                f"pass --chroma-url {bound} (or set BRAINQ_CHROMA_URL)"
            )
        try:
            if not self.chroma_url:
                client = _embedded_client(self.home / "chroma", settings)
            # embedding_function=None: brainq embeds itself; Chroma's default would download a model.
            collection = client.get_or_create_collection(
                COLLECTION, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
            vocabulary = client.get_or_create_collection(
                VOCABULARY, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
            if self.chroma_url:
                origins = client.get_or_create_collection(ORIGINS, embedding_function=None)
        except Exception as exc:  # chromadb raises many types; all mean "cannot open"
            if self.chroma_url:
                raise StoreError(f"cannot open brainq's collection on the Chroma server at {self.chroma_url}: {exc}") from None
            raise StoreError(
                f"cannot open the vectors of store {self.home} ({self.home / 'chroma'}: {_chroma_reason(exc)}); "
                f"`brainq --store {self.home} status --check --repair` rebuilds them from the catalog"
            ) from None
        if self.chroma_url:
            self._bind(str(collection.id))
            self._origins = _Guarded(origins, self.chroma_url, server=True)
        where = self.chroma_url or str(self.home / "chroma")
        self._collection = _Guarded(collection, where, server=bool(self.chroma_url))
        self._vocabulary = _Guarded(vocabulary, where, server=bool(self.chroma_url))

    def _server_client(self, settings):
        """An HttpClient, after one request that tells an unreachable or incompatible server apart."""
        from urllib.parse import urlparse

        import chromadb
        import httpx

        url = urlparse(self.chroma_url)
        if url.scheme not in ("http", "https") or not url.hostname or url.path.strip("/"):
            raise StoreError(f"Chroma server URL {self.chroma_url!r}: expected http://host:port")
        port = url.port or (443 if url.scheme == "https" else 8000)
        try:
            reply = httpx.get(f"{url.scheme}://{url.hostname}:{port}/api/v2/heartbeat", timeout=10)
        except httpx.HTTPError as exc:
            raise StoreError(f"cannot reach the Chroma server at {self.chroma_url} ({exc}); is it running?") from None
        if reply.status_code != 200:
            raise StoreError(
                f"the Chroma server at {self.chroma_url} does not speak Chroma's API v2 (HTTP "
                f"{reply.status_code}); brainq needs a Chroma 1.x server"
            )
        try:
            return chromadb.HttpClient(host=url.hostname, port=port, ssl=url.scheme == "https", settings=settings)
        except Exception as exc:  # chromadb raises many types; all mean "cannot use this server"
            raise StoreError(f"cannot use the Chroma server at {self.chroma_url}: {exc}") from None

    def _bind(self, collection_id: str) -> None:
        """A catalog describes one Chroma collection's vectors: refuse to mix it with another's."""
        bound = self._meta("chroma_collection")
        if bound is None and (self.home / "chroma").exists():
            raise StoreError(
                f"store {self.home} already holds documents whose vectors are not on the Chroma server "
                f"at {self.chroma_url}; use a new --store for the server"
            )
        if bound not in (None, collection_id):
            raise StoreError(
                f"store {self.home} belongs to another Chroma collection than the one at "
                f"{self.chroma_url} (was the server reset?); use a new --store for it"
            )
        if bound is None or self._meta("chroma_url") != self.chroma_url:
            self.db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('chroma_collection', ?), ('chroma_url', ?)",
                (collection_id, self.chroma_url),
            )

    def close(self) -> None:
        self.db.close()

    def refresh(self) -> None:
        """Let a long-lived reader (`brainq serve`) see what other processes wrote since.

        SQLite readers see every commit, but embedded Chroma keeps its vector index in memory
        and never learns of another process's writes: re-open it when the catalog changed (a
        writer commits to the catalog after each Chroma write, so a change always shows there).
        """
        version = self.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version and self._collection is not None and not self.chroma_url:
            _forget_embedded_client(self.home / "chroma")
            self._collection = self._vocabulary = None
        self._data_version = version

    @contextmanager
    def writer_lock(self, wait_seconds: float = 0.0):
        """One writer at a time (ingest, backfill, forget); readers (ask) never wait for it.

        On a Chroma server it serialises this origin's writers only (other origins write other
        ids), and what was written under it is announced before it is released.
        """
        with open(self.home / "write.lock", "a+") as fh:
            deadline = time.monotonic() + wait_seconds
            while True:
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockedError(
                            f"another brainq ingest or backfill is writing to {self.home}; "
                            "try again later or pass --wait SECONDS"
                        ) from None
                    time.sleep(0.2)
            try:
                yield
            finally:
                try:
                    self.announce()
                finally:
                    fcntl.flock(fh, fcntl.LOCK_UN)

    @contextmanager
    def transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- sources ---------------------------------------------------------------------------

    def add_source(self, path: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO sources VALUES (?, ?)", (path, _now()))

    def sources(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT path FROM sources ORDER BY path")]

    def remove_source(self, path: str) -> bool:
        return self.db.execute("DELETE FROM sources WHERE path = ?", (path,)).rowcount > 0

    # -- files -----------------------------------------------------------------------------

    def file_record(self, path: str) -> FileRecord | None:
        row = self.db.execute(
            "SELECT path, size, mtime_ns, sha256, pending, error, derived, read_offset, messages "
            "FROM files WHERE path = ?",
            (path,),
        ).fetchone()
        return FileRecord(row[0], row[1], row[2], row[3], bool(row[4]), *row[5:]) if row else None

    def locators(self, path: str) -> set[str]:
        """The locators of a file's documents (messages and attachments of a mailbox)."""
        rows = self.db.execute(f"SELECT locator FROM documents WHERE path = ? AND locator IS NOT NULL AND {_OWN}", (path,))
        return {row[0] for row in rows}

    def files_under(self, root: str) -> list[str]:
        prefix = root.rstrip("/") + "/"
        rows = self.db.execute(
            "SELECT path FROM files WHERE path = ? OR substr(path, 1, ?) = ?", (root, len(prefix), prefix)
        )
        return [row[0] for row in rows]

    def flag_incomplete_metadata(self) -> int:
        """Mark files whose documents lack a date, type or event dates for re-derivation."""
        return self.db.execute(
            "UPDATE files SET derived = 0 WHERE path IN (SELECT path FROM documents WHERE "
            f"(date_source IS NULL OR doc_type IS NULL OR event_dates IS NULL) AND {_OWN})"
        ).rowcount

    def touch_file(self, path: str, size: int, mtime_ns: int) -> None:
        """The file's stat changed but its content did not: remember the new stat only."""
        self.db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, checked_at = ? WHERE path = ?",
            (size, mtime_ns, _now(), path),
        )

    def mark_pending(self, path: str, size: int, mtime_ns: int) -> None:
        self.db.execute(
            "INSERT INTO files (path, size, mtime_ns, sha256, pending, error, checked_at) "
            "VALUES (?, ?, ?, NULL, 1, NULL, ?) ON CONFLICT(path) DO UPDATE SET pending = 1",
            (path, size, mtime_ns, _now()),
        )

    def save_files(self, files: list[FileWrite]) -> None:
        """Replace everything stored for several files, each step of the module docstring's
        order taken for all of them at once: a mailbox's small messages cost Chroma and SQLite
        about as much per call as the model does to embed them, so calls are shared."""
        if not files:
            return
        with self.transaction():
            known = {f.path for f in files if self.file_record(f.path) is not None}
            for f in files:
                self.mark_pending(f.path, f.size, f.mtime_ns)
        reached("files-pending")
        # Chunks a crashed run left behind are not in chunk_index; Chroma's list has them all.
        old_ids = {path: set(self.collection.get(where=self._where_path(path), include=[])["ids"]) for path in known}
        self._upsert_chunks(
            [c for f in files for c in f.chunks],
            [v for f in files for v in f.vectors],
            [m for f in files for m in self._chunk_metadatas(f.documents, f.chunks)],
        )
        stale = {f.path: list(old_ids.get(f.path, set()) - {c.chunk_id for c in f.chunks}) for f in files}
        with self.transaction() as db:
            for f in files:
                self._delete_catalog(db, f.path)
                self._insert_catalog(db, f.path, f.documents, f.chunks)
                self._update_file(db, f.path, f.size, f.mtime_ns, f.sha256, f.error, f.derived, f.read_offset,
                                  f.messages, stale[f.path])  # fmt: skip
            reached("catalog-written")
        for f in files:
            self._delete_chunks(f.path, stale[f.path])

    def add_documents(
        self,
        path: str,
        size: int,
        mtime_ns: int,
        sha256: str,
        documents: list[StoredDocument],
        chunks: list[Chunk],
        vectors: list[list[float]],
        derived: int,
        read_offset: int,
        messages: int,
    ) -> None:
        """Add documents to those of a grown mailbox, in the order the module docstring gives.

        The file's other documents stay as they are; one already stored under a new
        document's id is replaced by it.
        """
        self.mark_pending(path, size, mtime_ns)
        replaced = list(self.get_documents(d.doc_id for d in documents))
        old_ids = {row[0] for row in self._rows_where_in("SELECT chunk_id FROM chunk_index WHERE doc_id", replaced)}
        self._upsert_chunks(chunks, vectors, self._chunk_metadatas(documents, chunks))
        stale = list(old_ids - {c.chunk_id for c in chunks})
        with self.transaction() as db:
            self._delete_documents(db, replaced)
            self._insert_catalog(db, path, documents, chunks)
            self._update_file(db, path, size, mtime_ns, sha256, None, derived, read_offset, messages, stale)
            reached("catalog-written")
        self._delete_chunks(path, stale)

    def _upsert_chunks(self, chunks: list[Chunk], vectors, metadatas: list[dict]) -> None:
        for start in range(0, len(chunks), CHROMA_BATCH):
            end = start + CHROMA_BATCH
            batch = {
                "ids": [c.chunk_id for c in chunks[start:end]],
                "embeddings": vectors[start:end],
                "metadatas": metadatas[start:end],
            }
            if self.chroma_url:  # other origins copy texts from the server; the catalog has ours
                batch["documents"] = [c.text for c in chunks[start:end]]
            self.collection.upsert(**batch)
            self._unannounced = True
            reached("vectors-written")

    def _chunk_metadatas(self, documents: list[StoredDocument], chunks: list[Chunk]) -> list[dict]:
        by_id = {d.doc_id: d for d in documents}
        return [self._chunk_metadata(by_id[c.doc_id], int(c.chunk_id.rsplit(":", 1)[1])) for c in chunks]

    def _chunk_metadata(self, doc: StoredDocument, index: int) -> dict:
        meta = _chunk_metadata(doc, index)
        if self.chroma_url:
            meta.update(origin=self.origin, record=_record(doc))
        return meta

    def _where_path(self, path: str) -> dict:
        """The Chroma filter for one file's chunks; on a server, this origin's file of that name."""
        if self.chroma_url:
            return {"$and": [{"path": path}, {"origin": self.origin}]}
        return {"path": path}

    def document_id(self, doc_id: str) -> str:
        """A document's id in this store: on a server, namespaced by origin, so that the same
        path on two machines is two documents; embedded, the id as it always was."""
        if not self.chroma_url:
            return doc_id
        return hashlib.sha1(f"{self.origin}\0{doc_id}".encode()).hexdigest()[:20]

    def chunk_prefix(self, doc: StoredDocument, sha256: str) -> str:
        """What a document's chunk ids start with: its id and the content they were made from.

        On a server the document record counts as content too: re-derived metadata gives new
        ids, and new ids are what other origins look for when they copy the catalog.
        """
        if not self.chroma_url:
            return f"{doc.doc_id}:{sha256[:8]}"
        version = hashlib.sha1(f"{sha256}\0{_record(doc, stamped=False)}".encode()).hexdigest()
        return f"{doc.doc_id}:{version[:8]}"

    @staticmethod
    def _insert_catalog(db: sqlite3.Connection, path: str, documents: list[StoredDocument], chunks: list[Chunk]):
        db.executemany(
            "INSERT OR REPLACE INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [_document_row(d) for d in documents],
        )
        # Rows numbered here, inside the write transaction, so chunk_index can point at them.
        last = db.execute("SELECT rowid FROM chunks ORDER BY rowid DESC LIMIT 1").fetchone()
        first = (last[0] if last else 0) + 1
        rowids = range(first, first + len(chunks))
        db.executemany(
            "INSERT INTO chunks (rowid, text, chunk_id, doc_id) VALUES (?, ?, ?, ?)",
            [(rowid, c.text, c.chunk_id, c.doc_id) for rowid, c in zip(rowids, chunks)],
        )
        db.executemany(
            "INSERT OR REPLACE INTO chunk_index VALUES (?, ?, ?, ?, ?)",
            [(c.chunk_id, c.doc_id, path, c.text_sha, rowid) for rowid, c in zip(rowids, chunks)],
        )

    @staticmethod
    def _update_file(db, path, size, mtime_ns, sha256, error, derived, read_offset, messages, stale) -> None:
        db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, sha256 = ?, pending = ?, error = ?, "
            "checked_at = ?, derived = ?, read_offset = ?, messages = ? WHERE path = ?",
            (size, mtime_ns, sha256, int(bool(stale)), error, _now(), derived, read_offset, messages, path),
        )

    def _delete_chunks(self, path: str, stale: list[str]) -> None:
        """Step 4: the replaced chunks leave Chroma, then the file is no longer pending."""
        if stale:
            self.collection.delete(ids=stale)
            self._unannounced = True
            reached("old-vectors-deleted")
            self.db.execute("UPDATE files SET pending = 0 WHERE path = ?", (path,))

    def forget(self, target: str) -> int:
        """Drop a file, or every file under a folder, and stop scanning it as a source; returns
        how many documents went. Called under the writer lock."""
        files = self.files_under(target)
        if not self.remove_source(target) and not files:
            raise UsageError(f"{target}: nothing in the store comes from there")
        return sum(self.forget_file(file) for file in files)

    def forget_file(self, path: str) -> int:
        """Drop a file and its documents; returns how many documents it had."""
        self.mark_pending(path, 0, 0)
        with self.transaction() as db:
            count = self._delete_catalog(db, path)
        reached("document-forgotten")
        # A narrow filter (one file's chunks) is cheap in Chroma, unlike broad date filters.
        self.collection.delete(where=self._where_path(path))
        self._unannounced = True
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))
        return count

    def announce(self) -> None:
        """Server mode: after writing, a fresh revision tells the other origins to look again.

        Called once per batch of files and when the writer lock is released, not per file:
        each server write costs tens of milliseconds.
        """
        if self.chroma_url and self._unannounced:
            self._origins.upsert(
                ids=[self.origin],
                embeddings=[[1.0]],  # Chroma wants a vector; this collection is never searched
                metadatas=[{"revision": secrets.token_hex(8), "host": socket.gethostname(), "at": _now()}],
            )
            self._unannounced = False

    def sync(self) -> None:
        """Server mode: bring this catalog's copy of the other origins in step with the server.

        An origin whose announced revision is the one copied last is not listed; for the others,
        the documents whose chunks came or went are copied again from Chroma. A revision is
        read before its chunks, so a write announced meanwhile is seen by the next sync.
        """
        if not self.chroma_url:
            return
        if self._origins is None:
            self._open_chroma()
        self._copied_at = time.monotonic()
        announced = self._origins.get(include=["metadatas"])
        copied = dict(self.db.execute("SELECT origin, revision FROM remote_origins"))
        for origin, meta in zip(announced["ids"], announced["metadatas"]):
            if origin != self.origin and copied.get(origin) != meta["revision"]:
                self._copy_origin(origin, meta["revision"])

    def _fresh(self) -> None:
        if self.chroma_url and time.monotonic() - self._copied_at >= SYNC_SECONDS:
            self.sync()

    def _copy_origin(self, origin: str, revision: str) -> None:
        remote = set(self._chunk_ids({"origin": origin}))
        local = dict(
            self.db.execute(
                "SELECT chunk_id, chunk_index.doc_id FROM chunk_index JOIN remote_documents USING (doc_id) "
                "WHERE origin = ?",
                (origin,),
            )
        )
        changed = {local[cid] for cid in local.keys() - remote} | {_document_of(cid) for cid in remote - local.keys()}
        wanted = sorted(cid for cid in remote if _document_of(cid) in changed)
        documents: dict[str, StoredDocument] = {}
        chunks: dict[str, list[Chunk]] = {}
        for start in range(0, len(wanted), CHROMA_BATCH):
            got = self.collection.get(ids=wanted[start : start + CHROMA_BATCH], include=["documents", "metadatas"])
            for chunk_id, text, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                if "record" in meta and meta["doc_id"] not in documents:
                    documents[meta["doc_id"]] = _document_from_record(meta["record"])
                chunks.setdefault(meta["doc_id"], []).append(Chunk(chunk_id, meta["doc_id"], text))
        with self.transaction() as db:
            # Looked up again here: another process of this store may have copied some meanwhile.
            held = [row[0] for row in self._rows_where_in("SELECT doc_id FROM remote_documents WHERE doc_id", sorted(changed))]
            self._delete_documents(db, held)
            for doc in documents.values():
                self._insert_catalog(db, doc.path, [doc], chunks[doc.doc_id])
            db.executemany("INSERT INTO remote_documents VALUES (?, ?)", [(d, origin) for d in documents])
            db.execute("INSERT OR REPLACE INTO remote_origins VALUES (?, ?, ?)", (origin, revision, _now()))

    def _chunk_ids(self, where: dict | None = None) -> Iterator[str]:
        """Every chunk id in Chroma (that `where` admits), a page at a time."""
        offset = 0
        while True:
            page = self.collection.get(where=where, include=[], limit=10 * CHROMA_BATCH, offset=offset)["ids"]
            yield from page
            if len(page) < 10 * CHROMA_BATCH:
                return
            offset += len(page)

    def known_vectors(self, chunks: list[Chunk]) -> dict[str, list[float]]:
        """Stored vectors for chunks whose exact text is already in the store, by text hash."""
        shas = list({c.text_sha for c in chunks})
        owner: dict[str, str] = {}
        for chunk_id, sha in self._rows_where_in("SELECT chunk_id, text_sha FROM chunk_index WHERE text_sha", shas):
            owner.setdefault(chunk_id, sha)
        if not owner:
            return {}
        return {owner[cid]: vec for cid, vec in self.vectors(list(owner)).items()}

    @staticmethod
    def _delete_documents(db: sqlite3.Connection, doc_ids: list[str]) -> None:
        # Batched: the FTS table has no index on doc_id, so each statement reads all of it.
        for start in range(0, len(doc_ids), 500):
            part = doc_ids[start : start + 500]
            for table in ("chunks", "chunk_index", "documents", "remote_documents"):
                db.execute(f"DELETE FROM {table} WHERE doc_id IN ({','.join('?' * len(part))})", part)

    def _delete_catalog(self, db: sqlite3.Connection, path: str) -> int:
        ids = [row[0] for row in db.execute(f"SELECT doc_id FROM documents WHERE path = ? AND {_OWN}", (path,))]
        self._delete_documents(db, ids)
        db.execute(f"DELETE FROM chunk_index WHERE path = ? AND {_OWN}", (path,))
        return len(ids)

    def _rows_where_in(self, select: str, values: list[str], prefix: tuple = (), close: str = "") -> Iterator[tuple]:
        """Rows of `select` + " IN (...)" (+ `close`), in batches under SQLite's limit on
        parameters; `prefix` holds the parameters `select` itself takes."""
        for start in range(0, len(values), 500):
            part = values[start : start + 500]
            yield from self.db.execute(f"{select} IN ({','.join('?' * len(part))}){close}", (*prefix, *part))

    # -- documents -------------------------------------------------------------------------

    def documents(
        self, doc_type: str | None = None, since: date | None = None, until: date | None = None
    ) -> Iterator[StoredDocument]:
        self._fresh()
        query, args = "SELECT * FROM documents WHERE 1=1", []
        if doc_type:
            query += " AND doc_type = ?"
            args.append(doc_type)
        if since:
            query += " AND source_ts >= ?"
            args.append(epoch_seconds(datetime.combine(since, datetime.min.time())))
        if until:
            query += " AND source_ts < ?"
            args.append(epoch_seconds(datetime.combine(until, datetime.min.time())) + 86400)
        query += " ORDER BY source_ts IS NULL, source_ts, path, locator"
        docs = [_document_from_row(row) for row in self.db.execute(query, args)]
        yield from fold_copies(docs)

    def get_documents(self, doc_ids: Iterable[str]) -> dict[str, StoredDocument]:
        ids = list(dict.fromkeys(doc_ids))
        found = (_document_from_row(row) for row in self._rows_where_in("SELECT * FROM documents WHERE doc_id", ids))
        return {doc.doc_id: doc for doc in found}

    # -- search ----------------------------------------------------------------------------

    def semantic(self, vector: list[float], n: int) -> list[Hit]:
        """Nearest chunks by cosine similarity, live ones only (see the module docstring)."""
        if self.db.execute("SELECT 1 FROM chunk_index LIMIT 1").fetchone() is None:
            return []  # an empty store: counting chunks would cost a scan of a large one
        result = self.collection.query(query_embeddings=[vector], n_results=n, include=["distances"])
        ids, distances = result["ids"][0], result["distances"][0]
        live = {
            chunk_id: (doc_id, text)
            for chunk_id, doc_id, text in self._rows_where_in(
                "SELECT chunk_index.chunk_id, chunk_index.doc_id, chunks.text FROM chunk_index "
                "JOIN chunks ON chunks.rowid = chunk_index.text_rowid WHERE chunk_index.chunk_id",
                ids,
            )
        }
        return [Hit(cid, *live[cid], 1.0 - distance) for cid, distance in zip(ids, distances) if cid in live]

    def vectors(self, chunk_ids: list[str]) -> dict[str, list[float]]:
        """Stored vectors of some chunks, to score lexical hits semantically without re-embedding."""
        if not chunk_ids:
            return {}
        got = self.collection.get(ids=chunk_ids, include=["embeddings"])
        return {cid: list(vec) for cid, vec in zip(got["ids"], got["embeddings"])}

    def document_frequency(self, match: str) -> int:
        """How many chunks an FTS5 query matches: the rarity of a word, for weighting it."""
        try:
            return self._counted(match, "SELECT count(*) FROM chunks WHERE chunks MATCH ?", (match,))
        except sqlite3.OperationalError:
            return 0

    def chunk_count(self) -> int:
        return self._counted(None, "SELECT count(*) FROM chunk_index")

    def _counted(self, key: str | None, sql: str, args: tuple = ()) -> int:
        """A count over the whole catalog, kept until the catalog changes: at 100k chunks each
        costs milliseconds, and a server's questions come back to the same words."""
        self._fresh()
        # data_version moves with other connections' commits, total_changes with this one's.
        state = (self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes)
        if state != self._counts_state or len(self._counts) > MAX_COUNTS:
            self._counts, self._counts_state = {}, state
        if key not in self._counts:
            self._counts[key] = self.db.execute(sql, args).fetchone()[0]
        return self._counts[key]

    def lexical(self, match: str, n: int) -> list[Hit]:
        """FTS5 search; `match` is an FTS5 query. Scores are -bm25 (higher is better)."""
        self._fresh()
        if not match:
            return []
        try:
            rows = self.db.execute(
                "SELECT chunk_id, doc_id, text, -bm25(chunks) FROM chunks WHERE chunks MATCH ? "
                "ORDER BY bm25(chunks) LIMIT ?",
                (match, n),
            ).fetchall()
        except sqlite3.OperationalError:
            return []  # a query FTS5 cannot parse finds nothing rather than failing the question
        return [Hit(*row) for row in rows]

    def known_words(self, words: set[str]) -> set[str]:
        """Those of `words` the vocabulary holds a vector for (brainq/vocabulary.py)."""
        ordered, known = sorted(words), set()
        for start in range(0, len(ordered), CHROMA_BATCH):
            known.update(self.vocabulary.get(ids=ordered[start : start + CHROMA_BATCH], include=[])["ids"])
        return known

    def add_words(self, words: list[str], vectors) -> None:
        """Vectors of new words. On a Chroma server the vocabulary is shared, as the chunks
        are: every machine's questions reach every machine's words."""
        for start in range(0, len(words), CHROMA_BATCH):
            end = start + CHROMA_BATCH
            self.vocabulary.upsert(ids=words[start:end], embeddings=[list(v) for v in vectors[start:end]])

    def nearest_words(self, vectors: list[list[float]], n: int) -> list[list[tuple[str, float]]]:
        """For each vector, the `n` words of the vocabulary closest to it, with their cosine."""
        if not vectors or not n or not self.vocabulary.count():
            return [[] for _ in vectors]
        found = self.vocabulary.query(query_embeddings=vectors, n_results=n, include=["distances"])
        return [[(w, 1.0 - d) for w, d in zip(ids, distances)] for ids, distances in zip(found["ids"], found["distances"])]

    def bm25(self, match: str, chunk_ids: list[str]) -> dict[str, float]:
        """The BM25 score (-bm25, higher is better) of some chunks for an FTS5 query: chunks
        found by meaning alone are weighed by their words too. Chunks it matches not are left out."""
        self._fresh()
        if not match or not chunk_ids:
            return {}
        try:
            return dict(
                self._rows_where_in(
                    "SELECT chunk_id, -bm25(chunks) FROM chunks WHERE chunks MATCH ? AND rowid IN "
                    "(SELECT text_rowid FROM chunk_index WHERE chunk_id",
                    chunk_ids,
                    prefix=(match,),
                    close=")",
                )
            )
        except sqlite3.OperationalError:
            return {}

    # -- runs and status -------------------------------------------------------------------

    def log_run(self, command: str, summary: dict) -> None:
        self.db.execute(
            "INSERT INTO runs (command, finished_at, summary) VALUES (?, ?, ?)",
            (command, _now(), json.dumps(summary)),
        )

    def last_runs(self, n: int = 5) -> list[dict]:
        rows = self.db.execute("SELECT command, finished_at, summary FROM runs ORDER BY id DESC LIMIT ?", (n,))
        return [{"command": c, "finished_at": f, **json.loads(summary)} for c, f, summary in rows]

    def check(
        self,
        repair: bool = False,
        embed: Callable[[list[str]], list] | None = None,
        words: Callable[[Iterable[str]], set[str]] | None = None,
    ) -> dict:
        """Whether the store is whole and writable, and with `repair`, mend what is not.

        Looked at: the catalog takes a write; Chroma opens as ingest opens it and takes a write;
        every catalog chunk has its vector and Chroma holds none the catalog does not list; the
        vocabulary's vectors are there; no file is left pending by an interrupted run. Repair
        deletes orphan vectors and makes the missing ones (and the vocabulary, of `words`) again
        from the catalog's own copy of each chunk's text (`embed`), so it needs none of the
        source files. Vectors Chroma cannot open or write are first moved
        aside (embedded store), then all made again. Pending files are redone by the next
        ingest or backfill. On a Chroma server, only this origin's chunks are compared.
        """
        report = {"chunks": 0, "missing_vectors": 0, "orphan_vectors": 0, "files_pending": [],
                  "vectors": "ok", "problem": None, "moved_aside": None, "restored_vectors": 0,
                  "vocabulary_missing": False, "restored_words": 0, "repaired": False}  # fmt: skip
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            raise StoreError(
                f"the catalog of store {self.home} cannot be written ({exc}); check that "
                f"{self.home / 'catalog.sqlite3'} and its folder are yours and writable"
            ) from None
        problem = self._vectors_problem()
        if problem and repair and not self.chroma_url:
            report["moved_aside"] = str(self._move_vectors_aside())
            problem = self._vectors_problem()
        if problem:
            report.update(vectors="unusable", problem=problem)
            return report
        listed = dict(self.db.execute(f"SELECT chunk_id, path FROM chunk_index WHERE {_OWN}"))
        # On a server, other origins' chunks are theirs to check and mend.
        stored = set(self._chunk_ids({"origin": self.origin} if self.chroma_url else None))
        missing = sorted(set(listed) - stored)
        orphans = sorted(stored - set(listed))
        report.update(
            chunks=len(listed),
            missing_vectors=len(missing),
            orphan_vectors=len(orphans),
            files_pending=[row[0] for row in self.db.execute("SELECT path FROM files WHERE pending = 1 ORDER BY path")],
        )
        report["vocabulary_missing"] = bool(listed) and not self.vocabulary.count()
        if repair and (missing or orphans):
            for start in range(0, len(orphans), CHROMA_BATCH):
                self.collection.delete(ids=orphans[start : start + CHROMA_BATCH])
                self._unannounced = True
            report["restored_vectors"] = self.restore_vectors(missing, embed)
            report["repaired"] = True
        if repair and report["vocabulary_missing"] and words is not None:
            report["restored_words"] = self.restore_vocabulary(embed, words)
            report["repaired"] = True
        return report

    def restore_vocabulary(self, embed: Callable[[list[str]], list] | None, words: Callable) -> int:
        """Make the vocabulary again from the catalog's text of every chunk; `words` picks a
        text's words (brainq.vocabulary.words)."""
        found = sorted(words(row[0] for row in self.db.execute("SELECT text FROM chunks")))
        if found and embed is None:
            raise StoreError(f"{len(found)} words need their vectors made again, and no model was given")
        for start in range(0, len(found), CHROMA_BATCH):
            part = found[start : start + CHROMA_BATCH]
            self.add_words(part, embed(part))
        return len(found)

    def _vectors_problem(self) -> str | None:
        """Why Chroma cannot be used for writing, in words, or None: it opens and takes a write."""
        from brainq.embedding import DIMENSIONS

        probe = f"{self.origin}:brainq-check" if self.chroma_url else "brainq-check"
        dimensions = (self.embedding_config() or {}).get("dimensions", DIMENSIONS)
        try:
            self.collection.upsert(ids=[probe], embeddings=[[1.0] * dimensions], metadatas=[{"path": ""}])
            self.collection.delete(ids=[probe])
        except StoreError as exc:
            return str(exc)
        except Exception as exc:  # chromadb raises many types; all mean "cannot write"
            self._collection = None
            if self.chroma_url:
                return f"the Chroma server at {self.chroma_url} does not take writes: {_chroma_reason(exc)}"
            return (
                f"the vectors of store {self.home} cannot be written ({_chroma_reason(exc)}); "
                f"`brainq --store {self.home} status --check --repair` rebuilds them from the catalog"
            )
        return None

    def _move_vectors_aside(self) -> Path:
        """Put an unusable Chroma folder aside (kept, not deleted) so a new one can be made."""
        folder = self.home / "chroma"
        aside = self.home / f"chroma.unusable-{datetime.now().strftime('%Y%m%dT%H%M%S')}"
        _forget_embedded_client(folder)
        self._collection = self._vocabulary = None
        if folder.exists():
            os.replace(folder, aside)
        return aside

    def restore_vectors(self, chunk_ids: list[str], embed: Callable[[list[str]], list] | None) -> int:
        """Make the vectors of catalog chunks again from the text the catalog keeps of them."""
        if not chunk_ids:
            return 0
        if embed is None:
            raise StoreError(f"{len(chunk_ids)} chunks need their vectors made again, and no model was given")
        rows = list(
            self._rows_where_in(
                "SELECT chunk_index.chunk_id, chunk_index.doc_id, chunks.text FROM chunk_index "
                "JOIN chunks ON chunks.rowid = chunk_index.text_rowid WHERE chunk_index.chunk_id",
                chunk_ids,
            )
        )
        documents = self.get_documents(doc_id for _, doc_id, _ in rows)
        for start in range(0, len(rows), CHROMA_BATCH):
            chunks = [Chunk(cid, doc_id, text) for cid, doc_id, text in rows[start : start + CHROMA_BATCH]]
            self._upsert_chunks(chunks, embed([c.text for c in chunks]), self._chunk_metadatas(documents.values(), chunks))
            reached("vectors-rebuilt")
        return len(rows)

    def counts(self) -> dict:
        self._fresh()
        # Copies of one document count once (StoredDocument.copy_key).
        distinct = "count(DISTINCT coalesce(copy_key, doc_id))"
        by_type = dict(self.db.execute(f"SELECT doc_type, {distinct} FROM documents GROUP BY doc_type ORDER BY 2 DESC"))
        by_year = dict(
            self.db.execute(
                f"SELECT coalesce(substr(source_date, 1, 4), 'undated'), {distinct} FROM documents "
                "GROUP BY 1 ORDER BY 1"
            )
        )
        copies = self.db.execute(f"SELECT count(*) - {distinct} FROM documents").fetchone()[0]
        files, failed = self.db.execute("SELECT count(*), count(error) FROM files").fetchone()
        chunks = self.db.execute("SELECT coalesce(sum(chunks), 0) FROM documents").fetchone()[0]
        counts = {
            "documents": sum(by_type.values()),
            "chunks": chunks,
            "files": files,
            "files_with_errors": failed,
            "copies_folded": copies,
            "by_type": by_type,
            "by_year": by_year,
        }
        if self.chroma_url:
            remote = dict(self.db.execute("SELECT origin, count(*) FROM remote_documents GROUP BY origin ORDER BY 1"))
            counts["by_origin"] = {self.origin: counts["documents"] - sum(remote.values()), **remote}
        return counts

    def summary(self) -> dict:
        """What `brainq status` shows: counts by type and year, size, sources, the last runs."""
        return {
            "store": str(self.home),
            "chroma_url": self.chroma_url,
            **({"origin": self.origin} if self.chroma_url else {}),  # a name among a server's machines
            **self.counts(),
            "size_bytes": self.size_bytes(),
            "sources": self.sources(),
            "last_runs": self.last_runs(),
        }

    def document_text(self, doc_id: str, limit: int) -> str | None:
        """A document's text as its chunks hold it (titles left off), at most `limit` characters;
        None for a document the store does not hold."""
        rows = self.db.execute("SELECT text FROM chunks WHERE doc_id = ? ORDER BY rowid", (doc_id,)).fetchall()
        if not rows and not self.get_documents([doc_id]):
            return None
        text = "\n".join(row[0].split("\n", 1)[-1] for row in rows)
        return text if len(text) <= limit else text[:limit] + "\u2026"

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.home.rglob("*") if p.is_file())

    # -- embedding -------------------------------------------------------------------------

    def embedding_config(self) -> dict | None:
        """How the stored vectors were made: brainq.embedding records it and refuses others."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'embedding'").fetchone()
        return json.loads(row[0]) if row else None

    def record_embedding_config(self, config: dict) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('embedding', ?)", (json.dumps(config, sort_keys=True),))


_CLIENTS: dict[str, object] = {}  # embedded Chroma clients of this process, by folder
_CLIENTS_LOCK = threading.Lock()


def _embedded_client(folder: Path, settings):
    """The process's one client of an embedded Chroma folder, made by one thread at a time.

    chromadb keeps one "system" per folder for the whole process, and lists it in its cache
    before starting it. Ingest opens the store in two threads (the writer looks up stored
    vectors while the saver writes), and when both ask at once the second gets the system
    still starting, fails ("'RustBindingsAPI' object has no attribute 'bindings'"), and its
    clean-up stops and un-lists the first one's system too. A store with nothing in it never
    met this (no stored vectors to look up), which is why a first ingest always worked and a
    run resuming a killed one, slower to start on a larger folder, failed every time.
    Here the client is made once, under a lock; a start that fails anyway leaves nothing
    behind in chromadb's cache, so the next try starts afresh.
    """
    import chromadb

    key = str(folder)
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            try:
                _CLIENTS[key] = chromadb.PersistentClient(path=key, settings=settings)
            except BaseException:
                _forget_embedded_client(folder, locked=True)
                raise
        return _CLIENTS[key]


def _forget_embedded_client(folder: Path, locked: bool = False) -> None:
    """Drop this process's client of a folder, so the next open reads the folder again
    (another process's writes) or retries a failed start."""
    from chromadb.api.shared_system_client import SharedSystemClient

    with nullcontext() if locked else _CLIENTS_LOCK:
        _CLIENTS.pop(str(folder), None)
        SharedSystemClient._identifier_to_system.pop(str(folder), None)
        SharedSystemClient._identifier_to_refcount.pop(str(folder), None)


def _chroma_reason(exc: BaseException) -> str:
    """What went wrong, in words: chromadb's own messages are often one internal name."""
    text = str(exc)
    if isinstance(exc, PermissionError) or "ermission denied" in text or "readonly" in text:
        return "not writable by you"
    if isinstance(exc, (KeyError, AttributeError)) or not text:
        return f"Chroma could not start ({type(exc).__name__}: {text or 'no message'})"
    return text.splitlines()[0][:200]


def fold_copies(docs: list[StoredDocument]) -> list[StoredDocument]:
    """The documents with each set of copies as one: the first of them, knowing the others'
    places (`copies`), in the order given."""
    first: dict[str, StoredDocument] = {}
    kept = []
    for doc in docs:
        key = doc.copy_key or doc.doc_id
        if key in first:
            first[key].copies.append(doc.path + (f"#{doc.locator}" if doc.locator else ""))
            continue
        first[key] = doc
        kept.append(doc)
    return kept


def _chunk_metadata(doc: StoredDocument, index: int) -> dict:
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


def _record(doc: StoredDocument, stamped: bool = True) -> str:
    """A document's catalog record as JSON, carried by its chunks on a Chroma server."""
    record = {**doc.to_json(), "kind": doc.kind, "thread": doc.thread, "headers": doc.headers,
              "copy_key": doc.copy_key}  # fmt: skip
    del record["copies"]
    if not stamped:
        del record["ingested_at"]  # when it was stored is no part of what it says
    return json.dumps(record, sort_keys=True)


def _document_from_record(text: str) -> StoredDocument:
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


def _document_of(chunk_id: str) -> str:
    """The document id in a chunk id (`{doc_id}:{version}:{index}`)."""
    return chunk_id.rsplit(":", 2)[0]


class _Guarded:
    """A Chroma collection whose failures are one StoreError line, not a traceback.

    Embedded, a read is first tried again: when another process's write changes the index
    mid-read, Chroma fails the read with an InternalError ("Error finding id"; seen with 50
    asks during a backfill), and the same read a moment later succeeds. A server orders its
    own reads and writes, so its failures (unreachable, refusing) are reported at once."""

    def __init__(self, collection, where: str, server: bool):
        self._collection, self._where, self._server = collection, where, server

    def __getattr__(self, name: str):
        from chromadb.errors import ChromaError, InternalError

        method = getattr(self._collection, name)
        if self._server:
            from httpx import HTTPError

            failures, pauses = (HTTPError, ChromaError), ()
        else:
            failures, pauses = InternalError, READ_RETRY_SECONDS if name in _READS else ()

        def guarded(*args, **kwargs):
            for pause in (*pauses, None):
                try:
                    return method(*args, **kwargs)
                except failures as exc:
                    if pause is None:
                        raise StoreError(self._failed(exc)) from None
                    time.sleep(pause)

        return guarded

    def _failed(self, exc: Exception) -> str:
        if self._server:
            return f"the Chroma server at {self._where} failed: {_chroma_reason(exc)}"
        home = Path(self._where).parent
        return (
            f"the vectors of store {home} failed ({_chroma_reason(exc)}); "
            f"`brainq --store {home} status --check --repair` mends a damaged store"
        )


def _document_row(d: StoredDocument) -> tuple:
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
        d.ingested_at or _now(),
        d.chunks,
        d.copy_key,
    )


def _document_from_row(row: tuple) -> StoredDocument:
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
