"""The command line: parses arguments, calls the core, renders its results. Nothing else."""

import os
import sys
from contextlib import nullcontext
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import click
import typer
from typer.core import TyperGroup

from brainq.errors import BrainqError, ExitCode, UsageError


class _Commands(TyperGroup):
    """Maps every BrainqError to one line on stderr and its exit status, once for all commands."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except Exception as exc:
            # typer's own (usage errors, exit statuses; it carries its own copy of click) pass.
            if type(exc).__module__.partition(".")[0] in ("typer", "click") or (ctx.obj is not None and ctx.obj.debug):
                raise
            if isinstance(exc, BrainqError):
                typer.echo(f"brainq: error: {exc}", err=True)
                raise typer.Exit(exc.exit_code) from None
            # A bug is one line too, unless --debug asks for the traceback.
            typer.echo(f"brainq: internal error: {type(exc).__name__}: {exc} (run with --debug for details)", err=True)
            raise typer.Exit(ExitCode.FAILED) from None


app = typer.Typer(
    cls=_Commands,
    rich_markup_mode=None,
    help=(
        "A personal document brain: ingest your mail, PDFs, photos and calendars, then ask "
        "questions and get answers from the freshest evidence, with dates and sources.\n\n"
        "Example:\n\n"
        "    brainq ingest ~/Mail ~/Documents ~/Pictures\n\n"
        "    brainq ask \"Is Friday a half-day?\""
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Settings:
    """Global options, handed to every command through typer's context."""

    def __init__(self, store: Path, chroma_url: str | None, patterns: Path | None, debug: bool):
        self.store_dir = store
        self.chroma_url = chroma_url
        self.patterns = patterns
        self.debug = debug

    def config(self):
        from brainq.config import load_config

        return load_config(str(self.patterns) if self.patterns else None)

    def store(self):
        from brainq.store import Store

        return Store(self.store_dir, self.chroma_url)


def default_store() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("brainq"))


@app.callback()
def main_options(
    ctx: typer.Context,
    store: Annotated[
        Optional[Path],
        typer.Option(envvar="BRAINQ_HOME", metavar="DIR", help="Store directory [default: ~/.local/share/brainq]."),
    ] = None,
    chroma_url: Annotated[
        Optional[str],
        typer.Option(envvar="BRAINQ_CHROMA_URL", metavar="URL", help="Use a Chroma server (http://host:port) for the vectors."),
    ] = None,
    patterns: Annotated[
        Optional[Path], typer.Option(metavar="FILE", help="patterns.yaml to use instead of the built-in one.")
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
) -> None:
    ctx.obj = Settings(store or default_store(), chroma_url, patterns, debug)


# -- ingest -------------------------------------------------------------------------------------


_JSON = typer.Option("--json", help="Print one JSON object with the counts and failures.")
_QUIET = typer.Option("--quiet", "-q", help="Print only failures and errors (for cron).")
_WAIT = typer.Option("--wait", min=0, metavar="SECONDS", help="Seconds to wait for another ingest or backfill to finish.")
_PASSWORDS = typer.Option(
    "--passwords",
    metavar="FILE",
    help="Passwords for encrypted PDFs, one a line, tried in order; the file must be chmod 600 [default: patterns.yaml's passwords].",
)


@app.command()
def ingest(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(metavar="PATH...", help="Files and folders to ingest, recursively.", show_default=False)],
    as_json: Annotated[bool, _JSON] = False,
    quiet: Annotated[bool, _QUIET] = False,
    wait: Annotated[float, _WAIT] = 0.0,
    passwords: Annotated[Optional[Path], _PASSWORDS] = None,
) -> None:
    """Ingest emails (Maildir, mbox, .eml), PDFs, photos, .ics calendars and notes.

    Unchanged files are skipped without being read; the paths are remembered as sources for
    `brainq backfill`. Exit status: 0 all done, 3 done but some files failed (each listed
    with its reason), 4 another ingest holds the store, 1 could not run.

    Example:

        brainq ingest ~/Mail ~/Documents ~/Pictures
    """
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
    _run_ingest(ctx.obj, "ingest", paths, as_json, quiet, wait, passwords, remember=True)


