"""Fix sessions for an MCP client: the agent's own graph, with the calling agent as the editor.

Nothing here decides whether a fix is stored. ``begin_fix`` starts a session on the compiled graph
with the durable checkpointer, stopped before ``investigate`` (LangGraph ``interrupt_before``):
prepare, observe (snapshot, tests by id), memory_search and replay (off: ``replay_fix`` asks for
it) have run. ``finish_fix`` reads the workspace's change since the session's base, refuses what
no edit of the agent could make (client_change.py), puts the changed files back as they were and
adds the change to the session's script as the turns our model would have sent (state_diagnosis
with the caller's cause, apply_edit per file, finish); then it resumes the thread, and the graph
runs them through its own nodes: the scripted model plays them in ``investigate``,
``diagnosis_search`` searches memory with the cause, ``edit`` applies each edit (protected paths,
doctests, the repetition gate), ``test`` judges the pass by test id (a failing run is a recorded
failed attempt), ``confirm`` re-runs them in a fresh copy, ``store`` stores the confirmed fix,
``report`` says how it ended. A session whose tests still fail stops before ``investigate``
again, open for another ``finish_fix`` (up to max_attempts test runs, as in a session).

The fix session id is the thread id: a server restarted between the calls finds the session in
the checkpoint.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from astra_memory.context import Context
from astra_memory.errors import AstraError
from astra_memory.mcp_server.client_change import (
    CLIENT_BASE,
    client_turns,
    read_change,
    refusals,
)
from astra_memory.mcp_server.io_models import (
    AttemptHit,
    BeginResult,
    Confirmation,
    FinishResult,
    Hit,
    ReplayResult,
    SearchResult,
    ShowResult,
)
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.common import workspace_of
from astra_memory.redact import scrub
from astra_memory.session.run import (
    Agent,
    UnknownThreadError,
    claimed,
    finished,
    fresh_run_dir,
    new_thread_id,
    open_agent,
    resume_session,
    start_session,
    thread_state,
    workspace_task,
)
from astra_memory.settings import Settings
from astra_memory.stores.format import format_attempts, format_hits
from astra_memory.workspace.files import Workspace, sha256_bytes
from astra_memory.workspace.identity import project_identity

EDITOR_TURN = "investigate"  # where our model would take its turn; the calling agent takes it instead
FAILURE_CHARS = 4_000


class FixSessionError(AstraError):
    """A fix session call that cannot be done (unknown session, not waiting for a change, ...)."""


@contextmanager
def open_fix_agent(settings: Settings | None = None) -> Iterator[Agent]:
    """The agent's graph, data folder, memory and ledger, stopping before the model's turn."""
    with open_agent(settings, interrupt_before=(EDITOR_TURN,)) as agent:
        yield agent


def _hits(values: dict) -> SearchResult:
    """The first memory search of the session, as it was delivered (nodes/memory_search.py)."""
    found = values.get("memory") or {}
    return SearchResult(
        hits=[Hit(memory_id=h["memory_id"], score=h["score"], project=quoted(h.get("project", ""), 200))
              for h in found.get("hits") or []],
        attempts=[AttemptHit(attempt_id=a["attempt_id"], same_failure=a["same_failure"], end=a["end"],
                             times_tried=a["times_tried"], outcome=quoted(a.get("outcome", ""), 500))
                  for a in found.get("attempts") or []],
        text=found.get("text") or "")


def _open(snapshot) -> bool:
    return snapshot is not None and not finished(snapshot) and tuple(snapshot.next) == (EDITOR_TURN,)


def _status(snapshot) -> str:
    return "open" if _open(snapshot) else (snapshot.values.get("status") or "unfinished")


def begin_fix(agent: Agent, workspace: str | Path, test_command: str) -> BeginResult:
    """Snapshot the project as it is, run its tests, search memory: a session open for the caller's change."""
    workspace = Path(workspace)
    tid = new_thread_id(workspace.name or "project")
    with claimed(agent, tid):
        fresh_run_dir(agent, tid)
        task = workspace_task(workspace, test_command, agent.settings, tid, model="scripted")
        task.update(editor="client", approve_edits=False)  # the calling agent edits; nobody answers approvals
        start_session(agent, task, context=Context(model="scripted", replay=False, approve_edits=False))
        snapshot = thread_state(agent, tid)
    values = snapshot.values
    failure = values.get("failure") or {}
    status = _status(snapshot)
    return BeginResult(
        session=tid, status=status,
        reason="" if status == "open" else quoted(values.get("reason") or "", 2_000),
        failing_tests=list(failure.get("failing_ids") or failure.get("failing_tests") or []),
        failure=quoted(failure, FAILURE_CHARS) if failure else "",
        memory=_hits(values),
        next_step=("fix the source in the workspace (not the tests), then call finish_fix with this session, what "
                   "you changed and the root cause; replay_fix tries the confirmed fixes above first"
                   if status == "open" else "nothing to do in this session"))


