"""Embedding backends: the question path matches sentence-transformers without importing torch,
faster precisions keep retrieval quality, and a store refuses vectors it cannot compare."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from brainq.config import DEFAULT_PATTERNS_FILE, load_config, parse_config
from brainq.embedding import (
    EmbeddingSpec,
    choose_precision,
    claim_store,
    get_embedder,
    length_batches,
    model_cache,
    query_embedder,
    word_pieces,
)
from brainq.errors import ConfigError, StoreError
from brainq.evaluate import evaluate, load_queries
from brainq.ingest import ingest
from brainq.embedding.export import int8_weight_bits
from brainq.embedding.onnx_backend import OnnxEmbedder
from brainq.store import Store

from .conftest import ROOT, SAMPLES

TEXTS = [
    "Is Friday a half-day?",
    "What size is our HVAC filter?",
    "The furnace filter is 16x25x4, MERV 11.",
    "",
    "a",
    "OK",
    "Café crème brûlée, naïve façade, Ångström, Straße",
    "日本語のテキストと中文文本",
    "Здравствуйте, как дела?",
    "مرحبا بالعالم",
    "Party at 5 🎉🎂 don't be late!!!",
    "E-mail: jane.doe+school@example.org, tel. +1 (555) 010-9999",
    "Invoice #INV-2024-0042: amount due $1,234.56 by 03/15/2026.",
    "\tTabs\tand\nnew lines\n\n and   spaces  ",
    "UPPER CASE SHOUTING ABOUT THE SNOW DAY",
    "Dr. Patel's office: Maggie's rabies booster is due in April.",
    "The roofer was Summit Roofing & Sons; they replaced the shingles in 2023.",
    # Long texts: past 256 word pieces, where both backends must cut at the same place.
    " ".join(f"word{i}" for i in range(600)),
    "school practice pickup dismissal " * 120,
    "Ünïcödé everywhere: " + "ñ ç ß ø å é " * 100,
    "The meeting was moved to Thursday. " * 40,
] + [f"Reminder {i}: swim practice is at {i % 12 + 1}:30 PM on the {i + 1}th." for i in range(12)]


@pytest.fixture(scope="module")
def exported_store(tmp_path_factory):
    """A store, with the ONNX export in the model cache (made once for the test run)."""
    store = Store(tmp_path_factory.mktemp("embedding") / "store")
    query_embedder(store).embed(["export the model once"])
    return store


def test_onnx_question_path_matches_sentence_transformers(exported_store, embedder):
    question = query_embedder(exported_store)
    assert isinstance(question, OnnxEmbedder)
    assert max(len(e.ids) for e in word_pieces().encode_batch(TEXTS)) == 256  # some were cut
    onnx = np.array(question.embed(TEXTS))
    torch = np.array(embedder.embed(TEXTS))
    assert onnx.shape == torch.shape == (len(TEXTS), 384)
    assert (onnx * torch).sum(axis=1).min() >= 0.999


@pytest.mark.parametrize("attention", [None, "eager"])
def test_exporting_leaves_the_loaded_model_as_it_was(tmp_path, embedder, attention):
    from brainq.embedding.export import export_onnx
    from brainq.embedding.torch_backend import load_model

    bert = load_model()[0].auto_model
    before = embedder.embed(TEXTS[:4]), bert.config._attn_implementation, bert.training
    export_onnx(tmp_path / "model.onnx", attention)
    assert (embedder.embed(TEXTS[:4]), bert.config._attn_implementation, bert.training) == before


@pytest.mark.parametrize("precision, least", [("fp32", 0.9999), ("bf16", 0.999)])
def test_torch_path_matches_sentence_transformers_encode(precision, least):
    """brainq batches and pools itself; sentence-transformers' own encode is the reference."""
    from brainq.embedding.torch_backend import load_model

    reference = load_model().encode(TEXTS, normalize_embeddings=True)
    ours = np.array(get_embedder(precision=precision).embed(TEXTS))
    assert (ours * reference).sum(axis=1).min() >= least


def test_batches_go_longest_first_within_the_word_piece_budget():
    lengths = [5, 40, 12, 300, 40, 2]
    batches = list(length_batches(lengths, 100))
    assert batches == [[3], [1, 4], [2, 0, 5]]  # 300 alone; 2 x 40 = 80 (a third would pad to 120)
    assert list(length_batches([], 100)) == []


def test_batches_side_by_side_give_each_text_its_own_vector(exported_store):
    """Workers finish batches out of order; each vector must still land on its own text."""
    models = model_cache()
    one_at_a_time = np.array(OnnxEmbedder(models, "fp32", 64).embed(TEXTS))
    side_by_side = np.array(OnnxEmbedder(models, "fp32", 64, workers=3).embed(TEXTS))
    assert len(list(length_batches([len(e.ids) for e in word_pieces().encode_batch(TEXTS)], 64))) > 6
    assert (one_at_a_time * side_by_side).sum(axis=1).min() >= 0.99999


def test_an_int8_vector_does_not_depend_on_the_texts_beside_it(exported_store):
    """Two machines ingesting the same mail into one server must store the same vectors."""
    int8 = get_embedder("int8", model_cache())
    together = np.array(int8.embed(TEXTS))
    alone = np.array([int8.embed([text])[0] for text in TEXTS])
    assert (together * alone).sum(axis=1).min() >= 0.99999


def test_a_failed_batch_fails_the_whole_embedding(exported_store, monkeypatch):
    embedder = OnnxEmbedder(model_cache(), "fp32", 64, workers=2)
    calls = []

    def fail_on_the_third(ids, mask):
        calls.append(len(ids))
        if len(calls) == 3:
            raise RuntimeError("out of memory")
        return np.zeros((*ids.shape, 384), dtype=np.float32)

    monkeypatch.setattr(embedder, "token_embeddings", fail_on_the_third)
    with pytest.raises(RuntimeError, match="out of memory"):
        embedder.embed(TEXTS)


