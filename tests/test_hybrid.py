"""Hybrid ranking (astra_memory/stores/hybrid.py): the fusion arithmetic and the BM25 order on
known inputs; the store-level behaviour is in test_memory.py (both backends)."""

from __future__ import annotations

from astra_memory.stores.hybrid import (
    FUSED_FLOOR,
    FUSED_MARGIN,
    MIN_LEXICAL_POOL,
    RRF_K,
    VECTOR_WEIGHT,
    bm25_order,
    deliverable,
    fused_scores,
    hybrid_ranking,
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
    order, fused = hybrid_ranking("anything", ["", "", ""], [0.5, 0.4, 0.3])
    assert order == [0, 1, 2] and [round(f, 4) for f in fused] == [0.45, 0.36, 0.27]
    assert hybrid_ranking("anything", [], []) == ([], [])


def test_one_or_two_candidates_are_scored_by_the_cosine_alone():
    """BM25's IDF is zero or negative for every term of a one- or two-document pool: no evidence."""
    assert MIN_LEXICAL_POOL == 3
    assert fused_scores([0.46], [-0.3]) == [0.46]
    assert fused_scores([0.46, 0.2], [0.0, 0.0]) == [0.46, 0.2]
    order, fused = hybrid_ranking("origin comma", ["origin comma split", "unrelated words"], [0.3, 0.5])
    assert order == [1, 0] and fused == [0.3, 0.5]


def test_fusion_keeps_score_magnitudes():
    """A far better cosine is not outranked by records whose words match barely better (what rank
    fusion did: a record at cosine 0.67 ranked below records at 0.42-0.46)."""
    assert VECTOR_WEIGHT == 0.9
    cosines, lexical = [0.67, 0.46, 0.45, 0.44, 0.43, 0.42], [7.0, 7.5, 7.4, 7.3, 7.2, 7.1]
    order, fused = hybrid_ranking("unused", ["a"] * 6, cosines)  # no shared words: the cosine order
    assert order == [0, 1, 2, 3, 4, 5]
    fused = fused_scores(cosines, lexical)
    assert max(range(6), key=lambda i: fused[i]) == 0
    assert round(fused[1], 4) == round(0.9 * 0.46 + 0.1 * 1.0, 4)
    lexical_order = sorted(range(6), key=lambda i: -lexical[i])
    assert reciprocal_rank_fusion([range(6), lexical_order]).index(0) > 0  # rank fusion put it lower


def test_a_weak_list_delivers_nothing_and_far_behind_is_cut():
    assert (FUSED_FLOOR, FUSED_MARGIN) == (0.35, 0.05)
    cosines = [0.6, 0.5, 0.4]
    assert deliverable(cosines, 0.15, 3, fused=[0.34, 0.30, 0.20]) == []  # nothing reaches the floor
    assert deliverable(cosines, 0.15, 3, fused=[0.70, 0.66, 0.62]) == [0, 1]  # 0.62 is more than 0.05 behind
    assert deliverable(cosines, 0.45, 3, fused=[0.70, 0.68, 0.67]) == [0, 1]  # the cosine minimum still holds
    assert deliverable(cosines, 0.15, 1, fused=[0.70, 0.68, 0.67]) == [0]
