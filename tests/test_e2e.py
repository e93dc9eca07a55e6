"""End to end: corpus_samples ingested through the CLI into a real Chroma store with the real
model, then real questions through `brainq ask` and `brainq eval`."""

import json
import math
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from email.message import EmailMessage

import numpy as np
import pytest
import yaml

from tests.conftest import AS_OF, ROOT, SAMPLES, ask_json, run_cli

pytestmark = pytest.mark.slow

PRINCIPAL = "mail/Maildir/cur/1773250920.M1P1.host:2,S"
CALENDAR_PDF = "documents/birchwood-calendar-2025-2026.pdf"
HVAC_INVOICE_MAIL = "mail/comfort-air-invoice-26-0147.eml"
ROOFER = "documents/summit-ridge-roofing-receipt-2023.pdf"


def rank_of(answer: dict, relative: str) -> int | None:
    paths = [r["path"] for r in answer["results"]]
    target = str(SAMPLES / relative)
    return paths.index(target) if target in paths else None


def test_ingest_reports_every_file(sample_store):
    _, report = sample_store
    files = [p for p in SAMPLES.rglob("*") if p.is_file()]
    assert report["added"] == len(files)
    assert report["failed"] == 0 and report["failures"] == []
    assert report["by_kind"].keys() == {"email", "pdf", "photo", "calendar", "text"}


def test_second_ingest_is_unchanged_and_embeds_nothing(sample_store):
    store, first = sample_store
    result = run_cli("ingest", "--json", str(SAMPLES), store=store)
    assert result.exit_code == 0, result.output
    again = json.loads(result.stdout)
    assert again["unchanged"] == first["added"]
    assert again["added"] == again["updated"] == again["embedded"] == again["chunks"] == 0


def test_list_shows_dates_types_and_sources(sample_store):
    store, _ = sample_store
    lines = run_cli("list", "--json", store=store).stdout.splitlines()
    docs = [json.loads(line) for line in lines]
    by_path = {d["path"]: d for d in docs if d["locator"] is None}
    principal = by_path[str(SAMPLES / PRINCIPAL)]
    assert principal["doc_type"] == "email" and principal["date_source"] == "header"
    assert principal["source_date"].startswith("2026-03-11")
    assert {d["doc_type"] for d in docs} >= {"email", "newsletter", "invoice", "receipt", "manual",
                                             "static_pdf", "photo", "calendar_event", "note"}
    assert by_path[str(SAMPLES / "notes" / "house-info.md")]["doc_type"] == "note"
    assert not [d for d in docs if d["date_source"] == "mtime"], "every sample carries its own date"
    days = [d["source_date"][:10] for d in docs]
    assert days == sorted(days), "in the order of the days shown, the writer's own"
    # A day is the day written where it was written: Tom's 22:10 (UTC-4) mail of Mar 11 is Mar 11's.
    late = [json.loads(line) for line in run_cli("list", "--json", "--since", "2026-03-11", "--until", "2026-03-11", store=store).stdout.splitlines()]
    assert "Subaru Saturday morning" in {d["title"] for d in late}
    assert all(d["source_date"].startswith("2026-03-11") for d in late)


def test_friday_half_day_answers_from_the_fresh_email_not_the_stale_calendar(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "Is Friday a half-day?")
    assert answer["pattern"] == "logistical"
    assert answer["time"]["day"] == "2026-03-13"
    assert answer["verdict"]["level"] == "answer"
    top = answer["results"][0]
    assert top["source_date"] >= "2026-03-11" and top["doc_type"] in ("email", "calendar_event")
    assert rank_of(answer, PRINCIPAL) is not None and rank_of(answer, PRINCIPAL) < 3
    stale = rank_of(answer, CALENDAR_PDF)
    assert stale is None or stale > rank_of(answer, PRINCIPAL)
    assert re.search(r"full (school )?day", answer["answer"], re.IGNORECASE)


def test_hvac_filter_size_comes_from_the_latest_invoice(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "What size is our HVAC filter?")
    assert answer["pattern"] == "entity"
    assert "16x25x4" in answer["answer"]
    assert answer["results"][0]["path"] == str(SAMPLES / HVAC_INVOICE_MAIL)
    assert answer["results"][0]["locator"] == "Invoice_26-0147.pdf"
    assert answer["answer_source"] == answer["results"][0]["doc_id"]


