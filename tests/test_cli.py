"""The CLI contract: help for every command, the README's example as `ask` prints it, one-line
errors with documented exit statuses."""

import json
import subprocess
import sys

import pytest

from brainq.cli import app
from brainq.store import Store
from tests.conftest import AS_OF, ROOT, run_cli

COMMANDS = ["ingest", "ask", "backfill", "cron", "status", "list", "forget", "sources", "eval", "serve", "mcp"]


def test_every_command_has_help_with_text():
    import typer.main

    registered = set(typer.main.get_command(app).commands)
    assert registered == set(COMMANDS)
    for command in COMMANDS:
        result = run_cli(command, "--help")
        assert result.exit_code == 0
        assert len(result.output.split()) > 20, f"{command} --help says too little"


def test_every_command_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for command in COMMANDS:
        assert f"brainq {command}" in readme, command


def test_the_readme_example_is_what_ask_prints(sample_store):
    store, _ = sample_store
    readme = (ROOT / "README.md").read_text()
    command = '$ brainq ask "Is Friday a half-day?"\n'
    shown = readme[readme.index(command) + len(command) :].split("```")[0]
    printed = run_cli("ask", "--as-of", AS_OF, "Is Friday a half-day?", store=store).stdout
    # The README wraps long lines and shows paths from the repository's root.
    assert shown.split() == printed.replace(f"{ROOT}/", "").split()


