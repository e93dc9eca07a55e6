"""The command line: parses arguments, calls the core, renders its results. Nothing else.

app.py holds the app and its global options; each family of commands has a module of its own,
registered on the app when imported here.
"""

import sys

import typer

# Each module registers its commands on the app, in the order `brainq --help` lists them.
from brainq.cli import ingest  # noqa: F401
from brainq.cli import ask  # noqa: F401
from brainq.cli import manage  # noqa: F401
from brainq.cli.app import app
from brainq.errors import ExitCode
from brainq.paths import printable, unnamable

__all__ = ["app", "main"]


def main() -> None:
    """Entry point: an interrupt is one line and status 130."""
    bad = next((arg for arg in sys.argv[1:] if unnamable(arg)), None)
    if bad is not None:  # no part of brainq can keep, look for or print it
        typer.echo(f"brainq: error: not UTF-8: {printable(bad)} (a file's name: rename the file; typed text: set the terminal to UTF-8)", err=True)
        sys.exit(ExitCode.USAGE)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("brainq: interrupted", err=True)
        sys.exit(130)