def test_roofer_is_found_in_the_2023_receipt_without_a_recency_penalty(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "What was the roofer's name?")
    assert answer["pattern"] == "historical"
    top = answer["results"][0]
    assert top["path"] == str(SAMPLES / ROOFER)
    assert top["scores"]["decay"] == 1.0
    assert answer["verdict"]["level"] == "answer"


def test_stale_evidence_only_asks_to_verify(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "What's the model number of the water heater?")
    assert answer["verdict"]["level"] == "verify"
    assert "outdated" in answer["verdict"]["reason"]


def test_something_absent_is_i_dont_know(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "What time is Leo's swim lesson on Wednesday?")
    assert answer["verdict"]["level"] == "unknown"
    assert answer["answer"] is None
    # What came closest is listed, marked as no evidence.
    assert answer["results"] and not any(r["relevant"] for r in answer["results"])
    # --context says so, or a model reading it would answer from what it knows
    shown = run_cli("ask", "--as-of", AS_OF, "--context", "What time is Leo's swim lesson on Wednesday?", store=store).stdout
    assert shown.endswith(f"\n\n{answer['verdict']['reason']}.\n") and "##" not in shown
    # On a terminal, each line of what came closest has its age, as evidence has.
    closest = run_cli("ask", "--as-of", AS_OF, "What time is Leo's swim lesson on Wednesday?", store=store).stdout
    listed = [line for line in closest.split("CLOSEST", 1)[1].splitlines() if re.match(r"  \d{4}-\d\d", line)]
    assert listed and all(re.search(r"\d{4}-\d\d(-\d\d)?  +\d+ \w+ ago ", line) for line in listed), closest


def test_a_reply_putting_practice_back_on_answers_over_the_cancellation_it_supersedes(sample_store):
    """README's `ask --json "Is practice cancelled today?"`: the coach's 3/10 "CANCELLED" names
    the question's words, his 3/11 reply in the same thread puts practice back on."""
    store, _ = sample_store
    answer = ask_json(store, "Is practice cancelled today?")
    assert rank_of(answer, "mail/Maildir/cur/1773246600.M5P5.host:2,S") == 0
    assert "back ON" in answer["answer"]
    assert answer["results"][1]["superseded_by"] == answer["results"][0]["doc_id"]
    # `relevant` is its `relevance` against the floor: the day a source is about lifts its rank only.
    relevant = [r["scores"]["relevance"] for r in answer["results"] if r["relevant"]]
    other = [r["scores"]["relevance"] for r in answer["results"] if not r["relevant"]]
    assert other and max(other) < min(relevant)
    assert any(r["scores"]["day_factor"] != 1.0 for r in answer["results"])


def test_an_undated_source_is_listed_as_undated_not_as_old(tmp_path, embedder):
    mail = tmp_path / "mail"
    mail.mkdir()
    for i, date_header in enumerate(["", "Date: Tue, 10 Mar 2026 09:00:00 -0500\n", "Date: Mon, 1 Dec 2025 09:00:00 -0500\n"]):
        (mail / f"gate{i}.eml").write_text(
            f"From: Ana <ana@example.org>\nTo: us@example.org\nSubject: Gate code\nMessage-ID: <g{i}@example.org>\n"
            f"{date_header}\nThe gate code for the community pool is 441{i}.\n"
        )
    store = tmp_path / "store"
    assert run_cli("ingest", str(mail), store=store).exit_code == 0
    for flag in ("--explain", "--context"):
        shown = run_cli("ask", "--as-of", AS_OF, flag, "What is the gate code for the pool?", store=store).stdout
        assert "UNDATED" in shown and "ESTABLISHED HISTORY" not in shown
    # Each bucket's heading counts in the budget too.
    for budget in range(50, 90, 2):
        shown = run_cli("ask", "--as-of", AS_OF, "--context", "--budget", str(budget), "What is the gate code for the pool?", store=store).stdout
        assert len(shown.split()) <= budget * 0.75, shown


def calendar_store(tmp_path, event: str):
    """A store of one calendar holding one event, `event` its properties a line each."""
    folder = tmp_path / "calendar"
    folder.mkdir()
    (folder / "family.ics").write_text(
        f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\n{event}END:VEVENT\nEND:VCALENDAR\n"
    )
    store = tmp_path / "store"
    assert run_cli("ingest", str(folder), store=store).exit_code == 0
    return store


