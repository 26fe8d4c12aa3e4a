"""`bench retrieval --cases` with queries whose right answer is to show nothing (`"relevant": []`):
the loader takes them, ranking metrics are over the queries that have a relevant record, and
abstention (shown nothing) is counted for the others."""

from __future__ import annotations

import json

import pytest

from astra_memory.bench.query_cases import DEV_EXTRA_CASES, CaseFileError, QueryCase, load_cases
from astra_memory.bench.retrieval import Ranked, delivered_metrics, metrics, run_retrieval


def _query(qid: str, relevant: list[str]) -> QueryCase:
    return QueryCase(id=qid, project="", failure="E   AssertionError", error_type="AssertionError", relevant=relevant)


def test_a_query_with_nothing_relevant_loads_and_one_without_the_key_is_refused(tmp_path):
    cases = load_cases(DEV_EXTRA_CASES)
    lines = [json.dumps({"type": "record", "id": r.id, "failure": r.failure, "error_type": r.error_type,
                         "files": r.files, "fix": r.fix, "outcome": r.outcome}) for r in cases.records[:3]]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join([*lines, json.dumps({"type": "query", "id": "q-none", "failure": cases.queries[0].failure,
                                                   "relevant": []})]) + "\n")
    assert load_cases(path).queries[0].relevant == []
    path.write_text("\n".join([*lines, json.dumps({"type": "query", "id": "q-none", "failure": "x"})]) + "\n")
    with pytest.raises(CaseFileError, match="missing relevant"):
        load_cases(path)


def test_abstention_counts_the_queries_with_nothing_relevant_shown_nothing():
    queries = [_query("a", ["r1"]), _query("b", []), _query("c", [])]
    shown = {"a": ["r1", "r2"], "b": [], "c": ["r2"]}
    out = delivered_metrics(shown, queries)
    assert (out["without_relevant"], out["abstained"]) == (2, 1)
    assert out["precision"] == round(1 / 3, 4) and out["recall_shown"] == 1.0
    ranked = {"a": Ranked(["r2", "r1"], [0.5, 0.4]), "b": Ranked(["r1"], [0.9]), "c": Ranked([], [])}
    figures = metrics(ranked, queries)  # over the one query with a relevant record
    assert figures["queries"] == 1 and figures["recall@1"] == 0.0 and figures["recall@3"] == 1.0


def test_bench_retrieval_runs_a_case_file_with_an_abstention_query(tmp_path):
    from astra_memory.stores.embeddings import HashEmbeddings

    cases = load_cases(DEV_EXTRA_CASES)
    records = cases.records[:4]
    lines = [json.dumps({"type": "record", "id": r.id, "failure": r.failure, "error_type": r.error_type,
                         "files": r.files, "fix": r.fix, "outcome": r.outcome}) for r in records]
    lines.append(json.dumps({"type": "query", "id": "q-rel", "failure": records[0].failure, "relevant": [records[0].id]}))
    lines.append(json.dumps({"type": "query", "id": "q-none", "failure": cases.queries[-1].failure, "relevant": []}))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = run_retrieval(path, embeddings=HashEmbeddings())
    product = result["systems"]["product"]
    assert product["queries"] == 1  # recall is over the query that has a relevant record
    assert product["delivered"]["without_relevant"] == 1
    assert result["searches"]["session"]["without_relevant"] == 1


def test_the_side_by_side_page_says_abstention_when_a_set_has_such_queries():
    from astra_memory.bench.report import retrieval_side_by_side

    delivered = {"precision": 0.5, "recall_shown": 1.0, "nothing_relevant_shown": 0.5, "shown_per_query": 1.0,
                 "without_relevant": 2, "abstained": 1}
    system = {"recall@1": 1.0, "recall@3": 1.0, "mrr": 1.0, "delivered": delivered}
    result = {"systems": ["product"], "sets": {"s": {"queries": 3, "records": 2, "operating_points": [],
                                                     "systems": {"product": system}}}}
    assert "abstained 1 of 2" in retrieval_side_by_side(result)["delivered"]
