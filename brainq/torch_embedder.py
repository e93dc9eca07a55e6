"""The model as sentence-transformers loads it, run by torch in fp32 or bf16, for ingests that ask
for either (`embedding.precision`).

Importing it costs 7-10 s, which a long ingest repays and a single question does not (that is
brainq/onnx_embedder.py's job). The ONNX model the question path runs is exported from here,
since only this process has torch loaded anyway.
"""

from __future__ import annotations

import copy
import warnings
from functools import cache
from pathlib import Path

import numpy as np

from brainq.embedding import Embedder, EmbeddingSpec, model_dir
from brainq.errors import BrainqError


class TorchEmbedder(Embedder):
    def __init__(self, precision: str, batch_tokens: int, models: Path | None = None):
        if precision not in ("fp32", "bf16"):
            raise BrainqError(f"torch embeds in fp32 or bf16, not {precision}")
        self.spec = EmbeddingSpec(precision=precision)
        self.batch_tokens = batch_tokens
        # Where to leave an ONNX export for the store's first question, once the model is loaded.
        self.export_to = models

    def embed(self, texts: list[str]) -> list[list[float]]:
        if texts and self.export_to is not None:
            from brainq.onnx_embedder import cached_model, model_file

            if cached_model(self.export_to, "fp32") is None and can_export():
                try:
                    model_file(self.export_to, "fp32")
                except BrainqError:
                    pass  # only a speed-up for later questions; they make or do without it
            self.export_to = None
        return super().embed(texts)

    def token_embeddings(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import torch

        input_ids, attention_mask = torch.from_numpy(ids), torch.from_numpy(mask)
        with torch.inference_mode():
            tokens = transformer(self.spec.precision)(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=torch.zeros_like(input_ids)
            ).last_hidden_state
        return tokens.float().numpy()


@cache
def transformer(precision: str):
    """The model's BERT, without sentence-transformers' pooling (brainq pools for both backends).

    bf16 is a copy with bf16 weights rather than autocast, which casts every weight again at
    every call: ~10% faster, and as close to fp32 (cosine > 0.9998).
    """
    bert = load_model()[0].auto_model.eval()
    if precision == "fp32":
        return bert
    import torch

    return copy.deepcopy(bert).to(torch.bfloat16)


@cache
def load_model():
    """One model per process: loading it costs seconds."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise BrainqError(f"the embedding model is not installed ({exc.name}); run `make install`") from None
    return SentenceTransformer(str(model_dir()), device="cpu", local_files_only=True)


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
