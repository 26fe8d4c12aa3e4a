"""store: write the confirmed fix to memory, with the exact outcome string of the fresh-copy run.

Reached only through confirm (graph/builder.py); ``require_fix_confirmed`` checks again that both the
workspace run and the fresh-copy run passed for exactly the current edits.

A passing test run cannot confirm a fix that special-cases the test runner (rules/runner_checks.py):
such a diff ends ``unconfirmed``, nothing stored, naming the line, unless a human approved that
very edit (its approval is in ``state["approvals"]``: the approved call's new text holds the flagged
code, or the human approved the replay of exactly this diff).

A fix replayed from another project and confirmed here is a confirmation in this project of the
record that was replayed, too: that is how a fix comes to be confirmed in two projects, after
which it is replayed into others unasked (stores/trust.py).

The session's diagnosis (the latest ``state_diagnosis``) is stored with the fix: a later session's
diagnosis search matches its words against causes (``FixRecord.diagnosis``, stores/memory.py).
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.events import emit
from astra_memory.nodes.attempt_log import failing_tests, record_attempt
from astra_memory.nodes.common import fix_memory, thread_calls, workspace_of
from astra_memory.nodes.replay import REPLAY_APPROVAL_PREFIX
from astra_memory.rules.gates import require_fix_confirmed
from astra_memory.rules.runner_checks import RunnerCheck, runner_checks
from astra_memory.state import AgentState
from astra_memory.stores.lifecycle import supersede_earlier
from astra_memory.stores.record import SCRUBBED_DIFF, Confirmation, utc_now
from astra_memory.stores.trust import replay_trust
from astra_memory.testrun.symptoms import Failure, symptom_query
from astra_memory.workspace.line_ends import unified_diff

CHECKS_SHOWN = 5


def _same_path(a: str, b: str) -> bool:
    return posixpath.normpath(a.strip()) == posixpath.normpath(b.strip())


def replay_approved(state: AgentState, memory_id: str | None) -> bool:
    """A human approved replaying ``memory_id``'s diff in this session (nodes/replay.py)."""
    return bool(memory_id) and any(
        a.get("tool_call_id") == REPLAY_APPROVAL_PREFIX + memory_id and a.get("decision") == "approve"
        for a in state.get("approvals") or [])


def human_approved(state: AgentState, check: RunnerCheck) -> bool:
    """The flagged code was shown to a human who approved it: the replay of this very diff, or an
    approved (or reviewer-edited) edit call of that file whose new text holds the flagged code."""
    if replay_approved(state, (state.get("replay") or {}).get("replayed")):
        return True
    calls = thread_calls(state)  # by key: a server's repeated call id must not lend one call's approval to another
    for approval in state.get("approvals") or []:
        if approval.get("decision") not in ("approve", "edit"):
            continue
        args = (calls.get(approval.get("call_key") or "") or {}).get("args")
        if (isinstance(args, dict) and _same_path(str(args.get("path", "")), check.path)
                and check.match in str(args.get("new_text", ""))):
            return True
    return False


def refused(state: AgentState, runtime: Runtime[Context], checks: list[RunnerCheck]) -> dict:
    shown = "; ".join(c.describe() for c in checks[:CHECKS_SHOWN])
    more = f" (and {len(checks) - CHECKS_SHOWN} more)" if len(checks) > CHECKS_SHOWN else ""
    reason = (f"not stored: the fix special-cases the test runner, which a passing test run cannot confirm: "
              f"{shown}{more}. Only a human's approval of that edit (--approve-edits) lets such a fix be stored")
    emit(state["task"].get("run_dir"), "store_refused", reason=reason,
         checks=[{"path": c.path, "line": c.line, "what": c.what} for c in checks])
    return {"status": "unconfirmed", "reason": reason,
            "attempt_records": record_attempt(state, runtime, end="not_stored", outcome=reason, run=None,
                                              root=state["task"]["workspace"])}


def net_diff(state: AgentState) -> str:
    """What the session's edits change, from the snapshot to each file's final content (confirm checked
    that the workspace holds exactly that): the lines the confirmed fix adds. An edit tried and undone
    later in the session adds nothing here (outside round 5, case 19: a reverted ``pytest.skip`` try
    made the right fix that followed it unstorable). Without a snapshot: the edits' own diffs."""
    edits = state.get("edits") or []
    pristine = Path(state.get("pristine") or "")
    if not state.get("pristine") or not pristine.is_dir():
        return "".join(e["diff"] for e in edits)
    workspace, parts = workspace_of(state), []
    for rel in dict.fromkeys(e["path"] for e in edits):
        before = (pristine / rel).read_bytes().decode("utf-8", errors="replace")
        after = workspace.read_bytes(rel)[1].decode("utf-8", errors="replace")
        parts.append(unified_diff(rel, before, after))
    return "".join(parts)


