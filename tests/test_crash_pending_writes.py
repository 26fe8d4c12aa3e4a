"""A kill between a node's saved writes and the checkpoint after them (invariant (j), issue 32).

LangGraph saves each finished task's writes (``put_writes``) before the step's checkpoint; a SIGKILL
in between leaves a last checkpoint whose ``next`` is empty while ``tasks`` still holds the node with
its result. `resume` used to read the empty ``next`` as "finished" and lose the session. The point
``writes:NODE`` (astra_memory/crash.py) lands exactly in that window, after every node of a real
session, on SQLite and on PostgreSQL, and the resumed session must end as an uncrashed one does: fixed, exactly one record.
The nodes are killed in two chains, each `resume` killed in the next node's window and the last
resumed to the end: every kill still leaves a thread with saved writes and no next checkpoint.
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


def _state(settings: Settings) -> dict:
    with open_agent(settings) as agent:
        snapshot = thread_state(agent, THREAD)
        return {"finished": finished(snapshot), "next": list(snapshot.next) if snapshot else None,
                "listed": list_threads(agent)}


def _chain(home, url: str | None, nodes: list[str]) -> dict:
    """One session killed in the window after each of ``nodes`` in turn: the first kill by `run`, each
    next one inside the `resume` of the previous kill (the first time that process saves the node's
    writes: ``nodes`` are in the order a run first reaches them, so it is also the session's first
    time), then resumed to the end. Each resume starts from a real kill in that window."""
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    settings = Settings(home=home, embeddings="hash", database_url=url)
    links = {}
    for n, node in enumerate(nodes):
        args = ("run", "alpha", "--thread-id", THREAD, "--json") if n == 0 else ("resume", THREAD, "--json")
        killed = run_cli(*args, env={**env, "ASTRA_CRASH_AT": f"writes:{node}"})
        links[node] = {"killed": killed, "before": _state(settings)}
    resumed = run_cli("resume", THREAD, "--json", env=env)
    with open_agent(settings) as agent:
        records = [r.memory_id for r in agent.memory.iter_records()]
        values = thread_state(agent, THREAD).values
    return {"links": links, "resumed": resumed, "records": records, "values": values}


@pytest.fixture(scope="module", params=BACKENDS)
def runs(request, tmp_path_factory) -> dict:
    """Every node's kill on one backend, in two chains taking turns over the nodes (two cores: two
    sessions at a time): each its own ASTRA_HOME and, on PostgreSQL, its own empty schema."""
    base = tmp_path_factory.mktemp(f"pending-writes-{request.param}")
    server = request.getfixturevalue("pg_holder").ensure_alive() if request.param == "postgres" else None
    chains = [NODES[0::2], NODES[1::2]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(_chain, base / f"chain{n}", server.new_database() if server else None, nodes)
                   for n, nodes in enumerate(chains)]
        return {node: f.result() for f in futures for node in f.result()["links"]}


@pytest.mark.slow
@pytest.mark.parametrize("node", NODES)
def test_killed_after_saved_writes_resumes_to_the_end(runs, node):
    run = runs[node]
    link = run["links"][node]
    assert link["killed"].returncode == -signal.SIGKILL, f"point writes:{node} not reached: {link['killed'].stderr}"
    assert link["before"]["finished"] is False  # saved writes, no next checkpoint: unfinished, whatever `next` says
    (listed,) = link["before"]["listed"]
    assert listed["status"] != "unknown" and listed["next"], listed
    # The chain's next kill (a later node's writes) was reached by the `resume` of this one, so that
    # resume went on; the last one's resume ran to the end:
    assert run["resumed"].returncode == 0, run["resumed"].stderr
    summary = json.loads(run["resumed"].stdout)
    assert summary["resumed"] is True and summary["status"] == run["values"]["status"] == "fixed"
    assert run["records"] == [run["values"]["stored_memory_id"]]  # exactly one record, the session's own
    assert "already finished" not in run["resumed"].stderr
    assert all("already finished" not in later["killed"].stderr for later in run["links"].values())
