"""The ingest backend: sentence-transformers on torch, in fp32 or bf16 autocast.

Importing it costs 7-10 s, which a long ingest repays and a single question does not (that is
brainq/onnx_embedder.py's job). The ONNX model the question path runs is exported from here,
since only this process has torch loaded anyway.
"""

from __future__ import annotations

import warnings
from contextlib import nullcontext
from functools import cache
from pathlib import Path

from brainq.embedding import Embedder, EmbeddingSpec, model_dir
from brainq.errors import BrainqError


class SentenceTransformerEmbedder(Embedder):
    def __init__(self, precision: str = "fp32", batch_size: int = 64, models: Path | None = None):
        if precision not in ("fp32", "bf16"):
            raise BrainqError(f"sentence-transformers embeds in fp32 or bf16, not {precision}")
        self.spec = EmbeddingSpec(precision=precision)
        self.batch_size = batch_size
        # Where to leave an ONNX export for the store's first question, once the model is loaded.
        self.export_to = models

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        model = load_model()
        if self.export_to is not None:
            from brainq.onnx_embedder import cached_model, model_file

            if cached_model(self.export_to, "fp32") is None and can_export():
                try:
                    model_file(self.export_to, "fp32")
                except BrainqError:
                    pass  # only a speed-up for later questions; they make or do without it
            self.export_to = None
        import torch

        # Autocast keeps layer norms and softmax in fp32 and runs the matmuls in bf16.
        bf16 = torch.autocast("cpu", dtype=torch.bfloat16) if self.spec.precision == "bf16" else nullcontext()
        with bf16, torch.inference_mode():
            # sentence-transformers sorts a call's texts by length, so short emails are not padded to 256.
            vectors = model.encode(
                texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        return vectors.tolist()


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


def export_onnx(target: Path) -> None:
    """Write the transformer (token embeddings out; pooling is done in numpy) as ONNX to `target`."""
    import torch

    transformer = load_model()[0].auto_model.eval()

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
            TokenEmbeddings(transformer),
            (example, example, torch.zeros_like(example)),
            str(target),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["token_embeddings"],
            dynamic_axes={name: axes for name in ("input_ids", "attention_mask", "token_type_ids", "token_embeddings")},
            opset_version=17,
            dynamo=False,  # the TorchScript exporter: no onnxscript, and it handles BERT as is
        )
