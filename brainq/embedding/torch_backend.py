"""The model as sentence-transformers loads it, run by torch in fp32 or bf16, for ingests that ask
for either (`embedding.precision`).

Importing it costs 7-10 s, which a long ingest repays and a single question does not (that is
onnx_backend.py's job, on the ONNX export export.py makes of this model).
"""

from __future__ import annotations

import copy
from functools import cache

import numpy as np

from brainq.embedding.base import Embedder, EmbeddingSpec, model_dir
from brainq.errors import BrainqError


class TorchEmbedder(Embedder):
    def __init__(self, precision: str, batch_tokens: int):
        if precision not in ("fp32", "bf16"):
            raise BrainqError(f"torch embeds in fp32 or bf16, not {precision}")
        self.spec = EmbeddingSpec(precision=precision)
        self.batch_tokens = batch_tokens

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
