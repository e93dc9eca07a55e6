"""Writing: one writer at a time, and the order of a file's writes to the catalog and Chroma.

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
is unchanged and a new message starts there (or after the blank line that ends the last one,
where it had none), only the bytes after it are read, and their documents are added beside the
file's others (`add_documents`). Anything else (a changed prefix, a last message that was still
being written) reads the whole file again.
"""

from __future__ import annotations

import fcntl
import time
from contextlib import contextmanager
from pathlib import Path

from brainq.crashpoints import reached
from brainq.errors import LockedError, UsageError
from brainq.store.catalog import Catalog
from brainq.store.records import Chunk, FileWrite, StoredDocument, within
from brainq.store.sync import Origins
from brainq.store.vectors import Chroma


class Writes:
    """The writes to the store at `home`, each in the order of the module docstring."""

    def __init__(self, home: Path, catalog: Catalog, chroma: Chroma, origins: Origins):
        self.home = home
        self.catalog = catalog
        self.chroma = chroma
        self.origins = origins

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
                            f"another brainq ingest, backfill, forget or repair is writing to {self.home}; "
                            "try again later or pass --wait SECONDS"
                        ) from None
                    time.sleep(0.2)
            try:
                with self.chroma.writing():
                    yield
            finally:
                try:
                    self.origins.announce()
                finally:
                    fcntl.flock(fh, fcntl.LOCK_UN)

    def save_files(self, files: list[FileWrite]) -> None:
        """Replace everything stored for several files, each step of the module docstring's
        order taken for all of them at once: a mailbox's small messages cost Chroma and SQLite
        about as much per call as the model does to embed them, so calls are shared."""
        if not files:
            return
        catalog = self.catalog
        with catalog.transaction():
            known = {f.path for f in files if catalog.file_record(f.path) is not None}
            for f in files:
                catalog.mark_pending(f.path, f.size, f.mtime_ns)
        reached("files-pending")
        # Chunks a crashed run left behind are not in chunk_index; Chroma's list has them all.
        old_ids = {
            path: set(self.chroma.collection.get(where=self.origins.where_path(path), include=[])["ids"])
            for path in known
        }
        self.chroma.upsert_chunks(
            [c for f in files for c in f.chunks],
            [v for f in files for v in f.vectors],
            [m for f in files for m in self.origins.chunk_metadatas(f.documents, f.chunks)],
        )
        stale = {f.path: list(old_ids.get(f.path, set()) - {c.chunk_id for c in f.chunks}) for f in files}
        with catalog.transaction():
            for f in files:
                catalog.delete_file_documents(f.path)
                catalog.insert_documents(f.path, f.documents, f.chunks)
                catalog.update_file(f.path, f.size, f.mtime_ns, f.sha256, f.error, f.derived, f.read_offset,
                                    f.messages, stale[f.path], f.unread_parts)  # fmt: skip
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
        unread_parts: list[str],
    ) -> None:
        """Add documents to those of a grown mailbox, in the order the module docstring gives.

        The file's other documents stay as they are; one already stored under a new
        document's id is replaced by it.
        """
        catalog = self.catalog
        catalog.mark_pending(path, size, mtime_ns)
        replaced = list(catalog.get_documents(d.doc_id for d in documents))
        old_ids = catalog.chunk_ids_of(replaced)
        self.chroma.upsert_chunks(chunks, vectors, self.origins.chunk_metadatas(documents, chunks))
        stale = list(old_ids - {c.chunk_id for c in chunks})
        with catalog.transaction():
            catalog.delete_documents(replaced)
            catalog.insert_documents(path, documents, chunks)
            catalog.update_file(path, size, mtime_ns, sha256, None, derived, read_offset, messages, stale,
                                unread_parts, grown=True)  # fmt: skip
            reached("catalog-written")
        self._delete_chunks(path, stale)

    def _delete_chunks(self, path: str, stale: list[str]) -> None:
        """Step 4: the replaced chunks leave Chroma, then the file is no longer pending."""
        if stale:
            self.chroma.delete_chunks(ids=stale)
            reached("old-vectors-deleted")
            self.catalog.clear_pending(path)

    def forget(self, target: str, progress=None) -> tuple[int, int]:
        """Drop a file, or every file under a folder, and stop scanning it as a source; returns
        how many documents went, and how many of its documents stay because a copy of them
        is at another path. Called under the writer lock; `progress` (ingest's Progress) is
        told of each file, as a folder of thousands takes a while.

        Inside a source ("forget ~/Documents/old-taxes" of ~/Documents), it is remembered as
        forgotten, or the next backfill of the source would bring it all back."""
        files = self.catalog.files_under(target)
        with self.catalog.transaction():
            # The sources inside it go too ("forget ~/Mail" of ~/Mail/work and ~/Mail/home), or
            # their next backfill would bring it all back.
            if not self.catalog.remove_source(target, inside=True) and not files:
                raise self._foreign(target)
            inside = any(within(target, source) for source in self.catalog.sources())
            # Remembered as forgotten while its files go, so that the next run finishes a
            # forget stopped midway (ingest.forgotten_left); inside a source, for good.
            self.catalog.forget_path(target, keep_out=True)
        documents = self.catalog.document_keys(files)
        if progress:
            progress.total(len(files))
        for file in files:
            self.forget_file(file)
            if progress:
                progress.file_done(file, "removed", 0)
        kept = self.catalog.documents_kept(documents)
        if not inside:
            self.catalog.remember(target)
        return len(documents) - kept, kept

    def forgettable(self, targets: list[str]) -> list[str]:
        """`targets` to forget, each once and none inside another (forgotten with it), once
        every one has something to forget, or a UsageError says which has not, before anything
        is forgotten: `forget ~/Mail/old ~/Mail/olld` forgets nothing, where it forgot the first
        and then stopped on the typo."""
        sources = self.catalog.sources()
        for target in targets:
            if not self.catalog.files_under(target) and not any(within(source, target) for source in sources):
                raise self._foreign(target)
        unique = sorted(set(targets))
        return [t for t in unique if not any(t != other and within(t, other) for other in unique)]

    @staticmethod
    def _foreign(target: str) -> UsageError:
        return UsageError(f"{target}: nothing in the store comes from there")

    def forget_file(self, path: str) -> None:
        """Drop a file and its documents."""
        self.catalog.mark_pending(path, 0, 0)
        with self.catalog.transaction():
            self.catalog.delete_file_documents(path)
        reached("document-forgotten")
        # A narrow filter (one file's chunks) is cheap in Chroma, unlike broad date filters.
        self.chroma.delete_chunks(where=self.origins.where_path(path))
        self.catalog.delete_file(path)
