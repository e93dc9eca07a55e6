"""`brainq status --check [--repair]`: whether a store is whole and writable, and mending it.

The catalog keeps every chunk's text, so lost or unusable vectors are made again from it
without the source files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from brainq.crashpoints import reached
from brainq.errors import StoreError
from brainq.store.catalog import Catalog
from brainq.store.disk import full_disk
from brainq.store.records import Chunk
from brainq.store.sync import Origins
from brainq.store.vectors import CHROMA_BATCH, Chroma


def check(
    catalog: Catalog,
    chroma: Chroma,
    origins: Origins,
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
    catalog.check_writable()
    problem = _vectors_problem(catalog, chroma, origins)
    if problem and not chroma.chroma_url:
        if full := full_disk(chroma.home):
            problem = full
        elif repair:
            report["moved_aside"] = str(chroma.move_aside())
            problem = _vectors_problem(catalog, chroma, origins)
    if problem:
        report.update(vectors="unusable", problem=problem)
        return report
    listed = catalog.own_chunks()
    # On a server, other origins' chunks are theirs to check and mend.
    stored = set(chroma.chunk_ids({"origin": origins.origin} if chroma.chroma_url else None))
    missing = sorted(set(listed) - stored)
    orphans = sorted(stored - set(listed))
    report.update(
        chunks=len(listed),
        missing_vectors=len(missing),
        orphan_vectors=len(orphans),
        files_pending=catalog.pending_files(),
    )
    report["vocabulary_missing"] = bool(listed) and not chroma.vocabulary.count()
    if repair and (missing or orphans):
        for start in range(0, len(orphans), CHROMA_BATCH):
            chroma.delete_chunks(ids=orphans[start : start + CHROMA_BATCH])
        report["restored_vectors"] = restore_vectors(catalog, chroma, origins, missing, embed)
        report["repaired"] = True
    if repair and report["vocabulary_missing"] and words is not None:
        report["restored_words"] = restore_vocabulary(catalog, chroma, embed, words)
        report["repaired"] = True
    return report


def is_whole(report: dict) -> bool:
    """Whether `check`'s report leaves the store whole: readable, writable, and every gap it
    found (missing or orphan vectors, a missing vocabulary) mended. Pending files are not a
    fault: the next ingest or backfill finishes them."""
    gaps = report["missing_vectors"] or report["orphan_vectors"] or report["vocabulary_missing"]
    return not report["problem"] and (not gaps or report["repaired"])


def _vectors_problem(catalog: Catalog, chroma: Chroma, origins: Origins) -> str | None:
    """Why Chroma cannot be used for writing, in words, or None."""
    from brainq.embedding import DIMENSIONS

    probe = f"{origins.origin}:brainq-check" if chroma.chroma_url else "brainq-check"
    dimensions = (catalog.embedding_config() or {}).get("dimensions", DIMENSIONS)
    return chroma.problem(probe, dimensions)


def restore_vectors(
    catalog: Catalog, chroma: Chroma, origins: Origins, chunk_ids: list[str], embed: Callable[[list[str]], list] | None
) -> int:
    """Make the vectors of catalog chunks again from the text the catalog keeps of them."""
    if not chunk_ids:
        return 0
    if embed is None:
        raise StoreError(f"{len(chunk_ids)} chunks need their vectors made again, and no model was given")
    rows = list(catalog.chunk_texts(chunk_ids))
    documents = catalog.get_documents(doc_id for _, doc_id, _ in rows)
    for start in range(0, len(rows), CHROMA_BATCH):
        chunks = [Chunk(cid, doc_id, text) for cid, doc_id, text in rows[start : start + CHROMA_BATCH]]
        chroma.upsert_chunks(chunks, embed([c.embedded_text for c in chunks]), origins.chunk_metadatas(documents.values(), chunks))
        reached("vectors-rebuilt")
    return len(rows)


def restore_vocabulary(catalog: Catalog, chroma: Chroma, embed: Callable[[list[str]], list] | None, words: Callable) -> int:
    """Make the vocabulary again from the catalog's text of every chunk; `words` picks a
    text's words (brainq.vocabulary.words)."""
    found = sorted(words(catalog.all_texts()))
    if found and embed is None:
        raise StoreError(f"{len(found)} words need their vectors made again, and no model was given")
    for start in range(0, len(found), CHROMA_BATCH):
        part = found[start : start + CHROMA_BATCH]
        chroma.add_words(part, embed(part))
    return len(found)
