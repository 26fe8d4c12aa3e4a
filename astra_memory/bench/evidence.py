"""Evidence bench: outcome-aware ranking (stores/evidence.py) with and without, on the same memory.

The retrieval case files hold each fix once (one confirmation), so on their own they cannot show
what evidence does. Two histories give the records evidence; in each, the three rankings search
the very same store, so the only difference between them is the evidence step:

- ``off``: fused similarity order only (the product before outcome-aware ranking);
- ``project`` (the product): records of the query's project move up by their lift;
- ``all``: every record moves up by its lift, whatever its project.

Histories (seeded, several seeds; the distributions were fixed before measuring):

- ``uncorrelated``: every record gets a confirmation count drawn independently of any query
  (60 % once, the rest up to 16 times, half of the extra ones replays). Evidence here says nothing
  about relevance: the cost of trusting it.
- ``recurring``: the queries run one after another in a seeded order; half of them are the bug
  coming back in the project of one of its relevant records (the query then searches as that
  project), the rest are other projects, as in the case file. A session that recurs where it was
  fixed adds a confirmation to that record (a replay when the record was delivered first); the
  next searches see it. Evidence accrues only on fixes that worked, as in the product.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.bench.common import machine_info, make_progress, write_json
from astra_memory.bench.query_cases import CaseSet, QueryCase, load_cases
from astra_memory.bench.report import _machine_line, md_table
from astra_memory.bench.retrieval import (
    SEARCH_TOP_K,
    Ranked,
    case_project_id,
    metrics,
    ranked,
    store_case_record,
)
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import MiniLMEmbeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.record import FixRecord
from astra_memory.testrun.symptoms import parse_failure, symptom_query

SCOPES = ("off", "project", "all")
HISTORIES = ("uncorrelated", "recurring")
SEEDS = (0, 1, 2)
# Confirmation counts of the uncorrelated history: (count, weight). Fixed before measuring.
COUNT_WEIGHTS = ((1, 60), (2, 15), (3, 7), (4, 5), (6, 5), (8, 3), (12, 3), (16, 2))


def confirm_again(memory: FixMemory, record: FixRecord, label: str, kind: str = "fix") -> FixRecord:
    """One more session (``label``) confirming ``record``, through the product's own merge."""
    extra = record.model_copy(update={"confirmations": [record.confirmations[0].model_copy(
        update={"session_id": label, "thread_id": label, "kind": kind})], "confirmations_dropped": 0})
    return memory.put_record(extra)


def _search(services: dict[str, FixMemory], query: str, project_id: str, exclude: list[str]) -> dict[str, Ranked]:
    return {scope: ranked(service.search_codebase_memory(query, top_k=SEARCH_TOP_K, min_score=-1.0,
                                                         project_id=project_id),
                          exclude) for scope, service in services.items()}


def run_history(cases: CaseSet, history: str, seed: int, embeddings, workdir: Path) -> dict[str, dict]:
    """One history on one seed: metrics per scope over every query, and (``recurring``) over the
    queries that came back in a project with evidence on its relevant record already."""
    rng = random.Random(f"{history}:{seed}")
    rankings: dict[str, dict[str, Ranked]] = {scope: {} for scope in SCOPES}
    with open_sqlite_store(workdir / f"{history}-{seed}.sqlite", embeddings) as store:
        services = {scope: FixMemory(store, evidence=scope) for scope in SCOPES}
        memory = services["project"]
        stored = {rec.id: store_case_record(memory, rec) for rec in cases.records}
        queries: list[QueryCase] = list(cases.queries)
        if history == "uncorrelated":
            counts, weights = zip(*COUNT_WEIGHTS, strict=True)
            for rid, record in stored.items():
                for n in range(rng.choices(counts, weights)[0] - 1):
                    record = confirm_again(memory, record, f"{rid}-c{n}", "replay" if rng.random() < 0.5 else "fix")
        else:
            rng.shuffle(queries)
        with_evidence: list[QueryCase] = []
        for q in queries:
            query = symptom_query(parse_failure(q.failure))
            home = None
            if history == "recurring" and rng.random() < 0.5:
                home = rng.choice([rid for rid in q.relevant if rid not in q.exclude] or [None])
            project_id = stored[home].project_id if home else case_project_id(q.project)
            if home and stored[home].times_confirmed > 1:
                with_evidence.append(q)
            for scope, ranked in _search(services, query, project_id, q.exclude).items():
                rankings[scope][q.id] = ranked
            if home:  # the bug came back where it was fixed: that session confirms the record
                kind = "replay" if rankings["project"][q.id].ids[:1] == [home] else "fix"
                stored[home] = confirm_again(memory, stored[home], f"{q.id}-again", kind)
    result = {scope: metrics(rankings[scope], cases.queries) for scope in SCOPES}
    if with_evidence:
        result["with_evidence"] = {scope: metrics(rankings[scope], with_evidence) for scope in SCOPES}
    return result