def test_a_weekly_event_begun_years_ago_answers_with_its_next_day(tmp_path):
    """The series' "When:" is its first day, in 2023; the answer names the lesson to come."""
    store = calendar_store(
        tmp_path, "UID:piano@example.org\nDTSTAMP:20261120T090000Z\nDTSTART:20230905T160000\nDTEND:20230905T163000\n"
        "RRULE:FREQ=WEEKLY;BYDAY=TU\nSUMMARY:Piano lesson\n",
    )
    answer = ask_json(store, "When is the next piano lesson?", as_of="2026-11-28")
    assert answer["verdict"]["level"] == "answer"
    assert "When: Tuesday 1 December 2026, 16:00 to 16:30, one of a series since Tuesday 5 September 2023" in answer["answer"]


def test_documents_written_after_as_of_are_invisible(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "Is Friday a half-day?", as_of="2026-03-10")
    assert all(r["source_date"][:10] <= "2026-03-10" for r in answer["results"])
    assert rank_of(answer, PRINCIPAL) is None


def test_explain_shows_factors_that_multiply_to_the_score(sample_store):
    """Each --explain line: relevance | rank -> share x decay x weight x cutoff x time = score."""
    store, _ = sample_store
    shown = run_cli("ask", "--as-of", AS_OF, "--explain", "What size is our HVAC filter?", store=store).stdout
    line = re.compile(r"-> ([\d.]+) x ([\d.]+) x ([\d.]+) x ([\d.]+) x ([\d.]+) = ([\d.]+) ")
    rows = [[float(x) for x in m.groups()] for m in map(line.search, shown.splitlines()) if m]
    assert len(rows) >= 3
    for *factors, score in rows:
        assert math.prod(factors) == pytest.approx(score, abs=0.01), (factors, score)


@pytest.mark.parametrize("flag, expected", [("--explain", "pattern logistical"), ("--context", "## RECENT")])
def test_terminal_outputs(sample_store, flag, expected):
    store, _ = sample_store
    result = run_cli("ask", "--as-of", AS_OF, flag, "Is Friday a half-day?", store=store)
    assert result.exit_code == 0, result.output
    assert expected in result.stdout
    assert PRINCIPAL.rsplit("/", 1)[-1] in result.stdout


def test_an_answer_line_holds_the_kind_of_fact_asked_for_where_its_source_does(sample_store):
    """The sentence most like the question may hold no fact of the kind asked for (an event's
    title): the answer line adds the likeliest that does (its "When:" line)."""
    store, _ = sample_store
    result = ask_json(store, "When is Harper's piano recital?")
    assert result["verdict"]["level"] == "answer" and result["results"][0]["doc_type"] == "calendar_event"
    assert "recital" in result["answer"] and "29 March 2026" in result["answer"]
    # ... the lines of one event only: a newsletter's next line may hold another thing's time
    pictures = ask_json(store, "What time is picture day?")
    assert "5:30" not in pictures["answer"] and pictures["verdict"]["level"] != "answer"


def test_an_answer_line_about_a_day_says_what_its_source_says_of_that_day(tmp_path, embedder):
    """"Is there a piano lesson on November 25?": the weekly lesson's title alone reads like
    yes; its line that it skips that day is the answer."""
    store = calendar_store(
        tmp_path, "UID:piano@test\nDTSTAMP:20261101T120000Z\nDTSTART:20260909T163000\nDTEND:20260909T171500\n"
        "RRULE:FREQ=WEEKLY;BYDAY=WE\nEXDATE:20261125T163000\nSUMMARY:Emma piano lesson with Mrs. Kowalski\n"
        "LOCATION:42 Elm Street\n",
    )
    result = ask_json(store, "Is Emma's piano lesson on Wednesday November 25?", as_of="2026-11-20")
    assert "Not on: Wednesday 25 November 2026" in result["answer"]


@pytest.mark.parametrize(
    "question, title", [("What's on Saturday?", "Thunder"), ("Is anything happening on March 24?", "Spring Concert")]
)
def test_a_question_that_names_only_a_time_is_answered_by_what_is_about_it(sample_store, question, title):
    """No word is left to look for: what the store holds about that day is the answer (it
    was "I don't know": relevance came from words alone)."""
    store, _ = sample_store
    result = ask_json(store, question)
    first = result["results"][0]
    assert result["verdict"]["level"] == "answer" and first["doc_id"] == result["answer_source"]
    assert title in first["title"] and first["scores"]["day_factor"] > 1  # about the day asked about