@app.command()
def backfill(
    ctx: typer.Context,
    as_json: Annotated[bool, _JSON] = False,
    quiet: Annotated[bool, _QUIET] = False,
    wait: Annotated[float, _WAIT] = 0.0,
    passwords: Annotated[Optional[Path], _PASSWORDS] = None,
) -> None:
    """Re-scan every remembered source: add new files, re-ingest changed ones, drop deleted ones.

    Made for cron: unchanged files are only stat()ed, output is one summary line (none with
    --quiet), and an overlapping run exits with status 4 instead of waiting, unless --wait.

    Example crontab line (every night at 3:15):

        15 3 * * * brainq backfill --quiet
    """
    store = ctx.obj.store()
    sources = [Path(p) for p in store.sources()]
    if not sources:
        raise UsageError("no sources yet; run `brainq ingest PATH` first")
    _run_ingest(ctx.obj, "backfill", sources, as_json, quiet, wait, passwords, remember=False)


@app.command()
def cron(
    ctx: typer.Context,
    every: Annotated[
        Optional[int],
        typer.Option(
            min=1,
            metavar="MINUTES",
            help="Run every MINUTES: a divisor of 60 (10, 30) or whole hours dividing 24 (120) [default: nightly at 3:15].",
        ),
    ] = None,
) -> None:
    """Print a crontab line that runs `brainq backfill --quiet` for this store.

    The line names this installation's brainq and the store by absolute paths (cron runs with
    a bare PATH and none of your environment), so it can be pasted as it is. Add it with
    `crontab -e`, or:

        (crontab -l; brainq cron --every 30) | crontab -

    Example output:

    \b
        15 3 * * * /home/me/brainq/.venv/bin/brainq --store /home/me/.local/share/brainq backfill --quiet
    """
    from brainq.schedule import cron_line

    settings: Settings = ctx.obj
    typer.echo(cron_line(every, settings.store_dir, settings.chroma_url, settings.patterns))


def _run_ingest(settings: Settings, command: str, paths, as_json, quiet, wait, passwords, remember: bool) -> None:
    from brainq.config import with_passwords
    from brainq.ingest import ingest as run_ingest
    from brainq.render import IngestProgress, print_ingest_report

    config = with_passwords(settings.config(), str(passwords) if passwords else None)
    store = settings.store()

    with store.writer_lock(wait):
        if remember:
            for path in paths:
                store.add_source(os.path.abspath(path))
        with IngestProgress(enabled=not (as_json or quiet)) as progress:
            report = run_ingest(store, config, paths, progress=progress)
        store.log_run(command, report.to_json())
    print_ingest_report(report, as_json=as_json, quiet=quiet)
    if report.interrupted:
        raise typer.Exit(130)
    if report.failures:
        raise typer.Exit(ExitCode.PARTIAL)


# -- ask and eval --------------------------------------------------------------------------------


