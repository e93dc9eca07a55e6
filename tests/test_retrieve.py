"""What the retrieval looks for in a question, and how a chunk and its sentences are judged."""

from contextlib import closing
from datetime import date
from dataclasses import replace

import numpy as np
import pytest

from brainq.chunking import chunk_text
from brainq.config import load_config
from brainq.embedding import DIMENSIONS
from brainq.query.analysis import Query, analyse, contains, stem, stems
from brainq.query.candidates import Candidate, _coverage, _names, only_time, retrieve
from brainq.query.lexical import Term, lexical_query, term_weights
from brainq.query.refine import _likely_sentences, _sentences_about_the_day, read_unrefined, refine
from brainq.query.sentences import LIST_WORDS, sentences, without_urls
from brainq.store import Chunk, FileWrite, Store, StoredDocument
from brainq.store.vectors import SEARCH_BREADTH
from brainq.timeref import resolve

CONFIG = load_config()


@pytest.mark.parametrize(
    "question, time_phrases, absent",
    [
        ("Are the kids off on April 3?", ("April 3",), {"3", "april"}),
        ("What time should I pick Harper up on the 13th?", ("the 13th",), {"13th"}),
        ("What size filter did the furnace take back in 2024?", ("back in 2024",), {"2024", "back"}),
        # The part of the day asked about is time too: "Entries close Wednesday night" is no
        # meeting's time.
        ("What time is the neighbors' meeting tomorrow night?", ("tomorrow",), {"night"}),
        ("Is after-care open Friday afternoon?", ("Friday",), {"afternoon"}),
        ("Is Friday night's game still on?", ("Friday",), {"night", "s"}),
    ],
)
def test_the_questions_time_is_no_key_word(question, time_phrases, absent):
    query = analyse(question, CONFIG, time_phrases)
    assert not absent & set(query.keywords)
    assert not absent & {i.lower() for i in query.identifiers}


def test_a_part_of_the_day_alone_or_in_a_name_is_a_key_word():
    assert "night" in analyse("Where is the night market held?", CONFIG).keywords
    assert "Night" in analyse("When does the Tuesday Night Book Club meet?", CONFIG, ("Tuesday",)).identifiers


def test_ordinals_and_day_names_are_no_identifiers():
    query = analyse("Is the Hawks game still on the 21st or Sunday?", CONFIG)
    assert query.identifiers == ["Hawks"]


# A household's own synonyms, as a user would add them to a copy of patterns.yaml.
OWN_WORDS = replace(
    CONFIG,
    synonyms=[
        ["vaccine", "vaccination", "shot"],
        ["weigh", "weight"],
        ["installed", "put in"],
        ["half-day", "early dismissal", "noon dismissal", "out early"],
        ["dismissal", "dismissed", "pick up", "pickup", "pick-up", "let out"],
    ],
)


@pytest.mark.parametrize(
    "question, phrase",
    [
        ("Which vaccines does the dog need?", "vaccine"),  # a plural names its group
        ("How much does Maggie weigh?", "weigh"),
        ("Which plumber put in our water heater?", "put in"),
    ],
)
def test_synonym_groups_are_found_by_stem(question, phrase):
    assert phrase in analyse(question, OWN_WORDS).phrases


def test_the_shipped_synonyms_name_no_household():
    """Only equivalences any household shares ship: spellings, abbreviations, the spec's own
    example; a group for one household's words would not help another."""
    shipped = {word for group in CONFIG.synonyms for word in group}
    assert {"hvac filter", "furnace filter", "wifi", "wi-fi", "cancelled", "canceled"} <= shipped
    assert not shipped & {"kibble", "humane society", "settlement", "roofer", "homeroom", "boiler"}


def test_a_section_heading_says_what_the_lines_under_it_are_about():
    query = Query("internet account number?", ["internet", "account", "number"], {}, [])
    weights = {"internet": 1.0, "account": 1.0, "number": 1.0}
    note = "House info\n## Internet\nWe replaced the gateway.\n- Network: Home\n- Password: x\n- Account number: 88"
    flat = note.replace("## Internet", "Internet was installed in 2024.")
    assert _coverage(note, query, weights, 3) == 1.0
    assert _coverage(flat, query, weights, 3) < 1.0


def _doc():
    return StoredDocument(
        doc_id="reg", path="/mail/reg.eml", locator=None, kind="email", doc_type="receipt", title="Registration",
        sender=None, source_date=None, date_source=None, date_precision=None, event_dates=[], thread=None,
    )


def test_the_sentence_holding_the_fact_asked_for_answers():
    """'How much did we pay?': the fee, though the player's name resembles the question more."""
    name, fee = "Player: Leo Whitaker (born 2019)", "Registration fee: $95.00 - paid by card"
    vectors = {"q": [1.0, 0.0], name: [0.5, 0.866], fee: [0.37, 0.929]}
    query = Query("q", ["pay", "leo"], {"pay": ["paid"]}, [], "amount")
    cand = Candidate(_doc(), "reg:0", f"Registration\n{name}\n{fee}", 0.4, 0.5, [], 0.45)
    [best] = refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert best.sentence == fee and best.states_answer


