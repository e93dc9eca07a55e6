"""`brainq status --check` finds what is wrong with a store; `--repair` mends it from the catalog."""

import json
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing

import chromadb
import pytest
from chromadb.config import Settings

from tests.conftest import AS_OF, SAMPLES, ask_json, run_cli

pytestmark = pytest.mark.slow


def check(store, *flags):
    result = run_cli("status", "--json", "--check", *flags, store=store)
    return result.exit_code, json.loads(result.stdout)["check"]


@pytest.fixture
def notes_store(tmp_path, embedder):
    tree, store = tmp_path / "notes", tmp_path / "store"
    shutil.copytree(SAMPLES / "notes", tree)
    assert run_cli("ingest", "--quiet", str(tree), store=store).exit_code == 0
    return tree, store


def test_missing_and_orphan_vectors_are_mended_without_the_source_files(notes_store):
    tree, store = notes_store
    status, found = check(store)
    assert status == 0 and found["missing_vectors"] == found["orphan_vectors"] == 0 and found["problem"] is None
    before = ask_json(store, "What's the WiFi password?")["results"][0]["path"]

    client = chromadb.PersistentClient(path=str(store / "chroma"), settings=Settings(anonymized_telemetry=False))
    collection = client.get_collection("brainq_chunks")
    victims = collection.get(include=[])["ids"]
    collection.delete(ids=victims)
    collection.add(ids=["orphan:0"], embeddings=[[0.1] * 384], documents=["left over"], metadatas=[{"path": "/x"}])

    status, found = check(store)
    assert status == 1
    assert (found["missing_vectors"], found["orphan_vectors"]) == (len(victims), 1)

    shutil.rmtree(tree)  # the catalog's text is enough: the files need not be there
    status, found = check(store, "--repair")
    assert status == 0 and found["repaired"] and found["restored_vectors"] == len(victims)
    status, found = check(store)
    assert status == 0 and found["missing_vectors"] == found["orphan_vectors"] == 0
    assert ask_json(store, "What's the WiFi password?")["results"][0]["path"] == before


def test_a_question_or_a_backfill_to_a_store_whose_vectors_are_gone_says_so_and_how_to_mend_it(notes_store):
    """Answered from words alone, it would look like a store that works. In a process of its
    own: this one's Chroma client keeps what it read of the folder deleted."""
    _, store = notes_store
    shutil.rmtree(store / "chroma")
    asked = subprocess.run(
        [sys.executable, "-m", "brainq", "--store", str(store), "ask", "What's the WiFi password?"],
        capture_output=True, text=True, timeout=300,
    )
    assert asked.returncode == 1 and asked.stderr.count("\n") == 1
    assert "has lost its vectors" in asked.stderr
    assert f"`brainq --store {store} status --check --repair` makes them again" in asked.stderr
    # nor does a nightly backfill call every file unchanged and exit 0
    backfilled = subprocess.run(
        [sys.executable, "-m", "brainq", "--store", str(store), "backfill"], capture_output=True, text=True, timeout=300
    )
    assert backfilled.returncode == 1 and "has lost its vectors" in backfilled.stderr


@pytest.mark.parametrize("older", [False, True], ids=["store", "store made before the wider search"])
def test_vectors_chroma_cannot_open_are_moved_aside_and_made_again(notes_store, older):
    tree, store = notes_store
    before = ask_json(store, "What's the WiFi password?")["results"][0]["path"]
    if older:  # its next writer would widen the search first, but cannot open the vectors
        with closing(sqlite3.connect(store / "catalog.sqlite3")) as db, db:
            db.execute("DELETE FROM meta WHERE key = 'search_breadth'")
    (store / "chroma" / "chroma.sqlite3").write_bytes(b"\x00garbage" * 512)

    result = run_cli("status", "--check", store=store)
    assert result.exit_code == 1
    assert "cannot open the vectors" in result.stdout and "status --check --repair" in result.stdout
    assert "RustBindings" not in result.stdout

    status, found = check(store, "--repair")
    assert status == 0 and found["moved_aside"] and found["restored_vectors"] == found["chunks"] > 0
    assert (store / found["moved_aside"].rsplit("/", 1)[1]).is_dir()  # kept, not deleted
    assert ask_json(store, "What's the WiFi password?")["results"][0]["path"] == before
    (tree / "new-note.txt").write_text("Recycling now goes out on Wednesdays, from May 2026 on.\n")
    assert run_cli("backfill", "--quiet", store=store).exit_code == 0
    status, found = check(store)
    assert status == 0 and found["missing_vectors"] == found["orphan_vectors"] == 0 and not found["files_pending"]