@app.command()
def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="The question, in plain words.", show_default=False)],
    as_of: Annotated[Optional[str], typer.Option(metavar="YYYY-MM-DD", help="Answer as if today were this day [default: today].")] = None,
    pattern: Annotated[
        Optional[str], typer.Option(metavar="PATTERN", help="Force the pattern: logistical, entity or historical.")
    ] = None,
    top_k: Annotated[int, typer.Option(min=1, max=50, metavar="N", help="How many sources to show.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show the pattern, the time and every score factor.")] = False,
    context: Annotated[bool, typer.Option("--context", help="Print the evidence as plain text for a language model.")] = False,
    budget: Annotated[int, typer.Option(min=50, metavar="TOKENS", help="Token budget for --context.")] = 1500,
) -> None:
    """Answer a question from the freshest relevant evidence, with a verdict and sources.

    The question is classified as logistical (freshness matters: "Is Friday a half-day?"),
    entity (precision matters: "What size is our HVAC filter?") or historical (recall
    matters: "What was the roofer's name?"), and the verdict is `answer`, `verify` (stale or
    conflicting sources, shown side by side) or `unknown`.

    Examples:

        brainq ask "Is Friday a half-day?"

        brainq ask --as-of 2026-03-12 --explain "When was Maggie's last vet visit?"

        brainq ask --context "What did the plumber say?" | llm "answer from this"
    """
    from brainq.render import print_answer, print_context, print_json
    from brainq.serve import Request
    from brainq.serve import answer as answer_served_or_here

    settings: Settings = ctx.obj
    config = settings.config()
    day = parse_day(as_of, "--as-of") or date.today()
    patterns_file = os.path.abspath(settings.patterns) if settings.patterns else None
    request = Request(question, day.isoformat(), pattern, top_k, settings.chroma_url, patterns_file)
    answer = answer_served_or_here(settings.store_dir, request, config)
    if as_json:
        print_json(answer.to_json())
    elif context:
        print_context(answer, config, budget)
    else:
        print_answer(answer, config, explain)


