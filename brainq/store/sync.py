"""Server mode: several machines sharing one Chroma collection, each with a catalog of its own.

With a Chroma server (`chroma_url`) several machines share one collection, and Chroma is the
shared truth. Each store has an `origin`, made once and kept in the catalog's meta. Its catalog
is the authority for the files this machine ingests (brainq/store/writes.py), and a copy of
every other origin's documents and chunks, so the lexical index and scoring see them all:
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

import hashlib
import re
import secrets
import socket
import time

from brainq.store.catalog import Catalog
from brainq.store.records import (
    Chunk, StoredDocument, chunk_metadata, document_from_record, document_of, document_record, utc_now,
)  # fmt: skip
from brainq.store.vectors import CHROMA_BATCH, Chroma

# How stale the copy of other origins may be before a read looks at the server again (one
# small request); long-running processes re-check at most this often.
SYNC_SECONDS = 2.0


class Origins:
    """This store among the machines of a Chroma server: its ids and filters, its
    announcements, and its copy of the others' documents. Embedded, ids are as they always were."""

    def __init__(self, catalog: Catalog, chroma: Chroma):
        self.catalog = catalog
        self.chroma = chroma
        self.chroma_url = chroma.chroma_url
        self._origin: str | None = None
        self._copied_at = -SYNC_SECONDS  # when other origins were last looked at

    @property
    def origin(self) -> str:
        """This store's name among the machines sharing a Chroma server, made once."""
        if self._origin is None:
            name = re.sub(r"[^a-z0-9]+", "-", socket.gethostname().lower()).strip("-") or "brainq"
            self._origin = self.catalog.origin(f"{name}-{secrets.token_hex(3)}")
        return self._origin

    # -- ids, filters and metadata ---------------------------------------------------------

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
        version = hashlib.sha1(f"{sha256}\0{document_record(doc, stamped=False)}".encode()).hexdigest()
        return f"{doc.doc_id}:{version[:8]}"

    def where_path(self, path: str) -> dict:
        """The Chroma filter for one file's chunks; on a server, this origin's file of that name."""
        if self.chroma_url:
            return {"$and": [{"path": path}, {"origin": self.origin}]}
        return {"path": path}

    def chunk_metadatas(self, documents: list[StoredDocument], chunks: list[Chunk]) -> list[dict]:
        """The chunks' metadata in Chroma; on a server with their origin and document record."""
        by_id = {d.doc_id: d for d in documents}
        return [self._chunk_metadata(by_id[c.doc_id], int(c.chunk_id.rsplit(":", 1)[1])) for c in chunks]

    def _chunk_metadata(self, doc: StoredDocument, index: int) -> dict:
        meta = chunk_metadata(doc, index)
        if self.chroma_url:
            meta.update(origin=self.origin, record=document_record(doc))
        return meta

    # -- announcing and copying ------------------------------------------------------------

    def announce(self) -> None:
        """Server mode: after writing, a fresh revision tells the other origins to look again.

        Called once per batch of files and when the writer lock is released, not per file:
        each server write costs tens of milliseconds.
        """
        if self.chroma_url and self.chroma.unannounced:
            self.chroma.origins.upsert(
                ids=[self.origin],
                embeddings=[[1.0]],  # Chroma wants a vector; this collection is never searched
                metadatas=[{"revision": secrets.token_hex(8), "host": socket.gethostname(), "at": utc_now()}],
            )
            self.chroma.unannounced = False

    def sync(self) -> None:
        """Server mode: bring this catalog's copy of the other origins in step with the server.

        An origin whose announced revision is the one copied last is not listed; for the others,
        the documents whose chunks came or went are copied again from Chroma. A revision is
        read before its chunks, so a write announced meanwhile is seen by the next sync.
        """
        if not self.chroma_url:
            return
        origins = self.chroma.origins
        self._copied_at = time.monotonic()
        announced = origins.get(include=["metadatas"])
        copied = self.catalog.copied_revisions()
        for origin, meta in zip(announced["ids"], announced["metadatas"]):
            if origin != self.origin and copied.get(origin) != meta["revision"]:
                self._copy_origin(origin, meta["revision"])

    def fresh(self) -> None:
        """Sync when the copy of the other origins is older than SYNC_SECONDS (server mode)."""
        if self.chroma_url and time.monotonic() - self._copied_at >= SYNC_SECONDS:
            self.sync()

    def _copy_origin(self, origin: str, revision: str) -> None:
        remote = set(self.chroma.chunk_ids({"origin": origin}))
        local = self.catalog.copied_chunks(origin)
        changed = {local[cid] for cid in local.keys() - remote} | {document_of(cid) for cid in remote - local.keys()}
        wanted = sorted(cid for cid in remote if document_of(cid) in changed)
        documents: dict[str, StoredDocument] = {}
        chunks: dict[str, list[Chunk]] = {}
        for start in range(0, len(wanted), CHROMA_BATCH):
            got = self.chroma.collection.get(ids=wanted[start : start + CHROMA_BATCH], include=["documents", "metadatas"])
            for chunk_id, text, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                if "record" in meta and meta["doc_id"] not in documents:
                    documents[meta["doc_id"]] = document_from_record(meta["record"])
                chunks.setdefault(meta["doc_id"], []).append(Chunk(chunk_id, meta["doc_id"], text))
        self.catalog.copy_documents(origin, revision, changed, documents, chunks)
