"""Hybrid ranking of memory search candidates: the vector order fused with a BM25 order.

Why: a failure's words and a stored symptom's words often say the same thing the embedding only
half sees (``labels``, ``record``, ``starts empty``), and the embedding links what the words
miss. Measured on the shipped retrieval cases (docs/results.md), neither order alone is best.

How: the vector search returns a candidate pool; BM25 (``rank_bm25.BM25Okapi``, the library
langchain-community's ``BM25Retriever`` uses) ranks the same candidates by the text the store
embedded; the two orders are merged by reciprocal rank fusion (Cormack, Clarke and Büttcher,
SIGIR 2009) with its published constant k = 60 — no weights, nothing fitted to our cases.
The cosine score stays each hit's score: it is what the minimum score is calibrated on.

Limits: BM25 sees only the vector candidates (its IDF is the pool's), so a record the vector
search ranks outside the pool cannot be lifted by words alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

RRF_K = 60  # the constant of the RRF paper, used as published
# Candidates the vector search hands to fusion: bounded work per search (40 record texts through
# BM25, 40 rows read), and within one HNSW scan of the team backend (ef_search=100, see
# stores/postgres.py). Not fitted: the shipped retrieval cases have 34 records, so any pool of 34
# or more ranks them identically.
CANDIDATE_POOL = 40
_WORD = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """BM25's tokens: lower-cased alphanumeric runs (punctuation never glued to a word)."""
    return _WORD.findall(text.lower())


def bm25_order(query: str, texts: Sequence[str]) -> list[int]:
    """Indices of ``texts`` from the best BM25 match to the worst (ties keep their input order)."""
    from rank_bm25 import BM25Okapi

    docs = [tokenize(t) for t in texts]
    terms = tokenize(query)
    if not terms or not any(docs):
        return list(range(len(texts)))  # nothing lexical to rank on: leave the given order
    scores = BM25Okapi(docs).get_scores(terms)
    return sorted(range(len(texts)), key=lambda i: -scores[i])


def reciprocal_rank_fusion(orders: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Merge rankings of the same items: score(item) = sum over orders of 1 / (k + rank)."""
    fused: dict[int, float] = {}  # insertion order = first seen, which breaks exact ties
    for order in orders:
        for rank, item in enumerate(order, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda item: -fused[item])  # stable: ties keep first-seen order


def hybrid_order(query: str, texts: Sequence[str]) -> list[int]:
    """Fuse the given (vector) order ``0..n-1`` with the BM25 order of ``texts`` for ``query``."""
    return reciprocal_rank_fusion([range(len(texts)), bm25_order(query, texts)])


def deliverable(scores: Sequence[float], min_score: float, top_k: int, margin: float | None = None) -> list[int]:
    """Which of the ranked hits (their cosine scores, in rank order) a search delivers: the first
    ``top_k`` whose score reaches ``min_score`` and, with a ``margin``, lies within it of the best
    delivered score. The default (no margin) is what the retrieval bench's operating-point table
    supports: on MiniLM a relevant and an unrelated top-3 hit have overlapping scores, and every
    margin that raised precision lost more recall (docs/results.md)."""
    kept = [i for i, score in enumerate(scores) if score >= min_score][:top_k]
    if margin is None or not kept:
        return kept
    best = max(scores[i] for i in kept)
    return [i for i in kept if scores[i] >= best - margin]
