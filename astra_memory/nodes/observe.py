"""observe: run the project's tests and record what failed, in its own words."""

from __future__ import annotations

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.nodes.common import context_of
from astra_memory.state import AgentState, run_record
from astra_memory.symptoms import parse_failure
from astra_memory.testrun import run_tests
from astra_memory.thread_names import check_thread_id

# pytest: 4 = usage error, 5 = no tests collected; 126/127 = the command could not run.
UNRUNNABLE_EXIT_CODES = {4: "pytest usage error", 5: "no tests were collected",
                         126: "the test command is not executable", 127: "the test command was not found"}


def observe(state: AgentState, runtime: Runtime[Context]) -> dict:
    task = state["task"]
    if task.get("session_id") is not None:  # a Studio input is checked like a CLI one: a name, not a path
        check_thread_id(task["session_id"])
    run = run_tests(task["workspace"], task["test_command"], timeout_s=context_of(runtime).test_timeout_s,
                    env=task.get("test_env"))
    update: dict = {"test_runs": [run_record(run, phase="observe", edits_seen=0)], "budget": {"test_runs": 1}, "last_node": "observe"}
    if run.passed:
        update.update(status="nothing_to_fix", reason=f"the tests already pass: {run.outcome}")
    elif run.timed_out:
        update.update(status="failed", reason=f"the test command timed out after {context_of(runtime).test_timeout_s:.0f}s")
    elif run.exit_code in UNRUNNABLE_EXIT_CODES:
        update.update(status="failed",
                      reason=f"{UNRUNNABLE_EXIT_CODES[run.exit_code]} (exit code {run.exit_code}): "
                             f"{run.output.strip()[-300:]}")
    else:
        update["failure"] = parse_failure(run.output).to_dict()
    emit(task.get("run_dir"), "observe", exit_code=run.exit_code, counts=run.counts,
         outcome=run.outcome, failure=update.get("failure"), status=update.get("status"))
    return update