def test_a_source_not_read_sentence_by_sentence_still_has_an_answer_line():
    """refine reads the best few by rank; time and type can put another first, which then
    answered "answer" with no answer line at all."""
    query = Query("q", ["pay", "leo"], {"pay": ["paid"]}, [], "amount")
    cand = Candidate(_doc(), "reg:0", "Registration\nWelcome to the spring season!\nRegistration fee: $95.00 - paid by card", 0.4, 0.5, [], 0.45)
    assert cand.answer is None
    read_unrefined(cand, query, None)
    assert cand.answer == "Registration fee: $95.00 - paid by card"


def test_who_is_answered_by_the_sentence_naming_someone_which_ranks_its_source_no_higher():
    """"Who is the technician?": the sentence naming him, though the confirmation resembles the
    question more; a name is in most documents, so it lifts none of them."""
    confirmed, named = "Your furnace tune-up is confirmed for October 14.", "Your technician will be Luis Ortega."
    vectors = {"q": [1.0, 0.0], confirmed: [0.8, 0.6], named: [0.75, 0.661]}
    query = Query("q", ["technician", "furnace"], {}, [], "person")
    cand = Candidate(replace(_doc(), doc_type="email"), "t:0", f"Tune-up\n{confirmed}\n{named}", 0.6, 0.6, [], 0.6)
    refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert cand.sentence == named and cand.states_answer and cand.answer_factor == 1.0


@pytest.mark.parametrize(
    "asks, asked, said, answers",
    [
        # an open question: the sentence after the one that asks, on the question's words
        (None, "Ana asked what I made at the class?", "I made a blue bowl at the class.", True),
        # a time asked for, and the rest of the mail holds none: it only asks
        ("time", "What time do I collect Isla now?", "I'm doing the collecting on Thursday.", False),
    ],
)
def test_a_source_whose_best_sentence_asks_answers_with_its_next_best(asks, asked, said, answers):
    vectors = {"q": [1.0, 0.0], asked: [0.99, 0.141], said: [0.3, 0.954]}
    query = Query("q", ["made", "class", "collect", "collecting"], {}, [], asks)
    cand = Candidate(replace(_doc(), doc_type="email"), "c:0", f"Chat\n{asked}\n{said}", 0.6, 0.6, [], 0.6)
    refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert (cand.sentence, cand.asks_back) == ((said, False) if answers else (asked, True))


def test_a_sentence_holding_the_fact_answers_before_a_heading_more_like_the_question():
    """"What's the property tax account number?": the statement's heading resembles it most; the
    line with the account number, sharing "account", answers."""
    heading, account = "COUNTY TAX COLLECTOR - PROPERTY TAX STATEMENT", "Owner: Kessling, Walter Account: R-0092714"
    vectors = {"q": [1.0, 0.0], heading: [0.95, 0.312], account: [0.5, 0.866]}
    query = Query("q", ["property", "tax", "account", "number"], {}, [], "code")
    cand = Candidate(replace(_doc(), doc_type="static_pdf"), "t:0", f"Tax\n{heading}\n{account}", 0.6, 0.6, [], 0.6)
    refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert cand.sentence == account and cand.states_answer


@pytest.mark.parametrize(
    "keywords, items, answer",
    [
        # the bill's total, alone, though its items resemble the question more
        (["plumber", "invoice"], ["Anode rod $185.00", "Labor 2 hours $212.50", "Total due: $537.50"], "Total due: $537.50"),
        # an item the question names
        (["labor", "plumber", "invoice"], ["Anode rod $185.00", "Labor 2 hours $212.50", "Total due: $537.50"],
         "Labor 2 hours $212.50"),
        # a word on several items is the bill's subject, no item named
        (["electricity", "bill"], ["Electricity delivery charge $42.10", "Electricity supply charge $98.30", "Amount due: $156.40"],
         "Amount due: $156.40"),
        # "Total savings" is no total
        (["corner", "market"], ["TOTAL SAVINGS $4.00", "TOTAL $22.95", "VISA ****4421"], "TOTAL $22.95"),
    ],
)  # fmt: skip
def test_how_much_a_bill_was_is_its_total_but_for_an_item_named(keywords, items, answer):
    vectors = {"q": [1.0, 0.0], items[0]: [0.7, 0.714], items[1]: [0.69, 0.724], items[2]: [0.6, 0.8]}
    query = Query("q", keywords, {"plumber": ["anode"]}, [], "amount")  # an expansion names no item asked for
    cand = Candidate(replace(_doc(), doc_type="invoice"), "i:0", "INVOICE 4471\n" + "\n".join(items), 0.6, 0.6, [], 0.6)
    refine([cand], query, vectors["q"], lambda texts: [vectors.get(t, [0.1, 0.995]) for t in texts], CONFIG)
    assert (cand.sentence, cand.support, cand.states_answer) == (answer, None, True)  # a total answers alone


