"""A model server that gives every tool call the same id (``call_0`` on every turn, as some compatible
local servers do) is not believed: a call's identity is its place in the thread and what it asks
(nodes/common.py ``call_key``), never the server's id (invariant (h) in docs/guarantees.md).

On main the edit journal was named by the call id: the second, different ``apply_edit`` found the
first one's journal, was answered "applied" with the first edit's diff, and nothing was written; the
correct fix ended ``unconfirmed`` ("changed between two of the session's edits, by something else").
Through the real openai client on the wire (tests/openai_server.py ``call_id``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from astra_memory.events import read_events
from astra_memory.nodes.attempt_log import human_approved_call
from astra_memory.nodes.common import call_key, current_call_key
from astra_memory.nodes.store import human_approved
from astra_memory.rules.runner_checks import RunnerCheck
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import open_memory
from tests.openai_server import DEFAULT_KEY, OpenAIServer, tool_call
from tests.test_live_wire import ALPHA, run_alpha

pytestmark = pytest.mark.live_wire

SOLUTION = load_scenario("alpha").solution  # read_file, state_diagnosis, apply_edit, finish
FIX = SOLUTION[2]["args"]
HALF = FIX["old_text"] + "  # step 1"  # the first edit marks the line; the second makes the fix from there
TWO_EDITS = [
    tool_call(SOLUTION[0]["tool"], SOLUTION[0]["args"]),
    tool_call(SOLUTION[1]["tool"], SOLUTION[1]["args"]),
    tool_call("apply_edit", {**FIX, "new_text": HALF}),
    tool_call("apply_edit", {**FIX, "old_text": HALF}),
    tool_call(SOLUTION[3]["tool"], SOLUTION[3]["args"]),
]


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
    return DEFAULT_KEY


@pytest.mark.parametrize("wire", ["chat", "responses"])
def test_two_edits_given_the_same_call_id_are_both_applied(settings, api_key, wire):
    with OpenAIServer(TWO_EDITS, call_id="call_0") as server:
        final, task, _ = run_alpha(settings, server, f"same-id-{wire}", use_responses_api=wire == "responses")
    assert final["status"] == "fixed", final.get("reason")  # was unconfirmed: the second edit never written
    assert server.issued_call_ids == ["call_0"] * len(TWO_EDITS) and server.violations == []
    answers = [m.content for m in final["messages"] if isinstance(m, ToolMessage) and m.name == "apply_edit"]
    assert len(answers) == 2 and all(a.startswith("applied to app/settings.py") for a in answers)
    fixed_line = "origin.strip() for origin"  # each answer with its own diff (the second was the first's)
    assert "# step 1" in answers[0] and fixed_line not in answers[0] and fixed_line in answers[1]
    assert [e["after"] for e in read_events(task["run_dir"]) if e["event"] == "edit"] == [
        e["after_sha256"] for e in final["edits"]] and len(final["edits"]) == 2
    text = (Path(task["workspace"]) / FIX["path"]).read_text(encoding="utf-8")
    assert FIX["new_text"] in text and "# step 1" not in text
    with open_memory(settings) as memory:
        records = memory.list_records()
    assert len(records) == 1 and records[0].memory_id == final["stored_memory_id"]


def test_an_approval_is_of_one_call_not_of_every_call_given_its_id():
    """A human's yes to one edit must not pass a later edit the server gave the same id: not the
    repetition gate (nodes/edit.py) nor the runner-check gate (nodes/store.py)."""
    def edit_call(new_text):
        return {"name": "apply_edit", "id": "call_0", "args": {"path": "t.py", "old_text": "a", "new_text": new_text}}

    first, second = edit_call("b = 1"), edit_call("if 'PYTEST_CURRENT_TEST' in os.environ: b = 1")
    messages = [HumanMessage("fix it"), AIMessage("", tool_calls=[first]), ToolMessage("applied", tool_call_id="call_0"),
                AIMessage("", tool_calls=[second])]
    approved = {"tool_call_id": "call_0", "call_key": call_key(1, 0, first), "path": "t.py", "decision": "approve",
                "reason": ""}
    state = {"messages": messages, "approvals": [approved]}
    assert human_approved_call(state, call_key(1, 0, first))
    assert not human_approved_call(state, current_call_key(state, second))  # was: approved, by its id
    check = RunnerCheck(path="t.py", line=1, text=second["args"]["new_text"], match="PYTEST_CURRENT_TEST", what="x")
    assert not human_approved(state, check)  # was: the first call's yes, matched by id to the second's text
    assert human_approved({**state, "approvals": [{**approved, "call_key": call_key(3, 0, second)}]}, check)


@pytest.mark.parametrize("chain", [False, True])
def test_replies_given_the_same_response_id_are_each_kept(settings, api_key, chain):
    """On the Responses API a reply's message id is the server's response id: one repeated on every turn
    replaced the first reply in the thread (its calls' answers then followed the wrong turn), and the
    next request was refused by the server ("answers unknown call"), the session failed."""
    with OpenAIServer(ALPHA, response_id="same") as server:
        final, _, _ = run_alpha(settings, server, f"same-response-{chain}", use_responses_api=True,
                                chain_responses=chain)
    assert final["status"] == "fixed", final.get("reason")
    assert server.violations == [] and len(server.model_requests()) == len(ALPHA)
    replies = [m for m in final["messages"] if isinstance(m, AIMessage)]
    assert [m.tool_calls[0]["name"] for m in replies] == [step["name"] for step in ALPHA]
    assert len({m.id for m in final["messages"]}) == len(final["messages"])
