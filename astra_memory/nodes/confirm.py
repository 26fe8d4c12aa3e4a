"""confirm: re-run the tests in a fresh copy of the project with only the session's edits applied.

A pass in the agent's own workspace is not enough: a test run (or a model, through code it got a
test run to execute) can leave files there that make the next run pass, a generated
``conftest.py``, a cache a test reads, a planted module. So the fix is confirmed again in a fresh
copy of the project as it was before the session (the snapshot observe took), with the final
content of each file the session edited written over it, and nothing else. Each edited file must
be exactly what the session's edits made it: its snapshot content must hash to the first edit's
``before``, its workspace content to the last edit's ``after``, the edits of one file must
chain, and the change must not rewrite a test inside an editable file (the examples of a doctest
that ran at observe: ``ProtectedPaths.why_changed``). Store requires this node's passing result, and stores its outcome.

The fresh copy's run is judged like the workspace's (testrun/results.py): against observe's
per-test results, with the environment the tests import from held to observe's record (the linked
``.venv`` is the workspace's own: read-only for the step, or checked by manifest after it), in a
private root (testrun/private_root.py): the copy's parent folders empty, a private ``/tmp``, every
other folder read-only, no network unless ``ASTRA_CONFIRM_NETWORK=1``; where this host has no
namespace for that, the outcome says so.

A fix is only confirmed when the bug shows without it: once the fresh copy passes, a second fresh
copy of the snapshot *without* the session's edits runs the tests that failed at observe (only
those: cheap). If that run passes too, the failure was not in the project's files (a stale
``.pyc``, a cache or anything else the snapshot leaves out made observe fail), no change can be
confirmed as its fix, and the session ends ``unconfirmed``; that is not a failed attempt either.

Idempotent: a re-run after a crash builds a new fresh copy and runs the tests again. A change that
does not confirm is kept as a failed attempt when its run judged it (nodes/attempt_log.py).
"""

from __future__ import annotations

import shutil
import tempfile
from itertools import pairwise
from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.nodes.attempt_log import record_attempt, split_failing
from astra_memory.nodes.common import context_of, private_step, workspace_of
from astra_memory.redact import scrub
from astra_memory.rules.gates import require_workspace_passed
from astra_memory.state import AgentState, ConfirmResult, EditInfo
from astra_memory.testrun.results import observed
from astra_memory.testrun.run import run_tests
from astra_memory.workspace.files import sha256_bytes
from astra_memory.workspace.snapshot import fresh_copy

FRESH_DIR = "confirm"
UNCHANGED_DIR = "confirm-unchanged"  # the snapshot without the session's edits: the bug must show there
OUTPUT_TAIL_CHARS = 3_000


class NotTheSessionsEdits(WorkspaceError):
    """An edited file is not exactly what the session's recorded edits made of the snapshot."""


def session_files(state: AgentState, pristine: Path) -> dict[str, bytes]:
    """The final content of every file the session edited, checked against its recorded edits."""
    workspace = workspace_of(state)
    by_path: dict[str, list[EditInfo]] = {}
    for edit in state.get("edits") or []:
        by_path.setdefault(edit["path"], []).append(edit)
    files: dict[str, bytes] = {}
    for rel, edits in by_path.items():
        why = workspace.protected.why(rel)
        if why:
            raise NotTheSessionsEdits(f"the session edited {why}")
        for earlier, later in pairwise(edits):
            if later["before_sha256"] != earlier["after_sha256"]:
                raise NotTheSessionsEdits(f"{rel} changed between two of the session's edits, by something else")
        original = pristine / rel
        if original.is_symlink() or not original.is_file():
            raise NotTheSessionsEdits(f"{rel} did not exist when the session started; it is not a source edit")
        # bytes, never text read with newline translation: a CRLF file is hashed as the edit hashed it
        original_bytes = original.read_bytes()
        original_text = original_bytes.decode("utf-8", errors="replace")
        if sha256_bytes(original_bytes) != edits[0]["before_sha256"]:
            raise NotTheSessionsEdits(f"{rel} had changed before the session's first edit of it (a test run?)")
        try:  # through the workspace's no-follow path, as the edits were written
            current = workspace.read_bytes(rel)[1]
        except WorkspaceError as exc:
            raise NotTheSessionsEdits(f"{rel} cannot be read back: {exc}") from None
        if sha256_bytes(current) != edits[-1]["after_sha256"]:
            raise NotTheSessionsEdits(f"{rel} changed after the session's last edit of it, by something else")
        why = workspace.protected.why_changed(rel, original_text, current.decode("utf-8", errors="replace"))
        if why:
            raise NotTheSessionsEdits(f"the session's edits make a test edit: {why}")
        files[rel] = current
    return files


