"""``astra-memory undo THREAD``: put back what a session's edits replaced in the project
(workspace/undo.py), for a session that is no longer running and cannot be resumed by accident."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from astra_memory.errors import AstraError
from astra_memory.events import emit
from astra_memory.nodes.common import workspace_of
from astra_memory.session.hints import resume_command
from astra_memory.session.run import Agent, cancellation, claimed, finished, thread_model, thread_state
from astra_memory.workspace.undo import apply_undo, plan_undo


def undo_session(agent: Agent, thread_id: str) -> dict[str, Any]:
    """Restore the files ``thread_id`` edited from its snapshot; returns what was done."""
    with claimed(agent, thread_id):
        snapshot = thread_state(agent, thread_id)
        if snapshot is None or not snapshot.values.get("task"):
            raise AstraError(f"no session with thread id {thread_id!r} has started; nothing to undo")
        state = snapshot.values
        if not finished(snapshot) and cancellation(agent.settings, thread_id) is None:
            raise AstraError(f"session {thread_id} can still be resumed, from its edits: undo it once it has ended "
                             f"(`{resume_command(thread_id, thread_model(agent, thread_id))}`), or cancel it first "
                             f"(`astra-memory cancel {thread_id}`)")
        edits = state.get("edits") or []
        if not edits:
            return {"thread_id": thread_id, "restored": [], "already": [], "workspace": state["task"]["workspace"]}
        if not state.get("pristine") or not Path(state["pristine"]).is_dir():
            raise AstraError(f"session {thread_id}'s snapshot is gone ({state.get('pristine')}); nothing was undone")
        workspace = workspace_of(state)
        plan = plan_undo(workspace, Path(state["pristine"]), edits)
        restored = apply_undo(workspace, plan)  # AstraError (WorkspaceError) naming what was refused
        emit(state["task"].get("run_dir"), "undone", paths=restored, already=plan.already)
        return {"thread_id": thread_id, "restored": restored, "already": plan.already,
                "workspace": str(workspace.root)}
