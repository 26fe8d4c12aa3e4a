"""One place for each rule: the tool registry, the one limits check, the knobs and their channels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import Field

from astra_memory.context import Context
from astra_memory.events import read_events
from astra_memory.jittered_kills import two_attempt_scenario
from astra_memory.models.live import live_chat_model
from astra_memory.models.prompts import system_prompt
from astra_memory.rules.limits import LIMITS, check_limits
from astra_memory.session.run import open_agent, start_session
from astra_memory.settings import Settings
from astra_memory.tools.args import ToolArgs
from astra_memory.tools.registry import TOOLS, Tool, ToolKind, openai_tool_specs
from tests.conftest import cli_env, run_cli
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, call, task_with_script


class CountLinesArgs(ToolArgs):
    path: str = Field(min_length=1, max_length=500, description="file path relative to the workspace root")


def _count_lines(args: CountLinesArgs, env) -> str:
    return f"{len(env.workspace.read_file(args.path).splitlines())} lines"


COUNT_LINES = Tool("count_lines", CountLinesArgs, ToolKind.READ, "Count the lines of a workspace file.", _count_lines)


def test_a_read_only_tool_added_in_one_entry_reaches_the_model_the_prompt_and_the_tools_node(
        monkeypatch, agent, settings):
    monkeypatch.setitem(TOOLS, "count_lines", COUNT_LINES)  # the one entry
    spec = next(s["function"] for s in openai_tool_specs() if s["function"]["name"] == "count_lines")
    assert spec["strict"] and spec["parameters"]["additionalProperties"] is False
    assert spec["parameters"]["required"] == ["path"]
    assert "count_lines(path): Count the lines of a workspace file." in system_prompt()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-sent")  # building the client sends nothing
    bound = live_chat_model("openai:gpt-4.1-mini", Context())
    assert "count_lines" in [t["function"]["name"] for t in bound.kwargs["tools"]]

    task = task_with_script(settings, "t-new-tool", [call("count_lines", path="app/settings.py"), ALPHA_DIAGNOSIS,
                                                     ALPHA_FIX, FINISH])
    final = start_session(agent, task)
    assert final["status"] == "fixed"
    answer = next(m for m in final["messages"] if getattr(m, "name", None) == "count_lines")
    expected = len((Path(task["workspace"]) / "app/settings.py").read_text().splitlines())
    assert answer.status == "success" and answer.content.endswith(f": \"{expected} lines\"")  # quoted: workspace data


def _reads(n: int) -> list[dict]:
    return [call("read_file", path="app/settings.py")] * n


WRONG_EDIT = call("apply_edit", path="app/settings.py", old_text="if origin]", new_text="if origin.strip()]")
BAD_CALL = call("search_codebase_memory", query="x", error_type=None, top_k="three")

# limit -> (context that makes it reachable, a script that reaches it, the status it ends with)
LIMIT_RUNS = {
    "model_requests": (Context(max_model_requests=3), _reads(10), "budget_exhausted"),
    "tool_calls": (Context(max_tool_calls=2), _reads(10), "budget_exhausted"),
    "invalid_turns": (Context(max_invalid_turns=2), [BAD_CALL] * 5, "failed"),
    "attempts": (Context(max_attempts=1), [ALPHA_DIAGNOSIS, WRONG_EDIT, FINISH, FINISH], "failed"),
}


@pytest.mark.parametrize("limit", sorted(LIMIT_RUNS))
def test_every_limit_ends_the_run_through_the_one_check_naming_its_setting(limit, agent, settings):
    context, script, status = LIMIT_RUNS[limit]
    task = task_with_script(settings, f"t-limit-{limit.replace('_', '-')}", script)
    final = start_session(agent, task, context=context)
    setting = LIMITS[limit].setting
    assert final["status"] == status and final.get("stored_memory_id") is None
    assert final["reason"].startswith(LIMITS[limit].what + " reached")
    assert f"raise {setting} (" in final["reason"]  # names the knob, its option and its variable
    assert agent.memory.count() == 0


def test_spend_limit_is_checked_by_the_same_function_on_hand_built_state():
    hit = check_limits({"budget": {"cost_usd": 0.30}}, Context(session_budget_usd=0.25), "cost_usd")
    assert hit is not None and hit.status == "budget_exhausted"
    assert "session_budget_usd (--budget, ASTRA_SESSION_BUDGET_USD)" in hit.reason
    assert check_limits({"budget": {"cost_usd": 0.10}}, Context(session_budget_usd=0.25), "cost_usd") is None


def test_astra_min_score_changes_the_graphs_own_search(monkeypatch, agent, settings):
    assert start_session(agent, task_with_script(settings, "t-score-1"))["status"] == "fixed"
    found = start_session(agent, task_with_script(settings, "t-score-2"))
    assert found["memory"]["hits"], "the same bug again must find the stored fix at the default minimum"
    monkeypatch.setenv("ASTRA_MIN_SCORE", "1.01")  # no cosine similarity reaches it
    hidden = start_session(agent, task_with_script(settings, "t-score-3"))
    assert hidden["memory"]["hits"] == [] and hidden["status"] == "fixed"


@pytest.fixture
def two_attempts(tmp_path) -> Path:
    return two_attempt_scenario(tmp_path / "two-attempts")


@pytest.mark.slow
def test_resume_keeps_the_sessions_max_attempts(two_attempts, isolated_home):
    crashed = run_cli("run", str(two_attempts), "--thread-id", "keep-attempts", "--max-attempts", "1", "--json",
                      env=cli_env(ASTRA_CRASH_AT="after:memory_search"))
    assert crashed.returncode == -9  # killed after its memory search was checkpointed
    resumed = run_cli("resume", "keep-attempts", "--json")
    summary = json.loads(resumed.stdout)
    # The solution's first finish() fails; with the default of 3 attempts its second would pass.
    assert resumed.returncode == 1 and summary["status"] == "failed", resumed.stderr
    assert "test attempts reached (1 of 1)" in summary["reason"] and "max_attempts" in summary["reason"]
    with open_agent(Settings()) as agent:
        values = agent.graph.get_state(agent.config("keep-attempts")).values
    assert values["attempts"] == 1 and values["task"]["knobs"]["max_attempts"] == 1
    tests_run = [e for e in read_events(values["task"]["run_dir"]) if e["event"] == "test"]
    assert len(tests_run) == 1
