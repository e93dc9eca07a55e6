"""The ONNX models the onnxruntime backend runs, made from the packaged weights, never downloaded.

The fp32 model is torch's transformer exported by torch.onnx (token embeddings out: pooling is
the shared numpy code's); the int8 model is its dynamic quantisation. Both are cached once per
user (`brainq.embedding.model_cache()`: `<model>-<weights sha256>/`, owner-only, written
atomically), named by how they were made, so a new way of making them, or another CPU, makes
new ones.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
import warnings
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from brainq.embedding.base import MODEL_NAME, model_dir
from brainq.embedding.torch_backend import load_model
from brainq.errors import BrainqError


def cached_model(models: Path, precision: str) -> Path | None:
    path = model_path(models, precision)
    return path if path.is_file() else None


def model_file(models: Path, precision: str) -> Path:
    """The cached ONNX model of `precision`, made first if missing (fp32 export needs torch)."""
    path = model_path(models, precision)
    if path.is_file():
        return path
    try:
        if precision == "int8":
            from onnxruntime.quantization import QuantType, quantize_dynamic

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


def model_path(models: Path, precision: str) -> Path:
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


def can_export() -> bool:
    """torch.onnx's exporter needs the `onnx` package; without it, questions use this backend."""
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("torch", "onnx"))


def export_onnx(target: Path, attention: str | None = None) -> None:
    """Write the transformer (token embeddings out; pooling is done in numpy) as ONNX to `target`,
    with attention as loaded or as transformers implements it under the name `attention`."""
    transformer = load_model()[0].auto_model.eval()
    before = transformer.config._attn_implementation
    if attention:
        transformer.set_attn_implementation(attention)
    try:
        _export(transformer, target)
    finally:
        transformer.set_attn_implementation(before)


def _export(transformer, target: Path) -> None:
    import torch

    class TokenEmbeddings(torch.nn.Module):
        """Keyword arguments: transformers 5's BertModel.forward no longer takes them by position."""

        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    example = torch.ones(2, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    # The tracer warns about Python branches on shapes; they do not depend on the batch.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            # In eval mode: the exporter restores the wrapper's mode afterwards, and a new
            # module's is training, which would leave the shared model's dropout on.
            TokenEmbeddings(transformer).eval(),
            (example, example, torch.zeros_like(example)),
            str(target),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["token_embeddings"],
            dynamic_axes={name: axes for name in ("input_ids", "attention_mask", "token_type_ids", "token_embeddings")},
            opset_version=17,
            dynamo=False,  # the TorchScript exporter: no onnxscript, and it handles BERT as is
        )
