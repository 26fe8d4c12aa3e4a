"""observe: snapshot the project as it is, run its tests and record what failed, in its own words.

The snapshot comes first, before any test run can change the workspace: it is what the confirm
node rebuilds a fresh copy from (astra_memory/workspace/snapshot.py). So does the record of the
environment the tests import from (testrun/manifest.py), held still for every later run. The run
itself records every test's outcome by id (testrun/results.py): the failing ids are what every
later run must show passing. A failing parametrized test's slot (function and parameter position)
is kept too, and the tests collected a second time in a throwaway copy: a function whose ids
differ between the two is unstable (testrun/second_collection.py, testrun/id_slots.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.nodes.common import context_of, private_step
from astra_memory.state import AgentState, run_record
from astra_memory.testrun.environment import (
    cannot_run,
    command_problem,
    missing_workspace,
)
from astra_memory.testrun.manifest import record_environment
from astra_memory.testrun.results import FAILING, nothing_failed
from astra_memory.testrun.run import MAX_OUTPUT_BYTES, run_tests, test_environment
from astra_memory.testrun.second_collection import failing_slots, unstable_functions
from astra_memory.testrun.symptoms import parse_failure
from astra_memory.thread_names import check_thread_id
from astra_memory.workspace.snapshot import SNAPSHOT_DIR, take_snapshot


def observe(state: AgentState, runtime: Runtime[Context]) -> dict:
    """Tests that fail go on to the memory search; tests that cannot run end the session here
    (status ``cannot_run``): no memory search, no model request, nothing to edit."""
    task = state["task"]
    if task.get("session_id") is not None:  # a Studio input is checked like a CLI one: a name, not a path
        check_thread_id(task["session_id"])
    gone = missing_workspace(task["workspace"]) or command_problem(task["test_command"], task["workspace"],
                                                                           task.get("test_env"))
    if gone is not None:  # checked before start too (preflight); Studio and scripts may skip that
        emit(task.get("run_dir"), "observe", status="cannot_run", cannot_run=gone.kind)
        return {"status": "cannot_run", "reason": gone.reason()}
    # A re-run after a crash keeps the first snapshot (the first run may have changed the workspace).
    where = (Path(task["run_dir"]) if task.get("run_dir") else Path(tempfile.mkdtemp(prefix="astra-"))) / SNAPSHOT_DIR
    try:
        pristine = str(take_snapshot(task["workspace"], where))
    except OSError as exc:
        reason = f"could not snapshot the project into {where} (a fix is confirmed in a fresh copy of it): {exc}"
        emit(task.get("run_dir"), "observe", status="failed", reason=reason)
        return {"status": "failed", "reason": reason}
    try:  # like the snapshot, kept from a first try that crashed
        environment = record_environment(task["workspace"], task["test_command"],
                                         test_environment(Path(task["workspace"]), task.get("test_env")), where.parent)
    except OSError as exc:
        reason = f"could not record the environment the tests import from (into {where.parent}): {exc}"
        emit(task.get("run_dir"), "observe", status="failed", reason=reason)
        return {"status": "failed", "reason": reason}
    run = run_tests(task["workspace"], task["test_command"], timeout_s=context_of(runtime).test_timeout_s,
                    env=task.get("test_env"), environment=environment, **private_step(task))
    record = run_record(run, phase="observe", edits_seen=0)  # its output scrubbed of secrets
    record["environment"] = environment.to_record()
    if run.doctests:
        record["doctests"] = run.doctests  # what each doctest's examples were: later runs must run the same
    failing = sorted(t for t, o in run.tests.items() if o in FAILING)
    slots = failing_slots(run.slots, failing)
    if slots and not run.passed:  # is a failing parametrized test's id the same in another process?
        record["slots"] = slots
        record["unstable_ids"] = unstable_functions(
            record["slots"], pristine=pristine, workspace=task["workspace"], command=task["test_command"],
            env=task.get("test_env"), timeout_s=context_of(runtime).test_timeout_s, environment=environment,
            where=Path(task["run_dir"]) if task.get("run_dir") else None, **private_step(task, confirming=True))
        if record["unstable_ids"]:
            record["outcome"] += (f"; parametrized ids differ between two collections: "
                                  f"{', '.join(record['unstable_ids'][:3])}")
    update: dict = {"test_runs": [record], "budget": {"test_runs": 1},
                    "pristine": pristine}
    if run.passed:
        update.update(status="nothing_to_fix", reason=f"the tests already pass: {run.outcome}")
    elif run.timed_out:
        update.update(status="failed", reason=f"the test command timed out after {context_of(runtime).test_timeout_s:.0f}s")
    elif run.output_overflow:
        update.update(status="failed", reason=f"the test command was killed: its output passed {MAX_OUTPUT_BYTES} bytes")
    elif run.environment_changes:
        update.update(status="failed", reason=(
            f"the project's own tests change the environment they import from, so no fix could be confirmed "
            f"against it: {run.outcome}"))
    elif (unrunnable := cannot_run(run, task["workspace"], environment.interpreter)) is not None:
        update.update(status="cannot_run", reason=unrunnable.reason())
    elif nothing_failed(evidence=run.evidence, complete=run.results_complete, tests=run.tests,
                        exit_code=run.exit_code):
        update.update(status="nothing_to_fix", reason=f"no test fails: {run.outcome}")
    else:
        update["failure"] = parse_failure(record["output"]).to_dict()
        if run.evidence == "pytest":
            update["failure"]["failing_ids"] = failing
    emit(task.get("run_dir"), "observe", exit_code=run.exit_code, counts=run.counts, evidence=run.evidence,
         environment_guard=environment.guard, outcome=record["outcome"], failure=update.get("failure"),
         unstable_ids=record.get("unstable_ids"),
         status=update.get("status"))
    return update
