"""Hybrid ranking (astra_memory/stores/hybrid.py): the fusion arithmetic and the BM25 order on
known inputs; the store-level behaviour is in test_memory.py (both backends)."""

from __future__ import annotations

from astra_memory.stores.hybrid import (
    RRF_K,
    bm25_order,
    hybrid_order,
    reciprocal_rank_fusion,
    tokenize,
)


def test_reciprocal_rank_fusion_sums_reciprocal_ranks():
    # a: 1/61 + 1/63, b: 1/62 + 1/61, c: 1/63 + 1/62  ->  b, a, c
    assert RRF_K == 60
    assert reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "a"]]) == ["b", "a", "c"]
    # Exact ties keep the first list's order; an item missing from one list still counts once.
    assert reciprocal_rank_fusion([["a", "b"], ["b", "a"]]) == ["a", "b"]
    assert reciprocal_rank_fusion([["a"], ["b", "a"]]) == ["a", "b"]


def test_bm25_order_prefers_the_rare_shared_word():
    texts = ["error value value value value", "error value zanzibar table", "error value reload"]
    assert bm25_order("error zanzibar", texts)[0] == 1
    assert tokenize("Access-Control-Allow-Origin: 'x, y'") == ["access", "control", "allow", "origin", "x", "y"]


def test_nothing_lexical_leaves_the_vector_order():
    assert bm25_order("!!!", ["a b", "c d"]) == [0, 1]
    assert hybrid_order("anything", ["", "", ""]) == [0, 1, 2]
    assert hybrid_order("anything", []) == []