@pytest.mark.parametrize(
    "question, says",
    [
        ("What happened in 2019?", "names only a time, 2019-01-01 to 2019-12-31: too long"),
        ("What happened before 2019?", "up to 2018-12-31: too long for any one document to answer. Ask about something in it, or list what was written then (brainq list --until 2018-12-31)"),
        ("What did we do on June 3, 2014?", "Nothing in the store is about 2014-06-03"),
    ],
)
def test_a_question_that_names_only_a_time_nothing_answers_says_why(sample_store, question, says):
    """A year is too long for whatever is about it to be the answer, and a day may have nothing
    about it; either way the reason says so, not that nothing relevant was found."""
    store, _ = sample_store
    result = ask_json(store, question)
    assert result["verdict"]["level"] == "unknown" and says in result["verdict"]["reason"]


@pytest.mark.parametrize("budget", [60, 200, 800])
def test_context_keeps_to_its_budget_cutting_the_best_source_when_it_alone_is_over(sample_store, budget):
    store, _ = sample_store
    result = run_cli("ask", "--as-of", AS_OF, "--context", "--budget", str(budget), "Is Friday a half-day?", store=store)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.split()) <= budget * 0.75  # ~0.75 words a token
    assert "## RECENT" in result.stdout


def test_context_cut_to_a_small_budget_keeps_the_answering_sentence(sample_store):
    """The babysitter's note opens with bedtimes and allergies; its keypad line is far down."""
    store, _ = sample_store
    shown = run_cli("ask", "--as-of", AS_OF, "--context", "--budget", "60", "What's the code for the garage keypad?", store=store).stdout
    assert "Garage keypad code" in shown and "4419" in shown and "… " in shown


def test_eval_scores_a_question_set(sample_store, tmp_path):
    """The whole set takes minutes (`make eval`); here a stale-look-alike question per pattern."""
    store, _ = sample_store
    queries = yaml.safe_load((SAMPLES.parent / "queries.yaml").read_text())
    wanted = {"Is Friday a half-day?", "What size furnace filter do we need?", "What was the name of the roofer we used?"}
    subset = [q for q in queries["queries"] if q["question"] in wanted and "as_of" not in q]
    assert len(subset) == 3
    for q in subset:
        q["expect"] = [str(SAMPLES.parent / e) for e in q["expect"]]
    path = tmp_path / "queries.yaml"
    path.write_text(yaml.safe_dump({"as_of": queries["as_of"], "queries": subset}))
    result = run_cli("eval", "--json", "--baseline", str(path), store=store)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    row = report["brainq"]["all"]
    assert (row["questions"], row["classification"], row["precision@1"], row["verdict"]) == (3, 1.0, 1.0, 1.0)
    assert row["recall@3"] >= 0.8 and row["hit@5"] == 1.0
    for baseline in ("bm25", "dense", "fusion"):
        assert report[baseline]["all"]["questions"] == 3 and report[baseline]["all"]["classification"] is None
    assert report["reliability"]["answer"]["given"] == 3 and report["reliability"]["confidently_wrong"] == 0


def test_eval_reads_paths_up_from_its_folder_and_lists_its_misses(sample_store, tmp_path):
    """Expected paths are relative to the question file's folder, `../` too; --failures lists
    each miss with what came first and what was wanted."""
    store, _ = sample_store
    queries = yaml.safe_load((SAMPLES.parent / "queries.yaml").read_text())
    (right,) = [q for q in queries["queries"] if q["question"] == "Is Friday a half-day?" and "as_of" not in q]
    folder = tmp_path / "sets"
    folder.mkdir()
    up = [os.path.relpath(SAMPLES.parent / e, folder) for e in right["expect"]]
    assert all(e.startswith("../") for e in up)
    wrong = {"question": "What size furnace filter do we need?", "expect": up}  # not where its answer is
    path = folder / "queries.yaml"
    path.write_text(yaml.safe_dump({"as_of": queries["as_of"], "queries": [{**right, "expect": up}, wrong]}))
    scored = run_cli("eval", "--json", str(path), store=store)
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["brainq"]["all"]["precision@1"] == 0.5  # the first right, the second not
    result = run_cli("eval", "--failures", str(path), store=store)
    assert result.exit_code == 0, result.output
    misses = result.stdout.split("misses", 1)[1]
    assert "What size furnace filter do we need?" in misses and "got comfort-air-invoice" in misses


