"""approve: a human answers each proposed edit before ``edit`` applies it (LangGraph ``interrupt()``).

The run pauses with the proposed change (path, old text -> new text, the unified diff it would
make) and continues with ``Command(resume=answer)``, where ``answer`` is one of::

    "approve"                                       apply it as proposed
    {"action": "reject", "reason": "why not"}       not applied; the reason goes back to the model
    {"action": "edit", "new_text": "..."}           apply it with the reviewer's new_text instead

Studio, scripts (``graph.invoke(Command(resume=...), config)``) and the CLI (``--approve-edits``)
answer the same request. Nothing before ``interrupt()`` writes anything, so a process killed while
it waits asks again on resume, and the edit is applied once, by ``edit``, after the answer.
A call that ``edit`` would refuse anyway (bad arguments, a protected path, old_text not found) or
a spent tool-call limit is not put to the human: ``edit`` answers it with the reason.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.nodes.attempt_log import repeated_attempt
from astra_memory.nodes.common import (
    context_of,
    current_call_key,
    current_calls,
    refuse_rest,
    reply,
    workspace_of,
)
from astra_memory.rules.approval import ask, edit_request
from astra_memory.rules.gates import require_diagnosis
from astra_memory.rules.limits import reply_limit
from astra_memory.state import AgentState, ApprovalInfo
from astra_memory.tools.registry import ToolCallError, validate_call


def approval_request(call: dict, args: Any, diff: str, tried_before: str = "") -> dict:
    """What the human is shown (the interrupt's value: the ``approve_edit`` payload of rules/approval.py)."""
    return edit_request(tool_call_id=call["id"], path=args.path, old_text=args.old_text, new_text=args.new_text,
                        diff=diff, tried_before=tried_before)


def approve(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_diagnosis(state, "edit")
    context = context_of(runtime)
    message, calls = current_calls(state)
    call = calls[0]
    if reply_limit(state, context) is not None:
        return {}  # edit ends the run at the limit
    try:
        args = validate_call(call["name"], call.get("args"))
        workspace = workspace_of(state)
        diff = workspace.preview_edit(args.path, args.old_text, args.new_text)
    except (ToolCallError, WorkspaceError, OSError, ValueError):  # what edit's guard turns into observations
        return {}  # edit refuses it and tells the model why
    # The human is told when this is exactly a change that was tried and failed: a yes overrides the gate.
    repeat = repeated_attempt(state, runtime, workspace, args.path, args.old_text, args.new_text)
    tried_before = "" if repeat is None else (
        f"this exact change was tried before on this failure and did not pass (failed attempt {repeat.attempt_id}, "
        f"{repeat.times_tried} time(s)); approving applies it anyway.")
    answer = ask(approval_request(call, args, diff, tried_before))
    # The call the answer is about is named by its key (its place in the thread and what it asks), not by
    # the server's id, which may repeat: the key of the call edit will run (a reviewer's edit: theirs).
    applied = {**call, "args": {**call["args"], "new_text": answer.new_text}} if answer.action == "edit" else call
    info = ApprovalInfo(tool_call_id=call["id"], call_key=current_call_key(state, applied), path=args.path,
                        decision=answer.action, reason=answer.reason)
    emit(state["task"].get("run_dir"), "approval", path=args.path, decision=answer.action, reason=answer.reason)
    update: dict = {"approvals": [info]}
    if answer.action == "reject":
        reason = answer.reason.strip() or "no reason given"
        update["messages"] = [reply(call, f"rejected by the human reviewer: {reason}. The edit was not applied; "
                                          "propose a different change, or finish.", error=True), *refuse_rest(calls)]
    elif answer.action == "edit":
        changed = [applied, *calls[1:]]
        update["messages"] = [message.model_copy(update={"tool_calls": changed})]  # same id: replaced in place
    return update
