"""observe: run the project's tests and record what failed, in its own words."""

from __future__ import annotations

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.nodes.common import context_of
from astra_memory.state import AgentState, run_record
from astra_memory.symptoms import parse_failure
from astra_memory.testrun import run_tests
from astra_memory.testrun_env import cannot_run, command_problem, missing_workspace


def observe(state: AgentState, runtime: Runtime[Context]) -> dict:
    """Tests that fail go on to the memory search; tests that cannot run end the session here
    (status ``cannot_run``): no memory search, no model request, nothing to edit."""
    task = state["task"]
    gone = missing_workspace(task["workspace"]) or command_problem(task["test_command"], task["workspace"])
    if gone is not None:  # checked before start too (preflight); Studio and scripts may skip that
        emit(task.get("run_dir"), "observe", status="cannot_run", cannot_run=gone.kind)
        return {"status": "cannot_run", "reason": gone.reason(), "last_node": "observe"}
    run = run_tests(task["workspace"], task["test_command"], timeout_s=context_of(runtime).test_timeout_s,
                    env=task.get("test_env"))
    update: dict = {"test_runs": [run_record(run, phase="observe", edits_seen=0)], "budget": {"test_runs": 1}, "last_node": "observe"}
    if run.passed:
        update.update(status="nothing_to_fix", reason=f"the tests already pass: {run.outcome}")
    elif run.timed_out:
        update.update(status="failed", reason=f"the test command timed out after {context_of(runtime).test_timeout_s:.0f}s")
    elif (unrunnable := cannot_run(run, task["workspace"])) is not None:
        update.update(status="cannot_run", reason=unrunnable.reason())
    else:
        update["failure"] = parse_failure(run.output).to_dict()
    emit(task.get("run_dir"), "observe", exit_code=run.exit_code, counts=run.counts,
         outcome=run.outcome, failure=update.get("failure"), status=update.get("status"))
    return update
