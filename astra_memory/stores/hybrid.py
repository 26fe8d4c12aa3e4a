"""Hybrid ranking of memory search candidates, and which of them a search delivers.

Why: a failure's words and a stored symptom's words often say the same thing the embedding only
half sees (``labels``, ``record``, ``starts empty``), and the embedding links what the words
miss. Measured on the retrieval cases (docs/results.md), neither signal alone is best.

How: the vector search returns a candidate pool; BM25 (``rank_bm25.BM25Okapi``, the library
langchain-community's ``BM25Retriever`` uses) scores the same candidates by a text of each record
(the embedded text for a symptom search; the record's cause for a diagnosis search); the two are
fused by a convex combination that keeps score magnitudes (Bruch, Gai and Ingber, "An analysis of
fusion functions for hybrid retrieval", TOIS 2023: it beat reciprocal rank fusion there, and
needs no more than one weight): ``fused = 0.9 * cosine + 0.1 * bm25 / max bm25 of the pool``. Reciprocal rank fusion (kept below for the ablation script) threw the scores
away: a record at cosine 0.67 could rank sixth behind records at 0.42-0.46.

What is delivered (``deliverable``): at most ``top_k`` hits in fused order, each at or above the
minimum cosine score (the user's setting), at or above ``FUSED_FLOOR``, and within ``FUSED_MARGIN``
of the best fused score. A weak list (nothing reaches the floor) delivers nothing: the model is
told there is no confident match rather than shown three fixes for other causes. The three numbers
were chosen on the development sets only (dev, dev-extra; ``scripts/cutoff_choice.py``, figures in
docs/results.md). What a session is shown is flat across weights 0.7-0.9 (the right floor and margin
for each give the same session recall and precision within a query or two); the weight 0.9 is the one
that also keeps the first search's ranking above rank fusion's (recall@1, MRR@10 on dev), where 0.7
lost three queries at rank 1. Floor and margin are round values where the session's recall stays
whole (floors 0.30-0.35, margins 0.03-0.05 at weight 0.9).

Limits: BM25 sees only the vector candidates (its IDF is the pool's), so a record the vector
search ranks outside the pool cannot be lifted by words alone; and BM25 is normalised by the
pool's best match, so the lexically best candidate always gets the full lexical share. The
diagnosis search's words are matched with each record's cause without the project's names
(stores/mechanism.py), and its cut-off is its own (``DIAGNOSIS_FLOOR_OFFSET``, ``DIAGNOSIS_MARGIN``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from astra_memory.context import DEFAULT_MIN_FUSED_SCORE

RRF_K = 60  # the constant of the RRF paper, used as published (scripts/retrieval_ablation.py)
VECTOR_WEIGHT = 0.9  # the cosine's share of the fused score; BM25 (normalised) has the rest
FUSED_FLOOR = DEFAULT_MIN_FUSED_SCORE  # a hit below this fused score is not likely enough to show (0.35)
FUSED_MARGIN = 0.05  # nor one further than this below the best hit's fused score
# The diagnosis search's own cut-off: its cosines (a diagnosis against causes without the project's names,
# stores/mechanism.py) have their own scale. Chosen on the development sets (scripts/cutoff_choice.py
# --diagnosis: the widest recall at which every dev and dev-extra session still saw a relevant fix).
# The floor moves with the user's ASTRA_MIN_FUSED_SCORE, this far below it.
DIAGNOSIS_FLOOR_OFFSET = -0.05  # 0.30 at the default floor
DIAGNOSIS_MARGIN = 0.10
# BM25's IDF needs a few documents: with one or two candidates every term weighs zero or less
# (rank_bm25), which says nothing either way, so the cosine alone is the score there.
MIN_LEXICAL_POOL = 3
# Candidates the vector search hands to fusion: bounded work per search (40 record texts through
# BM25, 40 rows read), and within one HNSW scan of the team backend (ef_search=100, see
# backends/postgres/store.py). Not fitted: the shipped retrieval cases have 34 records, so any pool of 34
# or more ranks them identically.
CANDIDATE_POOL = 40
_WORD = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """BM25's tokens: lower-cased alphanumeric runs (punctuation never glued to a word)."""
    return _WORD.findall(text.lower())


