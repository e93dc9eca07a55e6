"""The store: chunk vectors in ChromaDB, and beside them a SQLite catalog and lexical index.

A store is a directory: the catalog (catalog.py) knows every file, document and chunk text,
Chroma (vectors.py) holds the vectors. `Store` composes them with the order of writes that keeps
readers and crashes safe (writes.py), server mode's sharing with other machines (sync.py) and
the check that mends a damaged store (check.py); records.py holds the plain data they pass
around. Everything outside the store uses `Store` and the records only.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path

from brainq.errors import StoreError
from brainq.store import check
from brainq.store.catalog import CATALOG_FILE, SCHEMA_VERSION, Catalog, index_rebuild_pending
from brainq.store.records import Chunk, FileRecord, FileWrite, Hit, StoredDocument, epoch_seconds
from brainq.store.sync import Origins
from brainq.store.vectors import COLLECTION, Chroma, _Guarded
from brainq.store.writes import Writes

__all__ = [
    "Store", "StoredDocument", "Chunk", "FileRecord", "FileWrite", "Hit", "epoch_seconds", "COLLECTION", "is_store",
    "SCHEMA_VERSION", "StoreError", "_Guarded", "index_rebuild_pending",
]  # fmt: skip


def is_store(folder: str) -> bool:
    """Whether a folder is a brainq store: no person's documents, and files that change under
    a reader while their own run or question uses them (another store kept inside a folder
    that is ingested, as a test's or a second household's may be)."""
    return os.path.isfile(os.path.join(folder, CATALOG_FILE)) and (
        os.path.isdir(os.path.join(folder, "chroma")) or os.path.isfile(os.path.join(folder, "write.lock"))
    )


# What a store's folder holds (catalog.py, vectors.py, writes.py, serve.py), and what an
# operating system puts in a new folder or drive: a folder holding anything else is someone's,
# not a store, whatever --store says.
_STORE_FILES = re.compile(
    r"catalog\.sqlite3(-journal|-wal|-shm)?|chroma|chroma\.unusable-[\dT]+|write\.lock|serve\.lock|brainq\.sock"
    r"|\.DS_Store|\.localized|Thumbs\.db|desktop\.ini|lost\+found"
)


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of `path` that does not exist yet (what a mkdir of it makes)."""
    if path.exists():
        return None
    while not path.parent.exists():
        path = path.parent
    return path


