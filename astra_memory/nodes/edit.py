"""edit: apply the model's apply_edit inside the workspace, journaled so a crash never applies it twice.

The journal is named by the call's key (nodes/common.py ``call_key``: its place in the thread and a hash
of its name and arguments), never by the id the server gave the call: a server that gives every call the
same id would otherwise have a second, different edit answered "applied" from the first one's journal.

An edit that would make exactly a change already recorded as a failed attempt on this failure is not
applied (nodes/attempt_log.py repeated_attempt); the model is told which attempt and what its tests
said. A human's approval of that very call overrides it.
"""

from __future__ import annotations

from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.events import emit
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.attempt_log import (
    human_approved_call,
    repeated_attempt,
    repetition_message,
)
from astra_memory.nodes.common import (
    current_call_key,
    refuse_call,
    refuse_rest,
    reply,
    tool_step,
    workspace_of,
)
from astra_memory.rules.gates import require_diagnosis
from astra_memory.state import AgentState, RepeatRefused, edit_info
from astra_memory.tools.guard import MAX_RESULT_CHARS, call_guarded
from astra_memory.tools.registry import ToolCallError, validate_call


def journal_name(key: str) -> str:
    """The journal file of one call: its key (``call_key``: digits, letters and dashes, never server text)."""
    return f"{key}.json"


def edit(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_diagnosis(state, "edit")
    context, task, calls, stop = tool_step(state, runtime)
    if stop is not None:
        return stop
    call = calls[0]
    update: dict = {}  # its calls were counted when the reply arrived (nodes/investigate.py)
    key = current_call_key(state, call)
    journal = Path(task["run_dir"]) / "edits" / journal_name(key) if task.get("run_dir") else None
    try:
        args = validate_call(call["name"], call.get("args"))
    except ToolCallError as exc:
        return refuse_call(state, context, update, call, calls, exc)
    workspace = workspace_of(state)
    # The repetition gate: exactly a change already recorded as failing on this failure is not applied
    # blind. A human who approved this very call has seen it (nodes/approve.py) and may override.
    repeat = None if human_approved_call(state, key) else repeated_attempt(
        state, runtime, workspace, args.path, args.old_text, args.new_text)
    if repeat is not None:
        emit(task.get("run_dir"), "repeat_refused", attempt_id=repeat.attempt_id, path=args.path)
        update.update(repeats_refused=[RepeatRefused(tool_call_id=str(call["id"]), attempt_id=repeat.attempt_id,
                                                     path=args.path)],
                      messages=[reply(call, repetition_message(repeat), error=True), *refuse_rest(calls)])
        return update
    record, problem = call_guarded(
        lambda: workspace.apply_edit(args.path, args.old_text, args.new_text, journal=journal))
    if problem is not None:  # refused or failed: an observation, the file unchanged
        emit(task.get("run_dir"), "edit_refused", error=problem)
        update["messages"] = [reply(call, problem, error=True), *refuse_rest(calls)]
        return update
    crash_point("edit:applied")
    emit(task.get("run_dir"), "edit", path=record.path, before=record.before_sha256, after=record.after_sha256)
    update.update(
        edits=[edit_info(record)],
        passed_outcome=None,  # any edit voids an earlier passing run
        messages=[reply(call, f"applied to {record.path}; the change as a unified diff (quoted): "
                              f"{quoted(record.diff, MAX_RESULT_CHARS)}"), *refuse_rest(calls)],
    )
    return update
