"""PostgreSQL as the team backend, against a real server (tests/pg.py): one URL switches checkpoints,
memory and cost ledger; set-up is idempotent under concurrency; errors name the setting; whole
sessions and `memory migrate` work on it.

The memory service's own tests run on both backends in tests/test_memory.py, the gates in
tests/test_gates.py, SIGKILL-and-resume by thread id from another process at every kill point in
tests/test_crash_matrix.py, the cost ledger's in tests/test_postgres_ledger.py; the 16-process
load test is tests/test_postgres_load.py.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.events import read_events
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import (
    list_threads,
    open_agent,
    open_memory,
    scenario_task,
    start_session,
)
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory
from tests.conftest import run_cli

OUTCOME = "pytest passed with exit code 0 (1 passed)"


@pytest.fixture
def pg_settings(pg_url, monkeypatch) -> Settings:
    monkeypatch.setenv("ASTRA_DATABASE_URL", pg_url)
    return Settings()


def _one(pool, sql: str, params: tuple = ()):
    with pool.connection() as conn:
        return conn.execute(sql, params).fetchone()


def test_one_url_puts_checkpoints_memory_and_ledger_in_postgres(pg_settings, isolated_home):
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.store.postgres import PostgresStore
    from psycopg_pool import ConnectionPool

    from astra_memory.costs.ledger_postgres import PostgresCostLedger

    with open_agent(pg_settings) as agent:
        assert isinstance(agent.graph.checkpointer, PostgresSaver)
        assert isinstance(agent.memory.store, PostgresStore) and isinstance(agent.ledger, PostgresCostLedger)
        pool = agent.memory.store.conn
        assert isinstance(pool, ConnectionPool) and agent.graph.checkpointer.conn is pool  # one pool per process
        index = _one(pool, "SELECT indexdef FROM pg_indexes WHERE indexname = 'store_vectors_embedding_idx' "
                            "AND schemaname = current_schema()")
        assert "USING hnsw (embedding vector_cosine_ops)" in index["indexdef"]
        assert "m='16'" in index["indexdef"] and "ef_construction='64'" in index["indexdef"]
        column = _one(pool, "SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute "
                            "WHERE attrelid = 'store_vectors'::regclass AND attname = 'embedding'")
        assert column["t"] == "vector(384)"
        assert _one(pool, "SHOW hnsw.iterative_scan")["hnsw.iterative_scan"] == "relaxed_order"
    # Nothing went to SQLite: no checkpoint, memory or ledger file under ASTRA_HOME.
    assert not list(isolated_home.glob("*.sqlite"))


def test_setup_runs_once_however_many_agents_start_at_once(pg_settings):
    """Eight agents opening a fresh database at the same moment: no catalog race, each migration once."""
    def open_and_count(_):
        with open_agent(pg_settings) as agent:
            return agent.memory.count()

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(open_and_count, range(8))) == [0] * 8
    with open_agent(pg_settings) as agent:
        pool = agent.memory.store.conn
        for table in ("checkpoint_migrations", "store_migrations", "vector_migrations"):
            row = _one(pool, f"SELECT count(*) AS n, count(DISTINCT v) AS d FROM {table}")
            assert row["n"] == row["d"] > 0, table


def test_bad_url_or_unreachable_server_names_the_setting(monkeypatch, pg_server):
    # No server answering is retried (refused, reset: it may be restarting); an answer is final.
    cases = [
        ("mysql://u:hunter22@db/x", "must start with postgresql://", None),
        ("postgresql://u:hunter22@/astra?host=/nonexistent-socket-dir", "cannot connect to PostgreSQL", True),
        (pg_server.database_url("no_such_database"), "does not exist", False),
    ]
    for url, expected, retried in cases:
        monkeypatch.setenv("ASTRA_DATABASE_URL", url)
        with pytest.raises(ConfigurationError) as info:
            with open_memory():
                pass
        message = str(info.value)
        assert expected in message and "ASTRA_DATABASE_URL" in message and "hunter22" not in message
        if retried is not None:
            assert ("(after 5 attempts)" in message) is retried, message


def test_cli_database_url_option_names_the_setting_on_error():
    bad = run_cli("--database-url", "postgresql://u:hunter22@/x?host=/nonexistent-socket-dir", "memory", "list")
    assert bad.returncode == 2 and "cannot connect to PostgreSQL" in bad.stderr and "hunter22" not in bad.stderr
    assert "ASTRA_DATABASE_URL" in bad.stderr


def test_whole_sessions_alpha_then_beta_share_one_postgres_memory(pg_settings):
    """The origin story's plumbing on PostgreSQL: beta's mandatory search, in another agent, reads the
    fix alpha stored before any edit. (Hash embeddings keep it fast, so every stored record counts as
    a hit; that MiniLM ranks alpha's fix above the threshold is the demo test's job, and the scores
    are the same on both backends: tests/test_memory.py.)"""
    everything = Context(min_score=-1.0)
    with open_agent(pg_settings) as agent:
        alpha = start_session(agent, scenario_task(load_scenario("alpha"), pg_settings, "pg-alpha"), context=everything)
        assert alpha["status"] == "fixed" and alpha["stored_memory_id"] and alpha["memory"]["hits"] == []
    with open_agent(pg_settings) as agent:  # a new agent: nothing carried over in process memory
        beta_task = scenario_task(load_scenario("beta"), pg_settings, "pg-beta")
        beta = start_session(agent, beta_task, context=everything)
        assert beta["status"] == "fixed"
        kinds = [e["event"] for e in read_events(beta_task["run_dir"])]
        assert kinds.index("memory_search") < kinds.index("edit")
        assert alpha["stored_memory_id"] in [h["memory_id"] for h in beta["memory"]["hits"]]
        assert {r.session_id for r in agent.memory.iter_records()} == {"pg-alpha", "pg-beta"}
        rows = {r["thread_id"]: r for r in list_threads(agent)}
        assert [rows[t]["status"] for t in ("pg-alpha", "pg-beta")] == ["fixed", "fixed"]
        assert list(rows) == ["pg-beta", "pg-alpha"]  # most recent first


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_eight_threads_of_one_agent_share_its_connection_pool(agent, settings, backend):
    """tests/test_load.py's in-process case on PostgreSQL: one agent (one pool), eight graph threads."""
    from tests.test_load import (
        test_one_process_runs_eight_threads_of_the_compiled_graph as eight_threads,
    )

    eight_threads(agent, settings)


