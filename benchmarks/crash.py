"""Crash runs: kill -9 an ingest, a backfill and a forget at many points; the next run must mend all.

    python -m benchmarks.crash [--tree DIR ...] [--messages N]

Each kill gets its own store. A kill lands either at a named step of the write path
(`BRAINQ_CRASH_AT`, see brainq/crashpoints.py) or at a fraction of the time an uninterrupted
run of the same work took. After each kill:
- `brainq ask` answers from what is there (or says nothing is ingested yet);
- `brainq status --check` reports without failing on a store it cannot use;
- the same command run again exits 0 (3 where files fail on their own, as uninterrupted);
- the store then equals the one an uninterrupted run made: the same documents, chunks and
  files, as many vectors as chunks and none left over (`status --check` clean).
Backfills run over a tree where files were changed, deleted and added since the ingest;
forgets drop one folder of the tree. Exit status 1 when any kill left a store the next run did
not mend. tests/test_crash.py runs a few of these in `make test`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "corpus_samples" / "household"
ENRON = ROOT.parent / "shared" / "corpora" / "mail" / "enron-Edgar427-Team22introtoAI"
QUESTION = "When is the next meeting?"
AS_OF = "2026-03-12"


@dataclass
class Kill:
    """Where a run is killed: at the N-th pass of a named step, or after a share of its time."""

    point: str | None = None
    nth: int = 1
    share: float | None = None

    def __str__(self) -> str:
        return f"{self.point}:{self.nth}" if self.point else f"{self.share:.0%} of the run"


def brainq(store: Path, *args: str, kill: Kill | None = None, seconds: float = 0.0, timeout: float = 1800):
    """Run the CLI in a fresh process; killed as `kill` says. Returns (status, stdout, stderr)."""
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("BRAINQ_CRASH_AT", None)
    if kill and kill.point:
        env["BRAINQ_CRASH_AT"] = f"{kill.point}:{kill.nth}"
    command = [sys.executable, "-m", "brainq", "--store", str(store), *args]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if kill and kill.share is not None:
        try:
            out, err = proc.communicate(timeout=max(0.05, kill.share * seconds))
            return proc.returncode, out, err  # finished before its kill
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def snapshot(store: Path) -> dict:
    """What a store holds, as comparable values (the catalog read directly, the vectors checked)."""
    db = sqlite3.connect(f"file:{store / 'catalog.sqlite3'}?mode=ro", uri=True)
    try:
        state = {
            "documents": sorted(db.execute(
                "SELECT doc_id, path, locator, doc_type, title, sender, source_date, date_source, "
                "event_dates, chunks FROM documents")),
            "chunks": sorted(db.execute("SELECT chunk_id, doc_id, path, text_sha FROM chunk_index")),
            "texts": sorted(db.execute("SELECT chunk_id, text FROM chunks")),
            "files": sorted(db.execute("SELECT path, sha256, pending, error FROM files")),
        }  # fmt: skip
    finally:
        db.close()
    status, out, err = brainq(store, "status", "--json", "--check")
    check = json.loads(out)["check"] if out else {"problem": err.strip()}
    state["check"] = {k: check.get(k) for k in ("chunks", "missing_vectors", "orphan_vectors", "problem", "files_pending")}
    state["check_status"] = status
    return state


def differences(got: dict, want: dict) -> list[str]:
    """How a mended store differs from the uninterrupted one, a line per part."""
    lines = []
    for part in ("documents", "chunks", "texts", "files", "check", "check_status"):
        if got[part] != want[part]:
            if isinstance(want[part], list):
                extra = len(set(map(tuple, got[part])) - set(map(tuple, want[part])))
                lacking = len(set(map(tuple, want[part])) - set(map(tuple, got[part])))
                lines.append(f"{part}: {extra} more, {lacking} fewer than uninterrupted")
            else:
                lines.append(f"{part}: {got[part]} instead of {want[part]}")
    return lines


@dataclass
class Scenario:
    """One kind of work to kill: the command, how to set up its store and tree, and its question."""

    name: str
    args: list[str]
    prepare: object  # (work: Path) -> None, run before each attempt with a fresh tree and store
    mend: list[str] | None = None  # the next run, if not the same command: a nightly backfill
    place: str = ""  # the folder it works in, under the run's (default: its name)

    def fresh(self, work: Path, base: Path) -> Path:
        """A new store at the same place, so that stored paths match the uninterrupted one."""
        for name in ("tree", "store"):
            if (work / name).exists():
                shutil.rmtree(work / name)
        shutil.copytree(base / "tree", work / "tree", symlinks=True)
        if (base / "store").exists():
            shutil.copytree(base / "store", work / "store", symlinks=True)
        self.prepare(work)
        return work / "store"


class Runner:
    """Runs every scenario's kills against its uninterrupted reference and counts what held."""

    def __init__(self, work: Path, log=print):
        self.work, self.log = work, log
        self.failures: list[str] = []
        self.kills = 0

    def export_models(self) -> None:
        """Make the model's export once (in the model cache every store shares), so no run
        below spends its time on it."""
        note = self.work / "note" / "note.txt"
        note.parent.mkdir(parents=True)
        note.write_text("A note, written so that the model is exported once.\n")
        status, _, err = brainq(self.work / "note" / "store", "ingest", "--quiet", str(note))
        if status != 0:
            raise SystemExit(f"could not ingest a note ({status}): {err}")

    def base(self, trees: list[Path], name: str, ingested: bool) -> Path:
        """The tree (and, if `ingested`, its store) that each attempt of a scenario starts from.

        The store is made with the tree where the scenario's attempts will find it, so the
        paths it keeps are theirs."""
        run, base = self.work / name, self.work / f"{name}-base"
        for tree in trees:
            shutil.copytree(tree, run / "tree" / tree.name)
        if ingested:
            status, _, err = brainq(run / "store", "ingest", "--quiet", str(run / "tree"))
            if status not in (0, 3):
                raise SystemExit(f"the ingest before {name} failed ({status}): {err}")
        shutil.move(run, base)
        return base

    def scenario(self, scenario: Scenario, kills: list[Kill], base: Path) -> None:
        run = self.work / (scenario.place or scenario.name)
        store = scenario.fresh(run, base)
        started = time.monotonic()
        status, _, err = brainq(store, *scenario.args)
        seconds = time.monotonic() - started
        if status not in (0, 3):
            raise SystemExit(f"uninterrupted {scenario.name} failed ({status}): {err}")
        want, want_status = snapshot(store), status
        self.log(f"{scenario.name}: uninterrupted in {seconds:.1f} s, {len(want['chunks'])} chunks")
        for kill in kills:
            self.kills += 1
            store = scenario.fresh(run, base)
            problems = self.attempt(scenario, store, kill, seconds, want, want_status)
            verdict = "mended" if not problems else "NOT MENDED: " + "; ".join(problems)
            self.log(f"  {scenario.name} killed at {kill}: {verdict}")
            if problems:
                self.failures.append(f"{scenario.name} at {kill}: " + "; ".join(problems))

    def attempt(self, scenario, store, kill, seconds, want, want_status) -> list[str]:
        problems = []
        status, _, _ = brainq(store, *scenario.args, kill=kill, seconds=seconds)
        if status != -signal.SIGKILL:
            if kill.point:
                problems.append(f"the crash point was never reached (status {status})")
            return problems  # a timed kill that came after the end: nothing to mend
        status, out, err = brainq(store, "ask", "--json", "--as-of", AS_OF, QUESTION)
        if status != 0 and "nothing is ingested" not in err:
            problems.append(f"ask after the kill: status {status}: {err.strip()[-200:]}")
        elif status == 0 and "verdict" not in json.loads(out):
            problems.append("ask after the kill printed no verdict")
        status, out, err = brainq(store, "status", "--check")
        if status not in (0, 1) or "Traceback" in err or "internal error" in err:
            problems.append(f"status --check after the kill: status {status}: {err.strip()[-200:]}")
        status, _, err = brainq(store, *(scenario.mend or scenario.args))
        if status not in (0, want_status):  # a file that failed is reported by the run that read it
            problems.append(f"the next run exited {status}, not {want_status}: {err.strip()[-300:]}")
        problems += differences(snapshot(store), want)
        return problems