@pytest.mark.parametrize(
    "asks, said, after, completed",
    [
        # goes on about the code, and gives it: read first, as holding the code
        ("code", "Garage door code changed.", "New code is 4471.", True),
        # a number, but about something else
        ("code", "Garage door code changed.", "Lunch is at 11:30 and costs 4471 cents.", False),
        # a day may go unstated, so the first sentence stays the answer, completed by the next
        ("day", "The garage door repair was moved.", "The repair is now on March 20, 2026.", True),
        ("day", "The garage door repair was moved.", "Lunch is on March 20, 2026.", False),
    ],
)
def test_the_next_sentence_completes_an_answer_with_the_fact_asked_for(asks, said, after, completed):
    """"Garage door code changed. New code is 4471.": the first sentence is most like "what is
    the garage door code?", and the next one holds the code. Said in two sentences, the fact
    ranks its source as one sentence holding it would (an old note's "Garage door code: 4817")."""
    vectors = {"q": [1.0, 0.0], said: [0.9, 0.436], after: [0.3, 0.954]}
    query = Query("q", ["garage", "door", "code", "repair"], {}, [], asks)
    note = replace(_doc(), doc_type="email")  # a bill's every line is about it: not this rule
    cand = Candidate(note, "n:0", f"Garage\n{said}\n{after}", 0.6, 0.6, [], 0.6)
    refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert cand.answer == (f"{said} {after}" if completed else said)
    boost = CONFIG.retrieval.answer_type_boost
    unstated = 1.0 if asks == "day" else 1 - boost
    assert cand.answer_factor == pytest.approx(1 + boost if completed else unstated)


def test_only_sentences_with_some_promise_are_embedded():
    """Sentences sharing no word with the question, holding no fact of the kind asked for, are
    not worth a model call; a candidate with no such sentence still has its first one read."""
    embedded = []

    def embed(texts):
        embedded.extend(texts)
        return [[0.5, 0.866] for _ in texts]

    query = Query("q", ["filter"], {}, [])
    found = Candidate(_doc(), "a:0", "Invoice\nThe filter is 16x25x4.\nThanks for your business.\nCall us.", 0.5, 0.5, [], 0.5)
    other = Candidate(_doc(), "b:0", "Note\nWe met the new neighbours today.\nThey have a dog.", 0.4, 0.0, [], 0.4)
    refine([found, other], query, [1.0, 0.0], embed, CONFIG)
    assert embedded == ["The filter is 16x25x4.", "We met the new neighbours today."]
    assert other.sentence == "We met the new neighbours today."


def test_a_phrase_is_found_when_all_its_words_are_close_together():
    """'furnace filter' in "your furnace now takes a 4-inch media filter", also for a synonym."""
    weights = {"air filter": 1.0}
    query = Query("air filter?", ["air", "filter"], {"air filter": ["furnace filter"]}, [])
    assert _coverage("Invoice\nYour furnace now takes a 4-inch media filter.", query, weights, 3) == 1.0
    assert _coverage("Invoice\nThe furnace was serviced.\nA\nB\nC\nThe filter is new.", query, weights, 3) == 0.0


@pytest.mark.parametrize("plural, singular", [("days", "day"), ("kids", "kid"), ("dogs", "dog")])
def test_short_plurals_meet_their_singular(plural, singular):
    assert stem(plural) == stem(singular)


@pytest.mark.parametrize("word", ["bus", "gas", "was", "this"])
def test_short_words_ending_in_s_stay_whole(word):
    assert stem(word) == word


def test_now_in_other_words_is_no_key_word():
    assert analyse("What's the early dismissal time these days?", CONFIG).keywords == ["early", "dismissal"]


@pytest.mark.parametrize(
    "question",
    [
        "Do you know whether the pool is open?",
        "Is the pool supposed to be open?",
        "Does anyone know if the pool is open?",
        "Is anything at the pool open?",
    ],
)
def test_words_that_frame_a_question_are_no_key_words(question):
    """A framing word found in no document would raise the floor and turn the answer into "I
    don't know" ("no document mentions 'whether'")."""
    assert analyse(question, CONFIG).keywords == ["pool", "open"]


def test_words_naming_the_kind_of_fact_asked_for_may_be_missing_from_every_document():
    """"Babysitter: Freya Holm, 555-0142" answers "what's the sitter's phone number?": only
    the sitter must be known, or the floor rises to "I don't know"."""
    from brainq.query.lexical import known_share

    query = analyse("What's the sitter's phone number?", CONFIG)
    terms = {t: Term(0.0, {t: 2.0}, {t: 1.0}) for t in ["phone", "number"]}
    forms = dict.fromkeys(["phone number", *query.phrases["phone number"]], 2.0)
    terms["phone number"] = Term(0.0, forms, dict.fromkeys(forms, 1.0))
    terms["sitter"] = Term(1.0, {"sitter": 2.0}, {"sitter": 1.0})
    assert known_share(query, terms) == (1.0, [])
    terms["sitter"] = Term(0.0, {"sitter": 2.0}, {"sitter": 1.0})
    assert known_share(query, terms) == (0.0, ["sitter"])


def test_a_light_verb_may_be_missing_from_every_document():
    """"When is the nurse coming?" is answered by "The nurse visits Thursday at 2 pm": a store
    that never says "coming" knows what the question is about, and where it says it, the word
    is still looked for."""
    from brainq.query.lexical import known_share

    query = analyse("When is the nurse coming?", CONFIG)
    assert query.keywords == ["nurse", "coming"]
    terms = {"nurse": Term(1.0, {"nurse": 2.0}, {"nurse": 1.0}), "coming": Term(0.0, {"coming": 2.0}, {"coming": 1.0})}
    assert known_share(query, terms) == (1.0, [])


