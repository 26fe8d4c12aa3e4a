"""Both interrupt kinds driven from the real `langgraph dev` with langgraph_sdk (tests/test_studio.py's
server, its own for this module): every documented answer, and a malformed one (asked again, with
what was wrong and only the answers that kind takes). docs/studio.md shows the same payloads."""

from __future__ import annotations

import shutil

import pytest
from langgraph_sdk.schema import Command

from astra_memory.rules.approval import ANSWERS, EDIT, EDIT_REQUEST, REPLAY_REQUEST
from astra_memory.scenarios import load_scenario
from tests.helpers import PROJECT_TESTS
from tests.test_studio import assistant, client, server  # noqa: F401  (the module's own server)

pytestmark = [pytest.mark.slow, pytest.mark.minilm]
EDIT_KEYS = {"kind", "question", "answers", "path", "diff", "tool_call_id", "old_text", "new_text", "tried_before"}
REPLAY_KEYS = {"kind", "question", "answers", "path", "diff", "memory_id", "why"}


def _asked(result: dict) -> dict:
    (request,) = [i["value"] for i in result["__interrupt__"]]
    return request


def _beta_waiting(client, assistant, tmp_path, name):  # noqa: F811
    """beta's project (a copy) from a workspace task: the first edit waits at `approve` (a replay of
    beta's fix from an earlier thread, asked first, is rejected)."""
    beta = load_scenario("beta")
    project = tmp_path / name
    shutil.copytree(beta.template, project)
    thread = client.threads.create()["thread_id"]
    paused = client.runs.wait(thread, assistant, input={"task": {
        "workspace": str(project), "test_command": PROJECT_TESTS, "script": beta.solution}})
    request = _asked(paused)
    while request["kind"] == REPLAY_REQUEST:  # beta's fix, stored by an earlier thread: not this time
        request = _asked(client.runs.wait(thread, assistant, command=Command(resume="reject")))
    return thread, project, request


def test_edit_approval_every_answer(client, assistant, tmp_path):  # noqa: F811
    # The payload, and a malformed answer: asked again with the error and the three answers.
    thread, project, request = _beta_waiting(client, assistant, tmp_path, "approve-it")
    assert set(request) == EDIT_KEYS and request["kind"] == EDIT_REQUEST
    assert request["answers"] == list(ANSWERS[EDIT_REQUEST]) and request["path"] == "app/fields.py"
    assert client.threads.get_state(thread)["next"] == ["approve"]
    again = _asked(client.runs.wait(thread, assistant, command=Command(resume={"action": "edit"})))
    assert set(again) == EDIT_KEYS | {"error"} and '"edit" needs "new_text"' in again["error"]
    assert all(answer in again["error"] for answer in ANSWERS[EDIT_REQUEST])
    again = _asked(client.runs.wait(thread, assistant, command=Command(resume="maybe")))
    assert "not 'maybe'" in again["error"]
    done = client.runs.wait(thread, assistant, command=Command(resume="approve"))
    assert done["status"] == "fixed" and [a["decision"] for a in done["approvals"]] == ["approve"]

    # {"action": "edit", "new_text": ...}: applied with the reviewer's text.
    thread, project, request = _beta_waiting(client, assistant, tmp_path, "edit-it")
    mine = request["new_text"] + "  # reviewed"
    done = client.runs.wait(thread, assistant, command=Command(resume={"action": "edit", "new_text": mine}))
    assert done["status"] == "fixed" and done["approvals"][-1]["decision"] == "edit"
    assert "# reviewed" in (project / "app" / "fields.py").read_text()

    # {"action": "reject", "reason": ...}: not applied; the reason goes back to the model.
    thread, project, request = _beta_waiting(client, assistant, tmp_path, "reject-it")
    before = (project / "app" / "fields.py").read_text()
    client.runs.wait(thread, assistant, command=Command(resume={"action": "reject", "reason": "not like this"}))
    state = client.threads.get_state(thread)["values"]
    assert state["approvals"][-1] == {**state["approvals"][-1], "decision": "reject", "reason": "not like this"}
    assert any("rejected by the human reviewer: not like this" in str(m.get("content")) for m in state["messages"])
    assert request["old_text"] in before and not state.get("edits")


def test_replay_approval_every_answer(client, assistant):  # noqa: F811
    first = client.runs.wait(client.threads.create()["thread_id"], assistant, input={"task": {"scenario": "alpha"}})
    assert first["status"] == "fixed"
    fix = first["stored_memory_id"]
    asking = {"task": {"scenario": "alpha"}}
    human = {"approve_edits": True}  # the context's knob: someone answers, so the replay is put to them

    # The payload, and malformed answers: an edit (replay takes none) and an unknown field; then "approve".
    thread = client.threads.create()["thread_id"]
    request = _asked(client.runs.wait(thread, assistant, input=asking, context=human))
    assert set(request) == REPLAY_KEYS and request["kind"] == REPLAY_REQUEST and request["memory_id"] == fix
    assert request["answers"] == list(ANSWERS[REPLAY_REQUEST]) and EDIT not in request["question"]
    assert client.threads.get_state(thread)["next"] == ["replay"]
    again = _asked(client.runs.wait(thread, assistant, command=Command(resume={"action": "edit", "new_text": "x"})))
    assert set(again) == REPLAY_KEYS | {"error"} and "replayed as it is or not at all" in again["error"]
    assert EDIT not in again["error"] and all(answer in again["error"] for answer in ANSWERS[REPLAY_REQUEST])
    again = _asked(client.runs.wait(thread, assistant, command=Command(resume={"action": "approve", "new_text": "x"})))
    assert "unknown field new_text" in again["error"]
    done = client.runs.wait(thread, assistant, command=Command(resume="approve"))
    assert done["status"] == "fixed" and done["replay"]["replayed"] == fix
    assert done["approvals"] == [{**done["approvals"][0], "decision": "approve", "tool_call_id": f"replay:{fix}"}]

    # A rejection: not replayed; the model's own fix is then put to the human as an edit.
    thread = client.threads.create()["thread_id"]
    client.runs.wait(thread, assistant, input=asking, context=human)
    edit = _asked(client.runs.wait(thread, assistant, command=Command(resume={"action": "reject", "reason": "no"})))
    assert edit["kind"] == EDIT_REQUEST
    done = client.runs.wait(thread, assistant, command=Command(resume="approve"))
    assert done["status"] == "fixed" and not done["replay"]["replayed"]
    assert done["replay"]["tried"][0]["result"] == "rejected by the human reviewer: no"
    assert [a["decision"] for a in done["approvals"]] == ["reject", "approve"]