def run(*args, store=None):
    """A real process, to see exactly what a user sees on stderr."""
    prefix = ["--store", str(store)] if store else []
    return subprocess.run(
        [sys.executable, "-m", "brainq", *prefix, *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "args, status, message",
    [
        (["ask", "--as-of", "12/03/2026", "Is Friday a half-day?"], 2, "--as-of takes a date as YYYY-MM-DD"),
        (["ask", "   "], 2, "the question is empty"),
        (["ask", "?!"], 2, "the question has no words"),
        (["ask", "caf\udce9?"], 2, "not UTF-8: caf\\xe9?"),  # a Latin-1 terminal's byte
        (["ask", "--pattern", "urgent", "Is Friday a half-day?"], 2, "unknown pattern"),
        (["ask", "--as-of", "9999-12-31", "What is on tomorrow?"], 2, "brainq answers as of a day in 1900 to 2999"),
        (["ask", "--as-of", "0001-01-01", "What happened last year?"], 2, "brainq answers as of a day in 1900 to 2999"),
        (["ask", "x" * 100_000], 2, "characters long"),
        (["ask", "Is the game on the 31st of April?"], 2, "'31st of April' is no day of the calendar"),  # not Dec 31
        (["ingest", "/nonexistent/folder"], 2, "no such file or folder"),
        (["list", "--since", "yesterday"], 2, "--since takes a date"),
        (["list", "--since", "20260101"], 2, "--since takes a date as YYYY-MM-DD, got '20260101'"),
        (["list", "--since", "2026-03-01", "--until", "2026-02-01"], 2, "--since 2026-03-01 is after --until 2026-02-01"),
        (["ask", "--budget", "500", "Is Friday a half-day?"], 2, "--budget is the size of --context's text"),
        (["ask", "--explain", "--context", "Is Friday a half-day?"], 2, "--explain shows the scores beside the answer; --context prints"),
        (["list", "--type", "invoices"], 2, "unknown doc_type 'invoices': choose one of calendar_event, email, invoice"),
        (["--no-such-option", "status"], 2, "No such option"),
        (["backfill"], 2, "no sources to scan"),
        (["forget", "/nowhere"], 2, "nothing in the store comes from there"),
        (["sources", "remove", "/nowhere"], 2, "/nowhere is not a source"),
        (["ingest", ""], 2, "a path given is empty"),  # `brainq ingest "$MAILDIR"`, unset
        (["ingest", "--passwords", "/tmp", "README.md"], 1, "/tmp: a passwords file is a file, one password a line, not a folder"),
        (["forget", ""], 2, "a path given is empty"),
        (["--store", "", "status"], 2, "a path given is empty"),
        (["ask", "--top-k", "0", "Is Friday a half-day?"], 2, "Invalid value for '--top-k'"),
        (["forget"], 2, "Missing argument 'PATH...'"),
        (["backfill", "--wait", "abc"], 2, "Invalid value for '--wait'"),
        (["status", "--check", "--wait", "60"], 2, "--wait goes with --repair"),
        (["ask", "--json", "--context", "Is Friday a half-day?"], 2, "--json and --context print the answer two ways"),
        (["ask", "--no-such-option", "x"], 2, "brainq ask -h` explains the options"),
    ],
)
def test_bad_input_is_one_line_and_a_status(tmp_path, args, status, message):
    Store(tmp_path / "store").close()  # an empty store: what is wrong is the input
    result = run(*args, store=tmp_path / "store")
    assert result.returncode == status, result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("brainq: error: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [["list", "--json"], ["list"], ["status"]])
def test_a_reader_that_stops_reading_ends_the_command_quietly(sample_store, command):
    """`brainq list | head`: no error on stderr, and SIGPIPE's status, as other tools give,
    whether brainq or rich writes the output."""
    store, _ = sample_store
    listing = subprocess.Popen(
        [sys.executable, "-m", "brainq", "--store", str(store), *command],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    listing.stdout.close()  # before it writes a line: its first write finds no reader
    assert listing.wait(timeout=120) == 141
    assert listing.stderr.read() == ""


def test_an_interrupt_inside_a_command_is_one_line_and_status_130(sample_store, monkeypatch):
    """typer turns Ctrl-C inside a command into status 130 without a word (a second Ctrl-C
    while an ingest stops)."""
    store, _ = sample_store

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "summary", interrupted)
    result = run_cli("status", store=store)
    assert (result.exit_code, result.stderr) == (130, "brainq: interrupted\n")


def test_a_store_named_by_the_environment_in_no_utf8_is_refused(tmp_path):
    import os

    home = os.fsencode(tmp_path) + b"/store\xff"
    env = {**os.environ, "BRAINQ_HOME": os.fsdecode(home)}
    result = subprocess.run([sys.executable, "-m", "brainq", "status"], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"brainq: error: the store's folder {tmp_path}/store\\xff: its name is not UTF-8; name another"
    assert not os.path.exists(home)


def test_a_stderr_nobody_reads_leaves_the_run_and_its_summary(tmp_path):
    """`brainq ingest DIR 2>&1 >log | true`: the failures listed on stderr find no reader; the
    run goes on, its summary reaches stdout and its status is the run's."""
    ingest = subprocess.Popen(
        [sys.executable, "-m", "brainq", "--store", str(tmp_path / "store"), "ingest", str(ROOT / "tests/fixtures/calendar")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    ingest.stderr.close()
    out = ingest.stdout.read()
    assert ingest.wait(timeout=120) == 3
    assert "0 failed (and 1 part of stored files)" in out
    assert "0 failed (and 1 part of stored files)" in run("status", store=tmp_path / "store").stdout


def test_ask_before_any_ingest_says_so_without_making_the_model(tmp_path, monkeypatch):
    monkeypatch.setenv("BRAINQ_MODEL_CACHE", str(tmp_path / "models"))
    Store(tmp_path / "store").close()
    result = run("ask", "Is Friday a half-day?", store=tmp_path / "store")
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("brainq: error: nothing is ingested in") and result.stderr.count("\n") == 1
    assert not (tmp_path / "models").exists()


def test_store_path_that_is_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a store")
    result = run("status", store=blocker)
    assert result.returncode == 1
    assert result.stderr.strip() == f"brainq: error: store path {blocker} is a file, not a directory"


def test_a_folder_of_other_files_is_not_made_a_store(tmp_path):
    """`--store ~` or `--store ~/Documents` by mistake: refused, the folder left as it was."""
    folder = tmp_path / "documents"
    folder.mkdir()
    folder.chmod(0o755)  # whatever umask an earlier store left this process
    (folder / "notes.txt").write_text("the garage code is 4411")
    (tmp_path / "note.txt").write_text("the gate code is 2580")
    result = run("ingest", str(tmp_path / "note.txt"), store=folder)
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == (
        f"brainq: error: {folder} is not a brainq store and holds other files: name a new or empty folder with --store (or BRAINQ_HOME)"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert oct(folder.stat().st_mode & 0o777) == "0o755"
    # What Finder or a new drive puts in an empty folder is no one's document.
    new = tmp_path / "new"
    (new / "lost+found").mkdir(parents=True)
    (new / ".DS_Store").write_bytes(b"\0")
    assert run("ingest", str(tmp_path / "note.txt"), store=new).returncode == 0


@pytest.mark.parametrize(
    "command",
    [["status"], ["status", "--check"], ["list"], ["sources"], ["ask", "Is Friday a half-day?"], ["backfill"],
     ["forget", "/nowhere"], ["sources", "remove", "/nowhere"], ["eval", str(ROOT / "corpus_samples" / "queries.yaml")],
     ["serve"], ["mcp"]],
)  # fmt: skip
def test_only_ingest_makes_a_store(tmp_path, command):
    """A mistyped --store given to any other command is said to hold no store, and nothing is
    made there: no folder, no empty store the next command would find."""
    typo = tmp_path / "brian" / "store"
    result = subprocess.run(
        [sys.executable, "-m", "brainq", "--store", str(typo), *command], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr == f"brainq: error: no brainq store at {typo}: `brainq ingest PATH...` makes one, or name another --store\n"
    assert list(tmp_path.iterdir()) == []


def test_the_store_is_not_ingested_into_itself_through_a_link(tmp_path):
    store, link = tmp_path / "store", tmp_path / "link"
    store.mkdir()
    link.symlink_to(store)
    for given in (store, link):
        result = run("ingest", str(given), store=store)
        assert result.returncode == 2
        assert result.stderr.strip() == f"brainq: error: {given}: this is the store's own folder, not documents to ingest"


def test_bad_patterns_file_names_key_and_line(tmp_path):
    bad = tmp_path / "patterns.yaml"
    text = (ROOT / "patterns.yaml").read_text().replace("half_life_days: 7,", "half_life_days: weekly,")
    bad.write_text(text)
    line = text[: text.index("weekly")].count("\n") + 1
    for command in (["ask", "Is Friday a half-day?"], ["status"], ["cron"]):
        result = run("--patterns", str(bad), *command, store=tmp_path / "s")
        assert result.returncode == 1, command
        assert f"{bad}:{line}: patterns.logistical.decay.half_life_days: expected a number" in result.stderr


def test_a_file_named_to_ingest_and_passed_over_says_why(tmp_path):
    """Named on the command line, it was asked for; in a folder, it is only counted."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "photos.rar").write_bytes(b"Rar!")
    named = run("ingest", str(folder / "photos.rar"), store=tmp_path / "store")
    assert named.returncode == 0 and f"skipped: {folder / 'photos.rar'}: not a kind brainq reads" in named.stderr
    walked = run("ingest", str(folder), store=tmp_path / "store")
    assert walked.returncode == 0 and "skipped:" not in walked.stderr and "1 skipped" in walked.stdout
    device = run("ingest", "/dev/null", store=tmp_path / "store")
    assert device.returncode == 0 and "skipped: /dev/null: not a regular file" in device.stderr
    assert "/dev/null" not in run("sources", store=tmp_path / "store").stdout  # nothing to scan again


def test_empty_store_status_and_list(tmp_path):
    store = tmp_path / "store"
    Store(store).close()
    status = run_cli("status", "--json", store=store)
    assert status.exit_code == 0
    info = json.loads(status.stdout)
    assert info["documents"] == 0 and info["sources"] == []
    assert run_cli("list", "--json", store=store).stdout == ""
    listed = run_cli("list", "--type", "receipt", store=store)  # nothing: said, on stderr
    assert (listed.exit_code, listed.stdout, listed.stderr) == (0, "", "no documents match\n")
    assert oct(store.stat().st_mode & 0o777) == "0o700"


def test_status_names_the_store_by_its_absolute_path(tmp_path, monkeypatch):
    Store(tmp_path / "store").close()
    monkeypatch.chdir(tmp_path / "store")
    status = run_cli("status", "--json", store="../store")
    assert json.loads(status.stdout)["store"] == str(tmp_path / "store")


HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "chromadb")
_PROBE = """
import json, sys
from brainq.cli import app
sys.argv = ["brainq", *sys.argv[1:]]
try:
    app()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [["--help"], ["ask", "--help"], ["status"], ["status", "--json"], ["list"], ["sources"], ["cron"],
     ["forget", "/nowhere"], ["ask", ""]],
)
def test_commands_without_the_model_load_none_of_it(sample_store, args):
    """Model, vector store and onnxruntime cost seconds to import: commands that need none
    of them must not pay for them."""
    store, _ = sample_store
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE.format(heavy=HEAVY), "--store", str(store), *args],
        capture_output=True, text=True, timeout=60,
    )
    loaded = json.loads(probe.stderr.strip().splitlines()[-1])
    assert loaded == [], f"brainq {' '.join(args)} imported {loaded}"


def test_the_answer_line_names_the_source_it_quotes(capsys):
    """A result too loosely related to count may rank first; the answer line quotes the first
    relevant one, and names that one's type and date."""
    from datetime import date

    from brainq.ask import Answer
    from brainq.config import load_config
    from brainq.intent import Intent
    from brainq.render import print_answer
    from brainq.timeref import TimeRef
    from brainq.verdict import Verdict
    from tests.test_scoring import cand, doc, ranked

    scored = ranked([cand(doc("inspection", "2019-04-02T00:00:00", "static_pdf"), 0.3),
                     cand(doc("newsletter", "2026-03-02T00:00:00", "newsletter"), 0.8)], "historical")  # fmt: skip
    weak, strong = sorted(scored, key=lambda s: s.doc.doc_id)
    answer = Answer("Who swept the chimney?", date(2026, 3, 12), Intent("historical", "", {}), TimeRef(),
                    Verdict("verify", 0.5, "Unclear"), "Northside Chimney Co.", [weak, strong], 0.5, strong)  # fmt: skip
    print_answer(answer, load_config(), explain=False)
    assert "— newsletter, 2026-03-02" in capsys.readouterr().out


def test_a_file_named_to_drive_the_terminal_is_printed_escaped(tmp_path):
    """A file name may hold an ESC (a downloaded file named to retitle the window or clear the
    screen) or a newline: every listing prints it escaped, on its own line; `--json` keeps it."""
    from brainq.paths import shown

    assert shown("a\x1b]0;owned\x07\nb\tc\udce9.txt") == "a\\x1b]0;owned\\x07\\nb\\tc\\xe9.txt"
    folder = tmp_path / "Downloads"
    folder.mkdir()
    name = "code\x1b]0;owned\x07\n\x1b[2Jnote.txt"
    (folder / name).write_text("The garage code is 4411.\n")
    (folder / "broken\x1b[2J.pdf").write_bytes(b"%PDF-1.4 cut short")
    (folder / "not\x1b[2J.docx").write_bytes(b"a Word file it is not")  # its reason names it too
    photo = next((ROOT / "corpus_samples" / "household" / "photos").glob("*.jpg"))
    (folder / "beach\nday.jpg").write_bytes(photo.read_bytes())  # a photo is titled by its file's name
    store = tmp_path / "store"
    ingested = run_cli("ingest", str(folder), store=store)
    assert ingested.exit_code == 3 and "broken\\x1b[2J.pdf: " in ingested.output and "\x1b" not in ingested.output
    escaped = shown(str(folder / name))
    commands = (["list"], ["ask", "--as-of", "2026-12-01", "What is the garage code?"], ["status"], ["sources"])
    printed = {command[0]: run_cli(*command, store=store).output for command in commands}
    for command, output in printed.items():
        assert "\x1b" not in output and "\x07" not in output, command
    assert escaped in printed["list"] and escaped in printed["ask"], printed
    assert any(line.split()[2:4] == ["beach", "day.jpg"] for line in printed["list"].splitlines()), printed["list"]
    listed = [json.loads(line)["path"] for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    assert str(folder / name) in listed
    odd_store = run_cli("status", store=tmp_path / "st[/b]\x1bx")  # rich markup and an ESC in --store
    assert odd_store.exit_code == 1 and "st[/b]\\x1bx" in odd_store.output and "\x1b" not in odd_store.output
    missing = run_cli("ingest", str(tmp_path / "gone\x1b[2J"), store=store)
    assert "gone\\x1b[2J: no such file" in missing.output and "\x1b" not in missing.output


def test_a_date_known_to_the_month_or_year_is_shown_and_listed_as_that(tmp_path, embedder):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tuner.txt").write_text("Date: March 2025\nThe piano tuner came and charged $180.\n")
    (notes / "camping.txt").write_text("Date: 2023\nCamping list: tent, stove, lantern.\n")
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(notes), store=store).exit_code == 0

    def listed(*args):
        return sorted(line.split()[0] for line in run_cli("list", *args, store=store).stdout.splitlines())

    assert listed() == ["2023", "2025-03"]
    assert listed("--since", "2025-03-15") == ["2025-03"]  # any day of March
    assert listed("--since", "2023-12-31", "--until", "2025-02-28") == ["2023"]
    assert listed("--since", "2024-01-01", "--until", "2025-02-28") == []
    answer = run_cli("ask", "--as-of", "2025-06-01", "How much did the piano tuner charge?", store=store).stdout
    assert "2025-03 " in answer and "2025-03-01" not in answer


def test_explain_prints_titles_as_written(tmp_path, embedder):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "sale.txt").write_text("Bake sale [/b] moved to [bold]Thursday\nThe bake sale is on Thursday at noon.\n")
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(notes), store=store).exit_code == 0
    shown = run_cli("ask", "--explain", "When is the [bake] sale?", store=store).stdout
    assert "Bake sale [/b] moved to [bold]Thursday" in shown and "\\[" not in shown
