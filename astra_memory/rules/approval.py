"""What a human answers when the run pauses: the request kinds, the answers, and the ask loop.

Two nodes pause for a human with LangGraph's ``interrupt()``: ``approve`` (kind ``approve_edit``,
each proposed edit) and ``replay`` (kind ``approve_replay``, a stored fix before it is applied).
Both, and every client that answers them (the CLI's prompt, scripts, Studio), take the request and
answer shapes from here.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

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
