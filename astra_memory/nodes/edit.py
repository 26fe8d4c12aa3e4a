"""edit: apply the model's apply_edit inside the workspace, journaled so a crash never applies it twice."""

from __future__ import annotations

from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.crash import crash_point
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.graph.context import Context
from astra_memory.graph.state import AgentState
from astra_memory.nodes.common import (
    context_of,
    current_calls,
    refuse_call,
    refuse_rest,
    reply,
    require_memory,
    workspace_of,
)
from astra_memory.tools.schemas import ToolCallError, validate_call


def edit(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "edit")
    context, task = context_of(runtime), state["task"]
    _, calls = current_calls(state)
    call = calls[0]
    update: dict = {"last_node": "edit", "budget": {"tool_calls": 1}}
    if (state.get("budget") or {}).get("tool_calls", 0) >= context.max_tool_calls:
        reason = f"tool call limit reached ({context.max_tool_calls}); raise max_tool_calls to allow more"
        return {"last_node": "edit", "status": "budget_exhausted", "reason": reason,
                "messages": [reply(c, "refused: " + reason, error=True) for c in calls]}
    journal = Path(task["run_dir"]) / "edits" / f"{call['id']}.json" if task.get("run_dir") else None
    try:
        args = validate_call("apply_edit", call.get("args"))
        record = workspace_of(state).apply_edit(args.path, args.old_text, args.new_text, journal=journal)
    except ToolCallError as exc:
        return refuse_call(state, context, update, call, calls, exc)
    except WorkspaceError as exc:
        emit(task.get("run_dir"), "edit_refused", error=str(exc))
        update["messages"] = [reply(call, f"error: {exc}", error=True), *refuse_rest(calls)]
        return update
    crash_point("edit:applied")
    emit(task.get("run_dir"), "edit", path=record.path, before=record.before_sha256, after=record.after_sha256)
    update.update(
        edits=[record.to_dict()],
        confirmed_outcome=None,  # any edit voids an earlier passing run
        messages=[reply(call, f"applied to {record.path}:\n{record.diff}"), *refuse_rest(calls)],
    )
    return update
