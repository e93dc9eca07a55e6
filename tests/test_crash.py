"""kill -9 at any moment: the next run mends the store, which then equals an uninterrupted one.

A few kills of benchmarks/crash.py's full run (`make stress`), each on its own store, through
the CLI in fresh processes: during the vector writes and the catalog's swap of an ingest, in a
backfill replacing changed files and dropping deleted ones, and in a forget.
"""

import pytest

from benchmarks.crash import Kill, run
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow


def test_the_next_run_mends_every_kill(tmp_path):
    lines = []
    runner = run(
        tmp_path,
        [SAMPLES],
        ingest_kills=[Kill("vectors-written", 1), Kill("catalog-written", 2)],
        backfill_kills=[Kill("old-vectors-deleted", 1)],
        forget_kills=[Kill("document-forgotten", 2)],
        forgotten="household/mail",
        log=lines.append,
    )
    assert runner.kills == 4
    assert not runner.failures, "\n".join(lines)
