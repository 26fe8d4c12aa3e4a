"""What a human answers when the run pauses: the request kinds, their payloads, the answers, the ask loop.

Two nodes pause for a human with LangGraph's ``interrupt()``; each kind has one payload (built
here) and one set of answers (``ANSWERS``), whoever answers it (the CLI's prompt, scripts, Studio):

``approve_edit`` (node ``approve``, each proposed edit before ``edit`` applies it)::

    {"kind": "approve_edit", "question": "...", "answers": [...], "path": "app/x.py", "diff": "...",
     "tool_call_id": "...", "old_text": "...", "new_text": "..."}
    answers: "approve" | {"action": "reject", "reason": "..."} | {"action": "edit", "new_text": "..."}

``approve_replay`` (node ``replay``, a stored fix from memory before it is applied)::

    {"kind": "approve_replay", "question": "...", "answers": [...], "path": "app/x.py, app/y.py",
     "diff": "...", "memory_id": "...", "why": ["..."]}
    answers: "approve" | {"action": "reject", "reason": "..."}

A malformed answer (or one the kind does not take, such as ``edit`` for a replay) is asked again:
the same payload with ``"error"``, what was wrong and the answers it takes. ``{"action": "approve"}``
is the same as ``"approve"``, ``"reject"`` a rejection with no reason; ``reason`` is optional.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, ValidationError

EDIT_REQUEST, REPLAY_REQUEST = "approve_edit", "approve_replay"  # the kinds of request a human answers
REQUEST_KINDS = (EDIT_REQUEST, REPLAY_REQUEST)
APPROVE, REJECT, EDIT = '"approve"', '{"action": "reject", "reason": "..."}', '{"action": "edit", "new_text": "..."}'
ANSWERS = {EDIT_REQUEST: (APPROVE, REJECT, EDIT), REPLAY_REQUEST: (APPROVE, REJECT)}  # the resume values, as JSON
ACTIONS = {EDIT_REQUEST: ("approve", "reject", "edit"), REPLAY_REQUEST: ("approve", "reject")}
FIELDS = {EDIT_REQUEST: ("action", "reason", "new_text"), REPLAY_REQUEST: ("action", "reason")}
WHY_NOT = {REPLAY_REQUEST: "a stored fix is replayed as it is or not at all"}


def answers_text(kind: str) -> str:
    """``"approve", {...} or {...}``: the answers ``kind`` takes, as a sentence."""
    answers = ANSWERS[kind]
    return ", ".join(answers[:-1]) + " or " + answers[-1]


class ApprovalAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["approve", "reject", "edit"]
    reason: str = ""
    new_text: str | None = None


def edit_request(*, tool_call_id: str, path: str, old_text: str, new_text: str, diff: str,
                 tried_before: str = "") -> dict:
    """The ``approve_edit`` payload (nodes/approve.py). ``tried_before``: when this edit would make exactly
    a change already recorded as a failed attempt on this failure, what that attempt was ("" otherwise);
    approving it overrides the repetition gate (nodes/edit.py)."""
    caution = f" Caution: {tried_before}" if tried_before else ""
    return {"kind": EDIT_REQUEST,
            "question": f"Apply this edit to {path}?{caution} Resume with {answers_text(EDIT_REQUEST)}.",
            "answers": list(ANSWERS[EDIT_REQUEST]), "path": path, "diff": diff,
            "tool_call_id": tool_call_id, "old_text": old_text, "new_text": new_text, "tried_before": tried_before}


def replay_request(*, memory_id: str, path: str, diff: str, why: list[str]) -> dict:
    """The ``approve_replay`` payload (nodes/replay.py); ``why``: what makes this fix need a human's yes
    (empty when it is asked only because a human answers approvals in this session)."""
    caution = (" It needs your approval: " + "; ".join(why) + ".") if why else ""
    return {"kind": REPLAY_REQUEST,
            "question": f"Replay the confirmed fix {memory_id} from memory (0 model requests)?{caution} "
                        f"Resume with {answers_text(REPLAY_REQUEST)}.",
            "answers": list(ANSWERS[REPLAY_REQUEST]), "path": path, "diff": diff,
            "memory_id": memory_id, "why": list(why)}


def parse_answer(raw: Any, kind: str = EDIT_REQUEST) -> ApprovalAnswer:
    """The human's answer to a request of ``kind``; raises ValueError with what was wrong and the
    answers that kind takes."""
    if kind not in ANSWERS:
        raise ValueError(f"unknown request kind {kind!r}: one of {', '.join(REQUEST_KINDS)}")
    hint = f"resume with {answers_text(kind)}"
    if isinstance(raw, str):
        raw = {"action": raw.strip().lower()}
    elif isinstance(raw, bool):
        raw = {"action": "approve" if raw else "reject"}
    if not isinstance(raw, dict):
        raise ValueError(f"not an answer (a {type(raw).__name__}, not a string or an object): {hint}")
    action = raw.get("action")
    if action not in ACTIONS[kind]:
        why = f"; {WHY_NOT[kind]}" if action == "edit" and kind in WHY_NOT else ""
        raise ValueError(f"not an answer ({kind} takes action {' or '.join(ACTIONS[kind])}, not {action!r}{why}): "
                         f"{hint}")
    extra = sorted(str(k) for k in raw if k not in FIELDS[kind])
    if extra:
        raise ValueError(f"not an answer (unknown field {', '.join(extra)}; {kind} answers take "
                         f"{', '.join(FIELDS[kind])}): {hint}")
    if action == "edit" and not isinstance(raw.get("new_text"), str):
        raise ValueError(f'not an answer ("edit" needs "new_text": the text that replaces old_text): {hint}')
    try:
        return ApprovalAnswer.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"not an answer ({problems}): {hint}") from None


def ask(request: dict) -> ApprovalAnswer:
    """Pause the run with ``request`` (``interrupt()``) and return the human's valid answer; a
    malformed one (or one its kind does not take) is asked again with what was wrong. Nothing
    before the pause may write: on resume the node runs again up to here and gets the answer."""
    raw = interrupt(request)
    while True:
        try:
            return parse_answer(raw, request["kind"])
        except ValueError as exc:
            raw = interrupt({**request, "error": str(exc)})
