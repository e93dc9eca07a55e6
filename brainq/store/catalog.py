"""The catalog: one SQLite file that knows every file, document and chunk text of a store.

It knows every file (size, mtime, content hash, last error), every document (its dates, type
and title) and every chunk's text in an FTS5 index, so unchanged files are skipped without
parsing, `list`/`status` never load Chroma, and exact tokens are searchable. Its `chunk_index`
is the list of live chunks: search ignores Chroma chunks it does not list. Every SQL statement
of the store is here, beside the schema it reads.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from datetime import date
from pathlib import Path

from brainq.chunking import carried, size
from brainq.cjk import grams
from brainq.errors import StoreError
from brainq.store.disk import full_disk
from brainq.store.records import (
    EMPTY, NOT_A_KIND, Chunk, FileRecord, Hit, StoredDocument, document_from_row, document_row, fold_copies, utc_now,
)  # fmt: skip

_FAILED = "error IS NOT NULL AND error NOT IN (?, ?)"  # a failed file, not one passed over (EMPTY, NOT_A_KIND)
CATALOG_FILE = "catalog.sqlite3"  # in the store's folder; its presence is what makes the folder a store
SCHEMA_VERSION = 4  # 2: chunk_index links each chunk to its text in the FTS table; 3: copy_key; 4: grams
MAX_COUNTS = 10_000  # word counts a long-lived reader keeps while the catalog stays the same
# Chunks of each document a question that names only a time reads: an event or a message says
# what its day is in its first lines, and a long PDF would bring hundreds.
ABOUT_TIME_CHUNKS = 3

# The full-text index of chunk texts; `grams` holds their Chinese, Japanese and Korean as pairs of
# characters (brainq/cjk.py), which FTS5's tokenizers would keep in runs no word is found in.
_CHUNKS_FTS = "fts5(text, grams, chunk_id UNINDEXED, doc_id UNINDEXED, tokenize='porter unicode61 remove_diacritics 2')"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sources (path TEXT PRIMARY KEY, added_at TEXT);
CREATE TABLE IF NOT EXISTS forgotten (path TEXT PRIMARY KEY, forgotten_at TEXT);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT,
    pending INTEGER NOT NULL DEFAULT 0, error TEXT, checked_at TEXT, derived INTEGER NOT NULL DEFAULT 0,
    read_offset INTEGER, messages INTEGER, unread_parts TEXT);
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
CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING {_CHUNKS_FTS};
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, command TEXT, finished_at TEXT, summary TEXT);
CREATE TABLE IF NOT EXISTS remote_origins (origin TEXT PRIMARY KEY, revision TEXT, copied_at TEXT);
CREATE TABLE IF NOT EXISTS remote_documents (doc_id TEXT PRIMARY KEY, origin TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS remote_documents_origin ON remote_documents(origin);
"""
# Catalog rows of this store's own files: the others are copies of other origins' documents
# (brainq/store/sync.py).
_OWN = "doc_id NOT IN (SELECT doc_id FROM remote_documents)"
# Columns added since stores were first written: the files' within schema 1 (older brainq
# ignore them), chunk_index's with schema 2 and documents' with schema 3 (older brainq refuse
# such a store).
_ADDED_COLUMNS = (
    ("files", "read_offset", "INTEGER"),
    ("files", "messages", "INTEGER"),
    ("chunk_index", "text_rowid", "INTEGER"),
    ("documents", "copy_key", "TEXT"),
    ("files", "unread_parts", "TEXT"),
)
# Indexes added since (name, on what), made when a store is opened: `forget` finds the copies
# of what it drops by copy_key, a question that names only a time the chunks of what is about it.
_ADDED_INDEXES = (("documents_copy_key", "documents(copy_key)"), ("chunk_index_doc", "chunk_index(doc_id)"))


# A path at or under a folder, in SQL as records.within says it in Python.
_AT_OR_UNDER = "(path = ? OR substr(path, 1, ?) = ?)"


