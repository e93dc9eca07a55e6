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
    assert runner.kills == 6
    assert not runner.failures, "\n".join(lines)


def test_an_error_in_the_last_batch_ends_the_ingest_with_it(tmp_path):
    """The model failing on the run's last batch, after the last file was handed over, is
    raised to the caller; the writer once waited for a second end of input that never came."""
    import threading

    from brainq.config import load_config
    from brainq.ingest import ingest
    from brainq.store import Store

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("The garage code is 4411.\n")

    def broken(texts):
        raise TypeError("the tokenizer refused a text")

    outcome = []

    def run_ingest():
        try:
            ingest(Store(tmp_path / "store"), load_config(), [folder], embed=broken)
        except TypeError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run_ingest, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "ingest still waiting after the writer failed"
    assert outcome and "tokenizer refused" in str(outcome[0])