def test_a_rate_is_no_key_word():
    assert analyse("How much food does Maggie get each day?", CONFIG).keywords == ["food", "maggie"]
    assert "day" in analyse("Which day is the field trip?", CONFIG).keywords


def test_a_two_word_verb_split_by_its_object_names_its_group():
    assert "pick up" in analyse("What time should I pick Harper up from school?", CONFIG).phrases
    assert "pick up" not in analyse("Did we pick the blue paint color up?", CONFIG).phrases


def test_a_sentence_naming_no_day_is_about_the_day_named_before_it():
    from datetime import datetime, timezone

    d = _doc()
    d.source_date = datetime(2026, 3, 11, tzinfo=timezone.utc)
    text = (
        "Change\nFriday, March 13 will now be a full school day.\nStudents are dismissed at 3:05 PM.\n"
        "Friday, March 27 will be an early dismissal.\nStudents leave at 12:45 PM."
    )
    cand = Candidate(d, "c:0", text)
    assert _sentences_about_the_day(cand, date(2026, 3, 13)) == {
        "Friday, March 13 will now be a full school day.",
        "Students are dismissed at 3:05 PM.",
    }


def test_next_is_an_ordering_word_like_first_and_last():
    assert analyse("Which shot does the dog need next?", CONFIG).keywords == ["shot", "dog"]


def test_a_name_is_asked_for_without_its_possessive():
    assert analyse("Who is Maggie's vet?", CONFIG).identifiers == ["Maggie"]


def test_what_a_family_calls_its_own_is_a_word_of_the_question_not_a_name():
    """A mail about him says "your father" or his name, never "Dad": no name to find verbatim."""
    query = analyse("When is Dad's next doctor's appointment?", CONFIG)
    assert query.identifiers == [] and "dad" in query.keywords
    assert analyse("Is Grandma Ruth's flight on time?", CONFIG).identifiers == ["Ruth"]


@pytest.mark.parametrize(
    "text, identifiers, named",
    [
        ("Update\nJust so you know, Grandma Maggie's visit went well.", ["Maggie"], False),
        ("Update\nJust so you know, Grandma Maggie's visit went well.", ["Grandma", "Maggie"], True),
        ("Visit\nThank you for trusting us with Maggie's care!", ["Maggie"], True),
        ("Reminder\nDear Maggie, your table is ready.", ["Maggie"], True),
        ("Summary\nPatient: Maggie Species: Canine", ["Maggie"], True),
        ("Reminder\nYou saw Dr. Carver. Maggie is due for a vaccine.", ["Maggie"], True),
    ],
)
def test_a_name_inside_a_longer_name_is_someone_else(text, identifiers, named):
    assert _names(text, "Maggie", identifiers) is named


@pytest.mark.parametrize("typed, written", [("Lucia", "Lucía"), ("Lucía", "Lucia"), ("Zoe", "ZOË"), ("Jose", "José")])
def test_a_name_typed_without_its_accent_is_the_same_name(typed, written):
    """The full-text index reads "Lucia" and "Lucía" alike; coverage and the name boost did not,
    so the two spellings of one question ranked apart."""
    text = f"Lessons\n{written} has piano on Tuesdays at 4."
    assert _names(text, typed, [typed])
    assert contains(stems(text), typed.lower()) and contains(stems(typed), written.lower())


def test_sizes_and_codes_are_found_inside_longer_tokens():
    assert _names("Invoice\nFilter (16x25x4-MERV11) installed", "16x25x4", ["16x25x4"])


def test_documents_about_the_day_asked_about_are_read_sentence_by_sentence_first():
    from dataclasses import replace
    from datetime import date

    config = replace(CONFIG, retrieval=replace(CONFIG.retrieval, refine=1))
    saturday = date(2026, 3, 14)
    about, other = _doc(), _doc()
    about.doc_id, about.event_dates = "about", [saturday]
    sentence = "The Thunder play the Lightning at 10:00 AM."
    cands = [
        Candidate(other, "other:0", "Other\nCan you take Leo to his game?", 0.5, 0.5, [], 0.5, rank=0.5),
        Candidate(about, "about:0", f"Game\n{sentence}", 0.4, 0.4, [], 0.4, rank=0.4),
    ]
    query = Query("q", ["game"], {}, [], "time")
    refine(cands, query, [1.0, 0.0], lambda texts: [[0.5, 0.866] for _ in texts], config, saturday)
    assert cands[1].sentence == sentence and cands[0].sentence is None


def test_a_name_the_chunk_does_not_name_is_no_word_of_it():
    query = Query("Maggie's shot?", ["maggie's", "shot"], {}, ["Maggie"])
    weights = {"maggie's": 1.0, "shot": 1.0}
    grandma = "Update\nDr. Hsu gave Grandma Maggie's knee a cortisone shot."
    assert _coverage(grandma, query, weights, 3) == 1.0
    assert _coverage(grandma, query, weights, 3, frozenset({stem("Maggie")})) == 0.5