def _at_or_under(folder: str) -> tuple[str, int, str]:
    prefix = folder.rstrip("/") + "/"
    return folder, len(prefix), prefix


def index_rebuild_pending(home: Path) -> bool:
    """Whether opening the store will make its full-text index again (schema 4's `grams`),
    which takes about a minute for a million chunks: read only, and false for no store."""
    path = home / CATALOG_FILE
    if not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            columns = {row[1] for row in db.execute("PRAGMA table_info(chunks)")}
    except sqlite3.DatabaseError:
        return False  # opening it will say what is wrong
    return bool(columns) and "grams" not in columns


def _cannot_open(path: Path, exc: sqlite3.DatabaseError) -> str:
    """Why the catalog at `path` cannot be opened, and what to do: a damaged one has nothing
    a repair could rebuild it from."""
    if "malformed" in str(exc) or "not a database" in str(exc):
        return (
            f"the catalog {path} is damaged ({exc}): restore the store from a backup, or ingest "
            "your folders into a new store (--store)"
        )
    return f"cannot open catalog {path}: {exc}"


class Catalog:
    """The catalog of the store at `home`."""

    def __init__(self, home: Path):
        self.home = home
        self._counts: dict[str | None, int] = {}  # see _counted
        self._counts_state: tuple[int, int] | None = None
        self.db = self._connect()

    # -- opening ---------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        path = self.home / CATALOG_FILE
        try:
            db = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(full_disk(self.home, exc) or _cannot_open(path, exc)) from None
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
            indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
            return version, missing, [(name, on) for name, on in _ADDED_INDEXES if name not in indexes]

        if behind() == (SCHEMA_VERSION, [], []):
            return
        db.execute("BEGIN IMMEDIATE")  # and look again: another process may have been first
        version, missing, unindexed = behind()
        for table, column, kind in missing:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        for name, on in unindexed:
            db.execute(f"CREATE INDEX {name} ON {on}")
        if version < 2:
            # Found by chunk id once: FTS5 cannot index that column, so a temporary table does.
            db.execute("CREATE TEMP TABLE fts_rows AS SELECT chunk_id, rowid AS text_rowid FROM chunks")
            db.execute("CREATE INDEX temp.fts_rows_id ON fts_rows(chunk_id)")
            db.execute(
                "UPDATE chunk_index SET text_rowid = "
                "(SELECT text_rowid FROM fts_rows WHERE fts_rows.chunk_id = chunk_index.chunk_id)"
            )
            db.execute("DROP TABLE temp.fts_rows")
        if "grams" not in {row[1] for row in db.execute("PRAGMA table_info(chunks)")}:
            # FTS5 tables take no new column: the index is made again, under the same rowids.
            db.create_function("grams", 1, grams, deterministic=True)
            db.execute(f"CREATE VIRTUAL TABLE chunks_grams USING {_CHUNKS_FTS}")
            db.execute(
                "INSERT INTO chunks_grams (rowid, text, grams, chunk_id, doc_id) "
                "SELECT rowid, text, grams(text), chunk_id, doc_id FROM chunks"
            )
            db.execute("DROP TABLE chunks")
            db.execute("ALTER TABLE chunks_grams RENAME TO chunks")
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:  # a write or the commit; what was written before stays, whole
            if full := full_disk(self.home, exc):
                raise StoreError(full) from None
            raise

    def data_version(self) -> int:
        """Moves with every commit of another connection (SQLite's PRAGMA data_version)."""
        return self.db.execute("PRAGMA data_version").fetchone()[0]

    def check_writable(self) -> None:
        """Raise a StoreError saying what to look at when the catalog cannot take a write."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            raise StoreError(
                full_disk(self.home, exc) or f"the catalog of store {self.home} cannot be written ({exc}); check that "
                f"{self.home / CATALOG_FILE} and its folder are yours and writable"
            ) from None

    # -- meta ------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def origin(self, name: str) -> str:
        """This store's origin on a Chroma server: `name` when it has none yet, kept for good."""
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('origin', ?)", (name,))
        return self.meta("origin")

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def bind_chroma(self, collection_id: str, chroma_url: str) -> None:
        """Remember the Chroma collection (and server) whose vectors this catalog describes."""
        self.db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('chroma_collection', ?), ('chroma_url', ?)",
            (collection_id, chroma_url),
        )

    def embedding_config(self) -> dict | None:
        """How the stored vectors were made: brainq.embedding records it and refuses others."""
        value = self.meta("embedding")
        return json.loads(value) if value is not None else None

    def record_embedding_config(self, config: dict) -> None:
        self.set_meta("embedding", json.dumps(config, sort_keys=True))

    # -- sources ---------------------------------------------------------------------------

    def add_source(self, path: str) -> None:
        """Remember `path`; what was forgotten at or under it is wanted again."""
        self.db.execute(f"DELETE FROM forgotten WHERE {_AT_OR_UNDER}", _at_or_under(path))
        self.db.execute("INSERT OR IGNORE INTO sources VALUES (?, ?)", (path, utc_now()))

    def sources(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT path FROM sources ORDER BY path")]

    def remove_source(self, path: str, inside: bool = False) -> bool:
        """Stop scanning `path` as a source; `inside`: every source at or under it too."""
        where, args = (_AT_OR_UNDER, _at_or_under(path)) if inside else ("path = ?", (path,))
        return self.db.execute(f"DELETE FROM sources WHERE {where}", args).rowcount > 0

    def forget_path(self, path: str, keep_out: bool) -> None:
        """`brainq forget`: what was left out at or under `path` goes with it; `keep_out` keeps
        `path` itself out of the scans of the source it lies in."""
        self.db.execute(f"DELETE FROM forgotten WHERE {_AT_OR_UNDER}", _at_or_under(path))
        if keep_out:
            self.db.execute("INSERT OR IGNORE INTO forgotten VALUES (?, ?)", (path, utc_now()))

    def remember(self, path: str) -> None:
        """`path` is no longer kept out of scans."""
        self.db.execute("DELETE FROM forgotten WHERE path = ?", (path,))

    def forgotten(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT path FROM forgotten ORDER BY path")]

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
        rows = self.db.execute(f"SELECT path FROM files WHERE {_AT_OR_UNDER}", _at_or_under(root))
        return [row[0] for row in rows]

    def pending_files(self) -> list[str]:
        """Files an interrupted run left half written (brainq/store/writes.py)."""
        return [row[0] for row in self.db.execute("SELECT path FROM files WHERE pending = 1 ORDER BY path")]

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
            (size, mtime_ns, utc_now(), path),
        )

    def failed_file(self, path: str, size: int, mtime_ns: int, sha256: str, error: str, derived: int) -> None:
        """The file's new content could not be read: remember it, and why, so that runs pass
        over it until it changes; its documents, of what was read before, stay."""
        self.db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, sha256 = ?, error = ?, checked_at = ?, derived = ? WHERE path = ?",
            (size, mtime_ns, sha256, error, utc_now(), derived, path),
        )

    def unopened_file(self, path: str, error: str) -> None:
        """The file could not be opened: remember why, for `status`. Its size, time and hash,
        of its last reading if any, stay, as do its documents: it is read when it opens."""
        self.db.execute(
            "INSERT INTO files (path, error, checked_at) VALUES (?, ?, ?) "
            "ON CONFLICT(path) DO UPDATE SET error = excluded.error, checked_at = excluded.checked_at",
            (path, error, utc_now()),
        )

    def mark_pending(self, path: str, size: int, mtime_ns: int) -> None:
        self.db.execute(
            "INSERT INTO files (path, size, mtime_ns, sha256, pending, error, checked_at) "
            "VALUES (?, ?, ?, NULL, 1, NULL, ?) ON CONFLICT(path) DO UPDATE SET pending = 1",
            (path, size, mtime_ns, utc_now()),
        )

    def update_file(self, path, size, mtime_ns, sha256, error, derived, read_offset, messages, stale,
                    unread_parts: list[str], grown: bool = False) -> None:  # fmt: skip
        """The file's new state; it stays pending while `stale` chunks are left to delete.
        `unread_parts` says why parts of it (an attachment, a message) were not read: kept for
        `status`, as later runs pass over the unchanged file. A grown mailbox adds those of its
        new messages to those of its others."""
        if grown:
            row = self.db.execute("SELECT unread_parts FROM files WHERE path = ?", (path,)).fetchone()
            unread_parts = json.loads(row[0] or "[]") + unread_parts if row else unread_parts
        self.db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, sha256 = ?, pending = ?, error = ?, "
            "checked_at = ?, derived = ?, read_offset = ?, messages = ?, unread_parts = ? WHERE path = ?",
            (size, mtime_ns, sha256, int(bool(stale)), error, utc_now(), derived, read_offset, messages,
             json.dumps(unread_parts) if unread_parts else None, path),
        )  # fmt: skip

    def clear_pending(self, path: str) -> None:
        self.db.execute("UPDATE files SET pending = 0 WHERE path = ?", (path,))

    def delete_file(self, path: str) -> None:
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))

    # -- documents and chunks --------------------------------------------------------------

    def insert_documents(self, path: str, documents: list[StoredDocument], chunks: list[Chunk]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [document_row(d) for d in documents],
        )
        # Rows numbered here, inside the write transaction, so chunk_index can point at them.
        last = self.db.execute("SELECT rowid FROM chunks ORDER BY rowid DESC LIMIT 1").fetchone()
        first = (last[0] if last else 0) + 1
        rowids = range(first, first + len(chunks))
        self.db.executemany(
            "INSERT INTO chunks (rowid, text, grams, chunk_id, doc_id) VALUES (?, ?, ?, ?, ?)",
            [(rowid, c.text, grams(c.text), c.chunk_id, c.doc_id) for rowid, c in zip(rowids, chunks)],
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO chunk_index VALUES (?, ?, ?, ?, ?)",
            [(c.chunk_id, c.doc_id, path, c.text_sha, rowid) for rowid, c in zip(rowids, chunks)],
        )

    def delete_documents(self, doc_ids: list[str]) -> None:
        # Batched: the FTS table has no index on doc_id, so each statement reads all of it.
        for start in range(0, len(doc_ids), 500):
            part = doc_ids[start : start + 500]
            for table in ("chunks", "chunk_index", "documents", "remote_documents"):
                self.db.execute(f"DELETE FROM {table} WHERE doc_id IN ({','.join('?' * len(part))})", part)

    def document_keys(self, paths: list[str]) -> set[str]:
        """The documents of these own files, a document and its copies counted once."""
        select = f"SELECT DISTINCT coalesce(copy_key, doc_id) FROM documents WHERE {_OWN} AND path"
        return {row[0] for row in self._rows_where_in(select, paths)}

    def documents_kept(self, keys: set[str]) -> int:
        """How many of these documents (`document_keys`, their files' rows gone) the store still
        holds as a copy: a document without a copy key was only where it was."""
        select = "SELECT DISTINCT copy_key FROM documents WHERE copy_key"
        return len({row[0] for row in self._rows_where_in(select, list(keys))})

    def delete_file_documents(self, path: str) -> None:
        """Drop the documents and chunks of one of this store's own files."""
        ids = [row[0] for row in self.db.execute(f"SELECT doc_id FROM documents WHERE path = ? AND {_OWN}", (path,))]
        self.delete_documents(ids)
        self.db.execute(f"DELETE FROM chunk_index WHERE path = ? AND {_OWN}", (path,))

    def _rows_where_in(self, select: str, values: list[str], prefix: tuple = (), close: str = "") -> Iterator[tuple]:
        """Rows of `select` + " IN (...)" (+ `close`), in batches under SQLite's limit on
        parameters; `prefix` holds the parameters `select` itself takes."""
        for start in range(0, len(values), 500):
            part = values[start : start + 500]
            yield from self.db.execute(f"{select} IN ({','.join('?' * len(part))}){close}", (*prefix, *part))

    def documents(
        self, doc_type: str | None = None, since: date | None = None, until: date | None = None
    ) -> Iterator[StoredDocument]:
        query, args = "SELECT * FROM documents WHERE 1=1", []
        if doc_type:
            query += " AND doc_type = ?"
            args.append(doc_type)
        # By the day the document was written where it was written (the day `list` shows):
        # an email of 22:10 at UTC-4 is that day's, though past midnight in UTC. A date known
        # to the month or year only is any day of it: "March 2025" is since March 15.
        if since:
            query += (
                " AND CASE date_precision WHEN 'month' THEN substr(source_date, 1, 7) >= ?"
                " WHEN 'year' THEN substr(source_date, 1, 4) >= ? ELSE substr(source_date, 1, 10) >= ? END"
            )
            args += [since.isoformat()[:7], since.isoformat()[:4], since.isoformat()]
        if until:
            query += " AND substr(source_date, 1, 10) <= ?"
            args.append(until.isoformat())
        # In the order of the days shown, and within a day by the instant.
        query += " ORDER BY source_date IS NULL, substr(source_date, 1, 10), source_ts, path, locator"
        docs = [document_from_row(row) for row in self.db.execute(query, args)]
        yield from fold_copies(docs)

    def get_documents(self, doc_ids: Iterable[str]) -> dict[str, StoredDocument]:
        ids = list(dict.fromkeys(doc_ids))
        found = (document_from_row(row) for row in self._rows_where_in("SELECT * FROM documents WHERE doc_id", ids))
        return {doc.doc_id: doc for doc in found}

    def document_text(self, doc_id: str, limit: int, overlap_words: int) -> str | None:
        """A document's text as its chunks hold it (titles left off, and the sentences each
        chunk carries over from the one before, up to `overlap_words`, said once), at most
        `limit` characters; None for a document the store does not hold."""
        rows = self.db.execute("SELECT text FROM chunks WHERE doc_id = ? ORDER BY rowid", (doc_id,)).fetchall()
        if not rows and not self.get_documents([doc_id]):
            return None
        lines: list[str] = []
        before: list[str] = []
        for (chunk,) in rows:
            body = chunk.split("\n", 1)[-1].split("\n")
            lines.extend(body[_carried(before, body, overlap_words) :])
            before = body
        text = "\n".join(lines)
        return text if len(text) <= limit else text[:limit] + "\u2026"

    def chunk_ids_of(self, doc_ids: list[str]) -> set[str]:
        """The live chunks of some documents."""
        return {row[0] for row in self._rows_where_in("SELECT chunk_id FROM chunk_index WHERE doc_id", doc_ids)}

    def own_chunks(self) -> dict[str, str]:
        """Every live chunk of this store's own files, with its file's path."""
        return dict(self.db.execute(f"SELECT chunk_id, path FROM chunk_index WHERE {_OWN}"))

    def chunk_texts(self, chunk_ids: list[str]) -> Iterator[tuple[str, str, str]]:
        """(chunk id, document id, text) of those of `chunk_ids` that are live."""
        return self._rows_where_in(
            "SELECT chunk_index.chunk_id, chunk_index.doc_id, chunks.text FROM chunk_index "
            "JOIN chunks ON chunks.rowid = chunk_index.text_rowid WHERE chunk_index.chunk_id",
            chunk_ids,
        )

    def chunks_with_texts(self, text_shas: list[str]) -> Iterator[tuple[str, str]]:
        """(chunk id, hash) of the live chunks whose embedded text hashes to one of `text_shas`."""
        return self._rows_where_in("SELECT chunk_id, text_sha FROM chunk_index WHERE text_sha", text_shas)

    def all_texts(self) -> Iterator[str]:
        """The text of every chunk."""
        return (row[0] for row in self.db.execute("SELECT text FROM chunks"))

    # -- lexical search --------------------------------------------------------------------

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
        # data_version moves with other connections' commits, total_changes with this one's.
        state = (self.data_version(), self.db.total_changes)
        if state != self._counts_state or len(self._counts) > MAX_COUNTS:
            self._counts, self._counts_state = {}, state
        if key not in self._counts:
            self._counts[key] = self.db.execute(sql, args).fetchone()[0]
        return self._counts[key]

    def about_time(self, first: date, last: date, as_of: date, n: int) -> list[Hit]:
        """The first chunks (ABOUT_TIME_CHUNKS) of the `n` newest documents written by `as_of`
        about a day from `first` to `last`, as candidates.about_the_time reads it: naming one,
        or written on one (by a date to the day that is no file's modification time). Score 0:
        they are found by no words."""
        first_day, last_day = first.isoformat(), last.isoformat()
        return [
            Hit(*row)
            for row in self.db.execute(
                "SELECT chunk_id, doc_id, text, 0.0 FROM ("
                " SELECT chunk_index.chunk_id, chunk_index.doc_id, chunks.text, ROW_NUMBER() OVER"
                "  (PARTITION BY chunk_index.doc_id ORDER BY chunk_index.text_rowid) AS nth FROM chunk_index"
                "  JOIN chunks ON chunks.rowid = chunk_index.text_rowid WHERE chunk_index.doc_id IN ("
                "   SELECT doc_id FROM documents WHERE (source_date IS NULL OR substr(source_date, 1, 10) <= ?) AND ("
                "    EXISTS (SELECT 1 FROM json_each(documents.event_dates) WHERE value BETWEEN ? AND ?)"
                "    OR (COALESCE(date_source, '') != 'mtime' AND COALESCE(date_precision, '') NOT IN ('month', 'year')"
                "     AND substr(source_date, 1, 10) BETWEEN ? AND ?))"
                "   ORDER BY source_ts DESC LIMIT ?)"
                ") WHERE nth <= ?",
                (as_of.isoformat(), first_day, last_day, first_day, last_day, n, ABOUT_TIME_CHUNKS),
            )
        ]

    def lexical(self, match: str, n: int) -> list[Hit]:
        """FTS5 search; `match` is an FTS5 query. Scores are -bm25 (higher is better)."""
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

    def bm25(self, match: str, chunk_ids: list[str]) -> dict[str, float]:
        """The BM25 score (-bm25, higher is better) of some chunks for an FTS5 query: chunks
        found by meaning alone are weighed by their words too. Chunks it matches not are left out.

        `+rowid` keeps the rowids from FTS5, which would otherwise start the whole query over
        for each of them (and count every word's chunks again for bm25's weights): on 100k
        chunks, 74 ms a question where one pass over the matches takes 13."""
        if not match or not chunk_ids:
            return {}
        try:
            return dict(
                self._rows_where_in(
                    "SELECT chunk_id, -bm25(chunks) FROM chunks WHERE chunks MATCH ? AND +rowid IN "
                    "(SELECT text_rowid FROM chunk_index WHERE chunk_id",
                    chunk_ids,
                    prefix=(match,),
                    close=")",
                )
            )
        except sqlite3.OperationalError:
            return {}

    # -- runs and counts -------------------------------------------------------------------

    def start_run(self, command: str) -> int:
        """A run's row, written as it starts: a run killed, or failing, leaves it unfinished,
        and `status` says so rather than show the last run that finished as the last run."""
        return self.db.execute(
            "INSERT INTO runs (command, finished_at, summary) VALUES (?, NULL, ?)",
            (command, json.dumps({"started_at": utc_now()})),
        ).lastrowid

    def log_run(self, run: int, summary: dict) -> None:
        (started,) = self.db.execute("SELECT summary FROM runs WHERE id = ?", (run,)).fetchone()
        self.db.execute(
            "UPDATE runs SET finished_at = ?, summary = ? WHERE id = ?",
            (utc_now(), json.dumps({**json.loads(started), **summary}), run),
        )

    def last_runs(self, n: int = 5) -> list[dict]:
        rows = self.db.execute("SELECT command, finished_at, summary FROM runs ORDER BY id DESC LIMIT ?", (n,))
        return [{"command": c, "finished_at": f, **json.loads(summary)} for c, f, summary in rows]

    def counts(self) -> dict:
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
        skipped = self.db.execute("SELECT count(*) FROM files WHERE error IN (?, ?)", (EMPTY, NOT_A_KIND)).fetchone()[0]
        files = self.db.execute("SELECT count(*) FROM files").fetchone()[0] - skipped
        failed = self.db.execute(
            f"SELECT count(*) FROM files WHERE {_FAILED} OR unread_parts IS NOT NULL", (EMPTY, NOT_A_KIND)
        ).fetchone()[0]
        chunks = self.db.execute("SELECT coalesce(sum(chunks), 0) FROM documents").fetchone()[0]
        return {
            "documents": sum(by_type.values()),
            "chunks": chunks,
            "files": files,
            "files_with_errors": failed,
            "files_skipped": skipped,
            "copies_folded": copies,
            "by_type": by_type,
            "by_year": by_year,
        }

    def failed_files(self) -> list[dict]:
        """The files whose last reading failed, or left a part unread (an encrypted attachment),
        and why. Each run passes over them until they change (a password or a fix of brainq
        aside), so its report no longer names them."""
        rows = self.db.execute(
            f"SELECT path, error, unread_parts FROM files WHERE {_FAILED} OR unread_parts IS NOT NULL ORDER BY path",
            (EMPTY, NOT_A_KIND),
        )
        return [
            {"path": path, "reason": reason, "part": part}  # part: the file itself was read
            for path, error, parts in rows
            for reason, part in [(error, False)] * bool(error) + [(p, True) for p in json.loads(parts or "[]")]
        ]

    # -- copies of other origins' documents (brainq/store/sync.py) -------------------------

    def copied_revisions(self) -> dict[str, str]:
        """Each other origin's revision as last copied."""
        return dict(self.db.execute("SELECT origin, revision FROM remote_origins"))

    def copied_chunks(self, origin: str) -> dict[str, str]:
        """The chunks copied of an origin, with their document ids."""
        return dict(
            self.db.execute(
                "SELECT chunk_id, chunk_index.doc_id FROM chunk_index JOIN remote_documents USING (doc_id) "
                "WHERE origin = ?",
                (origin,),
            )
        )

    def copied_documents_by_origin(self) -> dict[str, int]:
        return dict(self.db.execute("SELECT origin, count(*) FROM remote_documents GROUP BY origin ORDER BY 1"))

    def copy_documents(
        self, origin: str, revision: str, changed: set[str], documents: dict[str, StoredDocument],
        chunks: dict[str, list[Chunk]],
    ) -> None:  # fmt: skip
        """Replace the copies of an origin's `changed` documents by `documents`, in one transaction."""
        with self.transaction() as db:
            # Looked up again here: another process of this store may have copied some meanwhile.
            held = [row[0] for row in self._rows_where_in("SELECT doc_id FROM remote_documents WHERE doc_id", sorted(changed))]
            self.delete_documents(held)
            for doc in documents.values():
                self.insert_documents(doc.path, [doc], chunks[doc.doc_id])
            db.executemany("INSERT INTO remote_documents VALUES (?, ?)", [(d, origin) for d in documents])
            db.execute("INSERT OR REPLACE INTO remote_origins VALUES (?, ?, ?)", (origin, revision, utc_now()))


def _carried(before: list[str], body: list[str], overlap_words: int) -> int:
    """How many of a chunk's first lines chunking carried over from the chunk before: the last
    of its sentences (one a line) that fit in `overlap_words`, if the chunk begins with them (a
    carry that left no room for the next sentence was dropped). Lines a document itself repeats
    are kept."""
    k = carried([size(line) for line in before], overlap_words)
    return k if k and before[-k:] == body[:k] else 0
