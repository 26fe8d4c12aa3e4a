"""Many sessions at once against one memory file and one checkpoint file."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest

from astra_memory.scenarios import load_scenario
from astra_memory.session.run import (
    open_agent,
    resume_session,
    scenario_task,
    start_session,
)
from tests.conftest import cli_env, run_cli

SESSIONS = 8


@pytest.mark.slow
def test_eight_processes_share_one_memory_and_one_checkpoint_file(settings):
    env = cli_env()
    threads = [f"load-{i}" for i in range(SESSIONS)]
    # All eight at once, each a process of its own (forked from the warm launcher: tests/cli_launcher.py).
    with ThreadPoolExecutor(SESSIONS) as pool:
        done = list(pool.map(lambda i: run_cli("run", ("alpha", "beta")[i % 2], "--thread-id", threads[i], "--json",
                                               env=env, timeout=600), range(SESSIONS)))
    failed = {tid: p.stderr[-3000:] for tid, p in zip(threads, done, strict=True) if p.returncode}
    assert not failed, failed
    assert not any("locked" in p.stdout + p.stderr for p in done)
    with open_agent(settings) as agent:
        records = list(agent.memory.iter_records())
        # One record per fix (alpha's, beta's), each session among its confirmations exactly once.
        assert len(records) == 2
        assert sorted(c.thread_id for r in records for c in r.confirmations) == sorted(threads)
        for tid in threads:
            final, ran = resume_session(agent, tid)
            assert final["status"] == "fixed" and ran is False


@pytest.mark.slow
def test_one_process_runs_eight_threads_of_the_compiled_graph(agent, settings):
    tasks = [scenario_task(load_scenario(("alpha", "beta")[i % 2]), settings, f"inproc-{i}") for i in range(SESSIONS)]
    with ThreadPoolExecutor(max_workers=SESSIONS) as pool:
        finals = list(pool.map(lambda task: start_session(agent, task), tasks))
    assert [f["status"] for f in finals] == ["fixed"] * SESSIONS
    records = list(agent.memory.iter_records())
    assert len(records) == 2  # one per fix; every session's confirmation kept, none lost to a race
    assert sorted(c.thread_id for r in records for c in r.confirmations) == sorted(t["session_id"] for t in tasks)
    assert sorted({f["stored_memory_id"] for f in finals}) == sorted(r.memory_id for r in records)


def _open_at_barrier(folder: str, barrier) -> str:
    from astra_memory.backends.sqlite.store import open_sqlite_store
    from astra_memory.checkpoints import open_checkpointer
    from astra_memory.costs.ledger import SqliteCostLedger
    from astra_memory.stores.embeddings import HashEmbeddings

    barrier.wait()  # every process reaches the open of the same fresh files at once
    try:
        with open_sqlite_store(f"{folder}/memory.sqlite", HashEmbeddings()) as store:
            store.put(("probe",), "k", {"embed_text": "x"}, index=False)
        with open_checkpointer(f"{folder}/checkpoints.sqlite") as saver:
            saver.setup()
        SqliteCostLedger(f"{folder}/ledger.sqlite").close()
        return "ok"
    except Exception as exc:  # reported to the parent, not raised in the worker
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.slow
def test_processes_opening_fresh_sqlite_files_at_once_all_succeed(tmp_path):
    # Seen in CI with 8 processes on fresh files: SqliteStore.setup() applying migration 0 twice
    # (UNIQUE constraint failed: vector_migrations.v), and the switch to WAL failing at once with
    # "database is locked". Memory, checkpoints and ledger now open under a set-up file lock
    # (astra_memory/db/setup_lock.py).
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(SESSIONS) as pool:
        for round_ in range(4):  # without the lock, most rounds fail on this machine
            barrier = manager.Barrier(SESSIONS)
            folder = tmp_path / f"round-{round_}"
            folder.mkdir()
            results = pool.starmap(_open_at_barrier, [(str(folder), barrier)] * SESSIONS)
            assert results == ["ok"] * SESSIONS, (round_, results)
