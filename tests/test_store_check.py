"""`brainq status --check` finds where catalog and vectors disagree; `--repair` mends it."""

import json
import shutil

import chromadb
import pytest
from chromadb.config import Settings

from tests.conftest import SAMPLES, run_cli

pytestmark = pytest.mark.slow


def check(store, *flags):
    result = run_cli("status", "--json", "--check", *flags, store=store)
    return result.exit_code, json.loads(result.stdout)["check"]


def test_check_and_repair(tmp_path, embedder):
    tree, store = tmp_path / "notes", tmp_path / "store"
    shutil.copytree(SAMPLES / "notes", tree)
    assert run_cli("ingest", "--quiet", str(tree), store=store).exit_code == 0
    status, found = check(store)
    assert status == 0 and found["missing_vectors"] == found["orphan_vectors"] == 0

    client = chromadb.PersistentClient(path=str(store / "chroma"), settings=Settings(anonymized_telemetry=False))
    collection = client.get_collection("brainq_chunks")
    victim = collection.get(include=["metadatas"], limit=1)
    collection.delete(ids=victim["ids"])
    collection.add(ids=["orphan:0"], embeddings=[[0.1] * 384], documents=["left over"], metadatas=[{"path": "/x"}])

    status, found = check(store)
    assert status == 1
    assert (found["missing_vectors"], found["orphan_vectors"]) == (1, 1)
    assert found["files_to_redo"] == [victim["metadatas"][0]["path"]]

    status, found = check(store, "--repair")
    assert status == 0 and found["repaired"]
    assert run_cli("backfill", "--quiet", store=store).exit_code == 0
    status, found = check(store)
    assert status == 0 and found["missing_vectors"] == found["orphan_vectors"] == 0
