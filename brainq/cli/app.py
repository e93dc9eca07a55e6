"""The command line's frame: the typer app, its global options and the mapping of errors to
exit statuses, shared by the commands (one module per family of them, beside this one)."""

import os
import signal
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import click
import typer
from typer.core import TyperGroup

from brainq.dates import given_day
from brainq.errors import BrainqError, ExitCode, UsageError
from brainq.paths import NOT_UTF8, printable, shown, unnamable


class _Commands(TyperGroup):
    """Maps every BrainqError, and every error in the arguments, to one line on stderr and its
    exit status, once for all commands."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:  # the options before the command: `brainq --store "" status`
            return super().make_context(info_name, args, parent, **extra)
        except Exception as exc:
            _one_line_usage(exc)
            raise

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # The reader stopped reading (`brainq list | head`): stop as other tools do, quietly
            # and with SIGPIPE's status; stdout goes nowhere, so exiting flushes nothing into it.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(128 + signal.SIGPIPE) from None
        except KeyboardInterrupt:
            # typer would exit 130 without a word (a second Ctrl-C while ingest stops).
            typer.echo("brainq: interrupted", err=True)
            raise typer.Exit(130) from None
        except Exception as exc:
            _one_line_usage(exc)  # a command's own arguments
            # typer's own (exit statuses; it carries its own copy of click) pass.
            if type(exc).__module__.partition(".")[0] in ("typer", "click") or (ctx.obj is not None and ctx.obj.debug):
                raise
            if isinstance(exc, BrainqError):
                typer.echo(f"brainq: error: {shown(str(exc))}", err=True)  # it may name a path
                raise typer.Exit(exc.exit_code) from None
            # A bug is one line too, unless --debug asks for the traceback.
            typer.echo(f"brainq: internal error: {type(exc).__name__}: {shown(str(exc))} (run with --debug for details)", err=True)
            raise typer.Exit(ExitCode.FAILED) from None


def _one_line_usage(exc: Exception) -> None:
    """Click's usage error (usage, a hint, then the error: three lines, or a screenful) as one
    line and status 2; "brainq" alone, which asks for the help, still gets it."""
    usage = getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message") and hasattr(exc, "ctx")
    if not usage or type(exc).__name__ == "NoArgsIsHelpError":
        return
    where = exc.ctx.command_path if exc.ctx is not None else "brainq"
    typer.echo(f"brainq: error: {shown(exc.format_message())} (`{where} -h` explains the options)", err=True)
    raise typer.Exit(ExitCode.USAGE) from None


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

    def store(self, create: bool = False):
        from brainq.store import Store

        return Store(self.store_dir, self.chroma_url, create=create)


# For every command that writes: one writer at a time, and the others exit 4 unless they wait.
WAIT = typer.Option("--wait", min=0, metavar="SECONDS", help="Seconds to wait for another ingest, backfill, forget or status --repair to finish.")


def given_path(value: str) -> Path:
    """A path as typed: an empty one (a script's variable left unset) names nothing, though
    Path("") is the current folder, which it would ingest, forget or make a store of whole."""
    if not value:  # checked while the command line is parsed, as click checks --top-k's range
        raise typer.BadParameter("a path given is empty (a variable left unset?)")
    return Path(value)


def default_store() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("brainq"))


@app.callback()
def main_options(
    ctx: typer.Context,
    store: Annotated[
        Optional[Path],
        typer.Option(envvar="BRAINQ_HOME", metavar="DIR", parser=given_path, help="Store directory [default: ~/.local/share/brainq]."),
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
    if store is not None and unnamable(str(store)):  # from BRAINQ_HOME: the command line's are checked by main()
        raise UsageError(f"the store's folder {printable(str(store))}: its name is not UTF-8; name another")
    ctx.obj = Settings(store or default_store(), chroma_url, patterns, debug)
    from brainq.store import index_rebuild_pending

    if index_rebuild_pending(Path(os.path.expanduser(ctx.obj.store_dir))):  # said before the wait, not after it
        typer.echo("brainq: the store's full-text index is made again for this version, once (a minute for a large store)", err=True)


def absolute(path: Path) -> str:
    """The path made absolute; one whose name is no UTF-8 (`.` in a folder so named) can be
    neither ingested nor in the store."""
    full = os.path.abspath(path)
    if unnamable(full):
        raise UsageError(f"{printable(full)}: {NOT_UTF8}")
    return full


def parse_day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return given_day(value)
    except ValueError:
        raise UsageError(f"{option} takes a date as YYYY-MM-DD, got {value!r}") from None
