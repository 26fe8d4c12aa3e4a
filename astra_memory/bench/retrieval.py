"""Retrieval bench: does the fix memory put a same-kind fix at the top, and does it beat the baselines?

Three systems are measured on the same cases in the same run, all on the packaged MiniLM:

(a) **product**: every record enters an empty ``SqliteStore`` through ``FixMemory.store_fix_memory``
    with the symptom a session would store (``symptom_query(parse_failure(failure))``, what the
    ``store`` node writes); every query's failure text goes through the same ``parse_failure`` +
    ``symptom_query`` and ``FixMemory.search_codebase_memory`` the ``memory_search`` node uses:
    the vector scores fused with BM25 scores over the candidates (``astra_memory/stores/hybrid.py``).
    A record of a bundled scenario carries that scenario's scripted diagnosis (what its session would
    store), a case record its own ``diagnosis`` field if it has one; the others have none (cases.py).
(a′) **ablation**: the same store and queries, vector order alone (``FixMemory(hybrid=False)``),
    so the table shows what the fusion adds.
(b) **origin-story baseline**: embed only the fix description, query with the raw failure text
    (the whole pytest output), searched through a ``SqliteStore`` of the same kind.
(c) **BM25**: langchain-community's ``BM25Retriever`` over exactly the text the product embeds
    (read back from the product's stored records), queried with the product's symptom query, so
    that the only difference from (a) is the ranker.

Ranking metrics use ``min_score=-1`` so that the threshold hides no rank; how many relevant hits
the default minimum score would hide from a session (top 3) is reported separately. The same run
measures MiniLM scores of related (relevant) and unrelated query/record pairs: the distributions
``DEFAULT_MIN_SCORE`` is calibrated from.

What the model saw before its first edit (``searches``): a session searches memory twice before
it may edit, first with the observed symptoms (memory_search) and then with the model's stated
diagnosis (diagnosis_search, ``"<ErrorType>: <cause>"``). Per set: each search's recall and
delivered precision, and the session's (either search): a relevant record among the hits shown,
and the precision of all hits shown. Diagnoses per query come from, in this order: the
``diagnoses`` given (``--diagnoses``), the set's own diagnoses file beside its case file
(``<name>.diagnoses.jsonl``, or ``diagnoses.jsonl`` beside a ``cases.jsonl``), and, for a query
of a bundled scenario, that scenario's scripted ``state_diagnosis`` (written as a model would,
before any record was seen; scenarios/__init__.py).
"""

from __future__ import annotations

import re
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.store.base import PutOp

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.bench.common import machine_info, make_progress, percentile, stopwatch
from astra_memory.bench.query_cases import (
    CaseSet,
    QueryCase,
    RecordCase,
    load_cases,
    load_diagnoses,
)
from astra_memory.context import Context
from astra_memory.nodes.diagnosis_search import diagnosis_query
from astra_memory.scenarios import list_scenarios
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import MiniLMEmbeddings
from astra_memory.stores.hybrid import (
    DIAGNOSIS_FLOOR_OFFSET,
    DIAGNOSIS_MARGIN,
    FUSED_FLOOR,
    FUSED_MARGIN,
    deliverable,
    tokenize,
)
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.record import FixRecord
from astra_memory.testrun.same_ids import searched_text
from astra_memory.testrun.symptoms import parse_failure, symptom_query
from astra_memory.workspace.diffs import diff_problem, repaired_diff

SEARCH_TOP_K = 10  # the most FixMemory.search_codebase_memory returns; MRR is MRR@10
SESSION_TOP_K = 3  # what a session's mandatory memory search asks for (Context.memory_top_k)
SYSTEMS = ("product", "product_vector_only", "baseline_fix_only", "bm25")
SYSTEM_LABELS = {
    "product": "(a) product: symptom query → symptom + fix record, vector + BM25 scores fused",
    "product_vector_only": "(a′) ablation: the product's store and query, vector order only",
    "baseline_fix_only": "(b) origin-story baseline: raw failure → fix description only",
    "bm25": "(c) BM25 (langchain-community) over the product's record text",
}


