"""The crontab line that keeps a store in step with its sources (`brainq cron`).

cron runs with a bare PATH and none of the user's environment, so the line names this
installation's brainq and the store by absolute paths, and carries every setting the store
needs (its Chroma server, its patterns.yaml) on its command line.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from brainq.errors import UsageError

NIGHTLY = "15 3 * * *"  # a quiet hour, off the hour many jobs start on


def cron_line(every: int | None, store: Path, chroma_url: str | None, patterns: Path | None) -> str:
    """`schedule command`, running `brainq backfill --quiet` every `every` minutes (nightly
    when None)."""
    args = [*brainq_executable(), "--store", os.path.abspath(os.path.expanduser(store))]
    if chroma_url:
        args += ["--chroma-url", chroma_url]
    if patterns:
        args += ["--patterns", os.path.abspath(patterns)]
    command = shlex.join([*args, "backfill", "--quiet"])
    return f"{schedule(every)} " + command.replace("%", "\\%")  # crontab reads a bare % as a newline


def schedule(every: int | None) -> str:
    if every is None or every == 24 * 60:
        return NIGHTLY
    if every < 60 and 60 % every == 0:
        return "* * * * *" if every == 1 else f"*/{every} * * * *"
    if every % 60 == 0 and 24 % (every // 60) == 0:
        return "15 * * * *" if every == 60 else f"15 */{every // 60} * * *"
    # cron's steps restart every hour (and day): "*/45" runs at :00 and :45, not every 45.
    raise UsageError(
        f"--every {every}: cron can repeat every N minutes where N divides 60 (e.g. 10, 30) "
        "or every N hours where N divides 24 (e.g. 120 for 2 hours, 360 for 6)"
    )


def brainq_executable() -> list[str]:
    """How cron should start this brainq: the script that is running, else the one installed
    beside this Python, else this Python with `-m brainq`."""
    running = os.path.abspath(sys.argv[0])
    if os.path.basename(running) == "brainq" and os.access(running, os.X_OK):
        return [running]
    beside = os.path.join(os.path.dirname(sys.executable), "brainq")
    if os.access(beside, os.X_OK):
        return [beside]
    found = shutil.which("brainq")
    return [os.path.abspath(found)] if found else [sys.executable, "-m", "brainq"]
