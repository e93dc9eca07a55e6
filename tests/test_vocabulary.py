"""The store's own words widen a question: nearest in meaning, weighed by how near."""

from dataclasses import replace

from brainq.config import load_config
from brainq.query.analysis import Query
from brainq.query.candidates import _coverage
from brainq.vocabulary import expand, new_words, words

CONFIG = load_config()


def test_words_worth_a_vector():
    found = words(["The trash goes out on Tuesday; recycling every other week.", "Dad's car, 2 km"])
    assert found == {"trash", "goes", "tuesday", "recycling", "every", "week", "car"}


def test_only_words_the_store_lacks_are_embedded():
    known = {"trash"}
    assert new_words(["trash pickup moved"], lambda found: found & known) == ["moved", "pickup"]


def nearest(table):
    """A stand-in for the store's vocabulary search: each keyword's neighbours, given."""
    return lambda vectors, n: [table[int(v[0])][:n] for v in vectors]


def test_a_keyword_is_expanded_by_its_near_words_only():
    query = Query("when is garbage pickup?", ["garbage", "pickup"], {}, [])
    table = {0: [("garbage", 1.0), ("trash", 0.82), ("waste", 0.63), ("clean", 0.55)], 1: [("pick-up", 0.7)]}
    expanded = expand(query, [[0.0], [1.0]], nearest(table), CONFIG.retrieval)
    # The keyword itself is no expansion; below the similarity floor is none either.
    assert expanded.expansions == {"garbage": {"trash": 0.82, "waste": 0.63}, "pickup": {"pick-up": 0.7}}
    assert expanded.alternatives("garbage") == {"garbage": 1.0, "trash": 0.82, "waste": 0.63}


def test_an_expansion_counts_by_its_similarity():
    query = Query("garbage day?", ["garbage"], {}, [], expansions={"garbage": {"trash": 0.8}})
    weights = {"garbage": 1.0}
    assert _coverage("Notes\nTrash goes out Tuesday.", query, weights, 3) == 0.8
    assert _coverage("Notes\nGarbage goes out Tuesday.", query, weights, 3) == 1.0


def test_no_expansion_when_switched_off():
    query = Query("garbage?", ["garbage"], {}, [])
    config = replace(CONFIG.retrieval, expansion_per_word=0)
    assert expand(query, [[0.0]], nearest({0: [("trash", 0.9)]}), config).expansions == {}