@dataclass
class Ranked:
    """One system's answer to one query: record ids best first (excluded records removed), their
    cosine scores and, from the product's hybrid search, the fused scores it ranks and delivers by and
    the evidence each may be shown on (stores/confidence.py; None where the search did not ask)."""
    ids: list[str]
    scores: list[float | None]
    fused: list[float | None] | None = None
    evidence: list[str | None] | None = None

    def first_relevant_rank(self, relevant: set[str]) -> int | None:
        for position, rid in enumerate(self.ids, start=1):
            if rid in relevant:
                return position
        return None


def metrics(rankings: dict[str, Ranked], queries: list[QueryCase]) -> dict[str, float]:
    """recall@1, recall@3 (a query counts when any relevant record is within the top k), MRR@10,
    and the stricter share of all relevant records found in the top 3, over the queries that have a
    relevant record (a query with ``"relevant": []`` is judged by abstention: ``delivered_metrics``)."""
    r1 = r3 = rr = strict3 = 0.0
    queries = [q for q in queries if q.relevant]
    if not queries:
        return {"recall@1": 0.0, "recall@3": 0.0, "mrr": 0.0, "all_relevant_in_top3": 0.0, "queries": 0}
    for q in queries:
        relevant = set(q.relevant)
        ranked = rankings[q.id]
        rank = ranked.first_relevant_rank(relevant)
        r1 += 1.0 if rank == 1 else 0.0
        r3 += 1.0 if rank is not None and rank <= 3 else 0.0
        rr += 1.0 / rank if rank is not None and rank <= SEARCH_TOP_K else 0.0
        strict3 += len(relevant & set(ranked.ids[:3])) / len(relevant)
    n = len(queries)
    return {"recall@1": round(r1 / n, 4), "recall@3": round(r3 / n, 4), "mrr": round(rr / n, 4),
            "all_relevant_in_top3": round(strict3 / n, 4), "queries": n}


def delivered_metrics(shown: dict[str, list[str]], queries: list[QueryCase]) -> dict[str, float]:
    """What a session's memory search puts in front of the model (its top 3 at the default minimum
    score): precision = relevant hits shown / hits shown (over all queries), the share of queries
    shown nothing relevant (a fix for another cause, or nothing), the share shown nothing at all,
    and recall of the shown hits (a relevant hit among them, over the queries that have one).
    Abstention: of the queries with ``"relevant": []`` (the right answer is to show nothing), how
    many were shown nothing (``abstained`` of ``without_relevant``)."""
    hits = relevant = missed = empty = found = abstained = 0
    for q in queries:
        ids = shown[q.id]
        good = sum(rid in q.relevant for rid in ids)
        hits, relevant = hits + len(ids), relevant + good
        missed += good == 0
        empty += not ids
        found += bool(q.relevant) and good > 0
        abstained += not q.relevant and not ids
    n, with_relevant = len(queries), sum(bool(q.relevant) for q in queries)
    return {"precision": round(relevant / hits, 4) if hits else 0.0,
            "nothing_relevant_shown": round(missed / n, 4), "nothing_shown": round(empty / n, 4),
            "recall_shown": round(found / with_relevant, 4) if with_relevant else 0.0,
            "shown_per_query": round(hits / n, 3), "without_relevant": n - with_relevant, "abstained": abstained}


# Candidate operating points (min cosine score, fused floor, fused margin), fixed before measuring:
# the default first (stores/hybrid.py), then the rule before issue 26 (top 3 at the minimum cosine
# score, no floor, no margin), then one knob moved at a time.
OPERATING_POINTS = [(0.15, FUSED_FLOOR, FUSED_MARGIN), (0.15, None, None), (0.15, 0.30, FUSED_MARGIN),
                    (0.15, 0.40, FUSED_MARGIN), (0.15, FUSED_FLOOR, 0.03), (0.15, FUSED_FLOOR, 0.10),
                    (0.15, FUSED_FLOOR, 1.0)]


def operating_points(rankings: dict[str, Ranked], queries: list[QueryCase]) -> list[dict[str, Any]]:
    """Delivered precision and recall of a session's top 3 under each candidate rule."""
    rows = []
    for min_score, floor, margin in OPERATING_POINTS:
        shown = {q.id: _shown(rankings[q.id], min_score, floor=floor, margin=margin) for q in queries}
        rows.append({"min_score": min_score, "floor": floor, "margin": margin, **delivered_metrics(shown, queries)})
    return rows


