"""Human approval of edits (nodes/approve.py): the run pauses before `edit` with the proposed diff
and continues with Command(resume=...): approve, reject with a reason, or edit the change."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from astra_memory.context import Context
from astra_memory.nodes.common import thread_calls
from astra_memory.rules.routing import route_after_investigate
from astra_memory.session.run import (
    StopAsking,
    pending_approval,
    resume_session,
    start_session,
)
from tests.conftest import ROOT, cli_env, run_cli
from tests.helpers import ALPHA_FIX, file_text, task_with_script

ASKED = Context(approve_edits=True)
ORIGINAL = '    return [origin for origin in raw.split(",") if origin]'
FIXED = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]'


def _start(agent, thread_id: str):
    result = agent.graph.invoke({"task": {"scenario": "alpha"}}, agent.config(thread_id), context=ASKED,
                                durability="sync")
    return result, agent.graph.get_state(agent.config(thread_id)).values["task"]


def test_an_edit_waits_for_approval_then_applies_once(agent):
    paused, task = _start(agent, "ask-approve")
    (request,) = [i.value for i in paused["__interrupt__"]]
    assert request["kind"] == "approve_edit" and request["path"] == "app/settings.py"
    assert request["old_text"] == ALPHA_FIX["args"]["old_text"] and request["new_text"] == ALPHA_FIX["args"]["new_text"]
    assert f"-{ORIGINAL}\n" in request["diff"] and f"+{FIXED}\n" in request["diff"]
    assert agent.graph.get_state(agent.config("ask-approve")).next == ("approve",)
    assert ORIGINAL in file_text(task, "app/settings.py") and not paused.get("edits")  # nothing applied yet
    final = agent.graph.invoke(Command(resume="approve"), agent.config("ask-approve"), context=ASKED,
                               durability="sync")
    assert final["status"] == "fixed" and len(final["edits"]) == 1
    (approval,) = final["approvals"]  # the call by its place and content (nodes/common.py call_key), not only its id
    assert approval == {"tool_call_id": request["tool_call_id"], "call_key": approval["call_key"],
                        "path": "app/settings.py", "decision": "approve", "reason": ""}
    assert approval["call_key"] in thread_calls(final)
    assert file_text(task, "app/settings.py").count(FIXED) == 1


def test_a_rejection_goes_back_to_the_model_and_nothing_is_applied(agent):
    _, task = _start(agent, "ask-reject")
    final = agent.graph.invoke(Command(resume={"action": "reject", "reason": "keep empty origins out too"}),
                               agent.config("ask-reject"), context=ASKED, durability="sync")
    answers = [m for m in final["messages"] if isinstance(m, ToolMessage) and "rejected" in m.content]
    assert len(answers) == 1 and "keep empty origins out too" in answers[0].content and answers[0].status == "error"
    assert not final.get("edits") and not final.get("stored_memory_id")
    assert ORIGINAL in file_text(task, "app/settings.py")


def test_the_reviewer_can_change_the_new_text(agent):
    _, task = _start(agent, "ask-edit")
    mine = '    return [o.strip() for o in raw.split(",") if o.strip()]  # reviewed'
    final = agent.graph.invoke(Command(resume={"action": "edit", "new_text": mine}), agent.config("ask-edit"),
                               context=ASKED, durability="sync")
    assert final["status"] == "fixed" and final["approvals"][0]["decision"] == "edit"
    assert mine in file_text(task, "app/settings.py") and FIXED not in file_text(task, "app/settings.py")
    assert "# reviewed" in final["edits"][0]["diff"]


def test_a_malformed_answer_is_asked_again_with_what_was_wrong(agent):
    _start(agent, "ask-bad")
    again = agent.graph.invoke(Command(resume={"action": "edit"}), agent.config("ask-bad"), context=ASKED)
    (request,) = [i.value for i in again["__interrupt__"]]
    assert "new_text" in request["error"] and '"approve"' in request["error"]
    final = agent.graph.invoke(Command(resume="approve"), agent.config("ask-bad"), context=ASKED, durability="sync")
    assert final["status"] == "fixed"


def test_routing_asks_only_when_the_task_says_so():
    from langchain_core.messages import AIMessage

    state = {"memory": {"delivered": True}, "diagnosis": {"delivered": True}, "messages": [AIMessage(content="", tool_calls=[
        {"name": "apply_edit", "args": ALPHA_FIX["args"], "id": "c1", "type": "tool_call"}])]}
    assert route_after_investigate({**state, "task": {"approve_edits": True}}) == "approve"
    assert route_after_investigate({**state, "task": {"approve_edits": False}}) == "edit"
    assert route_after_investigate({**state, "task": {}}) == "edit"


def test_a_session_left_waiting_asks_again_on_resume(agent, settings):
    task = task_with_script(settings, "waiting")
    asked: list[dict] = []

    def leave(request):
        asked.append(request)
        raise StopAsking("nobody there")

    state = start_session(agent, task, context=ASKED, on_approval=leave)
    assert len(asked) == 1 and state.get("status") is None and pending_approval(agent, "waiting")["path"] == "app/settings.py"
    assert ORIGINAL in file_text(task, "app/settings.py")
    final, ran = resume_session(agent, "waiting", on_approval=lambda request: asked.append(request) or "approve")
    assert ran and final["status"] == "fixed" and len(asked) == 2 and asked[1]["diff"] == asked[0]["diff"]
    assert len(final["edits"]) == 1 and file_text(task, "app/settings.py").count(FIXED) == 1
    assert pending_approval(agent, "waiting") is None


@pytest.mark.slow
def test_cli_killed_while_asking_then_resume_asks_again(settings):
    """`run --approve-edits` shows the diff and asks; killed while it waits, `resume` asks again and the
    edit is applied once."""
    env = cli_env()
    proc = subprocess.Popen([sys.executable, "-m", "astra_memory", "run", "alpha", "--approve-edits",
                             "--thread-id", "cli-ask"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = ""
    try:
        while "approval needed" not in seen:
            line = proc.stderr.readline()
            assert line, f"the CLI ended without asking: {seen}{proc.stdout.read()}"
            seen += line
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    workspace = settings.run_dir("cli-ask") / "workspace"
    assert ORIGINAL in (workspace / "app" / "settings.py").read_text()
    threads = run_cli("threads", "--json")
    assert '"waiting_for_approval"' in threads.stdout
    resumed = subprocess.run([sys.executable, "-m", "astra_memory", "resume", "cli-ask", "--json"], cwd=ROOT,
                             env=env, input="a\n", capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "approval needed: the agent wants to edit app/settings.py" in resumed.stderr
    assert f"+{FIXED}" in resumed.stderr and '"status": "fixed"' in resumed.stdout
    assert (workspace / "app" / "settings.py").read_text().count(FIXED) == 1
    assert len(list((settings.run_dir("cli-ask") / "edits").glob("*.json"))) == 1


@pytest.mark.slow
def test_cli_without_an_answer_says_the_session_waits(settings):
    result = subprocess.run([sys.executable, "-m", "astra_memory", "run", "alpha", "--approve-edits",
                             "--thread-id", "cli-eof"], cwd=ROOT, env=cli_env(), input="", capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 1 and "waiting_for_approval" in result.stdout
    assert "astra-memory resume cli-eof" in result.stdout
    assert ORIGINAL in (settings.run_dir("cli-eof") / "workspace" / "app" / "settings.py").read_text()


def test_cli_default_asks_only_on_a_terminal_for_your_own_project():
    from astra_memory.cli.approval import approval_default

    assert approval_default(workspace_run=True, interactive=True) is True
    assert approval_default(workspace_run=True, interactive=False) is False
    assert approval_default(workspace_run=False, interactive=True) is False


def test_terminal_control_characters_in_a_proposal_are_shown_never_obeyed(agent, settings, capsys, monkeypatch):
    """Issue 32 class 7, outside case 05: a proposed edit whose text clears the screen, sets the window
    title, returns the carriage over the line and reverses it (U+202E) is printed at the approval prompt
    with each of those made visible; the terminal receives none of them raw."""
    import io

    from astra_memory.cli.approval import ask_on_terminal
    from astra_memory.cli.common import err
    from tests.helpers import ALPHA_DIAGNOSIS, FINISH, call

    # (a lone carriage return no longer reaches the prompt: the edit is refused before it, see
    # tests/test_diff_byte_for_byte.py; a vertical tab stands in for it here)
    hostile = FIXED + "  # \x1b[2J\x1b]0;owned\x07 looks fine\x0b\u202eevil\x9b31m"
    task = task_with_script(settings, "ask-hostile", [
        ALPHA_DIAGNOSIS, call("apply_edit", path="app/settings.py", old_text=ORIGINAL, new_text=hostile), FINISH])
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nnot this\n"))
    seen = []
    ask = ask_on_terminal(err)
    final = start_session(agent, {**task, "approve_edits": True},
                          on_approval=lambda request: seen.append(request) or ask(request))
    assert len(seen) == 1 and "\x1b[2J" in seen[0]["diff"]  # the proposal itself carries them raw
    assert final["approvals"][0]["decision"] == "reject" and ORIGINAL in file_text(task, "app/settings.py")
    shown = capsys.readouterr().err
    assert "approval needed" in shown
    for raw in ("\x1b", "\x07", "\x0b", "\u202e", "\x9b"):
        assert raw not in shown, repr(raw)
    assert "# \\x1b[2J\\x1b]0;owned\\x07 looks fine\\x0b\\u202eevil\\x9b31m" in shown


def test_every_cli_console_makes_untrusted_text_visible(capsys):
    from astra_memory.bench import cli as bench_cli
    from astra_memory.cli import common

    for console in (common.console, common.err, bench_cli.console, bench_cli.err):
        console.print("a\x1b[31mb\u2066c\u200bd\ufeff", markup=False)
        console.print(f"[bold]{common.lit('x[/bold]')}[/bold] \x1b[0m")  # markup still styles; ESC shown
    out = capsys.readouterr()
    for text in (out.out, out.err):
        assert "\x1b" not in text and "\u2066" not in text and "\u200b" not in text and "\ufeff" not in text
        assert text.count("a\\x1b[31mb\\u2066c\\u200bd\\ufeff") == 2 and text.count("x[/bold] \\x1b[0m") == 2
