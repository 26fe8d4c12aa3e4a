"""Live models from Studio, behind the CLI's cost guard (issue 23, parts 1 and 4): the real `langgraph dev`
(tests/test_studio.py's server, with OPENAI_API_KEY in its own .env) driven with `langgraph_sdk`,
against the local OpenAI-compatible server of tests/openai_server.py (127.0.0.1, no network).

A run whose assistant's context approves live cost fixes alpha; its spend is in the ledger the CLI
reads (`astra-memory cost`); runs without approval, or over a budget, are refused before the model
server sees a request. The streamed updates carry what a watcher needs (memory hits with scores, the
replay decision and why, each edit's diff, test outcomes, spend so far). The refusals' words are also
checked in-process on the same graph (no key, unknown price), where the server's environment is ours.
"""

from __future__ import annotations

import json
import shutil

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_sdk import get_sync_client
from langgraph_sdk.schema import Command

from astra_memory.context import Context
from astra_memory.graph.studio import studio_graph
from astra_memory.scenarios import load_scenario
from tests.openai_server import DEFAULT_KEY, OpenAIServer, script_from_solution
from tests.test_studio import GRAPH, RUN_TIMEOUT_S, _error_of, running
from tests.test_studio_memory import _cli

pytestmark = [pytest.mark.slow, pytest.mark.minilm, pytest.mark.live_wire]
MODEL = "openai:gpt-4.1-mini"  # in the price table: $0.40 / $1.60 per million tokens
ALPHA = script_from_solution(load_scenario("alpha").solution)  # four turns
SCENARIO = {"task": {"scenario": "alpha"}}


@pytest.fixture(scope="module")
def model_server():
    with OpenAIServer(ALPHA) as started:
        yield started


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("studio-live")
    dotenv = root / "server.env"  # the user's .env, named by langgraph.json "env"
    dotenv.write_text(f"OPENAI_API_KEY={DEFAULT_KEY}\n")
    with running(root, dotenv=dotenv) as started:
        yield started


def _assistant(client, name: str, context: dict) -> str:
    """An assistant with its context set, as Studio's assistant settings make one."""
    return client.assistants.create(GRAPH, context=context, name=name)["assistant_id"]


def test_a_live_model_runs_from_studio_under_the_clis_cost_guard(live_server, model_server):
    client = get_sync_client(url=live_server.url, timeout=RUN_TIMEOUT_S)
    live = {"model": MODEL, "base_url": model_server.base_url, "max_retries": 0, "request_timeout_s": 20.0}

    # 1. Not approved: refused at prepare, in the words of Studio's settings; nothing was sent.
    error = _error_of(client, _assistant(client, "live, not approved", live), SCENARIO)
    assert error["error"] == "TaskInputError" and "approve_live_cost" in error["message"]
    assert "assistant's context" in error["message"] and "--approve-live-cost" not in error["message"]
    assert model_server.requests == []

    # 2. Approved in the assistant's context: alpha is fixed by the live model (4 requests), and the
    #    streamed updates say what happened at each step.
    approved = _assistant(client, "live", {**live, "approve_live_cost": True, "session_budget_usd": 0.05})
    thread = client.threads.create()["thread_id"]
    updates = [e.data for e in client.runs.stream(thread, approved, input=SCENARIO, stream_mode="updates")
               if e.event == "updates"]
    final = client.threads.get_state(thread)["values"]
    assert final["status"] == "fixed", final.get("reason")
    assert final["task"]["model"] == MODEL and len(model_server.model_requests()) == 4
    assert model_server.violations == []
    by_node: dict[str, list[dict]] = {}
    for update in updates:
        for node, values in update.items():
            by_node.setdefault(node, []).append(values or {})
    memory = by_node["memory_search"][0]["memory"]
    assert memory["query"] and memory["hits"] == []  # an empty memory: the search is shown all the same
    assert by_node["replay"][0]["replay"] == {"tried": [], "replayed": None, "passed_over": [],
                                              "skipped": "memory returned no confirmed fix"}
    (edit,) = [e for values in by_node["edit"] for e in values.get("edits", [])]
    assert edit["path"] == "app/settings.py" and edit["diff"].startswith("--- a/app/settings.py")
    (passing,) = [r for values in by_node["test"] for r in values.get("test_runs", [])]
    assert passing["passed"] and passing["outcome"] == final["passed_outcome"]
    spend = [values["spend"] for values in by_node["investigate"]]
    assert [s["model_requests"] for s in spend] == [1, 2, 3, 4]
    assert all(s["session_budget_usd"] == 0.05 for s in spend)
    assert 0 < spend[0]["cost_usd"] < spend[-1]["cost_usd"] == pytest.approx(final["budget"]["cost_usd"])

    # 3. Its spend is in the CLI's ledger: `astra-memory cost` shows it.
    view = json.loads(_cli(live_server, "cost", "--json"))
    (session,) = view["sessions"]
    assert session["thread_id"] == thread and session["requests"] == 4
    assert session["spent_usd"] == pytest.approx(final["budget"]["cost_usd"], abs=1e-6)

    # 4. Over the session budget: the first request's worst case does not fit; nothing is sent.
    tight = _assistant(client, "live, tight", {**live, "approve_live_cost": True, "session_budget_usd": 0.0001,
                                               "replay": False})
    over = client.runs.wait(client.threads.create()["thread_id"], tight, input=SCENARIO)
    assert over["status"] == "budget_exhausted" and "session budget $0.0001 would be exceeded" in over["reason"]
    assert "session_budget_usd" in over["reason"] and len(model_server.model_requests()) == 4

    # 5. One total budget across Studio and the CLI: the ledger's total already spent leaves no room.
    spent = view["total"]["spent_usd"]
    full = _assistant(client, "live, total spent", {**live, "approve_live_cost": True, "replay": False,
                                                    "total_budget_usd": spent + 0.0001})
    over = client.runs.wait(client.threads.create()["thread_id"], full, input=SCENARIO)
    assert over["status"] == "budget_exhausted" and "total budget" in over["reason"]
    assert "total_budget_usd" in over["reason"] and len(model_server.model_requests()) == 4
    assert json.loads(_cli(live_server, "cost", "--json"))["total"]["requests"] == 4

    # 6. The replay decision and why, in the updates: the live fix is replayed from memory (0 requests).
    thread = client.threads.create()["thread_id"]
    updates = [e.data for e in client.runs.stream(thread, approved, input=SCENARIO, stream_mode="updates")
               if e.event == "updates"]
    (replay,) = [u["replay"]["replay"] for u in updates if "replay" in u]
    assert replay["replayed"] == final["stored_memory_id"]
    assert replay["tried"] == [{"memory_id": final["stored_memory_id"], "result": "fixed"}]
    assert client.threads.get_state(thread)["values"]["status"] == "fixed"
    assert len(model_server.model_requests()) == 4