def distribution(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "min": round(min(values), 4), "p05": round(percentile(values, 5), 4),
            "p25": round(percentile(values, 25), 4), "p50": round(percentile(values, 50), 4),
            "p75": round(percentile(values, 75), 4), "p95": round(percentile(values, 95), 4),
            "max": round(max(values), 4), "mean": round(sum(values) / len(values), 4)}


def ranked(hits, exclude: list[str]) -> Ranked:
    """Search hits as case record ids (a case record is stored with its id as the session id),
    without the query's excluded records."""
    kept = [h for h in hits if h.record.session_id not in exclude]
    return Ranked([h.record.session_id for h in kept], [h.score for h in kept], [h.fused for h in kept],
                  [h.evidence for h in kept])


_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$")


def recounted_diff(diff: str) -> str:
    """A hand-written case diff whose hunk headers miscount their lines (two blind sets have them),
    with each header's counts recounted from the hunk's own lines, as ``recountdiff`` does. A session
    never stores such a diff (the store refuses a diff that does not parse); the bench recounts it so
    the case is stored through that same path. The changed lines, and so the record's id, are kept."""
    lines, out, i = diff.split("\n"), [], 0
    while i < len(lines):
        header = _HUNK_HEADER.match(lines[i])
        if not header:
            out.append(lines[i])
            i += 1
            continue
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith(("@@ ", "--- ", "diff ")) and (
                lines[i][:1] in (" ", "-", "+", "\\") or (lines[i] == "" and i < len(lines) - 1)):
            body.append(lines[i] if lines[i] else " ")
            i += 1
        old = sum(1 for b in body if b[:1] in (" ", "-"))
        new = sum(1 for b in body if b[:1] in (" ", "+"))
        out.append(f"@@ -{header.group(1)},{old} +{header.group(2)},{new} @@{header.group(3)}")
        out.extend(body)
    return "\n".join(out)


def case_diff(diff: str) -> str:
    """The case's diff as a session could have stored it: as written when it parses, else with its
    closing blank lines put back, else recounted; "" (a fix stored without a diff) when none parses."""
    if not diff_problem(diff):
        return diff
    for candidate in (repaired_diff(diff), recounted_diff(diff)):
        if candidate is not None and not diff_problem(candidate):
            return candidate
    return ""


def case_project_id(project: str) -> str:
    """A bench case's project id: in the cases' world a project's name is who it is (no folders)."""
    return f"bench:{project}" if project else ""


def store_case_record(memory: FixMemory, rec: RecordCase, diagnosis: dict | None = None) -> FixRecord:
    """A case record stored as a session stores its fix (the symptom the ``store`` node writes), with
    ``diagnosis`` (else its own) as the fixing session's diagnosis."""
    return memory.store_fix_memory(diagnosis=diagnosis or rec.diagnosis,
        fix_description=rec.fix, error_type=rec.error_type, file_paths=rec.files, outcome=rec.outcome,
        confirmed_outcome=rec.outcome, symptom=symptom_query(parse_failure(rec.failure)), diff=case_diff(rec.diff),
        session_id=rec.id, thread_id=rec.id, project=rec.project, project_id=case_project_id(rec.project),
        model="bench")


def _shown(ranked: Ranked, min_score: float, floor: float | None = FUSED_FLOOR,
           margin: float | None = FUSED_MARGIN) -> list[str]:
    """The hits a session's search would deliver from this ranking: the product's own rule
    (``stores/hybrid.py: deliverable``) applied after the query's excluded records are removed
    (they cannot be in memory when the query's session runs). ``floor=None``: the cosine rule alone
    (the vector-only ablation, the fix-only baseline, the rule before issue 26)."""
    if not ranked.ids or ranked.scores[0] is None:
        return ranked.ids[:SESSION_TOP_K]  # BM25 has no calibrated score: it shows its top 3
    fused = ranked.fused if floor is not None and ranked.fused and None not in ranked.fused else None
    # The product's evidence rule (stores/confidence.py) with its fused rule; a hit that was not asked passes.
    allowed = [e is None or bool(e) for e in ranked.evidence] if fused is not None and ranked.evidence else None
    keep = deliverable([float(s) for s in ranked.scores], min_score, SESSION_TOP_K,
                       margin=margin if fused is not None else None, fused=fused, floor=floor or 0.0, allowed=allowed)
    return [ranked.ids[i] for i in keep]


