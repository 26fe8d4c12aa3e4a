"""One memory for the CLI and Studio (issue 23, part 2): the real `langgraph dev` (tests/test_studio.py's
server, its own for this module) uses the CLI's fix memory by default, the data folder's SQLite file, or
the PostgreSQL database ASTRA_DATABASE_URL names (a server of its own, started by that test).

A fix the CLI stored is found and replayed by a Studio run; a fix confirmed in Studio is found by
`astra-memory memory search`; the run's first update says which memory it uses.
"""

from __future__ import annotations

import json
import os

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_sdk import get_sync_client

from astra_memory.backends.open import DATABASE_URL_SETTING
from astra_memory.db.postgres import redact_url
from astra_memory.graph.studio import MEMORY_SETTING, SERVER_MEMORY, studio_graph
from astra_memory.nodes.common import COST_LEDGER_KEY, MEMORY_STORE_KEY
from astra_memory.scenarios import load_scenario
from tests.conftest import run_cli
from tests.openai_server import DEFAULT_KEY, OpenAIServer, script_from_solution
from tests.test_studio import (  # noqa: F401  (the module's own server)
    GRAPH,
    RUN_TIMEOUT_S,
    assistant,
    client,
    running,
    server,
)

pytestmark = [pytest.mark.slow, pytest.mark.minilm]


def _cli(started, *args: str) -> str:
    """The CLI as a user runs it beside the server: the same default data folder (no ASTRA_HOME), the
    same database when the server's environment names one."""
    env = {k: v for k, v in os.environ.items() if k != "ASTRA_HOME"}
    env.update(XDG_DATA_HOME=str(started.data_home), ASTRA_EMBEDDINGS="minilm", **started.environ)
    result = run_cli(*args, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def test_the_cli_and_studio_share_one_fix_memory(server, client, assistant):  # noqa: F811
    memory_file = server.data_home / "astra-memory" / "memory.sqlite"
    one_memory(server, client, assistant, f"the CLI's fix memory: SQLite {memory_file} ")


def test_the_cli_and_studio_share_one_postgresql_memory(tmp_path, pg_url):
    """The same through a server whose environment names a PostgreSQL database (ASTRA_DATABASE_URL); a live
    run's spend goes to that database's cost ledger, which `astra-memory cost` reads."""
    environ = {DATABASE_URL_SETTING: pg_url, "OPENAI_API_KEY": DEFAULT_KEY}
    with OpenAIServer(script_from_solution(load_scenario("alpha").solution)) as model, \
            running(tmp_path, environ=environ) as started:
        client = get_sync_client(url=started.url, timeout=RUN_TIMEOUT_S)
        assistant = client.assistants.search(graph_id=GRAPH)[0]["assistant_id"]
        one_memory(started, client, assistant, f"the CLI's fix memory: PostgreSQL {redact_url(pg_url)} ")

        live = client.assistants.create(GRAPH, name="live", context={
            "model": "openai:gpt-4.1-mini", "base_url": model.base_url, "approve_live_cost": True, "replay": False,
            "session_budget_usd": 0.05})["assistant_id"]
        thread = client.threads.create()["thread_id"]
        final = client.runs.wait(thread, live, input={"task": {"scenario": "alpha"}})
        assert final["status"] == "fixed" and len(model.model_requests()) == 4
        view = json.loads(_cli(started, "cost", "--json"))
        assert view["ledger"] == redact_url(pg_url) and [s["thread_id"] for s in view["sessions"]] == [thread]
        assert 0 < final["budget"]["cost_usd"] == pytest.approx(view["total"]["spent_usd"], abs=1e-6)
    data = started.data_home / "astra-memory"
    assert not (data / "memory.sqlite").exists() and not (data / "ledger.sqlite").exists()


def one_memory(server, client, assistant, says: str) -> None:  # noqa: F811
    """The CLI stores a fix that a Studio run finds and replays; the CLI finds a fix stored by Studio."""
    # 1. The CLI fixes alpha and stores the fix in its memory, the data folder's SQLite file.
    _cli(server, "run", "alpha")
    (stored,) = json.loads(_cli(server, "memory", "list", "--json"))
    cli_fix = stored["memory_id"]

    # 2. Studio, on a new thread: the first update names that memory; the CLI's fix is found and replayed.
    thread = client.threads.create()["thread_id"]
    updates = [e.data for e in client.runs.stream(thread, assistant, input={"task": {"scenario": "alpha"}},
                                                  stream_mode="updates") if e.event == "updates"]
    first = updates[0]["prepare"]["task"]["fix_memory"]
    assert first.startswith(says) and MEMORY_SETTING in first
    final = client.threads.get_state(thread)["values"]
    assert final["status"] == "fixed", final.get("reason")
    assert final["memory"]["hits"][0]["memory_id"] == cli_fix
    assert final["replay"]["replayed"] == cli_fix and final["budget"].get("model_requests", 0) == 0
    assert not client.store.search_items(["astra"])["items"], "the server's own store was written"

    # 3. A fix confirmed in Studio (beta, by the scripted model) is found by `astra-memory memory search`.
    beta = client.runs.wait(client.threads.create()["thread_id"], assistant, input={"task": {"scenario": "beta"}})
    assert beta["status"] == "fixed" and beta["stored_memory_id"] not in (None, cli_fix)
    found = json.loads(_cli(server, "memory", "search", beta["memory"]["query"], "--json"))
    assert beta["stored_memory_id"] in [hit["memory_id"] for hit in found]
    shown = _cli(server, "memory", "show", beta["stored_memory_id"])
    assert beta["stored_memory_id"] in shown


def test_the_servers_own_store_is_a_named_choice(tmp_path, monkeypatch):
    """ASTRA_STUDIO_MEMORY=server: the store the server passes (here a script's) is used, and the
    first update says so; the default graph carries the CLI memory's opener."""
    from langgraph.store.memory import InMemoryStore

    assert MEMORY_STORE_KEY in studio_graph().config["configurable"]
    chosen = studio_graph(SERVER_MEMORY)
    assert MEMORY_STORE_KEY not in (chosen.config or {}).get("configurable", {})
    assert COST_LEDGER_KEY in chosen.config["configurable"]  # the CLI's cost ledger, whichever memory
    own = InMemoryStore()
    graph = chosen.copy(update={"checkpointer": InMemorySaver(), "store": own})
    config = {"configurable": {"thread_id": "server-store"}}
    first = next(iter(graph.stream({"task": {"scenario": "alpha"}}, config, stream_mode="updates")))
    assert first["prepare"]["task"]["fix_memory"].startswith(f"the langgraph dev server's own store ({MEMORY_SETTING}")
    monkeypatch.setenv(MEMORY_SETTING, "elsewhere")
    with pytest.raises(ValueError, match="ASTRA_STUDIO_MEMORY='elsewhere' is not one of: cli"):
        studio_graph()