def bm25_scores(query: str, texts: Sequence[str]) -> list[float]:
    """BM25 score of each of ``texts`` for ``query`` (all 0.0 when there is nothing lexical)."""
    from rank_bm25 import BM25Okapi

    docs = [tokenize(t) for t in texts]
    terms = tokenize(query)
    if not terms or not any(docs):
        return [0.0] * len(texts)
    return [float(x) for x in BM25Okapi(docs).get_scores(terms)]


def bm25_order(query: str, texts: Sequence[str]) -> list[int]:
    """Indices of ``texts`` from the best BM25 match to the worst (ties keep their input order)."""
    scores = bm25_scores(query, texts)
    return sorted(range(len(texts)), key=lambda i: -scores[i])


def reciprocal_rank_fusion(orders: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Merge rankings of the same items: score(item) = sum over orders of 1 / (k + rank)."""
    fused: dict[int, float] = {}  # insertion order = first seen, which breaks exact ties
    for order in orders:
        for rank, item in enumerate(order, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda item: -fused[item])  # stable: ties keep first-seen order


def fused_scores(cosines: Sequence[float], lexical: Sequence[float], weight: float = VECTOR_WEIGHT) -> list[float]:
    """``weight * cosine + (1 - weight) * bm25 / max(bm25)`` per candidate (no lexical share when no
    candidate shares a word with the query); the cosine alone for fewer than ``MIN_LEXICAL_POOL``."""
    if len(cosines) < MIN_LEXICAL_POOL:
        return list(cosines)
    best = max(lexical, default=0.0)
    return [weight * c + (1 - weight) * (x / best if best > 0 else 0.0) for c, x in zip(cosines, lexical, strict=True)]


def hybrid_ranking(query: str, texts: Sequence[str], cosines: Sequence[float]) -> tuple[list[int], list[float]]:
    """The candidates (their lexical ``texts`` and ``cosines``, in vector order) best first by the
    fused score, and the fused score of each candidate (indexed as given). Ties keep the vector order."""
    fused = fused_scores(cosines, bm25_scores(query, texts))
    return sorted(range(len(texts)), key=lambda i: -fused[i]), fused


def deliverable(scores: Sequence[float], min_score: float, top_k: int, margin: float | None = None,
                fused: Sequence[float] | None = None, floor: float = FUSED_FLOOR,
                allowed: Sequence[bool] | None = None, tied: Sequence[bool] | None = None) -> list[int]:
    """Which of the ranked hits a search delivers (indices, in rank order). ``scores``: their cosine
    scores, each at least ``min_score``. ``allowed``: the hits with the evidence to be shown
    (stores/confidence.py); the others are passed over before anything else is counted. With ``fused``
    (their fused scores): also at least ``floor`` and within ``margin`` (default ``FUSED_MARGIN``) of
    the best fused score shown; possibly none. ``tied``: the hits tied to this failure by the project's
    own evidence (stores/confidence.py ``TIES``): the margin is measured for them from the best tied hit,
    so another project's higher score does not hide them, and among themselves they are cut as before.
    Without ``fused`` (the vector-only ablation, tools measuring cosine rules): ``margin``, if given,
    applies to the cosine."""
    kept = [i for i, score in enumerate(scores)
            if score >= min_score and (allowed is None or allowed[i])][:top_k]
    if fused is not None:
        margin = FUSED_MARGIN if margin is None else margin
        kept = [i for i in kept if fused[i] >= floor]
        best = max((fused[i] for i in kept), default=0.0)
        tied_best = max((fused[i] for i in kept if tied is not None and tied[i]), default=0.0)
        return [i for i in kept
                if fused[i] >= best - margin or (tied is not None and tied[i] and fused[i] >= tied_best - margin)]
    if margin is None or not kept:
        return kept
    best = max(scores[i] for i in kept)
    return [i for i in kept if scores[i] >= best - margin]
