"""Failed attempts from the session's state: what test, confirm and store record, and what edit checks.

Not a node: the shared part of three nodes that end a tested change without a fix (``test``: the
workspace tests still fail; ``confirm``: they passed there but not in the fresh copy; ``store``: the
change special-cases the test runner) and of the repetition gate in ``edit``. The change is the
session's edits so far: each file's sha256 before the session and as tested (``file_states``), and
their diffs byte for byte. Recording is best effort: memory out of reach must not end a session
that is still working, so a failure to record is an event (``attempt_not_recorded``), not an error.

Only a run that judged the change is a failed attempt (``counts_as_failed_attempt``, the one rule
every recording goes through): an inconclusive end says nothing about the change, and recording it
would refuse the right change to every later session. Each attempt keeps the digest of the state
its run ran in (testrun/tested_state.py), and the gate refuses a repeat only in that state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.errors import AstraError
from astra_memory.events import emit
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.common import context_of, fix_memory
from astra_memory.state import AgentState, EditInfo
from astra_memory.stores.attempt_record import AttemptEnd, AttemptRecord
from astra_memory.testrun.results import FAILING
from astra_memory.testrun.symptoms import Failure, symptom_query
from astra_memory.testrun.tested_state import tested_state
from astra_memory.workspace.files import Workspace


def failing_tests(state: AgentState) -> list[str]:
    """The failure an attempt is tried on: the failing test ids by pytest's results, else by the output."""
    failure = state.get("failure") or {}
    return list(failure.get("failing_ids") or failure.get("failing_tests") or [])


def file_states(edits: list[EditInfo]) -> dict[str, list[str]]:
    """path -> [sha256 before the session's first edit of it, sha256 after its last], for the files the
    edits changed on the whole: a file edited and put back as it was is no part of the change (else a
    no-op edit elsewhere would make a repeated change look new)."""
    states: dict[str, list[str]] = {}
    for e in edits:
        states.setdefault(e["path"], [e["before_sha256"], e["after_sha256"]])[1] = e["after_sha256"]
    return {path: pair for path, pair in states.items() if pair[0] != pair[1]}


def counts_as_failed_attempt(run: Any) -> bool:
    """Whether a test run of the session's change makes it a failed attempt: the run ran to its end
    and judged the change failing. Not a failed attempt (inconclusive: the change was not judged):
    no run at all (the fresh copy could not be built), a pass, a verdict that says it cannot judge
    (``inconclusive``: observe's ids not run now, unstable parametrized ids; testrun/results.py), a
    timeout (a loaded machine ends the right change too), a change of the environment the tests
    import from during the run."""
    if run is None or run.passed:
        return False
    return not (run.inconclusive or run.timed_out or run.environment_changes)


def state_of(state: AgentState, root: str | Path, changed: dict[str, list[str]]) -> str | None:
    """The digest of the state a test run in ``root`` ran in, the change's files aside; None (unknown,
    never a reason to refuse) when the folder cannot be read."""
    task = state["task"]
    try:
        return tested_state(root, command=task["test_command"], env=task.get("test_env"), leave_out=changed)
    except OSError:
        return None


def record_attempt(state: AgentState, runtime: Runtime[Context], *, end: AttemptEnd, outcome: str, run: Any,
                   root: str | Path, still_failing: list[str] | None = None,
                   newly_failing: list[str] | None = None) -> list[str]:
    """Record the session's tested change as a failed attempt, in the state of ``root`` (the folder
    ``run`` ran in); ``[its id]``, or [] when it was not recorded (no edit, no observed failure, an
    inconclusive run, or memory out of reach: said in an event). ``end="not_stored"`` is judged by
    the diff itself (it special-cases the runner), not by a run."""
    task = state["task"]
    edits = list(state.get("edits") or [])
    failure = state.get("failure")
    if not edits or not failure or not context_of(runtime).attempts:
        return []
    changed = file_states(edits)
    if not changed:  # every edited file is back as it was: nothing was tried
        return []
    if end != "not_stored" and not counts_as_failed_attempt(run):
        emit(task.get("run_dir"), "attempt_not_counted", end=end, outcome=outcome,
             why="inconclusive: the run did not judge the change")
        return []
    replayed = (state.get("replay") or {}).get("replayed")
    try:
        record = fix_memory(runtime).attempts.record(
            project=task.get("project", ""), project_id=task.get("project_id", ""),
            failing_tests=failing_tests(state),
            symptom=symptom_query(Failure(**failure)), error_type=failure.get("error_type") or "Error",
            diff="".join(e["diff"] for e in edits if e["path"] in changed), file_states=changed, end=end,
            outcome=outcome or "no outcome", still_failing=still_failing or [], newly_failing=newly_failing or [],
            session_id=task["session_id"], state=state_of(state, root, changed),
            model="none (replayed from memory)" if replayed else task.get("model", "scripted"))
    except Exception as exc:  # noqa: BLE001 -- best effort by design (module docstring); said, not hidden
        emit(task.get("run_dir"), "attempt_not_recorded", end=end, error=f"{type(exc).__name__}: {exc}")
        return []
    emit(task.get("run_dir"), "attempt_recorded", attempt_id=record.attempt_id, end=end, outcome=record.outcome)
    return [record.attempt_id]