def test_a_vocabulary_index_cut_short_is_found_and_made_again(sample_store, tmp_path):
    """A kill while Chroma rewrites an index in place can leave the vocabulary's unreadable:
    every question then fails, and the repair has to see it to mend it."""
    store = tmp_path / "store"
    shutil.copytree(sample_store[0], store)
    # In processes of their own: this one would keep the index it read before the damage.
    asked = [sys.executable, "-m", "brainq", "--store", str(store), "ask", "--json", "--as-of", AS_OF, "What's the WiFi password?"]
    before = json.loads(subprocess.run(asked, capture_output=True, text=True, check=True).stdout)
    with closing(sqlite3.connect(store / "chroma" / "chroma.sqlite3")) as db:
        (segment,) = db.execute(
            "SELECT s.id FROM collections c JOIN segments s ON s.collection = c.id "
            "WHERE c.name = 'brainq_vocabulary' AND s.scope = 'VECTOR'"
        ).fetchone()
    pickle = store / "chroma" / segment / "index_metadata.pickle"  # written once it holds a thousand words
    pickle.write_bytes(pickle.read_bytes()[: pickle.stat().st_size // 4])
    assert subprocess.run(asked, capture_output=True, text=True).returncode == 1
    status, found = check(store, "--repair")
    assert status == 0 and found["moved_aside"] and found["restored_words"] > 0
    after = ask_json(store, "What's the WiFi password?")
    assert (after["verdict"]["level"], after["answer"]) == (before["verdict"]["level"], before["answer"])


def test_vectors_that_cannot_be_written_on_a_full_disk_are_not_moved_aside(notes_store, monkeypatch):
    """A full disk is no damage: moving intact vectors aside would lose them and need their
    room twice."""
    from brainq.store import disk

    _, store = notes_store
    (store / "chroma" / "chroma.sqlite3").write_bytes(b"\x00garbage" * 512)  # as a write that found no room
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10 * 2**30, 10 * 2**30, 2**20))
    status, found = check(store, "--repair")
    assert status == 1 and not found["moved_aside"] and "is full (1 MB free)" in found["problem"]
    assert [p.name for p in store.iterdir() if p.name.startswith("chroma.unusable")] == []


def test_a_catalog_that_cannot_be_opened_says_why_and_what_to_do(notes_store, monkeypatch):
    """A damaged catalog has nothing a repair could rebuild it from, on a full disk too; a
    "disk I/O error" on a full disk is the disk's, not the store's."""
    from brainq.store import disk

    _, store = notes_store
    for wal in store.glob("catalog.sqlite3-*"):
        wal.unlink()
    (store / "catalog.sqlite3").write_bytes(b"\x00garbage" * 512)
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10 * 2**30, 10 * 2**30, 2**20))
    result = run_cli("status", store=store)
    assert result.exit_code == 1 and "is damaged" in result.stderr and "restore the store from a backup" in result.stderr
    full = "is full (1 MB free): free some space, then run again"
    assert full in disk.full_disk(store, sqlite3.OperationalError("disk I/O error"))
    assert full in disk.full_disk(store, sqlite3.OperationalError("database or disk is full"))
    assert disk.full_disk(store, sqlite3.DatabaseError("file is not a database")) is None


def test_a_write_that_finds_the_disk_full_says_so(tmp_path, monkeypatch):
    """Mid-ingest, SQLite says "database or disk is full": the disk's, said in one line; any
    other error of a write stays what it is."""
    from brainq.errors import StoreError
    from brainq.store import disk
    from brainq.store.catalog import Catalog

    catalog = Catalog(tmp_path)
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10 * 2**30, 10 * 2**30, 2**20))
    with pytest.raises(StoreError, match=r"is full \(1 MB free\)"), catalog.transaction():
        raise sqlite3.OperationalError("database or disk is full")
    with pytest.raises(sqlite3.OperationalError, match="no such table"), catalog.transaction():
        raise sqlite3.OperationalError("no such table: x")
    catalog.close()