def test_a_reply_is_embedded_without_the_message_it_quotes(sample_store, embedder):
    from brainq.chunking import unquoted
    from brainq.store import Store

    store = Store(sample_store[0])
    rows = store.catalog.chunk_texts(list(store.catalog.own_chunks()))
    replies = [(cid, text) for cid, _, text in rows if unquoted(text) != text]
    assert replies, "corpus_samples holds replies that quote"
    stored = store.vectors([cid for cid, _ in replies])
    own = embedder.embed([unquoted(text) for _, text in replies])
    whole = embedder.embed([text for _, text in replies])
    store.close()
    # The sample store is embedded in int8, the fixture in fp32: alike to ~0.995, not 1, so
    # each stored vector is asked only which of the two texts it is closer to.
    for (cid, _), mine, quoting in zip(replies, own, whole):
        assert np.dot(stored[cid], mine) > np.dot(stored[cid], quoting)


def test_a_chat_note_is_answered_in_its_speakers_words(tmp_path, embedder):
    """A conversation kept as a note: the answer line says who said it, and it is the sentence
    that answers, not the speaker's greeting that opens the turn."""
    notes = tmp_path / "notes"
    notes.mkdir()
    chat = notes / "chat-with-ben.txt"
    chat.write_text(
        "Chat with Ben\n\n"
        "Ana: Hi Ben, how was the weekend? We finally fixed the fence on Saturday.\n"
        "Ben: Hey Ana! Nice. We drove up to the lake and rented a canoe for the whole afternoon.\n"
        "Ana: That sounds lovely. Did the kids like it?\n"
        "Ben: They loved it. Sam caught two fish and wants to go back in June.\n"
    )
    written = datetime.fromisoformat(AS_OF).timestamp() - 7 * 86400  # a note is dated by its mtime
    os.utime(chat, (written, written))
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(notes), store=store).exit_code == 0
    answer = ask_json(store, "What did Ben rent at the lake?")
    assert answer["answer"].startswith("Ben: ") and "canoe" in answer["answer"], answer["answer"]


