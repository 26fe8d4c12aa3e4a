"""The perf bench's records and vectors: realistic texts, noisy copies of their embeddings, records
put through the store's own path, and the SQLite backend. Shared by ``perf`` and ``perf_postgres``
(both import from here; neither imports the other at module level).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import PutOp

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.bench.query_cases import SHIPPED_CASES, load_cases
from astra_memory.scenarios import list_scenarios
from astra_memory.stores.record import memory_id_for, utc_now, validate_record
from astra_memory.testrun.symptoms import parse_failure, symptom_query

NOISE_SIGMA = 0.02  # per dimension; a noisy copy keeps a cosine of about 0.93 to its source text
PUT_BATCH = 1_000
NAMESPACE = ("astra", "fixes")


@contextmanager
def sqlite_backend(folder: Path, embeddings: Embeddings) -> Iterator[Any]:

    with open_sqlite_store(folder / "memory.sqlite", embeddings) as store:
        yield store


class PrecomputedEmbeddings(Embeddings):
    """Vectors looked up by text; texts not in the table go to the real model.

    Record texts and warm query texts are in the table, so puts and the timed vector searches do
    no model work; a query that is not in the table is embedded by MiniLM as in a session.
    """

    def __init__(self, model: Embeddings):
        self.model = model
        self.table: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.table]
        computed = dict(zip(missing, self.model.embed_documents(missing), strict=True)) if missing else {}
        return [self.table[t] if t in self.table else computed[t] for t in texts]  # never cached

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


# -- realistic texts and vectors ------------------------------------------------------------------

def corpus_texts(limit: int = 400) -> list[str]:
    """A few hundred real texts from the bundled scenarios: titles, prompts, fixes, test and source functions."""
    texts: list[str] = []
    for scenario in list_scenarios():
        texts += [scenario.title, scenario.prompt]
        texts += [s["args"].get("fix_description", "") for s in scenario.solution if s["tool"] == "finish"]
        for path in sorted(scenario.template.rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            texts += [chunk.strip() for chunk in re.split(r"\n(?=def |class )", source) if len(chunk.strip()) > 40]
    unique = list(dict.fromkeys(t for t in texts if t))
    return unique[:limit]


def noisy_vectors(base, count: int, seed: int = 7, start: int = 0):
    """``count`` unit vectors: base vectors in turn, each with Gaussian noise, re-normalised."""
    import numpy as np

    rng = np.random.default_rng(seed + start)
    picks = (np.arange(start, start + count) % len(base))
    vectors = base[picks] + rng.normal(0.0, NOISE_SIGMA, size=(count, base.shape[1])).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32), picks


def record_value(template: dict, text: str, index: int) -> dict:
    """A full, valid record value (as ``FixRecord.to_store_value`` writes it), unique per index."""
    value = dict(template)
    value["diff"] = template["diff"].rstrip("\n") + f"  # {index}\n"  # its own fix, under its content's id
    value["memory_id"] = memory_id_for(project=value["project"], error_type=value["error_type"], diff=value["diff"],
                                       fix_description=value["fix_description"], file_paths=value["file_paths"])
    value["symptom"] = f"{text[:600]} [synthetic record {index}]"
    value["session_id"] = value["thread_id"] = f"perf-{index}"
    value["embed_text"] = f"{value['symptom']}\nFix: {value['fix_description']}"
    return value


def put_vectors(store, embeddings, template: dict, texts: list[str], vectors, picks, start: int,
                ids: list[str]) -> Iterator[int]:
    """Insert precomputed vectors through the store's own put path, one batch at a time.

    Appends each record id to ``ids`` and yields each batch's size (for progress).
    """

    for offset in range(0, len(vectors), PUT_BATCH):
        ops = []
        for j in range(offset, min(offset + PUT_BATCH, len(vectors))):
            value = record_value(template, texts[picks[j]], start + j)
            embeddings.table[value["embed_text"]] = vectors[j].tolist()
            ids.append(value["memory_id"])
            ops.append(PutOp(NAMESPACE, value["memory_id"], value, index=["embed_text"]))
        store.batch(ops)
        for op in ops:  # the table only needs a vector until its put has run
            embeddings.table.pop(op.value["embed_text"], None)
        yield len(ops)


def record_template() -> dict:

    now = utc_now()
    record = validate_record({
        "memory_id": str(uuid.uuid4()), "symptom": "placeholder", "error_type": "AssertionError",
        "file_paths": ["app/module.py"], "outcome": "pytest passed with exit code 0 (4 passed)",
        "fix_description": "Strip whitespace around each comma-separated entry before comparing it "
                           "(synthetic record for the perf bench).",
        "diff": "--- a/app/module.py\n+++ b/app/module.py\n@@ -1 +1 @@\n-    return raw.split(',')\n"
                "+    return [p.strip() for p in raw.split(',')]\n",
        "timestamp": now, "updated_at": now, "session_id": "perf", "thread_id": "perf", "project": "perf-bench",
        "model": "synthetic"})
    return record.to_store_value()


def timed(fn: Callable[[], Any], repeats: int, warmup: int = 2) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def real_queries(cases_path: str | Path | None = None, limit: int = 20) -> tuple[list[str], list[dict]]:
    """Symptom queries and storable records from the retrieval cases (real failures; default: shipped)."""
    cases = load_cases(cases_path or SHIPPED_CASES)
    queries = [symptom_query(parse_failure(q.failure)) for q in cases.queries][:limit]
    records = [{"fix_description": r.fix, "error_type": r.error_type, "file_paths": r.files, "outcome": r.outcome,
                "confirmed_outcome": r.outcome, "symptom": symptom_query(parse_failure(r.failure)), "diff": r.diff,
                "session_id": r.id, "project": r.project, "model": "bench"} for r in cases.records]
    return queries, records