def test_key_words_lose_their_possessive():
    assert analyse("What's Leo's teacher's name?", CONFIG).keywords == ["leo", "teacher", "name"]


def _terms(query: Query, weights: dict[str, float]) -> dict[str, Term]:
    """Every term of the question, each form weighing 5 unless `weights` says otherwise."""
    terms = {}
    for term in [*query.keywords, *query.phrases]:
        forms = {f: weights.get(f, 5.0) for f in query.alternatives(term)}
        terms[term] = Term(1.0, forms, query.alternatives(term))
    return terms


def test_a_common_synonym_of_a_rare_word_is_left_out_of_the_full_text_query():
    query = analyse("When is early dismissal on Friday?", OWN_WORDS)
    assert "dismissed" in query.phrases["dismissal"]
    searched = lexical_query(query, _terms(query, {"dismissed": 0.5, "friday": 0.5}), common=1.6, floor=0.1)
    assert set(searched.split(" OR ")) == {
        '"early"', '"dismissal"', '"half day"', '"noon dismissal"', '"out early"', '"pick up"', '"pickup"',
        '"let out"',
    }  # fmt: skip
    # "pick-up" is "pick up" to the full-text index, and it is searched once.
    assert searched.count('"pick up"') == 1 and "pick-up" in query.phrases["dismissal"]


def test_when_every_form_is_common_the_rarest_is_searched():
    query = analyse("When is early dismissal on Friday?", OWN_WORDS)
    forms = [f for t in _terms(query, {}).values() for f in t.forms]
    common = dict.fromkeys(forms, 0.5) | {"pickup": 0.9}
    assert lexical_query(query, _terms(query, common), common=1.6, floor=0.1) == '"pickup"'
    # ... unless it is in so many chunks that scoring them all would outweigh the answer.
    assert lexical_query(query, _terms(query, common), common=1.6, floor=1.0) == ""


@pytest.mark.parametrize("word", ["soccer", "school"])  # in under a fifth of all chunks; in over (the rarest)
def test_a_word_in_more_chunks_than_lexical_max_chunks_is_not_searched(word, sample_store, embedder, monkeypatch):
    with closing(Store(sample_store[0])) as store:
        query = analyse(f"Which {word}?", CONFIG)
        chunks = store.document_frequency(f'"{word}"')
        assert chunks > 1
        searched = []
        monkeypatch.setattr(store, "lexical", lambda match, n: searched.append(match) or [])
        for cap in (chunks, chunks - 1):
            config = replace(CONFIG, retrieval=replace(CONFIG.retrieval, lexical_max_chunks=cap))
            retrieve(store, config, query, embedder.embed([query.text])[0], term_weights(store, query))
    assert searched == [f'"{word}"', ""]


def _cand(name, bm25, semantic, coverage):
    doc = _doc()
    doc.doc_id = name
    c = Candidate(doc, f"{name}:0", name, semantic, coverage, [], 0.5)
    c.bm25 = bm25
    return c


def test_ordering_fuses_bm25_similarity_and_coverage_each_as_a_share_of_the_best():
    from brainq.query.candidates import fuse

    words, meaning = _cand("words", 12.0, 0.30, 0.9), _cand("meaning", 2.0, 0.60, 0.4)
    fuse([words, meaning], CONFIG)
    r = CONFIG.retrieval
    total = r.rank_lexical_weight + r.rank_dense_weight + r.rank_coverage_weight
    assert words.rank == pytest.approx((r.rank_lexical_weight + 0.5 * r.rank_dense_weight + 0.9 * r.rank_coverage_weight) / total)
    assert meaning.rank == pytest.approx((r.rank_lexical_weight / 6 + r.rank_dense_weight + 0.4 * r.rank_coverage_weight) / total)
    # A clear winner of one search stays one: scaled by score, not by rank.
    lexical_only = replace(CONFIG, retrieval=replace(r, rank_dense_weight=0.0, rank_coverage_weight=0.0))
    fuse([words, meaning], lexical_only)
    assert (words.rank, meaning.rank) == pytest.approx((1.0, 1 / 6))


