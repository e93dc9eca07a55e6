"""Load: many `brainq ask` processes at once against a store that a backfill is writing to."""

import json
import os
import random
import shutil
import subprocess
import sys
import time

import pytest

from benchmarks.memory import write_maildir
from tests.conftest import AS_OF, SAMPLES, run_cli

pytestmark = pytest.mark.slow

# make test starts 8 asks; BRAINQ_LOAD_ASKS=50 is the heavier run in benchmarks/RESULTS.md.
ASKS = int(os.environ.get("BRAINQ_LOAD_ASKS", "8"))
BUSY_MESSAGES = 300
QUESTIONS = [
    "What is the Wi-Fi password?",
    "Who is our babysitter?",
    "What size is our HVAC filter?",
    "When did Maggie last see the vet?",
    "What was the roofer's name?",
]


def test_concurrent_asks_during_a_backfill(tmp_path, embedder):
    home, source = tmp_path / "s", tmp_path / "docs"
    shutil.copytree(SAMPLES / "notes", source / "notes")
    assert run_cli("ingest", "--quiet", str(source), store=home).exit_code == 0
    # The backfill finds a folder of PDFs and mail to add, and enough other mail that it must
    # embed for longer than an ask takes, even with every ask sharing the cores with it.
    shutil.copytree(SAMPLES / "documents", source / "documents")
    shutil.copytree(SAMPLES / "mail", source / "mail")
    write_maildir(source / "mail" / "generated", BUSY_MESSAGES, random.Random(3))

    env = {**os.environ, "BRAINQ_HOME": str(home)}
    brainq = [sys.executable, "-m", "brainq"]
    backfill = subprocess.Popen([*brainq, "backfill", "--json"], env=env, stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)  # let it take the lock and start writing
    asks = [
        subprocess.Popen(
            [*brainq, "ask", "--json", "--as-of", AS_OF, QUESTIONS[i % len(QUESTIONS)]],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for i in range(ASKS)
    ]
    answers, finished_during_backfill = [], 0
    for process in asks:
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0 and not err, err
        answers.append(json.loads(out))
        finished_during_backfill += backfill.poll() is None
    report = json.loads(backfill.communicate(timeout=900)[0])

    assert backfill.returncode == 0, report
    assert report["added"] == len([p for p in (source / "documents").rglob("*") if p.is_file()]) + len(
        [p for p in (source / "mail").rglob("*") if p.is_file()]
    )
    assert finished_during_backfill > 0, "no ask overlapped the backfill"
    assert all(a["verdict"]["level"] in {"answer", "verify", "unknown"} for a in answers)
    assert all(a["results"] for a in answers if a["question"] == "What is the Wi-Fi password?")
    check = run_cli("status", "--check", "--json", store=home)
    assert check.exit_code == 0, check.output
    assert json.loads(check.stdout)["check"]["missing_vectors"] == 0

