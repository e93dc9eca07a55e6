"""The vectors: brainq's Chroma collections, embedded in the store's folder or on a server.

Chroma holds each chunk's vector and metadata; texts are not stored there a second time (half
of Chroma's write cost was its copy of them), except on a server, where the other machines read
them. Search by meaning asks Chroma, then keeps only the chunks the catalog lists as live, so a
concurrent `ask` sees a file's old state or its new one, never a mix. Beside the chunks, the
vocabulary holds every word of the store with its vector (brainq/vocabulary.py).

Vectors are addressed by content too: a chunk whose embedded text (Chunk.embedded_text) is
already stored takes the stored vector, so moved files, re-derived metadata and grown
mailboxes cost no embedding.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path

from brainq.crashpoints import reached
from brainq.errors import StoreError
from brainq.store.catalog import Catalog
from brainq.store.disk import full_disk
from brainq.store.records import Chunk, Hit

COLLECTION = "brainq_chunks"
ORIGINS = "brainq_origins"  # server mode: each origin's latest revision (brainq/store/sync.py)
VOCABULARY = "brainq_vocabulary"  # every word of the chunks, with its vector (brainq/vocabulary.py)
CHROMA_BATCH = 1000  # chunks per Chroma write: large batches amortise its per-call overhead
# Pauses before reading embedded Chroma again, afresh, when a writing process changed it mid-read.
READ_RETRY_SECONDS = (0.05, 0.2, 0.5, 1.0)
_READS = frozenset({"get", "query", "count", "peek"})
# How many entries Chroma's vector index weighs while it searches. Its default, 100, against the
# 60 candidates a question fetches, missed some of the nearest chunks, and not always the same:
# a small store's index is rebuilt in memory by each process that opens it, so one question got
# a different answer from one run to the next. At 256 a missed one is rare; a search at 100k
# chunks costs ~3 ms more.
SEARCH_BREADTH = 256
_SEARCH = {"hnsw": {"space": "cosine", "ef_search": SEARCH_BREADTH}}
# Rare is not never. Up to this many chunks, Chroma keeps no index on disk and each process
# builds its own, so a question asks such a store for all its chunks: the index then visits
# every one, and the nearest are the nearest in every run. That costs ~4 ms at 1,000.
SEARCHED_WHOLE = 1000


class Chroma:
    """The Chroma side of the store at `home`: embedded in its folder, or on the server at
    `chroma_url`, whose collection the catalog is bound to."""

    def __init__(self, home: Path, chroma_url: str | None, catalog: Catalog):
        self.home = home
        self.chroma_url = chroma_url
        self.catalog = catalog
        self._collection = None
        self._vocabulary = None
        self._words_in = None  # the vocabulary handle last seen holding words
        self._origins = None
        self._data_version = None
        self.unannounced = False  # server mode: Chroma changed since the last announcement

    # -- opening ---------------------------------------------------------------------------

    @property
    def collection(self):
        """Chroma is imported only by commands that need vectors: it costs a second to load."""
        if self._collection is None:
            self._open()
        return self._collection

    @property
    def vocabulary(self):
        """The store's words and their vectors, a Chroma collection beside the chunks'."""
        if self._vocabulary is None:
            self._open()
        return self._vocabulary

    @property
    def origins(self):
        """Server mode: the origins' announcements (brainq/store/sync.py)."""
        if self._origins is None:
            self._open()
        return self._origins

    def _open(self) -> None:
        from chromadb.config import Settings

        settings = Settings(anonymized_telemetry=False)
        bound = self.catalog.meta("chroma_url")
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
            collection = client.get_or_create_collection(COLLECTION, embedding_function=None, configuration=_SEARCH)
            vocabulary = client.get_or_create_collection(VOCABULARY, embedding_function=None, configuration=_SEARCH)
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
        server = bool(self.chroma_url)
        self._collection = _Guarded(collection, where, server, reopen=lambda: self._reopened(COLLECTION))
        self._vocabulary = _Guarded(vocabulary, where, server, reopen=lambda: self._reopened(VOCABULARY))

    def _reopened(self, name: str):
        """Collection `name` on a new client, for a read to be tried again, or None where
        that must not be (see _Guarded). Chroma keeps a collection's index as first loaded,
        so a load that met another process's write fails every later read on its client.
        Both handles then move to the new client, so the old one and its index can go."""
        folder = self.home / "chroma"
        if self.chroma_url or str(folder) in _WRITING:
            return None
        _forget_embedded_client(folder)
        try:
            self._open()
        except StoreError:  # the read is tried on the old client
            return None
        return (self._collection if name == COLLECTION else self._vocabulary)._collection

    @contextmanager
    def writing(self) -> Iterator[None]:
        """While this process holds the store's writer lock: every Store of the process on this
        folder (ingest's writer and saver threads open their own) then keeps its one client."""
        key = str(self.home / "chroma")
        with _CLIENTS_LOCK:
            _WRITING.add(key)
        try:
            self._widen_search()
            yield
        finally:
            with _CLIENTS_LOCK:
                _WRITING.discard(key)

    def _widen_search(self) -> None:
        """A store made before SEARCH_BREADTH searches with Chroma's default: its first writer
        since raises it (a reader leaves the store as it found it). Vectors that cannot be
        opened are left to the writer's own work (a repair rebuilds them) and a later writer."""
        if self.catalog.meta("search_breadth") == str(SEARCH_BREADTH):
            return
        try:
            for collection in (self.collection, self.vocabulary):
                hnsw = collection.configuration.get("hnsw") or {}  # a distributed server's has none
                if hnsw.get("ef_search", SEARCH_BREADTH) < SEARCH_BREADTH:
                    collection.modify(configuration={"hnsw": {"ef_search": SEARCH_BREADTH}})
        except StoreError:
            return
        self.catalog.set_meta("search_breadth", str(SEARCH_BREADTH))

    def _server_client(self, settings):
        """An HttpClient, after one request that tells an unreachable or incompatible server apart."""
        from urllib.parse import urlparse

        import chromadb
        import httpx

        try:
            url = urlparse(self.chroma_url)
            port = url.port  # a bad port raises here
        except ValueError:  # "http://[::1", "http://host:99999"
            url = port = None
        if not url or url.scheme not in ("http", "https") or not url.hostname or url.path.strip("/") or port == 0:
            raise StoreError(f"Chroma server URL {self.chroma_url!r}: expected http://host:port")
        port = port or (443 if url.scheme == "https" else 8000)
        host = f"[{url.hostname}]" if ":" in url.hostname else url.hostname  # IPv6
        try:
            reply = httpx.get(f"{url.scheme}://{host}:{port}/api/v2/heartbeat", timeout=10)
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
        bound = self.catalog.meta("chroma_collection")
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
        if bound is None or self.catalog.meta("chroma_url") != self.chroma_url:
            self.catalog.bind_chroma(collection_id, self.chroma_url)

    def refresh(self) -> None:
        """Let a long-lived reader (`brainq serve`) see what other processes wrote since.

        SQLite readers see every commit, but embedded Chroma keeps its vector index in memory
        and never learns of another process's writes: re-open it when the catalog changed (a
        writer commits to the catalog after each Chroma write, so a change always shows there).
        """
        version = self.catalog.data_version()
        if version != self._data_version and self._collection is not None and not self.chroma_url:
            _forget_embedded_client(self.home / "chroma")
            self._collection = self._vocabulary = None
        self._data_version = version

    def problem(self, probe: str, dimensions: int) -> str | None:
        """Why Chroma cannot be used for writing, in words, or None: the chunks take a write (of
        a `probe` id, deleted again), and the vocabulary's index is read as a question reads it
        (a kill while Chroma rewrote its files can leave either unreadable)."""
        try:
            self.collection.upsert(ids=[probe], embeddings=[[1.0] * dimensions], metadatas=[{"path": ""}])
            self.collection.delete(ids=[probe])
            if self.vocabulary.count():
                self.vocabulary.query(query_embeddings=[[1.0] * dimensions], n_results=1, include=["distances"])
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

    def move_aside(self) -> Path:
        """Put an unusable Chroma folder aside (kept, not deleted) so a new one can be made."""
        folder = self.home / "chroma"
        aside = self.home / f"chroma.unusable-{datetime.now().strftime('%Y%m%dT%H%M%S')}"
        _forget_embedded_client(folder)
        self._collection = self._vocabulary = None
        if folder.exists():
            os.replace(folder, aside)
        return aside

    # -- chunks ----------------------------------------------------------------------------

    def upsert_chunks(self, chunks: list[Chunk], vectors, metadatas: list[dict]) -> None:
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
            self.unannounced = True
            reached("vectors-written")

    def delete_chunks(self, **which) -> None:
        """Delete the chunks `which` names (`ids=` or `where=`, as Chroma takes them)."""
        self.collection.delete(**which)
        self.unannounced = True

    def chunk_ids(self, where: dict | None = None) -> Iterator[str]:
        """Every chunk id in Chroma (that `where` admits), a page at a time."""
        offset = 0
        while True:
            page = self.collection.get(where=where, include=[], limit=10 * CHROMA_BATCH, offset=offset)["ids"]
            yield from page
            if len(page) < 10 * CHROMA_BATCH:
                return
            offset += len(page)

    def vectors(self, chunk_ids: list[str]) -> dict[str, list[float]]:
        """Stored vectors of some chunks, to score lexical hits semantically without re-embedding."""
        if not chunk_ids:
            return {}
        got = self.collection.get(ids=chunk_ids, include=["embeddings"])
        return {cid: list(vec) for cid, vec in zip(got["ids"], got["embeddings"])}

    def known_vectors(self, chunks: list[Chunk]) -> dict[str, list[float]]:
        """Stored vectors for chunks whose embedded text is already in the store, by its hash."""
        shas = list({c.text_sha for c in chunks})
        owner: dict[str, str] = {}
        for chunk_id, sha in self.catalog.chunks_with_texts(shas):
            owner.setdefault(chunk_id, sha)
        if not owner:
            return {}
        return {owner[cid]: vec for cid, vec in self.vectors(list(owner)).items()}

    def require_vectors(self) -> None:
        """StoreError where the catalog lists chunks and Chroma holds no vector: its files were
        lost (a folder deleted, a backup restored without it)."""
        held = self.catalog.chunk_count()
        if held and not self.collection.count():
            raise StoreError(
                f"store {self.home} has lost its vectors ({held} chunks listed, no vector in Chroma): "
                f"`brainq --store {self.home} status --check --repair` makes them again from the catalog's text"
            )

    def semantic(self, vector: list[float], n: int) -> list[Hit]:
        """Nearest chunks by cosine similarity, live ones only (see the module docstring)."""
        held = self.catalog.chunk_count()  # kept until the catalog changes; a question counts anyway
        if not held:
            return []
        width = max(n, held) if held <= SEARCHED_WHOLE else n
        result = self.collection.query(query_embeddings=[vector], n_results=width, include=["distances"])
        ids, distances = result["ids"][0][:n], result["distances"][0][:n]
        if not ids:
            self.require_vectors()
        live = {chunk_id: (doc_id, text) for chunk_id, doc_id, text in self.catalog.chunk_texts(ids)}
        return [Hit(cid, *live[cid], 1.0 - distance) for cid, distance in zip(ids, distances) if cid in live]

    # -- vocabulary ------------------------------------------------------------------------

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
        if not vectors or not n or not self._has_words():
            return [[] for _ in vectors]
        found = self.vocabulary.query(query_embeddings=vectors, n_results=n, include=["distances"])
        return [[(w, 1.0 - d) for w, d in zip(ids, distances)] for ids, distances in zip(found["ids"], found["distances"])]

    def _has_words(self) -> bool:
        """Counting costs a warm question milliseconds; words are only ever added, so once the
        vocabulary (this handle on it: it is reopened when the store changes) has some, it has."""
        vocabulary = self.vocabulary
        if self._words_in is not vocabulary:
            if not vocabulary.count():
                return False
            self._words_in = vocabulary
        return True