def change_tree(work: Path) -> None:
    """What a backfill finds: some files changed, some deleted, one added (with fixed mtimes,
    which stand in for the date of a file that carries none)."""
    files = sorted(p for p in (work / "tree").rglob("*") if p.is_file() and p.suffix.lower() not in (".pdf", ".jpg"))
    added = work / "tree" / "added-note.txt"
    added.write_text("Added later: the next meeting is on Tuesday at noon.\n")
    for path in files[::7]:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nP.S. Updated since: the meeting moved to the library at 7 pm.\n")
    for path in [added, *files[::7]]:
        os.utime(path, (1773300000, 1773300000))
    for path in files[3::11]:
        path.unlink()


STEPS = [Kill("batch-embedded", 1), Kill("files-pending", 1), Kill("vectors-written", 1), Kill("catalog-written", 1),
         Kill("batch-embedded", 2), Kill("files-pending", 2), Kill("vectors-written", 2), Kill("catalog-written", 2),
         Kill("vectors-written", 3)]  # fmt: skip
SHARES = [Kill(share=s) for s in (0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95)]
BACKFILL_STEPS = [Kill("vectors-written", 1), Kill("catalog-written", 1), Kill("old-vectors-deleted", 1),
                  Kill("document-forgotten", 1), Kill("document-forgotten", 2)]  # fmt: skip
