"""One document per message: copies in several folders are listed, counted and shown once."""

import json
import shutil

import pytest

from brainq.ingest import copy_key
from tests.conftest import SAMPLES, ask_json, run_cli

pytestmark = pytest.mark.slow


@pytest.fixture
def two_folders(tmp_path, embedder):
    """The sample mail twice, as an IMAP sync of two labels leaves it, in one tree."""
    tree = tmp_path / "mail"
    shutil.copytree(SAMPLES / "mail", tree / "INBOX")
    shutil.copytree(SAMPLES / "mail", tree / "All Mail")
    store = tmp_path / "store"
    result = run_cli("ingest", "--json", str(tree), store=store)
    assert result.exit_code == 0, result.output
    return tree, store, json.loads(result.stdout)


def status(store):
    return json.loads(run_cli("status", "--json", store=store).stdout)


def test_two_copies_of_a_folder_are_as_many_documents_as_one(two_folders, tmp_path):
    tree, store, report = two_folders
    once = tmp_path / "once"
    assert run_cli("ingest", "--quiet", str(SAMPLES / "mail"), store=once).exit_code == 0
    assert status(store)["documents"] == status(once)["documents"]
    assert status(store)["copies_folded"] == status(once)["documents"]
    assert report["embedded"] == report["chunks"] // 2  # the copies cost no embedding
    listed = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    assert len(listed) == status(once)["documents"] and all(len(d["copies"]) == 1 for d in listed)


def test_a_copy_is_shown_once_in_an_answer(two_folders):
    _, store, _ = two_folders
    answer = ask_json(store, "Is Friday a half-day?", "--top-k", "10")
    titles = [(r["title"], r["source_date"]) for r in answer["results"]]
    assert len(titles) == len(set(titles))
    first = answer["results"][0]  # the other copy's place, as `list --json` gives it
    assert len(first["copies"]) == 1 and first["copies"][0].split("#")[0] != first["path"]
    # ... and as `list` says it
    shown = run_cli("ask", "--as-of", "2026-03-12", "Is Friday a half-day?", store=store).stdout
    assert "(+1 copy)" in shown and "(+1 copy)" in run_cli("list", store=store).stdout


def test_forgetting_one_copy_keeps_the_document(two_folders):
    tree, store, _ = two_folders
    before = status(store)["documents"]
    assert run_cli("forget", str(tree / "INBOX"), store=store).exit_code == 0
    after = status(store)
    assert after["documents"] == before and after["copies_folded"] == 0
    assert ask_json(store, "Is Friday a half-day?")["results"][0]["path"].startswith(str(tree / "All Mail"))


def test_the_same_words_on_another_day_are_another_document():
    from datetime import datetime, timezone

    from brainq.documents import Document

    def reminder(day):
        return Document(path="/m", locator=None, kind="email", title="Your statement is ready", text="View it online.",
                        sender="bills@power.example", source_date=datetime(2026, 3, day, tzinfo=timezone.utc),
                        date_source="header")  # fmt: skip

    assert copy_key(reminder(3)) != copy_key(reminder(4))
    same = reminder(3)
    same.title = "Re: Your statement is ready"
    assert copy_key(same) == copy_key(reminder(3))


def test_a_folder_renamed_is_answered_from_under_its_new_name(tmp_path, embedder):
    """The old name, not found, keeps its documents until it is forgotten (a drive may be
    unmounted); of the two copies, an answer shows the one that is there."""
    old, new, store = tmp_path / "Mail", tmp_path / "Mail 2026", tmp_path / "store"
    shutil.copytree(SAMPLES / "mail", old)
    assert run_cli("ingest", "--quiet", str(old), store=store).exit_code == 0
    old.rename(new)
    assert run_cli("ingest", "--quiet", str(new), store=store).exit_code == 0
    first = ask_json(store, "Is Friday a half-day?")["results"][0]
    assert first["path"].startswith(str(new)) and first["copies"][0].startswith(str(old))