def _holds_only_a_store(folder: Path) -> bool:
    """A store's folder, or one that holds nothing else yet; a store's catalog vouches for
    whatever else its owner keeps beside it."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return True  # unreadable: opening it says why
    return CATALOG_FILE in entries or all(_STORE_FILES.fullmatch(entry) for entry in entries)


def _not_writable(home: Path, embedded: bool) -> Path | None:
    """The first of a store's folder and files (its vectors' too, when it keeps them) that
    this user cannot write, or None."""
    paths = [home, *(home / f"{CATALOG_FILE}{end}" for end in ("", "-wal", "-shm", "-journal")), home / "write.lock"]
    if embedded:
        for folder, _, files in os.walk(home / "chroma"):
            paths += [Path(folder), *(Path(folder) / name for name in files)]
    for path in paths:
        if path.exists() and not os.access(path, os.W_OK | (os.X_OK if path.is_dir() else 0)):
            return path
    return None


class Store:
    """One brainq store: a directory holding the catalog and (by default) Chroma's files."""

    def __init__(self, home: Path, chroma_url: str | None = None, *, create: bool = True):
        self.home = Path(os.path.abspath(Path(home).expanduser()))  # as status shows it, whatever the folder it was typed in
        self.chroma_url = chroma_url
        made = _first_missing(self.home)
        self._open_home(create)
        self.catalog = Catalog(self.home)
        self.chroma = Chroma(self.home, chroma_url, self.catalog)
        self.origins = Origins(self.catalog, self.chroma)
        self.writes = Writes(self.home, self.catalog, self.chroma, self.origins)
        if made and not create:
            # A new machine's folder for a store on a server (see _open_home) is filled from
            # it: one the server cannot fill (unreachable, or not Chroma) is not left behind.
            try:
                self.chroma.collection
            except StoreError:
                self.close()
                shutil.rmtree(made, ignore_errors=True)
                raise

    def _open_home(self, create: bool) -> None:
        try:
            self._claim_home(create)
        except PermissionError as exc:  # a store made with sudo: its folder is root's alone
            raise self._not_yours(exc.filename or self.home, exc.strerror) from None

    def _not_yours(self, path, reason: str) -> StoreError:
        """A store made with sudo is root's to give back; one of yours whose mode was changed
        (`chmod 555`) is yours to make writable again, which chown would not do."""
        try:
            yours = os.stat(path).st_uid == os.geteuid()
        except OSError:
            yours = False
        if yours:
            return StoreError(f"store {self.home} is yours, but {path} is closed to you ({reason}); `chmod -R u+rwX {self.home}` opens it again")
        return StoreError(
            f"store {self.home} is not yours to use ({path}: {reason}); "
            f"if it was made with sudo, `sudo chown -R $USER {self.home}` gives it back"
        )

    def _claim_home(self, create: bool) -> None:
        # The store holds a person's mail: everything in it is readable by its owner only.
        os.umask(0o077)
        if self.home.exists() and not self.home.is_dir():
            raise StoreError(f"store path {self.home} is a file, not a directory")
        if not create and not self.chroma_url and not (self.home / CATALOG_FILE).is_file():
            # Only ingest makes a store: a mistyped --store given to status, ask or mcp must
            # not leave a new empty store (and its parent folders) behind. A store on a Chroma
            # server is there already: a new machine's folder is filled from it.
            raise StoreError(f"no brainq store at {self.home}: `brainq ingest PATH...` makes one, or name another --store")
        if self.home.is_dir() and not _holds_only_a_store(self.home):
            # A mistyped --store (the home folder, a folder of documents, /tmp) must not
            # become a store, nor have its mode changed to the owner's alone.
            raise StoreError(
                f"{self.home} is not a brainq store and holds other files: name a new or empty folder with --store (or BRAINQ_HOME)"
            )
        try:
            self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
            st = self.home.stat()
            mode = st.st_mode
            if mode & 0o077 and st.st_uid == os.geteuid():  # a read-only mount refuses even a chmod to the same mode
                os.chmod(self.home, mode & 0o700)  # the owner's own bits stay: a read-only store is refused below
        except OSError as exc:
            raise StoreError(f"cannot create store at {self.home}: {exc.strerror}") from None
        locked = _not_writable(self.home, embedded=not self.chroma_url)
        if locked is not None:  # Chroma writes to its files even to answer a question
            if os.statvfs(locked).f_flag & os.ST_RDONLY:
                raise StoreError(
                    f"store {self.home} is on a read-only filesystem ({locked}): brainq writes to its store even "
                    "to answer a question (its lock, Chroma's files); mount it read-write, or copy it to a folder that is"
                )
            raise self._not_yours(locked, "not writable by you")

    def close(self) -> None:
        self.catalog.close()

    @property
    def server_url(self) -> str | None:
        """The Chroma server this store's vectors are kept on, if any: it needs naming again
        (--chroma-url) wherever the store is opened."""
        return self.catalog.meta("chroma_url")

    # -- the catalog (catalog.py) ----------------------------------------------------------

    def add_source(self, path: str) -> None:
        self.catalog.add_source(path)

    def sources(self) -> list[str]:
        return self.catalog.sources()

    def remove_source(self, path: str) -> bool:
        return self.catalog.remove_source(path)

    def forgotten(self) -> list[str]:
        return self.catalog.forgotten()

    def file_record(self, path: str) -> FileRecord | None:
        return self.catalog.file_record(path)

    def locators(self, path: str) -> set[str]:
        return self.catalog.locators(path)

    def files_under(self, root: str) -> list[str]:
        return self.catalog.files_under(root)

    def flag_incomplete_metadata(self) -> int:
        return self.catalog.flag_incomplete_metadata()

    def touch_file(self, path: str, size: int, mtime_ns: int) -> None:
        self.catalog.touch_file(path, size, mtime_ns)

    def failed_file(self, path: str, size: int, mtime_ns: int, sha256: str, error: str, derived: int) -> None:
        self.catalog.failed_file(path, size, mtime_ns, sha256, error, derived)

    def unopened_file(self, path: str, error: str) -> None:
        self.catalog.unopened_file(path, error)

    def get_documents(self, doc_ids: Iterable[str]) -> dict[str, StoredDocument]:
        return self.catalog.get_documents(doc_ids)

    def document_text(self, doc_id: str, limit: int, overlap_words: int) -> str | None:
        return self.catalog.document_text(doc_id, limit, overlap_words)

    def start_run(self, command: str) -> int:
        return self.catalog.start_run(command)

    def log_run(self, run: int, summary: dict) -> None:
        self.catalog.log_run(run, summary)

    def last_runs(self, n: int = 5) -> list[dict]:
        return self.catalog.last_runs(n)

    def embedding_config(self) -> dict | None:
        return self.catalog.embedding_config()

    def record_embedding_config(self, config: dict) -> None:
        self.catalog.record_embedding_config(config)

    # Reads that should see other machines' documents: on a Chroma server they sync first
    # (Origins.fresh), at most every SYNC_SECONDS.

    def documents(
        self, doc_type: str | None = None, since: date | None = None, until: date | None = None
    ) -> Iterator[StoredDocument]:
        self.origins.fresh()
        yield from self.catalog.documents(doc_type, since, until)

    def lexical(self, match: str, n: int) -> list[Hit]:
        self.origins.fresh()
        return self.catalog.lexical(match, n)

    def about_time(self, first: date, last: date, as_of: date, n: int) -> list[Hit]:
        self.origins.fresh()
        return self.catalog.about_time(first, last, as_of, n)

    def bm25(self, match: str, chunk_ids: list[str]) -> dict[str, float]:
        self.origins.fresh()
        return self.catalog.bm25(match, chunk_ids)

    def document_frequency(self, match: str) -> int:
        self.origins.fresh()
        return self.catalog.document_frequency(match)

    def chunk_count(self) -> int:
        self.origins.fresh()
        return self.catalog.chunk_count()

    # -- the vectors (vectors.py) ----------------------------------------------------------

    @property
    def collection(self):
        return self.chroma.collection

    @property
    def vocabulary(self):
        return self.chroma.vocabulary

    def refresh(self) -> None:
        self.chroma.refresh()

    def semantic(self, vector: list[float], n: int) -> list[Hit]:
        return self.chroma.semantic(vector, n)

    def require_vectors(self) -> None:
        self.chroma.require_vectors()

    def vectors(self, chunk_ids: list[str]) -> dict[str, list[float]]:
        return self.chroma.vectors(chunk_ids)

    def known_vectors(self, chunks: list[Chunk]) -> dict[str, list[float]]:
        return self.chroma.known_vectors(chunks)

    def known_words(self, words: set[str]) -> set[str]:
        return self.chroma.known_words(words)

    def add_words(self, words: list[str], vectors) -> None:
        self.chroma.add_words(words, vectors)

    def nearest_words(self, vectors: list[list[float]], n: int) -> list[list[tuple[str, float]]]:
        return self.chroma.nearest_words(vectors, n)

    # -- writing (writes.py) ---------------------------------------------------------------

    def writer_lock(self, wait_seconds: float = 0.0):
        return self.writes.writer_lock(wait_seconds)

    def save_files(self, files: list[FileWrite]) -> None:
        self.writes.save_files(files)

    def add_documents(self, path: str, size: int, mtime_ns: int, sha256: str, documents: list[StoredDocument],
                      chunks: list[Chunk], vectors: list[list[float]], derived: int, read_offset: int,
                      messages: int, unread_parts: list[str]) -> None:  # fmt: skip
        self.writes.add_documents(path, size, mtime_ns, sha256, documents, chunks, vectors, derived, read_offset,
                                  messages, unread_parts)  # fmt: skip

    def forget(self, target: str, progress=None) -> tuple[int, int]:
        return self.writes.forget(target, progress)

    def forgettable(self, targets: list[str]) -> list[str]:
        return self.writes.forgettable(targets)

    def forget_file(self, path: str) -> None:
        self.writes.forget_file(path)

    # -- other machines on a Chroma server (sync.py) ---------------------------------------

    @property
    def origin(self) -> str:
        return self.origins.origin

    def document_id(self, doc_id: str) -> str:
        return self.origins.document_id(doc_id)

    def chunk_prefix(self, doc: StoredDocument, sha256: str) -> str:
        return self.origins.chunk_prefix(doc, sha256)

    def announce(self) -> None:
        self.origins.announce()

    def sync(self) -> None:
        self.origins.sync()

    # -- status (check.py) -----------------------------------------------------------------

    def check(
        self,
        repair: bool = False,
        embed: Callable[[list[str]], list] | None = None,
        words: Callable[[Iterable[str]], set[str]] | None = None,
    ) -> dict:
        """Whether the store is whole and writable, and with `repair`, mend what is not (check.check)."""
        return check.check(self.catalog, self.chroma, self.origins, repair, embed, words)

    def counts(self) -> dict:
        """Documents, chunks and files, by type and year; on a server, documents by origin too."""
        self.origins.fresh()
        counts = self.catalog.counts()
        if self.chroma_url:
            remote = self.catalog.copied_documents_by_origin()
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
            "failed_files": self.catalog.failed_files(),
            "last_runs": self.last_runs(),
        }

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.home.rglob("*") if p.is_file())
