"""`ingest`, `backfill` and `cron`: bringing files into the store and keeping it in step."""

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from brainq.cli.app import WAIT, Settings, absolute, app, given_path
from brainq.errors import ExitCode, UsageError
from brainq.paths import BROKEN_LINK


_JSON = typer.Option("--json", help="Print one JSON object with the counts and failures.")
_QUIET = typer.Option("--quiet", "-q", help="Print only failures and errors (for cron).")
_PASSWORDS = typer.Option(
    "--passwords",
    metavar="FILE",
    help="Passwords for encrypted PDFs, one a line, tried in order; the file must be chmod 600 [default: patterns.yaml's passwords].",
)


@app.command()
def ingest(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(parser=given_path, metavar="PATH...", help="Files and folders to ingest, recursively.", show_default=False)],
    as_json: Annotated[bool, _JSON] = False,
    quiet: Annotated[bool, _QUIET] = False,
    wait: Annotated[float, WAIT] = 0.0,
    passwords: Annotated[Optional[Path], _PASSWORDS] = None,
) -> None:
    """Ingest mail (Maildir, mbox, .eml, .emlx, .msg), PDFs, Word (.docx, .doc), Excel (.xlsx, .xls), CSV, RTF,
    web pages, photos, .ics, notes, and the files inside .zip, .tar (.tar.gz, .tgz, ...) and .7z archives.

    Unchanged files are skipped without being read; the paths are remembered as sources for
    `brainq backfill`. Spam and deleted mail (Junk, Trash: patterns.yaml's limits.skip_mail)
    is left out; an mbox of any size is read in parts. Exit status: 0 all done, 3 done but some files failed (each listed
    with its reason), 4 another ingest holds the store, 2 a PATH that is not there, 1 could not run.

    Example:

        brainq ingest ~/Mail ~/Documents ~/Pictures
    """
    home = os.path.realpath(os.path.expanduser(ctx.obj.store_dir))
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: {BROKEN_LINK if path.is_symlink() else 'no such file or folder'}")
        absolute(path)
        if os.path.commonpath([os.path.realpath(path), home]) == home:  # through links too
            raise UsageError(f"{path}: this is the store's own folder, not documents to ingest")
    _run_ingest(ctx.obj, "ingest", paths, as_json, quiet, wait, passwords, remember=True)


@app.command()
def backfill(
    ctx: typer.Context,
    as_json: Annotated[bool, _JSON] = False,
    quiet: Annotated[bool, _QUIET] = False,
    wait: Annotated[float, WAIT] = 0.0,
    passwords: Annotated[Optional[Path], _PASSWORDS] = None,
) -> None:
    """Re-scan every remembered source: add new files, re-ingest changed ones, drop deleted ones.

    Made for cron: unchanged files are only stat()ed, output is one summary line (none with
    --quiet), and an overlapping run exits with status 4 instead of waiting, unless --wait.
    A source folder that is not there or empty (a drive not mounted) fails and keeps its documents;
    `brainq forget` it if it is gone for good.

    `brainq cron` prints the crontab line for this store, with full paths (cron runs with a
    bare PATH), e.g. every night at 3:15:

        15 3 * * * /home/me/brainq/.venv/bin/brainq --store /home/me/.local/share/brainq backfill --quiet
    """
    from brainq.ingest import forgotten_left

    store = ctx.obj.store()
    sources = [Path(p) for p in store.sources()]
    if not sources and not forgotten_left(store, []):
        raise UsageError("no sources to scan: `brainq ingest PATH` makes PATH one")
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
    # What every backfill the line runs would fail on is reported now: a broken --patterns
    # file, no store there, a store with no sources.
    settings.config()
    store = settings.store()
    if not store.sources():
        raise UsageError("no sources to scan: `brainq ingest PATH` makes PATH one, for the line's backfills to keep in step")
    url = settings.chroma_url or store.server_url  # cron has no BRAINQ_CHROMA_URL
    typer.echo(cron_line(every, settings.store_dir, url, settings.patterns))


def _run_ingest(settings: Settings, command: str, paths, as_json, quiet, wait, passwords, remember: bool) -> None:
    from brainq.config import with_passwords
    from brainq.ingest import as_sources_name
    from brainq.ingest import ingest as run_ingest
    from brainq.render import FileProgress, print_ingest_report

    config = with_passwords(settings.config(), str(passwords) if passwords else None)
    store = settings.store(create=command == "ingest")

    with store.writer_lock(wait):
        paths = as_sources_name(store, paths)
        if remember:
            for path in paths:
                if os.path.isdir(path) or os.path.isfile(path):  # not a pipe or a device: nothing to scan again
                    store.add_source(str(path))
        run = store.start_run(command)
        with FileProgress(enabled=not (as_json or quiet)) as progress:
            report = run_ingest(store, config, paths, progress=progress)
        store.log_run(run, report.to_json())
    print_ingest_report(report, as_json=as_json, quiet=quiet, named=frozenset(os.path.abspath(p) for p in paths))
    if report.interrupted:
        raise typer.Exit(130)
    if report.failures:
        raise typer.Exit(ExitCode.PARTIAL)
