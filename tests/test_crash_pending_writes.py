"""A kill between a node's saved writes and the checkpoint after them (invariant (j), issue 32).

LangGraph saves each finished task's writes (``put_writes``) before the step's checkpoint; a SIGKILL
in between leaves a last checkpoint whose ``next`` is empty while ``tasks`` still holds the node with
its result. `resume` used to read the empty ``next`` as "finished" and lose the session. The point
``writes:NODE`` (astra_memory/crash.py) lands exactly in that window, after every node of a real
session, on SQLite and on PostgreSQL, and the resumed session must end as an uncrashed one does: fixed, exactly one record.
"""

from __future__ import annotations

import json
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

from astra_memory.session.run import finished, list_threads, open_agent, thread_state
from astra_memory.settings import Settings
from tests.conftest import BACKENDS, cli_env, run_cli

NODES = ["prepare", "observe", "memory_search", "replay", "investigate", "tools", "diagnosis_search", "edit", "test",
         "confirm", "store", "report"]
THREAD = "pending-writes"


def _killed_then_resumed(home, url: str | None, node: str) -> dict:
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    settings = Settings(home=home, embeddings="hash", database_url=url)
    killed = run_cli("run", "alpha", "--thread-id", THREAD, "--json", env={**env, "ASTRA_CRASH_AT": f"writes:{node}"})
    with open_agent(settings) as agent:
        snapshot = thread_state(agent, THREAD)
        before = {"finished": finished(snapshot), "next": list(snapshot.next) if snapshot else None,
                  "listed": list_threads(agent)}
    resumed = run_cli("resume", THREAD, "--json", env=env)
    with open_agent(settings) as agent:
        records = [r.memory_id for r in agent.memory.iter_records()]
        values = thread_state(agent, THREAD).values
    return {"killed": killed, "before": before, "resumed": resumed, "records": records, "values": values}


@pytest.fixture(scope="module", params=BACKENDS)
def runs(request, tmp_path_factory) -> dict:
    """Every node's kill on one backend: its own ASTRA_HOME and, on PostgreSQL, its own empty schema."""
    base = tmp_path_factory.mktemp(f"pending-writes-{request.param}")
    server = request.getfixturevalue("pg_holder").ensure_alive() if request.param == "postgres" else None
    urls = {node: server.new_database() if server else None for node in NODES}
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two sessions at a time
        futures = {node: pool.submit(_killed_then_resumed, base / node, urls[node], node) for node in NODES}
        return {node: f.result() for node, f in futures.items()}


@pytest.mark.slow
@pytest.mark.parametrize("node", NODES)
def test_killed_after_saved_writes_resumes_to_the_end(runs, node):
    run = runs[node]
    assert run["killed"].returncode == -signal.SIGKILL, f"point writes:{node} not reached: {run['killed'].stderr}"
    assert run["before"]["finished"] is False  # saved writes, no next checkpoint: unfinished, whatever `next` says
    (listed,) = run["before"]["listed"]
    assert listed["status"] != "unknown" and listed["next"], listed
    assert run["resumed"].returncode == 0, run["resumed"].stderr
    summary = json.loads(run["resumed"].stdout)
    assert summary["resumed"] is True and summary["status"] == run["values"]["status"] == "fixed"
    assert run["records"] == [run["values"]["stored_memory_id"]]  # exactly one record, the session's own
    assert "already finished" not in run["resumed"].stderr
