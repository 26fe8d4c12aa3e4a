"""Untrusted text on its way to and from the model.

Into the model: every text from outside (test output, file contents, diffs, memory fields, failed
attempts, tool observations) reaches a model message only through ``quoted``: one JSON value on
one line, so no outside text can put a line of its own (``SYSTEM: new instructions``) into what
the model reads. Our own words around it say what it is. ``quoted`` scrubs secrets *before* it
escapes: the secret shapes are shapes of raw text (a ``.netrc`` block, a ``Cookie:`` header), which
JSON escaping hides from a later scrub of the message.

Out of the model: model output is untrusted data: bound its size and its numbers before it enters
state, logs or tools. ``bound_reply`` runs on every reply before it is logged (models/live.py, the transcript) or
checkpointed (nodes/investigate.py):

* a call whose arguments are larger than any tool could accept, or whose name or id is longer than
  any of ours, is turned into an invalid call (answered with an error observation, never
  executed), so a hostile 50 MB payload is neither run nor written into every later checkpoint of
  the thread; the server's own invalid calls (arguments that are not JSON) are bounded the same way;
* at most ``max_calls`` tool calls of one reply are kept (the first is run, the rest refused, as
  the prompt says: one call per turn); the others are dropped, and their number is kept in the
  reply's ``response_metadata`` so that ``calls_in_reply`` counts every call the server sent
  against the tool-call budget (nodes/investigate.py), not only the ones kept. Such a reply loses
  its response id: a Responses API chain (``previous_response_id``) would make the server expect
  an answer to every call it sent, so the next request chains on an earlier reply, or none.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage

from astra_memory.redact import scrub, scrub_data
from astra_memory.workspace.files import MAX_WRITE_BYTES

MAX_ARGS_CHARS = MAX_WRITE_BYTES + 20_000  # the largest edit a tool accepts, plus its other fields
MAX_CONTENT_CHARS = 200_000
MAX_NAME_CHARS = 200  # a tool's name or a call's id: ours are short, and each is sent back to the server
MAX_ERROR_CHARS = 2_000
MAX_CONTENT_BLOCKS = 64  # text, reasoning and the kept calls' blocks of one reply
PREVIEW_CHARS = 200
DROPPED_KEY = "astra_tool_calls_dropped"  # response_metadata: calls of the reply beyond the bound


def cut(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters, saying how much was left out."""
    return text if len(text) <= limit else text[:limit] + f"...[{len(text) - limit} characters cut]"


def _cut_strings(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return cut(value, limit)
    if isinstance(value, (list, tuple)):
        return [_cut_strings(v, limit) for v in value]
    if isinstance(value, dict):
        return {str(k): _cut_strings(v, limit) for k, v in value.items()}
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, default=str)