def _mean(rows: list[dict[str, float]], key: str) -> float:
    return round(sum(r[key] for r in rows) / len(rows), 4)


def _summary(runs: list[dict[str, dict]]) -> dict[str, dict]:
    """Per scope: the mean over seeds, and the worst seed's change from ``off`` (same store)."""
    return {scope: {
        **{k: _mean([r[scope] for r in runs], k) for k in ("recall@1", "recall@3", "mrr")},
        "worst_recall@1_change": round(min(r[scope]["recall@1"] - r["off"]["recall@1"] for r in runs), 4),
        "worst_recall@3_change": round(min(r[scope]["recall@3"] - r["off"]["recall@3"] for r in runs), 4),
    } for scope in SCOPES}


def run_evidence(sets: dict[str, str | Path], *, embeddings=None, seeds=SEEDS, progress=None) -> dict[str, Any]:
    """Every history × seed on every set; per set, history and scope: mean and worst seed."""
    loaded = {name: load_cases(path) for name, path in sets.items()}
    embeddings = embeddings or MiniLMEmbeddings(Settings().embedding_model_path)
    progress = progress or make_progress(False)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="astra-bench-evidence-") as tmp, progress:
        task = progress.add_task("evidence: histories x seeds", total=len(loaded) * len(HISTORIES) * len(seeds))
        for name, cases in loaded.items():
            out[name] = {}
            for history in HISTORIES:
                runs = []
                for seed in seeds:
                    workdir = Path(tmp) / name  # one fresh store per set, history and seed
                    workdir.mkdir(exist_ok=True)
                    runs.append(run_history(cases, history, seed, embeddings, workdir))
                    progress.advance(task)
                out[name][history] = _summary(runs)
                subset = [r["with_evidence"] for r in runs if "with_evidence" in r]
                if subset:
                    out[name][history + ": recurred, evidence on the relevant fix"] = {
                        **_summary(subset), "queries_per_seed": [r["off"]["queries"] for r in subset]}
    return {"bench": "evidence", "sets": out, "seeds": list(seeds), "scopes": list(SCOPES),
            "histories": list(HISTORIES), "queries": {n: len(c.queries) for n, c in loaded.items()},
            "machine": machine_info()}


def evidence_rows(result: dict) -> list[list[str]]:
    """One row per set, history and scope: the report's (and the CLI's) table."""
    rows = []
    for name, histories in result["sets"].items():
        for history, scopes in histories.items():
            for scope in SCOPES:
                m = scopes[scope]
                rows.append([name, history, scope, f"{m['recall@1']:.3f}", f"{m['recall@3']:.3f}", f"{m['mrr']:.3f}",
                             f"{m['worst_recall@1_change']:+.3f}", f"{m['worst_recall@3_change']:+.3f}"])
    return rows


HEADER = ["set", "history", "evidence", "recall@1", "recall@3", "MRR@10", "worst seed Δr@1", "worst seed Δr@3"]


def write_evidence(result: dict, folder: Path, command: str) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    json_path = write_json(folder / "evidence.json", {**result, "command": command})
    lines = [f"# Outcome-aware ranking, with and without (`{command}`)", "",
             f"Seeds {result['seeds']}; means over seeds; Δ = the worst seed's change from `off` on the same store.",
             "`off`: similarity only; `project` (the product): the query's project's records lifted by evidence; "
             "`all`: every record lifted.", "", md_table(HEADER, evidence_rows(result)), "",
             _machine_line(result["machine"])]
    md_path = folder / "evidence.md"
    md_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"markdown": str(md_path), "json": str(json_path), "png": []}