def stored_diagnosis(state: AgentState) -> dict | None:
    """The session's latest diagnosis (error type, cause, files), kept with the fix it led to; None
    for a replay (no model stated one) or a diagnosis without a cause."""
    diagnosis = state.get("diagnosis") or {}
    if (state.get("replay") or {}).get("replayed") or not diagnosis.get("cause"):
        return None
    return {"error_type": diagnosis.get("error_type") or state["failure"]["error_type"],
            "cause": diagnosis["cause"], "files": list(diagnosis.get("files") or [])}


def store(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_fix_confirmed(state)
    task, fix, edits = state["task"], state["fix"] or {}, state.get("edits") or []
    confirmed = state["confirm"]  # the fresh copy's run: its outcome is what memory keeps
    replayed = (state.get("replay") or {}).get("replayed")
    diff = "".join(e["diff"] for e in edits)
    folders = [p for p in (task.get("run_dir"), state.get("pristine"), task.get("workspace")) if p]
    unapproved = [c for c in runner_checks(net_diff(state), paths=folders) if not human_approved(state, c)]
    if unapproved:
        return refused(state, runtime, unapproved)
    memory = fix_memory(runtime)
    project, project_id = task.get("project", ""), task.get("project_id", "")  # shown; who it is
    source = memory.get(replayed) if replayed else None  # the replayed record, before this confirmation
    how = ""
    if source is not None:
        trust = replay_trust(source, project_id=project_id,
                             runner_checks=[c.describe() for c in runner_checks(source.diff)])
        how = (f"approved by a human: {'; '.join(trust.needs_approval)}" if trust.needs_approval
               and replay_approved(state, replayed) else trust.note)
    model = "none (replayed from memory)" if replayed else task.get("model", "scripted")
    record = memory.store_fix_memory(
        fix_description=fix["fix_description"],
        error_type=fix.get("error_type") or state["failure"]["error_type"],
        file_paths=list(dict.fromkeys(e["path"] for e in edits)),
        outcome=confirmed["outcome"],
        confirmed_outcome=confirmed["outcome"],  # verbatim, from the run itself
        symptom=symptom_query(Failure(**state["failure"])),
        diff=diff,
        session_id=task["session_id"],
        thread_id=task["session_id"],
        project=project,
        project_id=project_id,
        model=model,
        kind="replay" if replayed else "fix",
        diagnosis=stored_diagnosis(state),
        # the state keeps diffs scrubbed: one that had to be is not what was confirmed, never replayed
        not_replayable=SCRUBBED_DIFF if any(e.get("diff_scrubbed") for e in edits) else None,
    )
    if source is not None and source.memory_id != record.memory_id:
        # Replayed into another project and confirmed here: the replayed fix is confirmed in this project too.
        memory.add_confirmation(source.memory_id, Confirmation(
            session_id=task["session_id"], thread_id=task["session_id"], outcome=confirmed["outcome"],
            confirmed_at=utc_now(), model=model, kind="replay", project=project,
            project_id=project_id))
    crash_point("store:written")
    if len(record.confirmations) == 1:  # a fix stored for the first time replaces earlier ones on its lines
        superseded = supersede_earlier(memory, record)
        if superseded:
            emit(task.get("run_dir"), "superseded", memory_id=record.memory_id, superseded=superseded)
    emit(task.get("run_dir"), "store", memory_id=record.memory_id, outcome=record.outcome)
    # The attempts on this failure that did not pass are linked to the fix that did ("tried first").
    linked = memory.attempts.link(project=project, project_id=project_id, failing_tests=failing_tests(state), fix_id=record.memory_id)
    if linked:
        emit(task.get("run_dir"), "attempts_linked", memory_id=record.memory_id, attempts=linked)
    return {"stored_memory_id": record.memory_id, "status": "fixed",
            "reason": f"confirmed in a fresh copy of the project by {confirmed['outcome']}"  # this session's run
                      + (f"; replayed memory {replayed} with 0 model requests" if replayed else "")
                      + (f" ({how})" if replayed and how else "")}