@pytest.mark.parametrize(
    "asks, telling, told",
    [
        ("time", "The pool opens at 9:00 AM on weekends.", [0.7, 0.714]),
        # "when": a source's own date may be the day asked about, so a statement naming none
        # keeps its weight, and still comes before the question far closer in wording
        ("day", "We now expect to welcome swimmers back soon.", [0.6, 0.8]),
    ],
)
def test_a_question_in_a_source_is_no_statement_of_its_answer(asks, telling, told):
    """A neighbour's "does anyone know when the pool opens?" resembles the question best."""
    asking = "Does anyone know when the town pool opens again?"
    vectors = {"q": [1.0, 0.0], asking: [0.95, 0.312], telling: told}
    query = Query("q", ["pool", "open"], {}, [], asks)
    ask = Candidate(_doc(), "ask:0", f"Pool?\n{asking}", 0.9, 0.6, [], 0.6, rank=0.9)
    tell = Candidate(_doc(), "tell:0", f"Update\n{telling}", 0.7, 0.6, [], 0.6, rank=0.8)
    refine([ask, tell], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert ask.asks_back and not ask.states_answer
    assert tell.rank > ask.rank and tell.relevance > ask.relevance


@pytest.mark.parametrize("doc_type, completed", [("invoice", True), ("email", False)])
def test_a_bills_answer_line_is_its_amount(doc_type, completed):
    """Three lines share more words with "how much was the October electricity bill?" than
    its amount does; every line of a bill is about that bill, not every line of a letter.
    The bill's total answers alone; a line of a letter keeps its place."""
    ready, usage, online = ("Your electricity bill for October is ready.", "Your October electricity use was 612 kWh.",
                            "See your October electricity bill online.")  # fmt: skip
    due = "Amount due: $156.40"
    vectors = {"q": [1.0, 0.0], ready: [0.9, 0.436], usage: [0.6, 0.8], online: [0.7, 0.714], due: [0.3, 0.954]}
    query = Query("q", ["electricity", "bill", "october"], {}, [], "amount")
    bill = _doc()
    bill.doc_type = doc_type
    cand = Candidate(bill, "bill:0", f"Northvale Energy\n{ready}\n{usage}\n{online}\n{due}", 0.6, 1.0, [], 0.8)
    refine([cand], query, vectors["q"], lambda texts: [vectors[t] for t in texts], CONFIG)
    assert (cand.sentence == due and cand.states_answer) == completed
    assert cand.support is None if completed else (cand.sentence == ready and cand.support != due)


@pytest.mark.parametrize(
    "body, nothing",
    [
        ("Got it, thank you Lucia! See you there.", True),
        ("Thanks! The recital room sounds lovely.", False),  # a word of the question
        ("Thanks, we'll be there at 2:30.", False),  # a fact
        ("Now 6pm.", False),  # short lines count
        ("Cancelled.", False),
        ("Heads up, it moves to Thursday because of the field.", False),
        ("Now at St. Brendan's Hall.", False),
    ],
)
def test_a_reply_found_by_its_subject_alone_answers_nothing(body, nothing):
    """The reply's subject holds the question's words; its own words say nothing of them."""
    title = "Re: Winter piano recital - venue change"
    change = "The recital will now be at the Millbrook Library community room, 42 Elm Street."
    vectors = {"q": [1.0, 0.0], body: [0.7, 0.714], change: [0.6, 0.8]}
    query = Query("q", ["piano", "recital"], {}, [], None)
    reply = _doc()
    reply.headers = {"In-Reply-To": "<recital2@example.org>"}
    reply.title = title
    thanks = Candidate(reply, "thanks:0", f"{title}\n{body}", 0.64, 1.0, [], 0.82, rank=0.99)
    told = Candidate(_doc(), "told:0", f"{title}\n{change}", 0.62, 1.0, [], 0.8, rank=0.98)
    refine([thanks, told], query, vectors["q"], lambda texts: [vectors.get(t, [0.5, 0.866]) for t in texts], CONFIG)
    assert thanks.says_nothing == nothing
    assert (told.rank > thanks.rank) == nothing


def test_plain_query_holds_every_word_but_stop_words():
    from brainq.query.lexical import plain_query

    assert plain_query("When did Caroline go to the LGBTQ support group?") == (
        '"caroline" OR "go" OR "lgbtq" OR "support" OR "group"'
    )


@pytest.mark.parametrize(
    "line, readable",
    [
        ("Sign up today <http://ad.doubleclick.net/ad/N1549.sportsline.com/B22;sz=1x1;ord=1>", False),
        ("Write to jane.doe@example.com or bob.smith@example.com", False),
        ("Front desk phone: 541-555-0182", True),  # a number is an answer to "what's the number"
        ("Your monthly plan: $65.00 for 500 Mbps, billed on the 3rd.", True),
    ],
)
def test_a_line_of_links_is_never_read_as_an_answer(line, readable):
    from brainq.query.sentences import sentences

    assert (line in sentences(f"Title\n{line}")) == readable


@pytest.mark.parametrize(
    "line, read",
    [
        ("Account 55-2031-7", True),  # a code
        ("PIN: 4471", True),
        ("Total: $45.00", True),  # an amount
        ("Doors 7:30pm", True),  # a time
        ("Hi Pat,", False),
        ("Thanks again!", False),
        ("Page 2", False),  # a number, but no value asked for
    ],
)
def test_a_line_under_three_words_is_read_when_it_states_a_value(line, read):
    from brainq.query.sentences import sentences

    assert (line in sentences(f"Title\n{line}")) == read


def test_an_answer_line_is_read_at_a_glance():
    from brainq.query.sentences import ANSWER_CHARS

    long = " ".join(["The league meets every Thursday evening at the community center"] * 8) + "."
    text = f"T\nShort one here.\n{long}\nPractice is at 6 pm."
    c = Candidate(_doc(), "reg:0", text, 0.5, 0.5, [], 0.5, sentence=long, support="Short one here.")
    assert len(c.answer) <= ANSWER_CHARS and c.answer.endswith("\u2026")
    c.sentence = "Practice is at 6 pm."
    assert c.answer == "Short one here. Practice is at 6 pm."  # in the document's order


@pytest.mark.parametrize(
    "text, shown",
    [
        ("Brian Griese <http://football299.fantasy.example.com/mp/elink?s=1&>, QB DEN", "Brian Griese, QB DEN"),
        ("Minutes are at HTTPS://Intranet.Example.org/minutes.", "Minutes are at."),
        ("(see www.example.org) for the form", "(see) for the form"),
        ("Write to office@example.org by Friday", "Write to office@example.org by Friday"),
    ],
)
def test_web_addresses_are_no_part_of_a_sentence_shown(text, shown):
    assert without_urls(text) == shown


def test_a_mail_header_line_is_no_sentence_but_a_sheet_row_opening_with_date_is():
    row = "Date: 2026-02-09; Description: CITY WATER UTILITY; Amount: -48.20"
    chunk = f"Title\nDate: Mon, 9 Feb 2026 08:00 -0500\nTo: Ana <a@example.org>; Ben <b@example.org>\n{row}"
    assert sentences(chunk) == [row]


def test_a_note_s_heading_is_no_sentence_but_what_its_lines_are_about():
    """"# Garden log" shares "garden" with "what did we plant in the garden?" and says nothing."""
    chunk = "Garden notes\n# Garden log\nPlanted tomatoes and basil in May.\n## Watering\nTwice a week on Sundays."
    assert sentences(chunk) == ["Planted tomatoes and basil in May.", "Twice a week on Sundays."]


def test_a_line_of_links_is_no_sentence_and_a_link_in_one_is_dropped():
    chunk = "Title\nhttp://a.example/x http://b.example/y\nThe league draft <http://c.example/d> is on Sunday."
    assert sentences(chunk) == ["The league draft is on Sunday."]


def _store_of_random_chunks(home, count: int, seed: int):
    """A store of one document of `count` chunks with random unit vectors: the hardest case
    for an approximate index."""
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, DIMENSIONS)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    doc = replace(_doc(), doc_id="d", path="/mail/d.eml", chunks=count)
    chunks = [Chunk(f"d:{i}", "d", f"Note\nchunk {i}") for i in range(count)]
    store = Store(home)
    store.save_files([FileWrite(doc.path, 0, 0, doc.path, [doc], chunks, vectors.tolist())])
    return store, vectors, rng