FORGET_STEPS = [Kill("document-forgotten", 1), Kill("document-forgotten", 3)]


BACKFILL = ["backfill", "--quiet"]


def run(work: Path, trees: list[Path], ingest_kills, backfill_kills, forget_kills, forgotten: str, log=print) -> Runner:
    """Every scenario, each kill on its own store; the runner holds what was not mended.
    `forgotten` is the folder the forgets drop, relative to the tree."""
    runner = Runner(work, log)
    runner.export_models()
    runner.scenario(Scenario("ingest", ["ingest", "--quiet", str(work / "ingest" / "tree")], lambda w: None),
                    ingest_kills, runner.base(trees, "ingest", ingested=False))  # fmt: skip
    runner.scenario(Scenario("backfill", BACKFILL, change_tree),
                    backfill_kills, runner.base(trees, "backfill", ingested=True))  # fmt: skip
    # A forget is mended by the next forget, and, stopped midway, by the next backfill: for a
    # folder inside a source and for a whole source. All three start from one ingested store.
    forget, base = work / "forget" / "tree", runner.base(trees, "forget", ingested=True)
    for scenario in (Scenario("forget", ["forget", str(forget / forgotten)], lambda w: None),
                     Scenario("forget-inside", ["forget", str(forget / forgotten)], lambda w: None, BACKFILL, "forget"),
                     Scenario("forget-source", ["forget", str(forget)], lambda w: None, BACKFILL, "forget")):  # fmt: skip
        runner.scenario(scenario, forget_kills, base)
    return runner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, action="append", help="a folder to ingest (default: corpus_samples/household and Enron mail)")
    parser.add_argument("--messages", type=int, default=300, help="Enron messages to add to the default tree (0: none)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="brainq-crash-") as tmp:
        work = Path(tmp)
        trees = args.tree or [SAMPLES]
        if not args.tree and args.messages and ENRON.is_dir():
            mail = work / "sources" / "enron"
            for i, path in enumerate(sorted(p for p in ENRON.rglob("*") if p.is_file())[: args.messages]):
                (mail / "cur").mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, mail / "cur" / f"{i}.enron:2,S")
            trees.append(mail)
        started = time.monotonic()
        runner = run(work, trees, STEPS + SHARES, BACKFILL_STEPS + SHARES[::2], FORGET_STEPS + SHARES[1::3],
                     forgotten=trees[-1].name)
        minutes = (time.monotonic() - started) / 60
        print(f"CRASH kills={runner.kills} not_mended={len(runner.failures)} minutes={minutes:.1f}")
        for failure in runner.failures:
            print(f"  {failure}")
        return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