def test_office_documents_and_their_attachments_are_asked_like_any_other(tmp_path):
    """A lease saved as .docx, a form attached as .docx to a school's message, a sheet of house
    repairs, an old club's minutes in Word 97's .doc, a swim team's Excel 97 sheet, a TextEdit
    note, a zipped inspection report and a tarball of tax papers: all are ingested, typed, dated,
    and answer."""
    from tests.test_extract_archive import WRITTEN, tar_of, zip_of
    from tests.test_extract_msword import word_file
    from tests.test_extract_office import docx_bytes, mail_with_form, xlsx_bytes
    from tests.test_extract_rtf import NOTE
    from tests.test_extract_xls import workbook

    home = tmp_path / "Documents"
    home.mkdir()
    (home / "lease-renewal.docx").write_bytes(docx_bytes(
        ["Lease renewal for 12 Alder Lane", "The monthly rent is $1,850, due on the first of each month."],
        [["Security deposit", "$2,000"]], modified="2026-02-20T09:00:00Z",
    ))  # fmt: skip
    (home / "trip.eml").write_bytes(mail_with_form(["Aquarium field trip", "The bus leaves the school at 8:15 AM on March 20."]))
    row = lambda *cells: "<row>" + "".join(f'<c t="s"><v>{c}</v></c>' for c in cells) + "</row>"  # noqa: E731
    repairs = row(0, 1, 2) + row(3, 4, 5) + row(6, 7, 8)
    (home / "house.xlsx").write_bytes(xlsx_bytes({"Repairs": repairs}, [
        "Job", "Contractor", "Cost", "Water heater", "Dutton Plumbing", "$1,240", "Fence", "Cedar & Sons", "$3,900",
    ], modified="2025-10-04T18:00:00Z"))  # fmt: skip
    (home / "garden-club-2009.doc").write_bytes(word_file(
        "Garden club minutes, March 10, 2009\rThe plant sale raised\x07$640\x07\x07Seed orders\x07$85\x07\x07"
    ))  # fmt: skip
    (home / "water-heater.rtf").write_bytes(NOTE)
    (home / "swim-team-2008.xls").write_bytes(workbook({"Volunteers": [
        ["Meet", "Job", "Volunteer"], ["Lakeside Invitational", "Timer", "Ana Ruiz"], ["Lakeside Invitational", "Concessions", "Tom Berg"]]}))  # fmt: skip
    os.utime(home / "swim-team-2008.xls", (1214900000, 1214900000))  # xlwt writes no dates: the file's time (2008)
    (home / "house-closing.zip").write_bytes(zip_of({"inspection/summary.txt": (
        "Home inspection summary\nThe roof was replaced by Summit Roofing and carries a 25-year warranty.\n")}))
    (home / "taxes-2023.tar.gz").write_bytes(tar_of({"taxes/return-summary.txt": (
        "Federal return for tax year 2023, filed April 9, 2024\nThe refund was $1,320, deposited to checking.\n")}))
    store = tmp_path / "store"
    result = run_cli("ingest", "--json", str(home), store=store)
    assert result.exit_code == 0, result.output
    listed = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    kinds = {(d["path"].rsplit("/", 1)[-1], d["locator"]): (d["doc_type"], d["date_source"]) for d in listed}
    assert kinds[("lease-renewal.docx", None)] == ("static_pdf", "office_meta")
    assert kinds[("garden-club-2009.doc", None)] == ("static_pdf", "text")
    assert kinds[("water-heater.rtf", None)] == ("static_pdf", "office_meta")
    assert kinds[("swim-team-2008.xls", None)] == ("static_pdf", "mtime")
    assert kinds[("trip.eml", "permission-slip.docx")] == ("static_pdf", "email")  # dated by its message
    assert kinds[("house-closing.zip", "inspection/summary.txt")][1] == "mtime"  # the archive's record of it
    (summary,) = [d for d in listed if d["locator"] == "inspection/summary.txt"]
    assert summary["source_date"].startswith(datetime(*WRITTEN).astimezone(timezone.utc).date().isoformat())
    rent = ask_json(store, "How much is our rent?")
    assert rent["results"][0]["path"].endswith("lease-renewal.docx") and "$1,850" in rent["answer"], rent
    bus = ask_json(store, "What time does the bus leave for the aquarium trip?")
    assert bus["results"][0]["locator"] == "permission-slip.docx" and "8:15" in bus["answer"], bus
    fence = ask_json(store, "How much did the fence cost?")  # the row, each value under its column's name
    assert fence["results"][0]["path"].endswith("house.xlsx"), fence
    assert fence["answer"] == "Job: Fence; Contractor: Cedar & Sons; Cost: $3,900", fence
    sale = ask_json(store, "How much did the garden club's plant sale raise?")
    assert sale["results"][0]["path"].endswith("garden-club-2009.doc") and "$640" in sale["answer"], sale
    timer = ask_json(store, "Who volunteered as timer at the Lakeside Invitational?")
    assert timer["results"][0]["path"].endswith("swim-team-2008.xls") and "Ana Ruiz" in timer["answer"], timer
    roof = ask_json(store, "Who replaced the roof?")
    assert roof["results"][0]["path"].endswith("house-closing.zip"), roof
    assert roof["results"][0]["locator"] == "inspection/summary.txt" and "Summit Roofing" in roof["answer"], roof
    assert kinds[("taxes-2023.tar.gz", "taxes/return-summary.txt")][1] == "text"
    refund = ask_json(store, "How much was our tax refund for 2023?")
    assert refund["results"][0]["path"].endswith("taxes-2023.tar.gz") and "$1,320" in refund["answer"], refund


def test_saved_and_attached_web_pages_are_asked_like_any_other(tmp_path):
    """An order confirmation saved from the browser and a booking mailed as an HTML attachment
    are ingested, typed and dated, and each answers; their markup and scripts say nothing."""
    from tests.test_extract_html import page

    home = tmp_path / "Documents"
    home.mkdir()
    (home / "order-4471.html").write_bytes(page("windows-1252", '<meta name="date" content="2026-03-02">', "cp1252"))
    booking = EmailMessage()
    booking["From"], booking["To"] = "stay@lakeside-cabins.example", "me@example.org"
    booking["Subject"], booking["Date"] = "Your booking", "Tue, 10 Mar 2026 09:00:00 -0700"
    booking.set_content("Your confirmation is attached.")
    booking.add_attachment(
        b"<html><head><script>track()</script></head><body><h2>Reservation confirmed</h2>"
        b"<p>Cabin 7, checking in Friday, April 3. Check-in is from 4:00 PM; the door code is 5521.</p></body></html>",
        maintype="text", subtype="html", filename="confirmation.html",
    )  # fmt: skip
    (home / "booking.eml").write_bytes(booking.as_bytes())
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(home), store=store).exit_code == 0
    listed = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    kinds = {(d["path"].rsplit("/", 1)[-1], d["locator"]): (d["doc_type"], d["date_source"]) for d in listed}
    assert kinds[("order-4471.html", None)] == ("receipt", "html_meta")
    assert kinds[("booking.eml", "confirmation.html")][1] == "email"  # dated by its message
    code = ask_json(store, "What is the door code for the cabin?")
    assert code["results"][0]["locator"] == "confirmation.html" and "5521" in code["answer"], code
    price = ask_json(store, "How much was the furnace filter?")
    assert price["results"][0]["path"].endswith("order-4471.html") and "$12.99" in price["answer"], price


