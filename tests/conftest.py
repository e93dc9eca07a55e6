"""Shared fixtures: every test gets its own store; the real model loads once per session."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from brainq.cli import app

ROOT = Path(__file__).resolve().parents[1]
# One model cache for the whole test run (its first ingest exports the model), never the user's;
# removed when the run ends (it holds 120 MB).
MODEL_CACHE = None if "BRAINQ_MODEL_CACHE" in os.environ else tempfile.mkdtemp(prefix="brainq-test-models-")
if MODEL_CACHE:
    os.environ["BRAINQ_MODEL_CACHE"] = MODEL_CACHE
# Property tests are not timed: on a shared machine a busy moment can make one example miss
# hypothesis's 200 ms deadline and fail a test that found nothing wrong.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")
SAMPLES = ROOT / "corpus_samples" / "household"
CORPORA = ROOT.parent / "shared" / "corpora"
AS_OF = "2026-03-12"  # the corpus samples' "today"


def pytest_sessionfinish(session, exitstatus):
    if MODEL_CACHE:
        shutil.rmtree(MODEL_CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """No test ever touches a real store: BRAINQ_HOME points into the test's temp dir."""
    monkeypatch.setenv("BRAINQ_HOME", str(tmp_path / "store"))
    monkeypatch.delenv("BRAINQ_CHROMA_URL", raising=False)
    return tmp_path / "store"


@pytest.fixture(scope="session")
def embedder():
    from brainq.embedding import get_embedder

    return get_embedder()


def run_cli(*args: str, store: Path | None = None):
    """Invoke the CLI in-process (the model stays loaded between calls)."""
    prefix = ["--store", str(store)] if store else []
    return CliRunner().invoke(app, [*prefix, *args], catch_exceptions=False)


def ask_json(store: Path, question: str, *extra: str, as_of: str = AS_OF) -> dict:
    result = run_cli("ask", "--json", "--as-of", as_of, *extra, question, store=store)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory, embedder):
    """corpus_samples ingested once, through the CLI, into a session-wide store."""
    store = tmp_path_factory.mktemp("samples") / "store"
    result = run_cli("ingest", "--json", str(SAMPLES), store=store)
    assert result.exit_code == 0, result.output
    return store, json.loads(result.stdout)
