"""Load: sixteen worker processes run sessions against one PostgreSQL memory and checkpoint database.

All sixteen start at once on an empty database (so they also race through schema set-up); four are
SIGKILLed after their edit is applied (ASTRA_CRASH_AT=edit:applied) and their threads are resumed
by a different process. At the end every session is fixed, every confirmed fix is one record with
exactly one vector and every session among its confirmations once, and every thread is visible and finished from a third process.
"""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from astra_memory.session.run import list_threads, open_agent, resume_session
from astra_memory.settings import Settings
from astra_memory.stores.memory import FIX_INDEX
from tests.conftest import ROOT, cli_env, run_cli

WORKERS = 16
CRASHED = 4  # the last four workers are killed mid-session

RESUMER = """
import json, sys
from astra_memory.session.run import open_agent, resume_session
from astra_memory.settings import Settings
out = {}
with open_agent(Settings()) as agent:
    for tid in sys.argv[1:]:
        final, ran = resume_session(agent, tid)
        out[tid] = {"status": final["status"], "ran": ran, "stored": final.get("stored_memory_id")}
print(json.dumps(out))
"""


@pytest.mark.slow
def test_sixteen_processes_share_one_postgres_memory_and_checkpoints(pg_server, pg_url, isolated_home):
    # Replay off: every session must reach the edit node (where four are killed); replay has its own tests.
    env = cli_env(ASTRA_DATABASE_URL=pg_url, ASTRA_EMBEDDINGS="hash", ASTRA_DATABASE_POOL_SIZE="2", ASTRA_REPLAY="0")
    threads = [f"pg-load-{i:02d}" for i in range(WORKERS)]
    started = time.monotonic()

    def worker(i: int) -> subprocess.CompletedProcess:  # a process of its own, forked from the warm launcher
        worker_env = {**env, "ASTRA_CRASH_AT": "edit:applied"} if i >= WORKERS - CRASHED else env
        return run_cli("run", ("alpha", "beta")[i % 2], "--thread-id", threads[i], "--json", env=worker_env,
                       timeout=300)

    with ThreadPoolExecutor(WORKERS) as pool:  # all sixteen at once
        done = list(pool.map(worker, range(WORKERS)))
    codes = [p.returncode for p in done]
    assert codes == [0] * (WORKERS - CRASHED) + [-signal.SIGKILL] * CRASHED, (
        [p.stderr[-1500:] for p in done], pg_server.log_tail())
    for p in done[:WORKERS - CRASHED]:
        assert json.loads(p.stdout)["status"] == "fixed"

    crashed = threads[WORKERS - CRASHED:]
    resumer = subprocess.run([sys.executable, "-c", RESUMER, *crashed], cwd=ROOT, env=env, text=True,
                             capture_output=True, timeout=300)
    assert resumer.returncode == 0, (resumer.stderr[-3000:], pg_server.log_tail())
    resumed = json.loads(resumer.stdout)
    assert all(resumed[t]["status"] == "fixed" and resumed[t]["ran"] for t in crashed), resumed
    elapsed = time.monotonic() - started

    settings = Settings(database_url=pg_url, embeddings="hash")
    with open_agent(settings) as agent:
        records = list(agent.memory.iter_records())
        # One record per fix (alpha's, beta's); every session's confirmation in it exactly once.
        assert len(records) == 2
        assert sorted(c.thread_id for r in records for c in r.confirmations) == sorted(threads)
        with agent.memory.store.conn.connection() as conn:
            vectors = conn.execute("SELECT count(*) AS n, count(DISTINCT key) AS k FROM store_vectors").fetchone()
        # Two vectors per record (its symptom and fix, its cause: stores/mechanism.py), none orphaned.
        assert vectors["n"] == len(FIX_INDEX) * len(records) and vectors["k"] == len(records)
        rows = {r["thread_id"]: r for r in list_threads(agent)}
        assert sorted(rows) == sorted(threads) and {r["status"] for r in rows.values()} == {"fixed"}
        for tid in threads:  # any thread, from this (third) process: finished, nothing left to run
            final, ran = resume_session(agent, tid)
            assert final["status"] == "fixed" and ran is False
            assert final["stored_memory_id"] in {r.memory_id for r in records}
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{WORKERS} sessions ({CRASHED} killed and resumed elsewhere) in {elapsed:.1f}s wall, "
          f"{cpu.ru_utime + cpu.ru_stime:.0f}s CPU in child processes")
