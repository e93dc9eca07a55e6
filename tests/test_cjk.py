"""Chinese, Japanese and Korean, whose words are not parted by spaces, are found by their
pairs of characters: in the full-text index, in a question's words and in coverage."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime

import pytest

from brainq import cjk
from brainq.chunking import chunk_text, size, split_sentences
from brainq.config import Chunking, load_config
from brainq.query.analysis import analyse, contains, stems
from tests.conftest import ask_json, run_cli


def test_a_run_of_characters_is_indexed_as_its_pairs():
    assert cjk.grams("運動会は10月3日（土）です") == "運動 動会 会は 月 日 土 です"
    assert cjk.grams("Plain English") == ""
    assert cjk.spaced("今年の運動会") == " 今年 年の の運 運動 動会 "


@pytest.mark.parametrize(
    "question, units",
    [
        # Japanese: a word's pairs within a stretch of kanji or katakana; hiragana, particles
        ("運動会はいつですか", [(["運動", "動会"], False), (["はい", "いつ", "つで", "です", "すか"], True)]),
        ("今年の音楽会は", [(["今年"], False), (["音楽", "楽会"], False)]),  # a lone particle is no pair
        ("行いますか", [(["行い"], False), (["いま", "ます", "すか"], True)]),  # a lone kanji, with its neighbour
        ("ｺﾝｻｰﾄ", [(["コン", "ンサ", "サー", "ート"], False)]),  # halfwidth katakana, as fullwidth
        # Chinese and Korean show no word's end: the question's pairs in one script stand together
        ("运动会什么时候举行", [(["运动", "动会", "会什", "什么", "么时", "时候", "候举", "举行"], False)]),
        ("운동회는 언제예요", [(["운동", "동회", "회는", "언제", "제예", "예요"], False)]),
    ],
)
def test_a_question_is_looked_for_by_the_pairs_of_its_words(question, units):
    assert [(list(u.pairs), u.particles) for u in cjk.units(question)] == units
    assert analyse(question, load_config()).keywords == list(dict.fromkeys(p for found, _ in units for p in found))


def test_a_question_in_english_looks_for_the_pairs_of_the_words_it_quotes():
    assert analyse("When is the 運動会?", load_config()).keywords == ["運動", "動会"]


def test_coverage_finds_a_word_inside_a_run():
    assert contains(stems("今年の運動会は10月3日に行います。"), "運動")
    assert not contains(stems("今年の運動会は10月3日に行います。"), "音楽")


def test_missing_pairs_are_named_as_the_word_they_were_cut_from():
    assert cjk.rejoined(["音楽", "楽会", "chimney", "体育", "育館"]) == ["音楽会", "chimney", "体育館"]


def test_sentences_end_at_a_full_width_stop_and_wrapped_lines_join_without_a_space():
    text = (
        "保護者の皆様へ\n\n今年の運動会は十月三日の土曜日に小学校の校庭で行\n"
        "います。雨天の場合は翌日に延期します。お弁当をご持参ください！\n"
    )
    assert split_sentences(text) == [
        "保護者の皆様へ",
        "今年の運動会は十月三日の土曜日に小学校の校庭で行います。",
        "雨天の場合は翌日に延期します。",
        "お弁当をご持参ください！",
    ]
    # Stops in a row, and a stop inside quotes, end no sentence of their own.
    assert split_sentences("すごい！！次は何？「はい。」と言った。") == ["すごい！！", "次は何？", "「はい。」と言った。"]


def test_korean_wraps_between_words_and_ends_sentences_at_a_stop():
    text = "가을 운동회는 10월 17일에 열립니다. 도시락을 준비해 주세요. 그리고 학교\n운동장에는 주차할 수 없습니다."
    assert split_sentences(text) == ["가을 운동회는 10월 17일에 열립니다.", "도시락을 준비해 주세요.", "그리고 학교 운동장에는 주차할 수 없습니다."]


def test_a_run_no_stop_ends_is_cut_to_fit_the_window():
    config = Chunking(max_words=160, overlap_words=30)
    chunks = chunk_text("通知", "运动会在体育馆举行，" * 600, config)
    assert len(chunks) > 10
    for chunk in chunks:
        assert sum(size(line) for line in chunk.split("\n")) <= 160 and len(chunk) < 300


def test_a_chunk_of_japanese_fits_the_window_as_one_of_english_does():
    sentence = "今年の運動会は十月三日の土曜日に小学校の校庭で行います。"
    config = Chunking(max_words=160, overlap_words=30)
    chunks = chunk_text("学校だより", sentence * 60, config)
    assert len(chunks) > 5
    for chunk in chunks:
        assert sum(size(line) for line in chunk.split("\n")) <= 160
        assert len(chunk) < 300  # each character is a word piece of the model's 256
    assert cjk.words("運動会は10月3日") == 1 + 6 * 2 // 3 and cjk.words("two words") == 2
    assert cjk.columns("運動会 ok") == 3 * 2 + 3


def _mail(folder, name, subject, day, body, sender="school@example.jp"):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "family@example.jp", subject
    message["Date"] = format_datetime(datetime(*day, 8, tzinfo=timezone(timedelta(hours=9))))
    message["Message-ID"] = f"<{name}@example.jp>"
    message.set_content(body)
    (folder / f"{name}.eml").write_bytes(bytes(message))


@pytest.fixture
def mailbox(tmp_path, embedder):
    mail = tmp_path / "mail"
    mail.mkdir()
    _mail(mail, "sports-day-2025", "運動会のお知らせ", (2025, 9, 1), "今年の運動会は9月27日（土）に校庭で行います。雨天の場合は翌日に延期します。")
    _mail(mail, "sports-day-2026", "運動会のお知らせ", (2026, 9, 1), "今年の運動会は10月3日（土）に体育館で行います。開会式は午前9時からです。")
    _mail(mail, "half-day", "午前授業について", (2026, 11, 20), "来週の火曜日は午前授業です。給食はありません。下校は11時30分です。")
    _mail(mail, "chinese", "学校通知", (2026, 9, 5), "各位家长：\n学校运动会将于十月十日举行。请学生穿运动服，带水壶。")
    _mail(mail, "korean", "가을 운동회 안내", (2026, 9, 6), "가을 운동회는 10월 17일 토요일에 학교 운동장에서 열립니다. 도시락을 준비해 주세요.")
    _mail(mail, "english", "Piano recital", (2026, 10, 1), "The piano recital is on Saturday November 21 at 3pm at the community hall.")
    store = tmp_path / "store"
    assert run_cli("ingest", str(mail), store=store).exit_code == 0
    return mail, store


def _source(answer: dict) -> str:
    return next((r["path"] for r in answer["results"] if r["doc_id"] == answer["answer_source"]), "")


ASKED = [
    ("運動会はいつですか", "sports-day-2026.eml"),  # the newer of two notices
    ("給食はありますか", "half-day.eml"),
    ("运动会什么时候举行？", "chinese.eml"),
    ("운동회는 언제예요?", "korean.eml"),
    ("When is the piano recital?", "english.eml"),
]


def test_questions_in_chinese_japanese_and_korean_are_answered_from_their_documents(mailbox):
    _, store = mailbox
    for question, expected in ASKED:
        answer = ask_json(store, question, as_of="2026-11-25")
        assert _source(answer).endswith(expected), question
        assert answer["verdict"]["level"] != "unknown", question
    # "When is the concert?", "When is this year's concert?": no document mentions one, though
    # two documents say "this year" (今年).
    for question in ("音楽会はいつですか", "今年の音楽会はいつですか"):
        unknown = ask_json(store, question, as_of="2026-11-25")
        assert unknown["verdict"]["level"] == "unknown", question
        assert "no document mentions '音楽会'" in unknown["verdict"]["reason"], question


def test_a_store_of_an_earlier_schema_gets_its_pairs_when_opened(mailbox):
    _, store = mailbox
    catalog = store / "catalog.sqlite3"
    with closing(sqlite3.connect(catalog)) as db, db:  # the full-text index as schema 3 had it
        db.execute(
            "CREATE VIRTUAL TABLE chunks_old USING fts5(text, chunk_id UNINDEXED, doc_id UNINDEXED, "
            "tokenize='porter unicode61 remove_diacritics 2')"
        )
        db.execute("INSERT INTO chunks_old (rowid, text, chunk_id, doc_id) SELECT rowid, text, chunk_id, doc_id FROM chunks")
        db.execute("DROP TABLE chunks")
        db.execute("ALTER TABLE chunks_old RENAME TO chunks")
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    result = run_cli("ask", "--json", "--as-of", "2026-11-25", "給食はありますか", store=store)
    assert "the store's full-text index is made again for this version, once" in result.stderr
    assert _source(json.loads(result.stdout)).endswith("half-day.eml")
    assert run_cli("status", store=store).stderr == ""  # once
    with closing(sqlite3.connect(catalog)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("4",)
        assert db.execute("SELECT count(*) FROM chunks WHERE chunks MATCH '\"給食\"'").fetchone() == (1,)
        linked = db.execute("SELECT count(*) FROM chunk_index JOIN chunks ON chunks.rowid = text_rowid AND chunks.chunk_id = chunk_index.chunk_id")
        assert linked.fetchone()[0] == db.execute("SELECT count(*) FROM chunk_index").fetchone()[0]
    assert run_cli("status", "--check", store=store).exit_code == 0


def test_list_keeps_its_columns_in_line_under_such_titles(capsys):
    from rich.cells import cell_len

    from brainq.render import print_documents
    from brainq.store import StoredDocument

    def doc(title):
        return StoredDocument(
            doc_id=title, path=f"/docs/{len(title)}.txt", locator=None, kind="text", doc_type="note", title=title,
            sender=None, source_date=datetime(2026, 3, 1, tzinfo=timezone.utc), date_source="text",
            date_precision="day", event_dates=[], thread=None,
        )  # fmt: skip

    titles = ["Garden log", "運動会のお知らせ", "会議" * 40, "【重要】会議のお知らせ（３月）：全社員向け", "Party 🎉🎂 RSVP"]
    print_documents([doc(title) for title in titles], as_json=False)
    lines = capsys.readouterr().out.splitlines()
    assert len({cell_len(line[: line.index("/docs/")]) for line in lines}) == 1
