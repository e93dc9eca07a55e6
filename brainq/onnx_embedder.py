"""The question backend, and ingest's fast one (int8): all-MiniLM-L6-v2 as ONNX, run by
onnxruntime, tokenised by `tokenizers`.

A cold question then costs onnxruntime's import and a session (~0.5 s) instead of torch's and
sentence-transformers' (7-10 s). Tokenising, batching and pooling are the ingest backend's
(`Embedder.embed`), so the vectors match it.

The ONNX models are made from the packaged weights, never downloaded, and cached in the store
(`models/<model>-<weights sha256>/`, owner-only, written atomically): the fp32 export, and
its int8 dynamic quantisation.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from brainq.embedding import MODEL_NAME, Embedder, EmbeddingSpec, model_dir
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


def cached_model(models: Path, precision: str) -> Path | None:
    path = _model_path(models, precision)
    return path if path.is_file() else None


def model_file(models: Path, precision: str) -> Path:
    """The cached ONNX model of `precision`, made first if missing (fp32 export needs torch)."""
    path = _model_path(models, precision)
    if path.is_file():
        return path
    try:
        if precision == "int8":
            from onnxruntime.quantization import QuantType, quantize_dynamic

            from brainq.torch_embedder import export_onnx

            model_file(models, "fp32")  # for the store's questions, while torch is loaded anyway
            # It advises optional pre-processing through the root logger: not the user's concern.
            logging.disable(logging.WARNING)
            try:
                with _written_atomically(path) as temporary, tempfile.TemporaryDirectory(dir=path.parent) as work:
                    # Attention as plain ops: SDPA's export masks every score with Where and
                    # IsNaN, 7% of int8's time (same vectors; no faster for fp32 questions).
                    source = Path(work) / "eager.onnx"
                    export_onnx(source, attention="eager")
                    # Per-channel scales: per-tensor ones lose too much of MiniLM (cosine to fp32
                    # ~0.95).
                    quantize_dynamic(
                        source, temporary, weight_type=QuantType.QInt8, per_channel=True,
                        reduce_range=int8_weight_bits() == 7, nodes_to_exclude=_feed_forward_outputs(source),
                    )  # fmt: skip
            finally:
                logging.disable(logging.NOTSET)
        else:
            from brainq.torch_embedder import export_onnx

            with _written_atomically(path) as temporary:
                export_onnx(temporary)
    except OSError as exc:
        raise BrainqError(f"cannot write the ONNX embedding model to {path.parent}: {exc.strerror}") from None
    except Exception as exc:  # torch's exporter and the quantiser raise many types; all mean "cannot"
        raise BrainqError(f"cannot make the {precision} ONNX embedding model: {exc}") from None
    return path


def _feed_forward_outputs(model: Path) -> list[str]:
    """The feed-forward output projections stay fp32: their inputs (after GELU) have outliers
    that int8 scales flatten. Measured on MiniLM: cosine to fp32 0.993 with them quantised, 0.997
    without, for ~20% of int8's speed."""
    import onnx

    graph = onnx.load(str(model)).graph
    return [n.name for n in graph.node if n.op_type == "MatMul" and re.search(r"layer\.\d+/output/dense/", n.name)]


# x86 CPUs with these multiply 8-bit pairs into 32-bit sums; without them, into 16 bits.
VNNI_FLAGS = {"avx512_vnni", "avx_vnni", "amx_int8"}


def int8_weight_bits(cpuinfo: str | None = None) -> int:
    """How many bits the int8 model's weights keep on this CPU: 8 with VNNI, 7 elsewhere.

    Without VNNI the 16-bit sums of 8-bit weights saturate: cosine to fp32 0.9959 with 7 bits,
    0.9941 with 8. With VNNI 8 bits come closer (0.9973 against 0.9963), at the same speed.
    """
    if cpuinfo is None:
        cpuinfo = _cpuinfo()
    flags = {flag for line in re.findall(r"^(?:flags|Features)\s*:(.*)$", cpuinfo, re.M) for flag in line.split()}
    return 8 if flags & VNNI_FLAGS else 7


@cache
def _cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:  # not Linux: assume the CPU lacks VNNI
        return ""


def _model_path(models: Path, precision: str) -> Path:
    # A new way of making a model takes a new name, so stores do not keep using the old one, and
    # a store moved to another CPU makes the one that CPU needs.
    name = "model-fp32.onnx" if precision == "fp32" else f"model-int8-{int8_weight_bits()}bit.onnx"
    return models / f"{MODEL_NAME}-{weights_sha256(models)[:16]}" / name


def weights_sha256(models: Path) -> str:
    """The packaged weights' sha256, remembered beside the cache by their size and mtime:
    hashing 90 MB would add ~60 ms to every question."""
    weights = model_dir() / "model.safetensors"
    st = weights.stat()
    stamp = [str(weights), st.st_size, st.st_mtime_ns]
    memo = models / "weights.json"
    try:
        saved = json.loads(memo.read_text(encoding="utf-8"))
        if saved["stamp"] == stamp:
            return saved["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    with open(weights, "rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    try:
        with _written_atomically(memo) as temporary:
            temporary.write_text(json.dumps({"stamp": stamp, "sha256": digest}), encoding="utf-8")
    except OSError:
        pass  # a read-only store: hash again next time
    return digest


@contextmanager
def _written_atomically(path: Path):
    """A private temporary file beside `path` that replaces it only when complete, so a reader
    (or a second brainq exporting at the same time) never sees half a model."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
