"""A sample of the shared real-world corpora through `brainq ingest`: every file ends up in the
store or in the failures with a reason, and the stored dates are the truth files' dates."""

import json
import shutil
from datetime import datetime

import pytest

from tests.conftest import CORPORA, run_cli

pytestmark = pytest.mark.slow

SAMPLE = {  # set -> files, spread over the sources and the hard cases
    "mail": [
        "enron-Edgar427-Team22introtoAI/maildir/allen-p/inbox/1",
        "flanker/attached-pdf.eml",
        "mikel-mail/multi_charset/japanese_shift_jis.eml",
        "notmuch/lkml/cur/1354585346.000260:2,",
        "notmuch/lkml/cur/1354585346.000261:2,",
        "patchwork/series/base-cover-letter.mbox",
        "patchwork/series/base-out-of-order.mbox",
        "mimekit/mbox/unmunged.mbox.txt",
    ],
    "pdfs": [
        "pdfjs/tracemonkey.pdf",
        "pypdf/encryption/r2-empty-password.pdf",
        "pypdf/crazyones-encrypted-256.pdf",
        "pdfjs/bug1020226.pdf",
        "py-pdf-sample-files/019-grayscale-image/grayscale-image.pdf",
    ],
    "photos": [
        "exif-py/jpg/Canon_40D.jpg",
        "exif-py/heic/mobile/iphone_13_pro_max.heic",
        "exif-py/jpg/tests/30-type_error.jpg",
        "pillow/hopper_bad_exif.jpg",
    ],
}


@pytest.fixture(scope="module")
def corpora_store(tmp_path_factory, embedder):
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is absent")
    tree = tmp_path_factory.mktemp("corpora")
    for kind, paths in SAMPLE.items():
        for relative in paths:
            source, target = CORPORA / kind / relative, tree / kind / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target)
            else:
                shutil.copy2(source, target)
    store = tmp_path_factory.mktemp("store")
    result = run_cli("ingest", "--json", str(tree), store=store)
    assert result.exit_code in (0, 3), result.output
    return tree, store, json.loads(result.stdout)


def test_every_file_is_stored_or_reported(corpora_store):
    tree, store, report = corpora_store
    files = {str(p) for p in tree.rglob("*") if p.is_file()}
    docs = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    # A message found in two mailboxes is listed once, its other places as copies.
    stored = {d["path"] for d in docs} | {place.split("#")[0] for d in docs for place in d["copies"]}
    failed = {f["path"] for f in report["failures"]}
    assert files <= stored | failed
    assert all(f["reason"] for f in report["failures"])
    assert str(tree / "pdfs/pypdf/crazyones-encrypted-256.pdf") in failed
    assert any("password" in f["reason"] for f in report["failures"])


def test_dates_match_the_truth_files(corpora_store):
    tree, store, _ = corpora_store
    docs = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    top_level = {d["path"]: d for d in docs if d["locator"] is None}
    checked = 0
    for kind in SAMPLE:
        truth = json.loads((CORPORA / kind / "truth.json").read_text())
        for key, value in truth.items():
            doc = top_level.get(str(tree / kind / key))
            if doc is None or value is None:
                continue
            expected = datetime.fromisoformat(value)
            got = datetime.fromisoformat(doc["source_date"])
            if expected.tzinfo is None:  # photos: naive local time as the camera wrote it
                got = got.replace(tzinfo=None)
            assert got == expected, key
            checked += 1
    assert checked >= 8
    assert not [d for d in docs if d["date_source"] == "mtime" and "/mail/" in d["path"]]