@app.command()
def serve(ctx: typer.Context) -> None:
    """Keep the model and the store loaded, so `brainq ask` answers in a fraction of a second.

    Listens on a socket in the store directory (readable by you only) until stopped with
    Ctrl-C or SIGTERM. `brainq ask` uses it whenever it runs for the same store and
    --chroma-url, and answers by itself otherwise, with the same output. A backfill's writes
    are seen by the next question. Start it at login, e.g. from cron:

    \b
        @reboot /path/to/brainq serve
    """
    import signal

    from brainq.config import load_config
    from brainq.embedding import lazy_question_embed
    from brainq.serve import Server

    settings: Settings = ctx.obj
    config = settings.config()  # a bad patterns.yaml is reported now, not at the first question
    store = settings.store()
    server = Server(store, lazy_question_embed(store, config.embedding), load_config)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.warm_up()
    typer.echo(f"brainq: answering for {server.store.home} on {server.path} (Ctrl-C stops)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


@app.command()
def mcp(ctx: typer.Context) -> None:
    """Serve the store to AI assistants over the Model Context Protocol (stdio), read-only.

    Tools: ask (what `ask --json` prints), search, get_document, list_documents, status. The
    store and the model stay loaded between calls. Add it to Claude Code with:

    \b
        claude mcp add brainq -- brainq mcp
    """
    from brainq.embedding import lazy_question_embed
    from brainq.mcp_server import server
    from brainq.serve import RememberedEmbed

    settings: Settings = ctx.obj
    config = settings.config()
    store = settings.store()
    server(store, config, RememberedEmbed(lazy_question_embed(store, config.embedding))).run("stdio")


@app.command("eval")
def evaluate(
    ctx: typer.Context,
    queries: Annotated[Path, typer.Argument(metavar="QUERIES", help="Questions with expected evidence (YAML).")] = Path(
        "corpus_samples/queries.yaml"
    ),
    baseline: Annotated[bool, typer.Option("--baseline", help="Also rank by BM25 alone, dense alone and their fusion, side by side.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_failures: Annotated[bool, typer.Option("--failures", help="List every question that missed.")] = False,
) -> None:
    """Run a question set against the current store (ingests nothing) and score brainq.

    Prints per pattern: classification accuracy, precision@1, recall@3, hit@5 and verdict
    accuracy, then how often each verdict's first source was right and how many answers were
    confidently wrong. Expected paths in the file are relative to the file's folder; a
    question without `pattern` or `verdict` is not scored on it.

    Example:

        brainq ingest corpus_samples && brainq eval corpus_samples/queries.yaml --baseline
    """
    from brainq.embedding import lazy_question_embed
    from brainq.evaluate import evaluate as run_eval
    from brainq.evaluate import load_queries
    from brainq.render import print_eval, print_json

    settings: Settings = ctx.obj
    config = settings.config()
    spec = load_queries(queries)
    store = settings.store()
    report = run_eval(spec, store, config, lazy_question_embed(store, config.embedding), baseline)
    if as_json:
        print_json(report.to_json())
    else:
        print_eval(report, show_failures)


# -- status, list, forget, sources ---------------------------------------------------------------


@app.command()
def status(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Verify that the store can be written and catalog and vectors agree.")] = False,
    repair: Annotated[
        bool, typer.Option("--repair", help="Mend what --check finds: drop orphan vectors, make missing ones again.")
    ] = False,
) -> None:
    """Counts by type and year, sources, store size and the last runs' failures.

    `--check` opens the store as ingest does and writes to it, compares the catalog with
    Chroma (every chunk has its vector, no vector is left over) and lists files an
    interrupted run left half-done; it exits 1 when something is wrong. `--repair` makes
    missing vectors again from the text the catalog keeps (your files need not be there),
    drops orphan ones, and moves vectors Chroma cannot open aside before making them all
    again; the next `brainq backfill` finishes the half-done files.
    """
    from brainq.render import print_status

    settings: Settings = ctx.obj
    store = settings.store()
    info = store.summary()
    if check or repair:
        config = settings.config()
        with store.writer_lock() if repair else nullcontext():
            from brainq.embedding import lazy_ingest_embed
            from brainq.vocabulary import words

            info["check"] = store.check(repair, lazy_ingest_embed(store, config.embedding), words)
    print_status(info, as_json=as_json)
    found = info.get("check", {})
    broken = found and (found["missing_vectors"] or found["orphan_vectors"] or found["vocabulary_missing"])
    if found and (found["problem"] or (broken and not found["repaired"])):
        raise typer.Exit(ExitCode.FAILED)


@app.command("list")
def list_documents(
    ctx: typer.Context,
    doc_type: Annotated[Optional[str], typer.Option("--type", metavar="TYPE", help="Only this doc_type (email, invoice, ...).")] = None,
    since: Annotated[Optional[str], typer.Option(metavar="YYYY-MM-DD", help="Only documents written on or after this day.")] = None,
    until: Annotated[Optional[str], typer.Option(metavar="YYYY-MM-DD", help="Only documents written on or before this day.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines, one document per line.")] = False,
) -> None:
    """Every document in the store with its date, type and title, oldest first."""
    from brainq.render import print_documents

    settings: Settings = ctx.obj
    store = settings.store()
    docs = store.documents(doc_type, parse_day(since, "--since"), parse_day(until, "--until"))
    print_documents(docs, as_json=as_json)


@app.command()
def forget(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(metavar="PATH...", help="Files or folders whose documents to remove.", show_default=False)],
) -> None:
    """Remove documents from the store (the files on disk are not touched).

    A folder is also removed from the sources `brainq backfill` scans.
    """
    settings: Settings = ctx.obj
    store = settings.store()
    with store.writer_lock():
        removed = sum(store.forget(os.path.abspath(path)) for path in paths)
    typer.echo(f"forgot {removed} document{'s' if removed != 1 else ''}")


sources_app = typer.Typer(help="The folders and files `brainq backfill` keeps in step.", no_args_is_help=False)
app.add_typer(sources_app, name="sources")


@sources_app.callback(invoke_without_command=True)
def sources(ctx: typer.Context) -> None:
    """List the remembered sources."""
    if ctx.invoked_subcommand is None:
        for path in ctx.obj.store().sources():
            typer.echo(path)


@sources_app.command("remove")
def sources_remove(
    ctx: typer.Context, path: Annotated[Path, typer.Argument(metavar="PATH", help="A source to stop scanning.", show_default=False)]
) -> None:
    """Stop scanning a source (its documents stay until `brainq forget`)."""
    if not ctx.obj.store().remove_source(os.path.abspath(path)):
        raise UsageError(f"{os.path.abspath(path)} is not a source")


# -- helpers -------------------------------------------------------------------------------------


def parse_day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{option} takes a date as YYYY-MM-DD, got {value!r}") from None


def main() -> None:
    """Entry point: an interrupt is one line and status 130."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("brainq: interrupted", err=True)
        sys.exit(130)
