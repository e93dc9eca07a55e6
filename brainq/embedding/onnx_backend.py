"""The question backend, and ingest's fast one (int8): all-MiniLM-L6-v2 as ONNX, run by
onnxruntime, tokenised by `tokenizers`.

A cold question then costs onnxruntime's import and a session (~0.5 s) instead of torch's and
sentence-transformers' (7-10 s). Tokenising, batching and pooling are the ingest backend's
(`Embedder.embed`), so the vectors match it.

The ONNX models are made from the packaged weights, never downloaded (export.py): the fp32
export, and its int8 dynamic quantisation.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from brainq.embedding.base import Embedder, EmbeddingSpec
from brainq.embedding.export import model_file
from brainq.errors import BrainqError


class OnnxEmbedder(Embedder):
    """`workers` > 1 runs that many batches side by side, one thread each, rather than one batch
    on all threads: MiniLM's matrices are too small to split well across threads, and a thread
    that ingest's parsing pre-empts then delays only its own batch, not every thread's next
    step. On 2 cores: 1.2x the chunks/s of one two-threaded batch at a time. A question is one
    small batch, and keeps all threads on it."""

    def __init__(self, models: Path, precision: str, batch_tokens: int, workers: int = 1):
        if precision not in ("fp32", "int8"):
            raise BrainqError(f"the ONNX model embeds in fp32 or int8, not {precision}")
        self.spec = EmbeddingSpec(precision=precision)
        self.models = models
        self.batch_tokens = batch_tokens
        self.workers = workers

    @cached_property
    def session(self):
        """Looked up once per embedder: finding the cached model reads its folder and a memo."""
        return _session(model_file(self.models, self.spec.precision), 1 if self.workers > 1 else 0)

    def token_embeddings(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return self.session.run(None, feed)[0]

    def run_batches(self, run, batches) -> None:
        if self.workers == 1:
            return super().run_batches(run, batches)
        self.session  # opened once, before the workers ask for it
        with ThreadPoolExecutor(self.workers, thread_name_prefix="brainq-embed") as pool:
            for _ in pool.map(run, batches):
                pass  # re-raises a batch's error


@cache
def _session(path: Path, threads: int):
    """A session on `threads` threads (0: onnxruntime's choice, one per core). Its run() may be
    called from several threads at once."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # its warnings are about graph details, not brainq's input
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