# -- memory migrate ---------------------------------------------------------------------------------

def _fill(target, n: int) -> dict[str, str]:
    from astra_memory.backends.open import open_memory_store

    with open_memory_store(target, HashEmbeddings(), setting="test") as opened:
        memory = FixMemory(opened.store, min_score=-1)
        ids = {}
        for i in range(n):
            record = memory.store_fix_memory(
                f"fix number {i}", ("AssertionError", "KeyError")[i % 2], [f"app/m{i}.py"], OUTCOME,
                confirmed_outcome=OUTCOME, symptom=f"symptom {i} token{i % 7}", diff=f"-{i}\n+{i}\n",
                session_id=f"s{i}")
            ids[record.memory_id] = record.model_dump_json()
        # A version-1 record (its id was over the session, not its content: stores/record.py content_problem).
        unindexed = {**json.loads(next(iter(ids.values()))), "memory_id": "00000000-0000-0000-0000-000000000000",
                     "symptom": "a record stored without a vector", "diff": "-unindexed\n+unindexed\n",
                     "schema_version": 1}
        unindexed["embed_text"] = f"{unindexed['symptom']}\nFix: {unindexed['fix_description']}"
        # A record without a vector (put with index=False): migrate must embed it, and say so.
        opened.store.put(("astra", "fixes"), unindexed["memory_id"], unindexed, index=False)
        ids["00000000-0000-0000-0000-000000000000"] = None
        return ids