def test_a_last_question_puts_its_closest_evidence_in_order_of_date_and_says_which(sample_store):
    store, _ = sample_store
    answer = ask_json(store, "When was Maggie's last vet visit?", "--top-k", "10")
    assert answer["time"]["order"] == "desc" and answer["ordered_by"] == "date"
    dated = [r for r in answer["results"] if r["dated"]]
    assert dated and answer["results"][: len(dated)] == dated  # first, then the rest by score
    assert all(r["relevant"] for r in dated)
    days = [r["source_date"][:10] for r in dated]
    assert days == sorted(days, reverse=True)
    rest = [r["score"] for r in answer["results"][len(dated) :]]
    assert rest == sorted(rest, reverse=True)


def test_a_bill_attached_to_a_mail_that_only_announces_it_answers(tmp_path):
    """"Your statement is attached" names the bill; the statement names neither the bill nor
    electricity, and holds the amount and the account number."""
    from tests.test_extract_pdf import build_pdf

    mail = tmp_path / "mail"
    mail.mkdir()
    for month, amount in (("08", "$131.22"), ("09", "$148.90"), ("10", "$156.40")):
        message = EmailMessage()
        message["From"], message["To"] = "Lakeshore Electric <billing@lakeshore.example>", "pat@example.org"
        sent = {"08": "Wed, 3 Sep", "09": "Fri, 3 Oct", "10": "Mon, 3 Nov"}[month]
        message["Subject"], message["Date"] = f"Your 2025-{month} statement", f"{sent} 2025 09:00:00 -0000"
        message.set_content("Hello Pat,\n\nYour electricity statement is ready and attached to this email.")
        statement = f"Lakeshore Electric\nStatement for 2025-{month}\nAccount 55-2031-7\nTotal amount due: {amount}\nDue by the 25th."
        message.add_attachment(build_pdf([statement]), maintype="application", subtype="pdf",
                               filename=f"statement-{month}.pdf")  # fmt: skip
        (mail / f"{month}.eml").write_bytes(message.as_bytes())
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(mail), store=store).exit_code == 0
    bill = ask_json(store, "How much was the last electricity bill?", as_of="2025-11-20")
    assert bill["results"][0]["locator"] == "statement-10.pdf" and "$156.40" in bill["answer"], bill
    account = ask_json(store, "What is our account number with Lakeshore Electric?", as_of="2025-11-20")
    assert "55-2031-7" in account["answer"], account


def test_a_message_asking_the_question_is_no_answer_to_it(tmp_path):
    """The newer mail asks what the question asks; the older one answers it."""
    mail = tmp_path / "mail"
    mail.mkdir()
    for name, sent, body in (
        ("answer", "Mon, 5 Oct 2026 09:00:00 -0000", "From Monday, nursery collection is at 5:30pm for all children."),
        ("asking", "Thu, 5 Nov 2026 21:00:00 -0000", "Pri, what time do I need to collect Isla from nursery now?"),
    ):
        message = EmailMessage()
        message["From"], message["To"], message["Subject"], message["Date"] = "a@example.org", "b@example.org", name, sent
        message.set_content(body)
        (mail / f"{name}.eml").write_bytes(message.as_bytes())
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(mail), store=store).exit_code == 0
    answer = ask_json(store, "What time do we collect Isla from nursery?", as_of="2026-11-20")
    assert answer["answer_source"] and "5:30pm" in answer["answer"], answer
    asking = [r for r in answer["results"] if r["path"].endswith("asking.eml")]
    assert asking and not asking[0]["relevant"], answer  # shown, not counted


