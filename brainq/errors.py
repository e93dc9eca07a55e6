"""One error hierarchy: the core raises these, the CLI maps them to one line and an exit status."""

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit statuses of every command, as documented in the README."""

    OK = 0
    FAILED = 1  # the command could not run (bad store, bad config, lock held, ...)
    USAGE = 2  # bad arguments or options
    PARTIAL = 3  # ingest/backfill finished, but some files failed
    LOCKED = 4  # another ingest or backfill holds the store's lock


class BrainqError(Exception):
    """An error whose message a user can act on."""

    exit_code = ExitCode.FAILED


class UsageError(BrainqError):
    """The user asked for something malformed (a bad date, an unknown pattern)."""

    exit_code = ExitCode.USAGE


class ConfigError(BrainqError):
    """patterns.yaml is missing, unreadable or invalid; the message names the key and line."""


class StoreError(BrainqError):
    """The store cannot be opened or written (not a directory, read-only, newer version)."""


class LockedError(BrainqError):
    """Another ingest, backfill, forget or repair is writing to the store."""

    exit_code = ExitCode.LOCKED


class ExtractError(BrainqError):
    """One file (or message, or attachment) could not be read; the run goes on without it."""
