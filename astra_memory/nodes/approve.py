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

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from astra_memory.context import Context
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.nodes.common import (
    context_of,
    current_calls,
    refuse_rest,
    reply,
    workspace_of,
)
from astra_memory.rules.gates import require_memory
from astra_memory.rules.limits import check_limits
from astra_memory.state import AgentState, ApprovalInfo
from astra_memory.tools.registry import ToolCallError, validate_call

ANSWERS = ('"approve", {"action": "reject", "reason": "..."} or {"action": "edit", "new_text": "..."}')
EDIT_REQUEST, REPLAY_REQUEST = "approve_edit", "approve_replay"  # the kinds of request a human answers
REQUEST_KINDS = (EDIT_REQUEST, REPLAY_REQUEST)


class ApprovalAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["approve", "reject", "edit"]
    reason: str = ""
    new_text: str | None = None

    @model_validator(mode="after")
    def _edit_has_text(self) -> "ApprovalAnswer":
        if self.action == "edit" and self.new_text is None:
            raise ValueError('"edit" needs "new_text": the text that replaces old_text')
        return self


def parse_answer(raw: Any) -> ApprovalAnswer:
    """The human's answer; raises ValueError with what a valid answer looks like."""
    if isinstance(raw, str):
        raw = {"action": raw.strip().lower()}
    elif isinstance(raw, bool):
        raw = {"action": "approve" if raw else "reject"}
    try:
        return ApprovalAnswer.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(e["msg"] for e in exc.errors())
        raise ValueError(f"not an answer ({problems}): resume with {ANSWERS}") from None


def ask(request: dict, *, edit_allowed: bool = True) -> ApprovalAnswer:
    """Pause the run with ``request`` (``interrupt()``) and return the human's valid answer; a
    malformed one (or "edit" where it is not offered) is asked again with what was wrong. Nothing
    before the pause may write: on resume the node runs again up to here and gets the answer."""
    raw = interrupt(request)
    while True:
        try:
            answer = parse_answer(raw)
            if answer.action == "edit" and not edit_allowed:
                raise ValueError('this change is applied as it is or not at all: answer "approve" or reject')
            return answer
        except ValueError as exc:
            raw = interrupt({**request, "error": str(exc)})


def approval_request(call: dict, args: Any, diff: str) -> dict:
    """What the human is shown (the interrupt's value)."""
    return {"kind": EDIT_REQUEST, "tool_call_id": call["id"], "path": args.path, "old_text": args.old_text,
            "new_text": args.new_text, "diff": diff,
            "question": f"Apply this edit to {args.path}? Resume with {ANSWERS}."}


def approve(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "edit")
    context = context_of(runtime)
    message, calls = current_calls(state)
    call = calls[0]
    if check_limits(state, context, "tool_calls") is not None:
        return {"last_node": "approve"}  # edit ends the run at the limit
    try:
        args = validate_call(call["name"], call.get("args"))
        diff = workspace_of(state).preview_edit(args.path, args.old_text, args.new_text)
    except (ToolCallError, WorkspaceError):
        return {"last_node": "approve"}  # edit refuses it and tells the model why
    answer = ask(approval_request(call, args, diff))
    info = ApprovalInfo(tool_call_id=call["id"], path=args.path, decision=answer.action, reason=answer.reason)
    emit(state["task"].get("run_dir"), "approval", path=args.path, decision=answer.action, reason=answer.reason)
    update: dict = {"last_node": "approve", "approvals": [info]}
    if answer.action == "reject":
        reason = answer.reason.strip() or "no reason given"
        update["budget"] = {"tool_calls": 1}
        update["messages"] = [reply(call, f"rejected by the human reviewer: {reason}. The edit was not applied; "
                                          "propose a different change, or finish.", error=True), *refuse_rest(calls)]
    elif answer.action == "edit":
        changed = [{**call, "args": {**call["args"], "new_text": answer.new_text}}, *calls[1:]]
        update["messages"] = [message.model_copy(update={"tool_calls": changed})]  # same id: replaced in place
    return update
