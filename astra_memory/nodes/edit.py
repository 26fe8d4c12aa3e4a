"""edit: apply the model's apply_edit inside the workspace, journaled so a crash never applies it twice."""

from __future__ import annotations

from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.nodes.common import (
    context_of,
    current_calls,
    refuse_call,
    refuse_rest,
    reply,
    stop_at_limit,
    workspace_of,
)
from astra_memory.rules.gates import require_memory
from astra_memory.rules.limits import check_limits
from astra_memory.state import AgentState, edit_info
from astra_memory.tools.registry import ToolCallError, validate_call


def edit(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "edit")
    context, task = context_of(runtime), state["task"]
    _, calls = current_calls(state)
    call = calls[0]
    hit = check_limits(state, context, "tool_calls")
    if hit is not None:
        return stop_at_limit(state, hit, calls, "edit")
    update: dict = {"last_node": "edit", "budget": {"tool_calls": 1}}
    journal = Path(task["run_dir"]) / "edits" / f"{call['id']}.json" if task.get("run_dir") else None
    try:
        args = validate_call(call["name"], call.get("args"))
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
        edits=[edit_info(record)],
        confirmed_outcome=None,  # any edit voids an earlier passing run
        messages=[reply(call, f"applied to {record.path}:\n{record.diff}"), *refuse_rest(calls)],
    )
    return update