def split_failing(state: AgentState, tests: dict[str, str] | None) -> tuple[list[str], list[str]]:
    """(tests that failed at observe and still do, tests that newly fail) from a run's non-passing tests:
    those that failed or errored; a skipped or xfailed test is not failing, before or now."""
    before = set(failing_tests(state))
    now = sorted(t for t, outcome in (tests or {}).items() if outcome in FAILING)
    return [t for t in now if t in before], [t for t in now if t not in before]


def repeated_attempt(state: AgentState, runtime: Runtime[Context], workspace: Workspace, path: str,
                     old_text: str, new_text: str) -> AttemptRecord | None:
    """The failed attempt this edit would repeat exactly (same failure, every file the session changed
    the same before and after, the rest of the workspace in a state it failed in), or None. An edit
    the workspace would refuse is not judged here."""
    if not context_of(runtime).attempts:
        return None
    try:
        planned = workspace.preview_record(path, old_text, new_text)
    except (AstraError, OSError, ValueError):  # what edit's guard (tools/guard.py) turns into an observation
        return None  # apply_edit refuses it and says why
    after = [*(state.get("edits") or []), EditInfo(path=planned.path, before_sha256=planned.before_sha256,
                                                   after_sha256=planned.after_sha256, diff="")]
    task, changed = state["task"], file_states(after)
    try:
        return fix_memory(runtime).attempts.repeat_of(
            project=task.get("project", ""), project_id=task.get("project_id", ""), failing_tests=failing_tests(state),
            file_states=changed, state_now=lambda: state_of(state, workspace.root, changed) or "")
    except Exception as exc:  # noqa: BLE001 -- the gate is best effort too: memory out of reach is said
        emit(task.get("run_dir"), "attempt_check_failed", error=f"{type(exc).__name__}: {exc}")
        return None


def human_approved_call(state: AgentState, key: str) -> bool:
    """A human approved this very call (its ``call_key``; or approved it with their own new text): the gate
    yields. Not its server-chosen id: an approval of one call must not pass a later call given the same id."""
    return any(a.get("call_key") == key and a.get("decision") in ("approve", "edit")
               for a in state.get("approvals") or [])


def repetition_message(record: AttemptRecord) -> str:
    """What the model is told instead of the edit being applied."""
    last = record.sessions[-1]
    return (f"not applied: this exact change was already tried on this failure and did not pass "
            f"(failed attempt {record.attempt_id}, session {quoted(last.session_id, 200)}, {record.times_tried} "
            f"time(s); tests said: {quoted(record.outcome, 300)}). Make a different change, or finish.")


def delivered_attempts(state: AgentState, runtime: Runtime[Context], memory, query: str) -> list:
    """The failed attempts the first memory search shows (stores/attempts.py ``delivered``); [] when
    switched off, or when memory cannot give them (said in an event: the fixes are still delivered)."""
    if not context_of(runtime).attempts:
        return []
    try:
        return memory.attempts.delivered(query, project=state["task"].get("project", ""),
                                         project_id=state["task"].get("project_id", ""),
                                         failing_tests=failing_tests(state))
    except Exception as exc:  # noqa: BLE001 -- best effort, as recording is (module docstring)
        emit(state["task"].get("run_dir"), "attempts_not_delivered", error=f"{type(exc).__name__}: {exc}")
        return []