def _refusal(context: dict, task: dict | None = None) -> str:
    """The message a run of the graph Studio serves is refused with at its first step."""
    graph = studio_graph().copy(update={"checkpointer": InMemorySaver()})
    with pytest.raises(ValueError) as refused:
        graph.invoke(task or SCENARIO, {"configurable": {"thread_id": "refused"}}, context=Context(**context))
    return str(refused.value)


def test_refusals_speak_of_studios_settings_before_any_request(monkeypatch):
    with OpenAIServer(ALPHA) as server:
        live = {"model": MODEL, "base_url": server.base_url, "approve_live_cost": True}
        no_key = _refusal(live)
        assert "OPENAI_API_KEY in the server's environment" in no_key and ".env" in no_key
        monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
        unapproved = _refusal({**live, "approve_live_cost": False})
        assert '"approve_live_cost": true' in unapproved and "ASTRA_APPROVE_LIVE_COST=1" in unapproved
        unpriced = _refusal({**live, "model": "openai:llama3.1"})
        assert "price_in_per_mtok and price_out_per_mtok" in unpriced and "--price-in" not in unpriced
        assert "assistant's context" in unpriced
        # The task names a live model, the context another: the context's would play, so it is refused.
        monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-key-0000000000000000000000")
        rejected = _refusal(live)
        assert "rejected the API key (HTTP 401)" in rejected and "sk-wrong-key" not in rejected
        assert [(r["method"], r["path"]) for r in server.requests] == [("GET", "/v1/models")]
        two = _refusal({"model": "scripted"}, {"task": {"scenario": "alpha", "model": MODEL}})
        assert two.startswith(f"task.model: {MODEL} is not the model this run would use: the context's model scripted")
    assert server.model_requests() == []


def test_a_live_model_fixes_the_users_own_project_from_studio_with_its_edit_approved(live_server, tmp_path):
    """The job Studio is for: the user's project (a copy of beta's), a live model, each edit approved."""
    beta = load_scenario("beta")
    project = tmp_path / "ledgerline"
    shutil.copytree(beta.template, project)
    client = get_sync_client(url=live_server.url, timeout=RUN_TIMEOUT_S)
    with OpenAIServer(script_from_solution(beta.solution)) as model_server:
        live = _assistant(client, "live, own project", {
            "model": MODEL, "base_url": model_server.base_url, "approve_live_cost": True, "replay": False,
            "session_budget_usd": 0.05, "max_retries": 0})
        thread = client.threads.create()["thread_id"]
        paused = client.runs.wait(thread, live, input={"task": {"workspace": str(project),
                                                                  "test_command": beta.test_command}})
        (request,) = [i["value"] for i in paused["__interrupt__"]]
        assert request["kind"] == "approve_edit" and request["path"] == "app/fields.py"
        asked = len(model_server.model_requests())
        done = client.runs.wait(thread, live, command=Command(resume="approve"))
    assert done["status"] == "fixed", done.get("reason")
    assert done["task"]["model"] == MODEL and done["approvals"][0]["decision"] == "approve"
    assert (project / "app" / "fields.py").read_text() != (beta.template / "app" / "fields.py").read_text()
    assert len(model_server.model_requests()) == len(beta.solution) > asked and model_server.violations == []
    view = json.loads(_cli(live_server, "cost", "--json", "--thread", thread))
    assert [r["state"] for r in view["requests"]] == ["settled"] * len(beta.solution)
    assert done["spend"]["model_requests"] == len(beta.solution)
    assert done["spend"]["cost_usd"] == pytest.approx(sum(r["cost_usd"] for r in view["requests"]), abs=1e-6)