def _snapshot(target) -> tuple[dict, dict]:
    from astra_memory.backends.migrate import stored_vectors
    from astra_memory.backends.open import open_memory_store

    with open_memory_store(target, HashEmbeddings(), setting="test") as opened:
        memory = FixMemory(opened.store, min_score=-1)
        records = {r.memory_id: r.model_dump_json() for r in memory.iter_records()}
        vectors = {k: np.asarray(v, dtype=np.float32) for k, v in stored_vectors(opened.store).items()}
        hits = memory.search_codebase_memory("symptom 3 token3", error_type="KeyError", top_k=1)
        assert hits and hits[0].record.session_id == "s3"
    return records, vectors


def test_migrate_moves_records_ids_and_vectors_both_ways(pg_url, tmp_path):
    from astra_memory.backends.migrate import migrate

    source = tmp_path / "team.sqlite"
    _fill(source, 120)
    records, vectors = _snapshot(source)
    assert len(records) == 121 and len(vectors) == 120

    to_pg = migrate(source, pg_url, HashEmbeddings(), batch=50)
    # Two vectors per fix (its symptom and fix; its cause without names, stores/mechanism.py). The record
    # put without vectors has its text embedded afresh; its cause ("fix number", like every other's once
    # the numbers are out) is the same text as the others', whose stored vector is copied.
    assert (to_pg.records, to_pg.vectors_copied, to_pg.re_embedded) == (121, 2 * 120 + 1, 1)
    assert (to_pg.destination_before, to_pg.destination_after) == (0, 121)
    pg_records, pg_vectors = _snapshot(pg_url)
    assert pg_records == records  # every record, same id, same content
    assert all(np.array_equal(pg_vectors[k], v) for k, v in vectors.items())  # copied bit for bit (float32)

    back = tmp_path / "back.sqlite"
    to_sqlite = migrate(pg_url, back, HashEmbeddings())
    assert (to_sqlite.records, to_sqlite.vectors_copied, to_sqlite.re_embedded) == (121, 2 * 121, 0)
    back_records, back_vectors = _snapshot(back)
    assert back_records == records and all(np.array_equal(back_vectors[k], v) for k, v in pg_vectors.items())

    again = migrate(source, pg_url, HashEmbeddings())  # a repeated move upserts: no duplicates
    assert (again.destination_before, again.destination_after) == (121, 121)


def test_migrate_cli_then_the_team_reads_it_through_database_url(pg_url, tmp_path, isolated_home):
    source = tmp_path / "mine.sqlite"
    _fill(source, 5)
    moved = run_cli("memory", "migrate", "--from", str(source), "--to", pg_url, "--json")
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["records"] == report["destination_after"] == 6 and report["vectors_copied"] == 2 * 5 + 1
    # Then the destination is upgraded to one record per fix: the hand-made id gets its fix's id.
    assert report["upgrade"] == {"records_before": 6, "records_after": 6, "merged": 0, "renamed": 1, "repaired": 0,
                                 "marked": 0, "repointed": 0}
    listing = run_cli("--database-url", pg_url, "memory", "list", "--json")
    assert listing.returncode == 0, listing.stderr
    assert len(json.loads(listing.stdout)) == 6 and not (isolated_home / "memory.sqlite").exists()


def test_migrate_refusals_are_clear(pg_url, tmp_path):
    from astra_memory.backends.migrate import migrate

    with pytest.raises(ConfigurationError, match="no such memory file"):
        migrate(tmp_path / "nope.sqlite", pg_url, HashEmbeddings())
    with pytest.raises(ConfigurationError, match="the same memory"):
        migrate(pg_url, pg_url, HashEmbeddings())
    with pytest.raises(ConfigurationError, match="a postgresql:// URL, a vectorai://HOST:PORT or a SQLite file path"):
        migrate("mysql://db/x", pg_url, HashEmbeddings())