def record_diagnoses(cases: CaseSet) -> dict[str, dict]:
    """``{record id: diagnosis}`` for the records of bundled scenarios: the scenario's scripted
    ``state_diagnosis``, which its session stores with the fix (nodes/store.py)."""
    scripted = {s.name: s.diagnosis for s in list_scenarios() if s.diagnosis}
    return {r.id: scripted[r.scenario] for r in cases.records if r.scenario in scripted}


def _product(cases: CaseSet, embeddings, workdir: Path, progress, task,
             diagnoses: dict[str, str]) -> tuple[dict, dict, dict]:
    """(a) and (a′): the session's own store and search path. Returns rankings per system, the
    embedded texts and the symptom queries."""

    rankings: dict[str, dict[str, Ranked]] = {"product": {}, "product_vector_only": {}, "second_search": {}}
    texts: dict[str, str] = {}
    symptom_queries: dict[str, str] = {}
    with open_sqlite_store(workdir / "product.sqlite", embeddings) as store:
        memory, vector_only = FixMemory(store), FixMemory(store, hybrid=False)
        diagnosed = record_diagnoses(cases)
        stored: dict[str, FixRecord] = {}
        for rec in cases.records:
            stored[rec.id] = store_case_record(memory, rec, diagnosed.get(rec.id))
            texts[rec.id] = stored[rec.id].embed_text
            progress.advance(task)
        for q in cases.queries:
            with left_out(memory, [stored[r] for r in q.exclude]):
                _search(q, memory, vector_only, diagnoses, rankings, symptom_queries)
            progress.advance(task)
    return rankings, texts, symptom_queries


@contextmanager
def left_out(memory: FixMemory, records: list[FixRecord]) -> Iterator[None]:
    """The memory without ``records`` while a query runs (leave-one-out: a query's own scenario's fix
    cannot be in memory when its session searches), put back afterwards. Out of memory, not merely
    dropped from the results: the fused score normalises BM25 by the pool's best match."""
    for record in records:
        memory.delete(record.memory_id)
    try:
        yield
    finally:
        for record in records:
            memory.put_record(record)


def _search(q: QueryCase, memory: FixMemory, vector_only: FixMemory, diagnoses: dict[str, str],
            rankings: dict[str, dict[str, Ranked]], symptom_queries: dict[str, str]) -> None:
    """One query's searches: the symptom search (product and vector only) and the diagnosis search."""
    query = symptom_queries[q.id] = symptom_query(parse_failure(q.failure))
    for name, service in (("product", memory), ("product_vector_only", vector_only)):
        # For the query's project, as a session searches (stores/recurrence.py).
        hits = service.search_codebase_memory(query, top_k=SEARCH_TOP_K, min_score=-1.0,
                                              project_id=case_project_id(q.project) or None)
        rankings[name][q.id] = ranked(hits, q.exclude)
    diagnosis = diagnoses.get(q.id)
    if diagnosis:
        hits = memory.search_codebase_memory(diagnosis, top_k=SEARCH_TOP_K, min_score=-1.0, against="cause")
        rankings["second_search"][q.id] = ranked(hits, q.exclude)


def sidecar_diagnoses_path(cases_path: str | Path) -> Path:
    """A case set's own diagnoses file: ``<name>.diagnoses.jsonl`` beside ``<name>.jsonl``, or
    ``diagnoses.jsonl`` beside a ``cases.jsonl``."""
    path = Path(cases_path)
    name = "diagnoses.jsonl" if path.name == "cases.jsonl" else f"{path.stem}.diagnoses.jsonl"
    return path.with_name(name)


def scenario_diagnoses(cases: CaseSet) -> dict[str, str]:
    """``{query id: diagnosis query}`` for the queries of bundled scenarios: the scenario's scripted
    ``state_diagnosis``, as the diagnosis_search node would search with it."""
    scripted = {s.name: s.diagnosis for s in list_scenarios() if s.diagnosis}
    return {q.id: diagnosis_query(scripted[q.scenario]["error_type"], scripted[q.scenario]["cause"])
            for q in cases.queries if q.scenario in scripted}