def test_the_nearest_chunks_are_the_ones_found(tmp_path):
    """Chroma's index searches approximately: at its default breadth it missed some of a
    question's nearest 60 chunks in a store of a few hundred, and a different few in each
    process that opened the store, so a question's answer changed from one run to the next.
    Searched 256 wide, it still missed one in some runs."""
    store, vectors, rng = _store_of_random_chunks(tmp_path, 600, seed=0)
    with closing(store):
        for question in rng.normal(size=(30, DIMENSIONS)):
            nearest = {f"d:{i}" for i in np.argsort(-(vectors @ question))[:60]}
            assert {h.chunk_id for h in store.semantic(question.tolist(), 60)} == nearest


def test_a_store_made_with_a_narrower_search_is_widened_by_its_next_writer(tmp_path):
    store, _, _ = _store_of_random_chunks(tmp_path, 10, seed=1)
    with closing(store):
        for collection in (store.collection, store.vocabulary):
            collection.modify(configuration={"hnsw": {"ef_search": 100}})
        store.catalog.set_meta("search_breadth", "100")
        store.semantic([1.0] + [0.0] * (DIMENSIONS - 1), 5)  # a reader leaves it so
        assert store.collection.configuration["hnsw"]["ef_search"] == 100
        with store.writer_lock():
            pass
        assert store.collection.configuration["hnsw"]["ef_search"] == SEARCH_BREADTH
        assert store.vocabulary.configuration["hnsw"]["ef_search"] == SEARCH_BREADTH


def test_a_line_that_introduces_a_list_is_read_with_it():
    chunk = (
        "Route 22\nMorning times change as follows:\nSandpiper Way & Kestrel Ct ......... 7:44 AM (new stop)\n"
        "Heron Bend Rd & Marsh Ln ........... 7:53 AM\nAfternoon drop-off times are unchanged.\n"
        "Coming up after the break:\n- The field trip is Thursday, April 30.\n- Picture day is May 3.\n"
        "Work performed:\nRemoved the old water heater."
    )
    assert sentences(chunk) == [
        "Morning times change as follows: Sandpiper Way & Kestrel Ct ... 7:44 AM (new stop); Heron Bend Rd & Marsh Ln ... 7:53 AM",
        "Sandpiper Way & Kestrel Ct ... 7:44 AM (new stop)",  # still read alone too
        "Heron Bend Rd & Marsh Ln ... 7:53 AM",
        "Afternoon drop-off times are unchanged.",  # a sentence ends the list
        "Coming up after the break: The field trip is Thursday, April 30.; Picture day is May 3.",
        "- The field trip is Thursday, April 30.",
        "- Picture day is May 3.",
        "Removed the old water heater.",  # a list is not a paragraph of prose
    ]