def bug_not_shown(state: AgentState, context: Context, pristine: Path, destination: Path) -> str:
    """Why the failure observe saw does not show in a fresh copy of the snapshot without the session's
    edits (the tests that failed at observe pass there), or "" when it shows. Only those tests run,
    when the runs are pytest's; else the whole test command."""
    task, baseline = state["task"], observed(state)
    only = baseline.failing if baseline is not None and baseline.evidence == "pytest" else None
    if only == []:
        return ""  # nothing failed by id at observe (an exit code): nothing to select
    try:
        fresh_copy(pristine, destination, {}, workspace=task["workspace"])
        run = run_tests(destination, task["test_command"], timeout_s=context.test_timeout_s,
                        env=task.get("test_env"), baseline=baseline, only=only,
                        **private_step(task, confirming=True))
    except (WorkspaceError, OSError) as exc:
        return f"could not build the fresh copy without the session's edits (the bug must show there): {exc}"
    finally:
        shutil.rmtree(destination, ignore_errors=True)
    emit(task.get("run_dir"), "confirm_unchanged", bug_shows=not run.passed, outcome=run.outcome)
    if not run.passed:
        return ""
    return (f"the failure does not show in a fresh copy of the project without the session's edits (the "
            f"tests that failed at observe pass there: {run.outcome}): it is not in the project's files "
            f"(something the snapshot leaves out, such as a cache or a .pyc, made observe fail), so no change "
            f"can be confirmed as its fix")


def _result(state: AgentState, *, passed: bool, reason: str, files: list[str], run=None) -> ConfirmResult:
    return ConfirmResult(passed=passed, outcome=run.outcome if run else "", exit_code=run.exit_code if run else None,
                         counts=dict(run.counts) if run else {},
                         output_tail=scrub(run.output[-OUTPUT_TAIL_CHARS:]) if run else "",
                         confirms=state.get("passed_outcome") or "", edits_seen=len(state.get("edits") or []),
                         files=files, reason=reason, duration_s=run.duration_s if run else 0.0)


def confirm(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_workspace_passed(state)
    context, task = context_of(runtime), state["task"]
    update: dict = {}
    run_dir = Path(task["run_dir"]) if task.get("run_dir") else Path(tempfile.mkdtemp(prefix="astra-"))
    destination = run_dir / FRESH_DIR
    pristine = Path(state.get("pristine") or "")
    files: list[str] = []
    run = None
    try:
        if not state.get("pristine") or not pristine.is_dir():
            raise NotTheSessionsEdits("there is no snapshot of the project as it was before the session")
        contents = session_files(state, pristine)
        files = sorted(contents)
        fresh_copy(pristine, destination, contents, workspace=task["workspace"])
    except (WorkspaceError, OSError, UnicodeDecodeError) as exc:
        result = _result(state, passed=False, reason=f"could not build the fresh copy: {exc}", files=files)
    else:
        crash_point("confirm:copied")
        run = run_tests(destination, task["test_command"], timeout_s=context.test_timeout_s, env=task.get("test_env"),
                        baseline=observed(state), **private_step(task, confirming=True))
        update["budget"] = {"test_runs": 1}
        reason = "" if run.passed else (
            f"the tests passed in the agent's workspace ({state.get('passed_outcome')}) but not in a fresh "
            f"copy of the project with only the session's edits applied: {run.outcome}")
        if run.passed:
            update["budget"] = {"test_runs": 2}
            reason = bug_not_shown(state, context, pristine, run_dir / UNCHANGED_DIR)
        result = _result(state, passed=run.passed and not reason, reason=reason, files=files, run=run)
    update["confirm"] = result
    if not result["passed"]:
        update.update(status="unconfirmed", reason=result["reason"])
        still, newly = split_failing(state, getattr(run, "tests", None) if run is not None else None)
        update["attempt_records"] = record_attempt(state, runtime, end="not_confirmed", outcome=result["reason"],
                                                   run=run, root=destination, still_failing=still,
                                                   newly_failing=newly)
    emit(task.get("run_dir"), "confirm", passed=result["passed"], outcome=result["outcome"], files=files,
         reason=result["reason"])
    if not task.get("run_dir"):
        shutil.rmtree(run_dir, ignore_errors=True)
    return update
