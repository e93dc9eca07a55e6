"""`status`, `list`, `forget` and `sources`: looking after what the store holds."""

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Optional

import typer

from brainq.cli.app import WAIT, Settings, absolute, app, given_path, parse_day
from brainq.errors import ExitCode, UsageError
from brainq.paths import shown


@app.command()
def status(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Verify that the store can be written and catalog and vectors agree.")] = False,
    repair: Annotated[
        bool, typer.Option("--repair", help="Check, and mend what is found: drop orphan vectors, make missing ones again.")
    ] = False,
    wait: Annotated[float, WAIT] = 0.0,
) -> None:
    """Counts by type and year, sources, store size, the files that could not be read, and the last runs.

    `--check` opens the store as ingest does and writes to it, compares the catalog with
    Chroma (every chunk has its vector, no vector is left over) and lists files an
    interrupted run left half-done; it exits 1 when something is wrong. `--repair` makes
    missing vectors again from the text the catalog keeps (your files need not be there),
    drops orphan ones, and moves vectors Chroma cannot open aside before making them all
    again; the next `brainq backfill` finishes the half-done files.
    """
    from brainq.render import print_status

    if wait and not repair:
        raise UsageError("--wait goes with --repair: only a repair waits for the store's writer")
    settings: Settings = ctx.obj
    config = settings.config()  # "is my setup right?": a broken --patterns file is part of the answer
    store = settings.store()
    info = store.summary()
    if check or repair:
        with store.writer_lock(wait) if repair else nullcontext():
            from brainq.embedding import lazy_ingest_embed
            from brainq.vocabulary import words

            info["check"] = store.check(repair, lazy_ingest_embed(store, config.embedding), words)
    print_status(info, as_json=as_json)
    if "check" in info:
        from brainq.store.check import is_whole

        if not is_whole(info["check"]):
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
    problem = settings.config().doc_types.unknown(doc_type)
    if problem:
        raise UsageError(f"--type: {problem}")
    first, last = parse_day(since, "--since"), parse_day(until, "--until")
    if first and last and first > last:
        raise UsageError(f"--since {first} is after --until {last}: no day is in both")
    docs = settings.store().documents(doc_type, first, last)
    print_documents(docs, as_json=as_json)


@app.command()
def forget(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(parser=given_path, metavar="PATH...", help="Files or folders whose documents to remove.", show_default=False)],
    wait: Annotated[float, WAIT] = 0.0,
) -> None:
    """Remove documents from the store (the files on disk are not touched).

    A source, and every source inside a folder forgotten, is no longer scanned by `brainq
    backfill`; a file or folder inside a source is left out of its scans until you `brainq
    ingest` it again.
    """
    from brainq.render import FileProgress, counted

    settings: Settings = ctx.obj
    store = settings.store()
    with store.writer_lock(wait):
        targets = store.forgettable([absolute(path) for path in paths])
        with FileProgress(enabled=True, work="forget") as progress:
            gone, kept = (sum(counts) for counts in zip(*(store.forget(target, progress) for target in targets)))
    said = f"forgot {counted(gone, 'document')}"
    if kept:  # the same file elsewhere, or one message in two mail folders
        said += f"; {counted(kept, 'document')} {'stays' if kept == 1 else 'stay'}, kept from a copy at another path"
    typer.echo(said)


sources_app = typer.Typer(
    help=(
        "The folders and files `brainq backfill` keeps in step. `brainq sources` lists them, and "
        "what `brainq forget` left out of them; `brainq sources remove PATH` stops scanning one."
    ),
    no_args_is_help=False,
)
app.add_typer(sources_app, name="sources")


@sources_app.callback(invoke_without_command=True)
def sources(ctx: typer.Context) -> None:
    """List the remembered sources, and what is left out of them."""
    if ctx.invoked_subcommand is None:
        store = ctx.obj.store()
        for path in store.sources():
            typer.echo(shown(path))
        for path in store.forgotten():
            typer.echo(f"  left out (forgotten): {shown(path)}")


@sources_app.command("remove")
def sources_remove(
    ctx: typer.Context, path: Annotated[Path, typer.Argument(parser=given_path, metavar="PATH", help="A source to stop scanning.", show_default=False)]
) -> None:
    """Stop scanning a source (its documents stay until `brainq forget`)."""
    source = absolute(path)
    if not ctx.obj.store().remove_source(source):
        raise UsageError(f"{source} is not a source")