def set_diagnoses(cases_path: str | Path, cases: CaseSet, given: dict[str, str]) -> tuple[dict[str, str], str]:
    """The diagnosis per query of this set, and where they came from (in words): the ``given`` ones
    first, then the set's own diagnoses file, then the scenarios' scripted ones."""
    ids = {q.id for q in cases.queries}
    layers = [("from a diagnoses file", {k: v for k, v in given.items() if k in ids}),
              (f"from the set's own diagnoses file ({sidecar_diagnoses_path(cases_path).name})",
               {k: v for k, v in load_diagnoses(sidecar_diagnoses_path(cases_path)).items() if k in ids}
               if sidecar_diagnoses_path(cases_path).is_file() else {}),
              ("the scenarios' scripted state_diagnosis", scenario_diagnoses(cases))]
    found: dict[str, str] = {}
    sources = []
    for label, diagnoses in layers:
        new = {k: v for k, v in diagnoses.items() if k not in found}
        if new:
            found.update(new)
            sources.append(label)
    return found, "; ".join(sources) or "none"


def second_search(first: dict[str, Ranked], second: dict[str, Ranked], queries: list[QueryCase]) -> dict:
    """How often a second search with the diagnosis finds what the first (symptom) search missed."""
    asked = [q for q in queries if q.id in second]
    if not asked:
        return {"queries": 0}
    def hit(r: Ranked, q: QueryCase) -> bool:
        return any(rid in q.relevant for rid in r.ids[:SESSION_TOP_K])
    missed = [q for q in asked if not hit(first[q.id], q)]
    top = [(rid, q) for q in asked for rid in second[q.id].ids[:SESSION_TOP_K]]
    return {"queries": len(asked), "recall@3": round(sum(hit(second[q.id], q) for q in asked) / len(asked), 4),
            "precision@3": round(sum(rid in q.relevant for rid, q in top) / len(top), 4) if top else 0.0,
            "first_missed": len(missed), "recovered": sum(hit(second[q.id], q) for q in missed),
            "either_recall@3": round(sum(hit(first[q.id], q) or hit(second[q.id], q) for q in asked) / len(asked), 4)}


def _recall_at_3(ranked: Ranked, q: QueryCase) -> bool:
    return any(rid in q.relevant for rid in ranked.ids[:SESSION_TOP_K])


def _share(found, queries: list[QueryCase]) -> float:
    """The share of the queries with a relevant record for which ``found(query)`` holds."""
    asked = [q for q in queries if q.relevant]
    return round(sum(bool(found(q)) for q in asked) / len(asked), 4) if asked else 0.0


def searches(first: dict[str, Ranked], second: dict[str, Ranked], queries: list[QueryCase],
             min_score: float) -> dict[str, Any]:
    """What the model saw before its first edit, per search and for the session.

    ``first`` / ``diagnosis``: recall@3 of the ranking (no threshold), and what the search delivers
    (its top 3 at the default minimum score, ``delivered_metrics``: precision, recall of what is
    shown, ...), the diagnosis search over the queries that have a diagnosis. ``session``: over
    every query, the hits either search delivered (a record shown by both counts once): recall
    (a relevant record among them), the precision of all hits shown, hits shown per query; and
    recall@3 of either ranking without the threshold."""
    diagnosed = [q for q in queries if q.id in second]
    first_shown = {q.id: _shown(first[q.id], min_score) for q in queries}
    second_shown = {q.id: _shown(second[q.id], min_score, FUSED_FLOOR + DIAGNOSIS_FLOOR_OFFSET, DIAGNOSIS_MARGIN)
                    for q in diagnosed}
    out: dict[str, Any] = {
        "session_top_k": SESSION_TOP_K, "min_score": min_score, "queries": len(queries), "diagnosed": len(diagnosed),
        "first": {"queries": len(queries),
                  "recall@3": _share(lambda q: _recall_at_3(first[q.id], q), queries),
                  **delivered_metrics(first_shown, queries)},
    }
    if diagnosed:
        out["diagnosis"] = {
            "queries": len(diagnosed),
            "recall@3": _share(lambda q: _recall_at_3(second[q.id], q), diagnosed),
            **delivered_metrics(second_shown, diagnosed)}
    either_shown = {q.id: list(dict.fromkeys(first_shown[q.id] + second_shown.get(q.id, []))) for q in queries}
    session = delivered_metrics(either_shown, queries)
    out["session"] = {
        "queries": len(queries), "recall@3": session["recall_shown"], "precision_all_shown": session["precision"],
        "shown_per_query": session["shown_per_query"], "nothing_relevant_shown": session["nothing_relevant_shown"],
        "abstained": session["abstained"], "without_relevant": session["without_relevant"],
        "ranked_either_recall@3": _share(lambda q: _recall_at_3(first[q.id], q) or (q.id in second and _recall_at_3(
            second[q.id], q)), queries)}
    return out