def _session(agent: Agent, session: str):
    snapshot = thread_state(agent, session)
    if snapshot is None:
        raise UnknownThreadError(f"no fix session {session!r}: begin_fix returns one")
    task = snapshot.values.get("task") or {}
    if task.get("editor") != "client":
        raise FixSessionError(f"{session} is a session of our own agent, not a fix session of an MCP client")
    _same_folder(task)
    return snapshot


def _same_folder(task: dict) -> None:
    """The workspace is still the folder begin_fix checked against the roots: not a link now, nor under
    one (outside round 5, case 03: the folder swapped for a link to a file outside the roots, which
    finish_fix then read, rewrote and stored)."""
    folder = str(task.get("workspace") or "")
    try:
        real = os.path.realpath(folder, strict=True)
    except OSError as exc:
        raise FixSessionError(f"the session's workspace {folder} cannot be found ({exc.strerror or exc}); "
                              "begin_fix starts a new session") from None
    if real != folder or not os.path.isdir(real):
        raise FixSessionError(f"the session's workspace {folder} is now a link to {real}, not the folder begin_fix "
                              "took; nothing was read or written there. begin_fix starts a new session")


def _finish_result(session: str, values: dict, status: str, reason: str | None = None, **extra: Any) -> FinishResult:
    """The outcome in the agent's words: the report's reason, or, for a session still open, why."""
    if reason is None and status == "open":
        runs = values.get("test_runs") or []
        last = runs[-1] if runs else {}
        if last.get("phase") == "test" and not last.get("passed"):
            reason = (f"tests still fail: {last.get('outcome', '')}; a failed attempt was recorded and the change "
                      "stays in the workspace: change it and call finish_fix again")
        else:
            tool_replies = [m for m in values.get("messages") or [] if getattr(m, "type", "") == "tool"]
            errors = [str(m.content)[:500] for m in tool_replies[-6:] if getattr(m, "status", "") == "error"]
            reason = "the change was not applied: " + (" | ".join(errors) or "see the session's events")
    reason = values.get("reason") or "" if reason is None else reason
    return FinishResult(session=session, status=status, reason=quoted(reason, 4_000),
                        stored_memory_id=values.get("stored_memory_id"),
                        passed_outcome=quoted(values["passed_outcome"]) if values.get("passed_outcome") else None,
                        attempts_recorded=list(dict.fromkeys(values.get("attempt_records") or [])), **extra)