def _travel_mail(folder: Path, body: str) -> None:
    folder.mkdir()
    (folder / "flights.eml").write_text(
        "From: Jo <jo@example.org>\nTo: us@example.org\nSubject: Christmas trip\nMessage-ID: <trip@example.org>\n"
        f"Date: Mon, 16 Nov 2026 09:00:00 +0000\n\n{body}\n"
    )


def test_a_sentence_is_read_in_the_order_of_dates_its_document_writes(tmp_path):
    """The mail writes "20/12/2026", so its "8/12/2026" is 8 December, also when its flight
    line is read alone to choose the answer (not 12 August, a day the question does not ask)."""
    mail = tmp_path / "mail"
    _travel_mail(mail, "Our flight home leaves on 3/1/2027 at 18:00 from Faro.\n\n"
                 "Our flight out leaves on 8/12/2026 at 07:40 from Gatwick.\n\n"
                 "The travel insurance runs from 20/12/2026 to 3/1/2027.")
    store = tmp_path / "store"
    assert run_cli("ingest", str(mail), store=store).exit_code == 0
    answer = ask_json(store, "What time is our flight on December 8?", as_of="2026-11-28")
    assert "07:40" in answer["answer"] and "18:00" not in answer["answer"], answer["answer"]


def test_a_household_writing_dates_day_first_says_so_in_patterns(tmp_path):
    """A mail whose every date could be either way ("4/12/2026") is read month first, unless
    patterns.yaml says the household writes day first; its questions are read so too."""
    mail = tmp_path / "mail"
    _travel_mail(mail, "Flights: we fly out on 4/12/2026 at 07:40 from Gatwick.")
    patterns = tmp_path / "patterns.yaml"
    patterns.write_text((ROOT / "patterns.yaml").read_text().replace("numeric_dates: auto", "numeric_dates: day_first"))
    for setting, day in (("auto", "2026-04-12"), ("day_first", "2026-12-04")):
        store = tmp_path / f"store-{setting}"
        extra = ["--patterns", str(patterns)] if setting == "day_first" else []
        assert run_cli(*extra, "ingest", str(mail), store=store).exit_code == 0
        listed = json.loads(run_cli(*extra, "list", "--json", store=store).stdout.splitlines()[0])
        assert day in listed["event_dates"], listed
    asked = run_cli(*extra, "ask", "--json", "--as-of", "2026-11-28", "Do we fly on 4/12/2026?", store=store)
    answer = json.loads(asked.stdout)
    assert answer["time"]["day"] == "2026-12-04", answer["time"]
    assert "another day" not in answer["verdict"]["reason"], answer["verdict"]


def _one_mail_store(tmp_path: Path, sender: str, subject: str, sent: str, body: str) -> Path:
    """A store holding one mail, ingested through the CLI."""
    mail = tmp_path / "mail"
    mail.mkdir()
    (mail / "one.eml").write_text(
        f"From: {sender}\nTo: us@example.org\nSubject: {subject}\nMessage-ID: <one@example.org>\n"
        f"Date: {sent}\n\n{body}\n"
    )
    store = tmp_path / "store"
    assert run_cli("ingest", str(mail), store=store).exit_code == 0
    return store


def test_when_asked_of_a_day_it_names_asks_for_the_hour(tmp_path):
    """"When is the caregiver coming Thursday?" gives the day: a line that states no hour
    ("Please have the door unlocked for your caregiver.") is no confident answer."""
    store = _one_mail_store(
        tmp_path, "Home Care <news@care.example>", "Family newsletter", "Sun, 15 Nov 2026 09:00:00 -0500",
        "Family newsletter, November edition\n\nWinter is coming! Keep walkways clear for your nurse.\n"
        "Please have the door unlocked for your caregiver.\nHoliday hours: our office closes December 24 at noon.",
    )
    answer = ask_json(store, "When is the caregiver coming Thursday?", as_of="2026-11-20")
    assert answer["verdict"]["level"] != "answer", answer["verdict"]


def test_when_asked_from_a_day_it_names_asks_for_a_day(tmp_path):
    """"After the March 3 visit" bounds the day asked for: a line naming that day answers."""
    store = _one_mail_store(
        tmp_path, "Clinic <desk@clinic.example>", "Follow-up booked", "Wed, 4 Mar 2026 09:00:00 -0500",
        "After the March 3 visit, the doctor wants to see him again: the follow-up is booked for March 17.",
    )
    answer = ask_json(store, "When is the follow-up after the March 3 visit?", as_of="2026-03-10")
    assert answer["verdict"]["level"] == "answer", answer["verdict"]
