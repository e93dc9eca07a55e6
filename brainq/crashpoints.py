"""Named points in the write path where a crash test kills brainq, to prove none loses data.

With `BRAINQ_CRASH_AT=POINT[:N]` in its environment, brainq sends itself SIGKILL the N-th time
(default: the first) it reaches POINT: a crash at an exact step, where a kill timed from outside
lands wherever the machine's load puts it. tests/test_crash.py and `make stress` use both. The
points, in the order a file's write passes them (brainq/store/writes.py's docstring gives the steps):

  batch-embedded       the model has made a batch's vectors (the first: right after it starts)
  files-pending        the files of a batch are marked pending (step 1, committed)
  vectors-written      one Chroma write of new chunks has returned (step 2)
  catalog-written      the catalog's swap is written but not committed (step 3)
  old-vectors-deleted  replaced chunks have left Chroma, the file is still pending (step 4)
  document-forgotten   a dropped file's catalog rows are gone, its vectors not yet
  vectors-rebuilt      `status --check --repair` has re-embedded one batch of the catalog's chunks

Without the variable (always, outside such tests) a point costs one comparison.
"""

from __future__ import annotations

import os
import signal

POINTS = (
    "batch-embedded",
    "files-pending",
    "vectors-written",
    "catalog-written",
    "old-vectors-deleted",
    "document-forgotten",
    "vectors-rebuilt",
)

_wanted = os.environ.get("BRAINQ_CRASH_AT")
_passed: dict[str, int] = {}


def reached(point: str) -> None:
    """Die here, as a kill -9 would, if this is the crash the environment asks for."""
    if _wanted is None:
        return
    name, _, nth = _wanted.partition(":")
    if name != point:
        return
    _passed[point] = _passed.get(point, 0) + 1
    if _passed[point] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