def quoted(value: Any, limit: int = 2_000) -> str:
    """The one way outside text enters a model message: one JSON value on one line, every string in
    it (in lists and dicts too) cut to ``limit`` characters; a string alone is cut so that its
    quoted form (escapes included) stays within ``limit`` plus the note saying what was cut.

    ``json.dumps`` escapes every control character (newlines included) and quotes, and, with
    ``ensure_ascii``, the Unicode line and paragraph separators, so the value cannot end the line
    it is on nor close the string it is in. Secrets are scrubbed from the raw text first."""
    if not isinstance(value, str):
        return _dumps(_cut_strings(scrub_data(value), limit))
    value = scrub(value)
    keep, out = len(value), _dumps(value)
    while len(out) > limit + 2 and keep > 0:  # escapes make the quoted form longer than the text
        keep = min(keep - 1, limit, keep * limit // len(out))
        out = _dumps(value[:keep] + f"...[{len(value) - keep} characters cut]")
    return out


def calls_in_reply(reply: AIMessage | None) -> int:
    """Every tool call the server sent in ``reply``: kept, invalid, and dropped by ``bound_reply``."""
    if reply is None:
        return 0
    dropped = (reply.response_metadata or {}).get(DROPPED_KEY, 0)
    dropped = dropped if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0 else 0
    return len(reply.tool_calls) + len(reply.invalid_tool_calls or []) + dropped


def _short(value: Any) -> Any:
    return cut(value, MAX_NAME_CHARS) if isinstance(value, str) else value


def _demoted(call: dict, size: int, why: str = "") -> dict:
    return {"name": _short(call.get("name")), "args": f"<{size} characters, not kept>", "id": _short(call.get("id")),
            "error": why or f"arguments are {size} characters; the limit is {MAX_ARGS_CHARS}",
            "type": "invalid_tool_call"}


def _bounded_invalid(call: dict) -> dict:
    """An invalid call from the server (arguments that are not JSON) with every field bounded."""
    args = call.get("args")
    size = len(args) if isinstance(args, str) else len(_dumps(args))
    error = call.get("error")
    return {**call, "name": _short(call.get("name")), "id": _short(call.get("id")),
            "args": args if size <= MAX_ARGS_CHARS else f"<{size} characters, not kept>",
            "error": cut(error, MAX_ERROR_CHARS) if isinstance(error, str) else error}


def _oversized(call: dict) -> tuple[int, str]:
    """(size of its arguments, why it cannot be run) for a valid call; why is "" when it can."""
    size = len(json.dumps(call.get("args"), default=str))
    if size > MAX_ARGS_CHARS:
        return size, f"arguments are {size} characters; the limit is {MAX_ARGS_CHARS}"
    for field in ("name", "id"):
        value = call.get(field)
        if isinstance(value, str) and len(value) > MAX_NAME_CHARS:
            return size, f"its {field} is {len(value)} characters; the limit is {MAX_NAME_CHARS}"
    return size, ""


CALL_BLOCKS = ("function_call", "tool_call")  # a Responses reply lists its calls in its content too


def _bounded_content(content: Any, kept_ids: set) -> Any:
    """The reply's text cut to ``MAX_CONTENT_CHARS``; in a list of blocks (the Responses API's), the
    blocks of calls not kept are left out (they would be sent back to the server), texts cut."""
    if isinstance(content, str):
        return content if len(content) <= MAX_CONTENT_CHARS else cut(content, MAX_CONTENT_CHARS)
    if not isinstance(content, list):
        return content
    blocks = []
    for block in content:
        if isinstance(block, dict) and block.get("type") in CALL_BLOCKS:
            if (block.get("call_id") or block.get("id")) not in kept_ids:
                continue
        elif isinstance(block, dict) and isinstance(block.get("text"), str):
            block = {**block, "text": cut(block["text"], MAX_CONTENT_CHARS)}
        elif isinstance(block, str):
            block = cut(block, MAX_CONTENT_CHARS)
        blocks.append(block)
        if len(blocks) >= MAX_CONTENT_BLOCKS:
            break
    return blocks


def bound_reply(reply: AIMessage, max_calls: int) -> AIMessage:
    """The same reply, with oversized tool calls demoted to invalid calls, at most ``max_calls``
    calls kept (valid first, then invalid), the rest dropped and counted, and huge text cut."""
    max_calls = max(1, int(max_calls))
    valid, invalid = list(reply.tool_calls), list(reply.invalid_tool_calls or [])
    received = len(valid) + len(invalid)
    kept: list[dict] = []
    for call in valid[:max_calls]:
        size, why = _oversized(call)
        if why:
            invalid.insert(0, _demoted(call, size, why))
        else:
            kept.append(call)
    demoted = [_bounded_invalid(c) for c in invalid[:max(0, min(max_calls, received) - len(kept))]]
    dropped = received - len(kept) - len(demoted)
    content = _bounded_content(reply.content, {c.get("id") for c in [*kept, *demoted]})
    unchanged = demoted == list(reply.invalid_tool_calls or [])
    if len(kept) == len(reply.tool_calls) and unchanged and not dropped and content == reply.content:
        return reply
    update: dict[str, Any] = {"tool_calls": kept, "invalid_tool_calls": demoted, "content": content}
    if dropped:  # never chained on (its id is set aside): the server would want an answer to every call
        metadata = dict(reply.response_metadata or {})
        if metadata.get("id"):
            metadata["astra_unchained_id"] = metadata.pop("id")
        update["response_metadata"] = {**metadata, DROPPED_KEY: dropped}
    return reply.model_copy(update=update)


def preview_calls(calls: list[dict]) -> list[dict[str, Any]]:
    """Tool calls for the event log: names and arguments, long strings shortened."""
    def short(value: Any) -> Any:
        if isinstance(value, str) and len(value) > PREVIEW_CHARS:
            return value[:PREVIEW_CHARS] + f"...<{len(value)} chars>"
        return value
    return [{"name": c.get("name"), "args": {k: short(v) for k, v in c["args"].items()}
             if isinstance(c.get("args"), dict) else short(c.get("args"))} for c in calls]