def _restore(workspace: Workspace, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        workspace.write_bytes(rel, data)


def _keep_base(run_dir: Path, workspace: Path, values: dict, before: int) -> None:
    """What each edit the session just applied left in the workspace: the base of the next finish_fix."""
    for edit in (values.get("edits") or [])[before:]:
        path = workspace / edit["path"]
        data = path.read_bytes() if path.is_file() else None
        if data is not None and sha256_bytes(data) == edit["after_sha256"]:
            target = run_dir / CLIENT_BASE / edit["path"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def _played(values: dict) -> int:
    """How many turns of the script the session has played: its model replies (models/scripted.py)."""
    return sum(1 for m in values.get("messages") or [] if getattr(m, "type", "") == "ai")


def _play(agent: Agent, session: str) -> dict:
    """Resume the thread until the script is played: the graph stops before each model turn, so one
    resume per turn of the caller (the caller's change is all its turns at once)."""
    while True:
        final, _ = resume_session(agent, session)
        snapshot = thread_state(agent, session)
        if not _open(snapshot) or _played(final) >= len(final["task"].get("script") or []):
            return final


def finish_fix(agent: Agent, session: str, description: str, cause: str) -> FinishResult:
    """The caller's change through the session's gates: stored only if the graph confirms it."""
    with claimed(agent, session):
        snapshot = _session(agent, session)
        values = snapshot.values
        if not _open(snapshot) and not finished(snapshot):
            # A finish_fix cut off part way (the server killed mid-test): the change is in the checkpoint
            # as the session's edits; the graph goes on from where it stopped (outside round 5, case 20).
            final = _play(agent, session)
            return _finish_result(session, final, _status(thread_state(agent, session)))
        if not _open(snapshot):
            return _finish_result(session, values, _status(snapshot),
                                  reason=f"the session already ended ({_status(snapshot)}): "
                                         f"{values.get('reason') or ''}; begin_fix starts a new one")
        task = values["task"]
        workspace = workspace_of(values)
        run_dir = Path(task["run_dir"])
        change = read_change(workspace.root, Path(values["pristine"]), run_dir)
        refused = refusals(change, workspace.protected)
        not_taken = [f"{rel} (new file: a fix is confirmed in a fresh copy of the project without it)"
                     for rel in change.added if workspace.protected.why(rel) is None]
        if refused:
            return _finish_result(session, values, "refused", refused=[quoted(r, 600) for r in refused],
                                  not_taken=not_taken,
                                  reason="refused before any test ran; nothing was stored. Undo the change to these "
                                         "files and fix the source instead")
        if not change.changed:
            return _finish_result(session, values, "refused", not_taken=not_taken,
                                  reason="no change to an existing file since begin_fix (or the last finish_fix); "
                                         "nothing to test")
        failure = values.get("failure") or {}
        # the caller's words go into the checkpointed script: scrubbed of secrets first (case 12)
        turns = client_turns(change, error_type=(failure.get("error_type") or "Error")[:200],
                             cause=scrub(cause), description=scrub(description))
        # The graph's edit node makes the change again, from the base, through its own checks.
        _restore(workspace, {c.path: c.before for c in change.changed})
        edits_before = len(values.get("edits") or [])
        agent.graph.update_state(agent.config(session),
                                 {"task": {**task, "script": [*(task.get("script") or []), *turns]}},
                                 as_node=values.get("last_node") or "replay")
        try:
            final = _play(agent, session)
        except BaseException:  # a bug of ours stopped the session (resumable): the caller keeps its change
            for item in change.changed:
                if (workspace.root / item.path).is_file():
                    workspace.write_bytes(item.path, item.after)
            raise
        _keep_base(run_dir, workspace.root, final, edits_before)
        # A file whose edit the graph refused (the repetition gate, say) gets the caller's text back.
        applied = {e["path"] for e in (final.get("edits") or [])[edits_before:]}
        for item in change.changed:
            if item.path not in applied and (workspace.root / item.path).is_file():
                workspace.write_bytes(item.path, item.after)
        return _finish_result(session, final, _status(thread_state(agent, session)), not_taken=not_taken)


def replay_fix(agent: Agent, session: str) -> ReplayResult:
    """The replay node again, switched on: the confirmed fixes memory returned at begin_fix that apply."""
    with claimed(agent, session):
        snapshot = _session(agent, session)
        values = snapshot.values
        if not _open(snapshot):
            raise FixSessionError(f"the session already ended ({_status(snapshot)}); begin_fix starts a new one")
        if values.get("edits"):
            raise FixSessionError("replay_fix comes before your own change is tested: this session already has edits")
        workspace = workspace_of(values)
        change = read_change(workspace.root, Path(values["pristine"]), Path(values["task"]["run_dir"]))
        if change.changed or change.removed:
            raise FixSessionError("the workspace changed since begin_fix: undo your change first (replay works on "
                                  "the project as begin_fix found it), or call finish_fix")
        agent.graph.update_state(agent.config(session), {}, as_node="memory_search")  # next: replay
        final, _ = resume_session(agent, session, context=replace(Context(), replay=True, approve_edits=False,
                                                                    model="scripted"))
        info = final.get("replay") or {}
        status = _status(thread_state(agent, session))
        return ReplayResult(session=session, status=status,
                            reason=quoted(final.get("reason") or "" if status != "open" else
                                          "no stored fix passed here; the workspace is as it was", 2_000),
                            replayed_memory_id=info.get("replayed"),
                            tried=[quoted(f"{a['memory_id']}: {a['result']}", 600)
                                   for a in [*info.get("tried", []), *info.get("passed_over", [])]],
                            skipped=quoted(info.get("skipped") or "", 1_000))


def search_fixes(agent: Agent, failure: str, project: str | None = None, top_k: int = 3) -> SearchResult:
    """Confirmed fixes for a failure, as the agent's memory search shows them; failed attempts apart."""
    memory = agent.memory
    if project is not None and not Path(project).is_dir():
        raise FixSessionError(f"project {project!r} is not a folder: give the folder of the project the search is for")
    project_id = project_identity(project, agent.settings.home).project_id if project else None
    hits = memory.search_codebase_memory(failure, top_k=top_k, project_id=project_id)
    tried = memory.attempts.delivered(failure, failing_tests=[], project_id=project_id or "")
    text = format_hits(hits, query=failure, project_id=project_id) + ("\n\n" + format_attempts(tried) if tried else "")
    return SearchResult(
        hits=[Hit(memory_id=h.record.memory_id, score=round(h.score, 4), project=quoted(h.record.project, 200))
              for h in hits],
        attempts=[AttemptHit(attempt_id=a.record.attempt_id, same_failure=a.same_failure, end=a.record.end,
                             times_tried=a.record.times_tried, outcome=quoted(a.record.outcome, 500))
                  for a in tried],
        text=text)


def show_fix(agent: Agent, memory_id: str) -> ShowResult:
    """One record, its confirmations and its provenance; a failed attempt is labelled as one."""
    memory = agent.memory
    record = memory.get(memory_id)
    if record is None:
        attempt = memory.attempts.get(memory_id)
        if attempt is None:
            raise FixSessionError(f"no record {memory_id!r} in memory")
        return ShowResult(memory_id=memory_id, kind="attempt", confirmations=[],
                          fields={k: quoted(v, 2_000) for k, v in attempt.model_dump(mode="json").items()})
    fields = record.model_dump(mode="json", exclude={"confirmations"})
    return ShowResult(memory_id=memory_id, kind="fix", fields={k: quoted(v, 4_000) for k, v in fields.items()},
                      confirmations=[Confirmation(confirmed_at=c.confirmed_at.isoformat(), kind=c.kind,
                                                  session_id=quoted(c.session_id, 200), model=quoted(c.model, 200),
                                                  outcome=quoted(c.outcome, 500))
                                     for c in record.confirmations])