_CLIENTS: dict[str, object] = {}  # embedded Chroma clients of this process, by folder
_WRITING: set[str] = set()  # embedded folders this process holds the writer lock of
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


class _Guarded:
    """A Chroma collection whose failures are one StoreError line, not a traceback.

    Embedded, a read is first tried again on a new client (`reopen`): when another process's
    write changes the folder while a reader loads it, Chroma fails the read with an
    InternalError ("Error finding id"; seen with asks during a backfill), and the folder read
    again a moment later is whole. The writing process never starts a second client: its index
    cannot be changed by anyone else, and two clients in one process would both write the
    folder. A server orders its own reads and writes, so its failures (unreachable, refusing)
    are reported at once."""

    def __init__(self, collection, where: str, server: bool, reopen=None):
        self._collection, self._where, self._server, self._reopen = collection, where, server, reopen

    @property
    def configuration(self) -> dict:
        """The collection's settings (an attribute, not a call to guard)."""
        return self._collection.configuration

    def __getattr__(self, name: str):
        from chromadb.errors import ChromaError, InternalError

        if self._server:
            from httpx import HTTPError

            failures, pauses = (HTTPError, ChromaError), ()
        else:
            failures, pauses = InternalError, READ_RETRY_SECONDS if name in _READS else ()

        def guarded(*args, **kwargs):
            for pause in (*pauses, None):
                try:
                    return getattr(self._collection, name)(*args, **kwargs)
                except failures as exc:
                    if pause is None:
                        raise StoreError(self._failed(exc)) from None
                time.sleep(pause)
                self._collection = (self._reopen and self._reopen()) or self._collection

        return guarded

    def _failed(self, exc: Exception) -> str:
        if self._server:
            return f"the Chroma server at {self._where} failed: {_chroma_reason(exc)}"
        home = Path(self._where).parent
        return full_disk(home, exc) or (
            f"the vectors of store {home} failed ({_chroma_reason(exc)}); "
            f"`brainq --store {home} status --check --repair` mends a damaged store"
        )