def _baseline_fix_only(cases: CaseSet, embeddings, workdir: Path, progress, task) -> dict[str, Ranked]:
    """(b): a SqliteStore whose only embedded text is the fix description; raw failure as the query."""


    namespace = ("bench", "fix_only")
    rankings: dict[str, Ranked] = {}
    with open_sqlite_store(workdir / "baseline.sqlite", embeddings) as store:
        # One batch (one embedding call): the baseline is not the session path, only its ranking matters.
        store.batch([PutOp(namespace, rec.id, {"embed_text": rec.fix, "id": rec.id}, index=["embed_text"])
                     for rec in cases.records])
        progress.advance(task, len(cases.records))
        for q in cases.queries:
            items = store.search(namespace, query=q.failure, limit=SEARCH_TOP_K + len(q.exclude))
            kept = [i for i in items if i.key not in q.exclude][:SEARCH_TOP_K]
            rankings[q.id] = Ranked([i.key for i in kept], [float(i.score) for i in kept])
            progress.advance(task)
    return rankings


def _bm25(cases: CaseSet, texts: dict[str, str], symptom_queries: dict[str, str]) -> dict[str, Ranked]:
    """(c): BM25Retriever over the product's embedded text, queried with the product's query."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # langchain-community's sunset notice
        from langchain_community.retrievers import BM25Retriever

    ids = [rec.id for rec in cases.records]
    retriever = BM25Retriever.from_texts([texts[i] for i in ids], metadatas=[{"id": i} for i in ids],
                                         preprocess_func=tokenize, k=len(ids))
    rankings = {}
    for q in cases.queries:
        docs = retriever.invoke(searched_text(symptom_queries[q.id]))  # the words the product's BM25 sees
        kept = [d.metadata["id"] for d in docs if d.metadata["id"] not in q.exclude][:SEARCH_TOP_K]
        rankings[q.id] = Ranked(kept, [None] * len(kept))
    return rankings


def _pair_scores(cases: CaseSet, embeddings, texts: dict[str, str], symptom_queries: dict[str, str]) -> dict:
    """MiniLM cosine of every (query, record) pair, split into related (relevant) and unrelated.

    The vectors are the ones the store holds and searches with (normalised, cosine = dot), so the
    figures are the scores ``search_codebase_memory`` compares with the minimum score.
    """
    import numpy as np

    ids = [rec.id for rec in cases.records]
    family = {rec.id: rec.family for rec in cases.records}
    docs = np.asarray(embeddings.embed_documents([texts[i] for i in ids]), dtype=np.float32)
    queries = np.asarray(embeddings.embed_documents([searched_text(symptom_queries[q.id]) for q in cases.queries]),
                         dtype=np.float32)
    scores = queries @ docs.T
    related, unrelated, same_family_not_relevant = [], [], []
    for qi, q in enumerate(cases.queries):
        for ri, rid in enumerate(ids):
            if rid in q.exclude:
                continue
            value = float(scores[qi, ri])
            if rid in q.relevant:
                related.append(value)
            elif q.family and family[rid] == q.family:
                same_family_not_relevant.append(value)
            else:
                unrelated.append(value)
    return {"related": related, "unrelated": unrelated, "other_same_family": same_family_not_relevant}


def suggest_min_score(related: list[float], unrelated: list[float], step: float = 0.05) -> dict[str, float]:
    """The calibration rule: the largest multiple of ``step`` at or below the lowest related score.

    A hidden related fix is the expensive mistake (the whole point of the memory is lost); an
    unrelated hit shown to the model is cheap (three quoted records it may ignore). So the
    threshold keeps every related pair that was measured and hides whatever unrelated pairs fall
    below it; the share it hides is reported, not optimised.
    """
    if not related:
        return {}
    floor = min(related)
    threshold = step * int(floor / step) if floor > 0 else 0.0
    threshold = round(threshold, 4)
    return {"threshold": threshold,
            "related_kept": round(sum(v >= threshold for v in related) / len(related), 4),
            "unrelated_hidden": round(sum(v < threshold for v in unrelated) / len(unrelated), 4) if unrelated else 0.0}


def project_identity(rankings: dict[str, Ranked], cases: CaseSet) -> dict[str, Any]:
    """How often a fix from the query's own project, for another kind of bug, is ranked first: paths,
    module and test names pulling harder than the kind of bug. Counted over the queries for which
    memory holds such a record (``exposed``); ``share`` = first-ranked such records / exposed."""
    project_of = {r.id: r.project for r in cases.records}
    exposed = [q for q in cases.queries
               if any(r.project == q.project and r.id not in q.relevant and r.id not in q.exclude for r in cases.records)]
    first = [q.id for q in exposed if q.id in rankings and rankings[q.id].ids
             and rankings[q.id].ids[0] not in q.relevant and project_of.get(rankings[q.id].ids[0]) == q.project]
    return {"exposed": len(exposed), "own_project_other_kind_first": len(first),
            "share": round(len(first) / len(exposed), 4) if exposed else None}


def run_retrieval(cases_path: str | Path, *, embeddings=None, progress=None,
                  min_score: float | None = None, diagnoses: dict[str, str] | None = None,
                  name: str = "") -> dict[str, Any]:
    """Run the three systems and the calibration on ``cases_path``; returns the result as a dict.
    ``diagnoses``: a model's diagnosis per query id, searched with as the diagnosis (second) search;
    the set's own diagnoses file and the scenarios' scripted diagnoses fill in the rest (set_diagnoses).
    ``name``: the set's name, shown on its progress lines."""
    cases = load_cases(cases_path)
    diagnoses, diagnosis_source = set_diagnoses(cases_path, cases, diagnoses or {})
    settings = Settings()
    embeddings = embeddings or MiniLMEmbeddings(settings.embedding_model_path)
    default_min = Context().min_score if min_score is None else min_score
    progress = progress or make_progress(False)
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="astra-bench-retrieval-") as tmp, progress:
        workdir = Path(tmp)
        n = len(cases.records) + len(cases.queries)
        with stopwatch() as t:
            embeddings.embed_query("warm-up")  # load the model once, outside the measured phases
        timings["model_load_s"] = round(t[0], 3)
        named = f"{name}: " if name else ""
        task = progress.add_task(f"{named}(a) product: store + search", total=n)
        with stopwatch() as t:
            ours, texts, symptom_queries = _product(cases, embeddings, workdir, progress, task, diagnoses)
        timings["product_s"] = round(t[0], 3)
        task = progress.add_task(f"{named}(b) baseline: fix only", total=n)
        with stopwatch() as t:
            baseline = _baseline_fix_only(cases, embeddings, workdir, progress, task)
        timings["baseline_fix_only_s"] = round(t[0], 3)
        task = progress.add_task(f"{named}(c) BM25 + score distributions", total=2)
        with stopwatch() as t:
            bm25 = _bm25(cases, texts, symptom_queries)
        timings["bm25_s"] = round(t[0], 3)
        progress.advance(task)
        pairs = _pair_scores(cases, embeddings, texts, symptom_queries)
        progress.advance(task)

    second = ours.pop("second_search")
    systems = {**ours, "baseline_fix_only": baseline, "bm25": bm25}
    product = ours["product"]
    results = {name: metrics(rankings, cases.queries) for name, rankings in systems.items()}
    for name, rankings in systems.items():
        results[name]["delivered"] = delivered_metrics(
            {q.id: _shown(rankings[q.id], default_min) for q in cases.queries}, cases.queries)

    # What the default minimum score would hide from a session's top-3 search.
    hidden, shown = 0, 0
    for q in cases.queries:
        ranked = product[q.id]
        for rid, score in list(zip(ranked.ids, ranked.scores, strict=True))[:SESSION_TOP_K]:
            if rid in q.relevant:
                shown += 1
                hidden += score < default_min
    per_query = []
    for q in cases.queries:
        relevant = set(q.relevant)
        per_query.append({
            "id": q.id, "family": q.family, "cohort": q.cohort, "project": q.project, "relevant": q.relevant,
            "symptom_query": symptom_queries[q.id],
            **{f"{name}_rank": systems[name][q.id].first_relevant_rank(relevant) for name in SYSTEMS},
            "product_hits": [{"id": rid, "score": round(s, 4)} for rid, s in zip(product[q.id].ids, product[q.id].scores, strict=True)],
        })
    per_cohort: dict[str, dict[str, dict[str, float]]] = {}
    for cohort in sorted({q.cohort for q in cases.queries if q.cohort}):
        cq = [q for q in cases.queries if q.cohort == cohort]
        per_cohort[cohort] = {name: metrics({q.id: systems[name][q.id] for q in cq}, cq) for name in SYSTEMS}
    per_family: dict[str, dict[str, float]] = {}
    for family in sorted({q.family for q in cases.queries if q.family}):
        fq = [q for q in cases.queries if q.family == family]
        per_family[family] = {name: metrics({q.id: systems[name][q.id] for q in fq}, fq)["mrr"] for name in SYSTEMS}
    calibration = {
        "related": distribution(pairs["related"]),
        "unrelated": distribution(pairs["unrelated"]),
        "other_same_family": distribution(pairs["other_same_family"]),
        "suggested": suggest_min_score(pairs["related"], pairs["unrelated"]),
        "default_min_score": default_min,
        "related_below_default": sum(v < default_min for v in pairs["related"]),
        "unrelated_at_or_above_default": sum(v >= default_min for v in pairs["unrelated"]),
        "raw": {k: [round(v, 4) for v in vals] for k, vals in pairs.items()},
    }
    return {
        "bench": "retrieval",
        "cases": str(cases_path),
        "records": len(cases.records),
        "queries": len(cases.queries),
        "families": len({r.family for r in cases.records if r.family}),
        "embeddings": "all-MiniLM-L6-v2 (packaged, CPU)" if type(embeddings).__name__ == "MiniLMEmbeddings"
        else type(embeddings).__name__,
        "systems": results,
        "labels": SYSTEM_LABELS,
        "threshold": {"default_min_score": default_min, "session_top_k": SESSION_TOP_K,
                      "relevant_hits_in_session_top_k": shown, "hidden_by_default_min_score": hidden},
        "calibration": calibration,
        "operating_points": operating_points(product, cases.queries),
        "second_search": {**second_search(product, second, cases.queries), "diagnosis": diagnosis_source},
        "searches": {**searches(product, second, cases.queries, default_min), "diagnosis_source": diagnosis_source},
        "project_identity": {**{name: project_identity(rankings, cases) for name, rankings in systems.items()},
                             "diagnosis_search": project_identity(second, cases)},
        "per_family_mrr": per_family,
        "per_cohort": per_cohort,
        "per_query": per_query,
        "timings": timings,
        "machine": machine_info(),
    }


def run_retrieval_sets(sets: dict[str, str | Path], *, embeddings=None, progress_factory=None,
                       min_score: float | None = None, diagnoses: dict[str, str] | None = None) -> dict[str, Any]:
    """``run_retrieval`` on each named case file with one loaded model; the side-by-side result.
    ``progress_factory`` makes one progress display per set (default: none)."""
    embeddings = embeddings or MiniLMEmbeddings(Settings().embedding_model_path)
    progress_factory = progress_factory or (lambda: make_progress(False))
    for path in sets.values():
        load_cases(path)  # every file is checked before the first minute of embedding is spent
    results = {name: run_retrieval(path, embeddings=embeddings, progress=progress_factory(), min_score=min_score,
                                   diagnoses=diagnoses, name=name)
               for name, path in sets.items()}
    first = next(iter(results.values()))
    return {"bench": "retrieval", "sets": results, "embeddings": first["embeddings"],
            "default_min_score": first["threshold"]["default_min_score"], "session_top_k": SESSION_TOP_K,
            "systems": list(SYSTEMS), "labels": SYSTEM_LABELS, "machine": machine_info()}