def test_every_sentence_of_a_conversations_turn_is_read_with_its_speaker():
    """Chunking puts a turn's second sentence on a line of its own; read alone, "We went
    camping two weekends ago" is nobody's, and the speaker's greeting is what resembles a
    question that names her."""
    text = (
        "Ana: Hi Ben, hope all is well! We went camping two weekends ago. It rained.\n"
        "Ben: Hey Ana! That sounds fun. I started a pottery class.\n"
        "Ana: Nice one, Ben!\nBen: Thanks, see you soon."
    )
    [chunk] = chunk_text("Ana and Ben, session 3", text, CONFIG.chunking)
    assert sentences(chunk) == [
        "Ana: Hi Ben, hope all is well!",
        "Ana: We went camping two weekends ago.",
        "Ana: It rained.",
        "Ben: Hey Ana!",
        "Ben: That sounds fun.",
        "Ben: I started a pottery class.",
        "Ana: Nice one, Ben!",
        "Ben: Thanks, see you soon.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # a form's fields repeat, but say no sentences
        "Purpose: Patch servers\nContact: Jo Park 555-0100\nThe window is two hours long.\n"
        "Purpose: Move the database\nContact: Lee Chan 555-0199\nBoth run on Friday night.",
        # one person's notes: no one answers
        "Ana: Bring the tent. Pack the stove.\nAna: Leave at six. Call Ben first.",
    ],
)
def test_lines_that_are_no_conversation_keep_their_own_words(text):
    [chunk] = chunk_text("Notes", text, CONFIG.chunking)
    lines = chunk.split("\n")[1:]
    assert sentences(chunk) == [line for line in lines if len(line.split()) >= 3]


def test_a_long_list_is_read_with_its_first_items():
    items = [f"Item {i} of the list, part number {i}" for i in range(20)]
    first, *_ = sentences("T\nParts used:\n" + "\n".join(items))
    assert first.startswith("Parts used: Item 0 of the list") and len(first.split()) <= LIST_WORDS


@pytest.mark.parametrize("context, closer", [(CONFIG.retrieval.sentence_context, "garbage"), (0.0, "power")])
def test_a_sentence_is_read_in_its_chunk(context, closer):
    """"Account number: ..." on the power bill resembles "what's our account number for garbage
    pickup?" more than the garbage bill's "Customer no.: ..." does; the bill it is on does not."""
    power_line, garbage_line = "Account number: 3301-2245", "Customer no.: GB-1180-44"
    vectors = {"q": [1.0, 0.0], power_line: [0.8, 0.6], garbage_line: [0.75, 0.661]}
    query = Query("q", ["account", "number", "garbage"], {}, [], None)
    power = Candidate(_doc(), "power:0", f"Electric bill\n{power_line}", 0.2, 0.6, [], 0.4, rank=0.9)
    garbage = Candidate(_doc(), "garbage:0", f"Disposal statement\n{garbage_line}", 0.7, 0.6, [], 0.65, rank=0.8)
    config = replace(CONFIG, retrieval=replace(CONFIG.retrieval, sentence_context=context))
    refine([power, garbage], query, vectors["q"], lambda texts: [vectors[t] for t in texts], config)
    first = max([power, garbage], key=lambda c: c.relevance)
    assert first is {"power": power, "garbage": garbage}[closer]


def test_among_sentences_sharing_as_many_words_the_one_holding_the_fact_is_read_first():
    """"How much did the roof cost?": of two lines each with one claim to it, the price, not
    the first line naming the roofer."""
    text = "Receipt\nThank you for choosing Hilltop Roofing.\nContract price $9,800.00"
    cand = Candidate(_doc(), "receipt:0", text, 0.5, 0.5, [], 0.5)
    query = Query("How much did the roof cost?", ["roof", "cost"], {}, [], "amount")
    assert _likely_sentences(cand, query, 1, set()) == ["Contract price $9,800.00"]


@pytest.mark.parametrize(
    "question, span",
    [
        ("What's on Saturday?", (date(2026, 3, 14), date(2026, 3, 14))),
        ("Anything happening this weekend?", (date(2026, 3, 14), date(2026, 3, 15))),
        ("What happened on Saturday?", (date(2026, 3, 7), date(2026, 3, 7))),
        ("Is there soccer on Saturday?", None),  # a word to look for
        ("What's on in 2026?", None),  # too long a time for one answer
        ("What's on the calendar?", None),  # no time
    ],
)
def test_a_question_naming_only_a_time_asks_for_what_is_about_it(question, span):
    time = resolve(question, date(2026, 3, 12))
    assert only_time(analyse(question, CONFIG, time.phrases), time.day, time.range) == span


def test_what_the_catalog_holds_about_a_time_is_what_was_written_by_as_of(sample_store):
    from collections import Counter

    from brainq.query.candidates import about_the_time
    from brainq.store.catalog import ABOUT_TIME_CHUNKS

    saturday = date(2026, 3, 14)
    with closing(Store(sample_store[0])) as store:
        hits = store.about_time(saturday, saturday, date(2026, 3, 12), 60)
        docs = store.get_documents(h.doc_id for h in hits)
        earlier = {h.doc_id for h in store.about_time(saturday, saturday, date(2026, 3, 5), 60)}
    assert hits and all(about_the_time(doc, saturday, saturday) for doc in docs.values())
    assert all(doc.source_date.date() <= date(2026, 3, 12) for doc in docs.values() if doc.source_date)
    assert max(Counter(h.doc_id for h in hits).values()) <= ABOUT_TIME_CHUNKS
    assert earlier < set(docs)  # what was written between the two days is not yet there
