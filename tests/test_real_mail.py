"""Real mail read as a person reads it: on Enron's mail folders of 2001, answer lines hold no
links and stay short, and no result list shows the same content twice.

Skipped when the shared corpora are absent.
"""

import shutil

import pytest

from tests.conftest import CORPORA, ask_json, run_cli

pytestmark = pytest.mark.slow

ENRON = CORPORA / "mail" / "enron-Edgar427-Team22introtoAI" / "maildir"
# The folders of 17 of its 137 people (about 110 messages): the first 12 by name, and
# five that hold a plain-text newsletter full of links and one announcement sent to two lists.
PEOPLE = 12
ALSO = ["kuykendall-t", "staab-t", "ermis-f", "pereira-s", "rapp-b"]
# Questions a reader of these folders would ask, of every pattern: newsletters, announcements
# sent to several lists, meetings, press cuttings.
QUESTIONS = [
    "Who is organizing the fantasy football league?",
    "When was the last conference call with the traders?",
    "When is the next meeting about the California power crisis?",
    "What did the Houston Chronicle say about Enron's stock?",
    "What is the password for the new system?",
    "Who sent the holiday party invitation?",
]


@pytest.fixture(scope="module")
def enron_store(tmp_path_factory, embedder):
    if not ENRON.is_dir():
        pytest.skip(f"{ENRON} is absent")
    home = tmp_path_factory.mktemp("enron")
    for person in sorted(p.name for p in ENRON.iterdir())[:PEOPLE] + ALSO:
        shutil.copytree(ENRON / person, home / "maildir" / person, dirs_exist_ok=True)
    store = home / "store"
    result = run_cli("ingest", "--quiet", str(home / "maildir"), store=store)
    assert result.exit_code in (0, 3), result.output
    return store


@pytest.fixture(scope="module")
def answers(enron_store):
    return [ask_json(enron_store, question, "--top-k", "10", as_of="2001-12-31") for question in QUESTIONS]


def test_answer_lines_are_short_and_hold_no_links(answers):
    for answer in answers:
        lines = [answer["answer"]] if answer.get("answer") else []
        lines += [r["snippet"] for r in answer["results"]]
        for line in lines:
            assert "http" not in line and "www." not in line, (answer["question"], line)
            assert len(line) <= 300, (answer["question"], line)


def test_no_result_list_shows_the_same_content_twice(answers):
    for answer in answers:
        seen = [(r["title"], r["snippet"]) for r in answer["results"]]
        assert len(seen) == len(set(seen)), (answer["question"], seen)