def test_onnx_model_is_cached_owner_only(exported_store):
    files = [p for p in model_cache().rglob("*") if p.is_file()]
    assert any(p.name == "model-fp32.onnx" for p in files)
    assert not any(p.name.endswith(".tmp") for p in files)
    for path in [*files, *(p.parent for p in files)]:
        assert path.stat().st_mode & 0o077 == 0, path


def test_int8_leaves_the_question_model_and_nothing_else(tmp_path):
    get_embedder("int8", tmp_path / "models").embed(["the first chunk makes the int8 model"])
    files = sorted(p.relative_to(tmp_path / "models").as_posix() for p in (tmp_path / "models").rglob("*"))
    folder = files[0]
    int8 = f"{folder}/model-int8-{int8_weight_bits()}bit.onnx"
    assert files == [folder, f"{folder}/model-fp32.onnx", int8, "weights.json"]


@pytest.mark.parametrize(
    "cpuinfo, bits",
    [
        ("flags\t\t: fpu sse avx2 avx512f avx512_bf16 avx512_vnni", 8),
        ("flags\t\t: fpu sse avx2 avx_vnni", 8),
        ("flags\t\t: fpu sse avx2 amx_bf16 amx_int8 amx_tile", 8),
        ("flags\t\t: fpu sse avx2 avx512f avx512bw", 7),
        ("Features\t: fp asimd bf16 i8mm", 7),
        ("", 7),
    ],
)
def test_int8_weights_keep_8_bits_only_where_the_cpu_has_vnni(cpuinfo, bits):
    assert int8_weight_bits(cpuinfo) == bits


QUESTION_PATH = """
import json, sys
from pathlib import Path
from brainq.embedding import query_embedder
from brainq.store import Store
vector = query_embedder(Store(Path(sys.argv[1]))).embed(["Is Friday a half-day?"])[0]
heavy = sorted(m for m in ("torch", "transformers", "sentence_transformers") if m in sys.modules)
print(json.dumps({"dimensions": len(vector), "heavy": heavy}))
"""


def test_question_path_imports_no_torch(exported_store):
    result = subprocess.run(
        [sys.executable, "-c", QUESTION_PATH, str(exported_store.home)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert json.loads(result.stdout) == {"dimensions": 384, "heavy": []}


@pytest.mark.parametrize("requested, chosen", [("auto", "int8"), ("fp32", "fp32"), ("bf16", "bf16"), ("int8", "int8")])
def test_auto_precision_is_int8_and_the_others_are_kept(requested, chosen):
    assert choose_precision(requested) == chosen


def test_config_names_a_bad_precision():
    text = DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8").replace("precision: auto", "precision: fp16")
    with pytest.raises(ConfigError, match=r"embedding\.precision: must be one of auto, fp32, bf16, int8"):
        parse_config(text)


def test_store_records_its_embedding_and_accepts_other_precisions(tmp_path):
    store = Store(tmp_path / "store")
    assert store.embedding_config() is None
    claim_store(store, EmbeddingSpec(precision="bf16"))
    claim_store(store, EmbeddingSpec(precision="fp32"))
    assert store.embedding_config() == {
        "model": "all-MiniLM-L6-v2", "dimensions": 384, "normalized": True, "precisions": ["bf16", "fp32"],
    }  # fmt: skip


def test_store_refuses_another_model_for_questions_and_ingest(tmp_path):
    store = Store(tmp_path / "store")
    store.record_embedding_config({"model": "bge-small-en", "dimensions": 384, "normalized": True, "precisions": ["fp32"]})
    with pytest.raises(StoreError, match=r"holds vectors of bge-small-en \(384-d, unit-length\), not all-MiniLM-L6-v2") as err:
        query_embedder(store)
    assert "\n" not in str(err.value)
    with pytest.raises(StoreError, match="holds vectors of bge-small-en"):
        ingest(store, load_config(), [SAMPLES / "nowhere"])


# -- quality guard -------------------------------------------------------------------------------
# Faster precisions must rank as fp32 does: precision@1 and recall@3 of `brainq eval` over the
# whole of corpus_samples within 0.01 of fp32's. The questions are embedded once, by the
# question path, so the stores' vectors are all that differs.
GUARDED = ["bf16", "int8"]


@pytest.fixture(scope="module")
def eval_scores(tmp_path_factory, exported_store, sample_store):
    config = load_config()
    questions = load_queries(ROOT / "corpus_samples" / "queries.yaml")
    question_embed = _memoized(query_embedder(exported_store).embed)
    scores = {}
    for precision in ["fp32", *GUARDED]:
        if precision == choose_precision("auto"):  # the session's sample store has these vectors
            store = Store(sample_store[0])
        else:
            store = Store(tmp_path_factory.mktemp(precision) / "store")
            ingest(store, config, [SAMPLES], get_embedder(precision=precision, models=model_cache()).embed)
        scores[precision] = evaluate(questions, store, config, question_embed, baseline=False).table()["all"]
    return scores


@pytest.mark.parametrize("precision", GUARDED)
def test_faster_precision_keeps_retrieval_quality(eval_scores, precision):
    # One-sided: rounding may rank a question better by chance; only a loss is a fault.
    for metric in ("precision@1", "recall@3"):
        assert eval_scores[precision][metric] >= eval_scores["fp32"][metric] - 0.01 - 1e-9, (metric, eval_scores)


def _memoized(embed):
    known: dict[str, list[float]] = {}

    def memoized(texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, embed(missing)))
        return [known[t] for t in texts]

    return memoized
