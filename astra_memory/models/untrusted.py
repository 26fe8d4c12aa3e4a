"""Untrusted text on its way to and from the model.

Into the model: text from memory is quoted data, never instructions (stores/format.py ``quoted``).

Out of the model: model output is untrusted data: bound its size before it enters state, logs or tools.

A reply's tool-call arguments are checked here, before the reply is checkpointed: a call whose
arguments are larger than any tool could accept is turned into an invalid call (answered with an
error observation, never executed), so a hostile 50 MB payload is neither run nor written into
every later checkpoint of the thread.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage

from astra_memory.workspace.files import MAX_WRITE_BYTES

MAX_ARGS_CHARS = MAX_WRITE_BYTES + 20_000  # the largest edit a tool accepts, plus its other fields
MAX_CONTENT_CHARS = 200_000
PREVIEW_CHARS = 200


def bound_reply(reply: AIMessage) -> AIMessage:
    """The same reply, with oversized tool calls demoted to invalid calls and huge text cut."""
    kept, demoted = [], list(reply.invalid_tool_calls or [])
    for call in reply.tool_calls:
        size = len(json.dumps(call.get("args"), default=str))
        if size > MAX_ARGS_CHARS:
            demoted.append({"name": call["name"], "args": f"<{size} characters, not kept>", "id": call.get("id"),
                            "error": f"arguments are {size} characters; the limit is {MAX_ARGS_CHARS}",
                            "type": "invalid_tool_call"})
        else:
            kept.append(call)
    content = reply.content
    if isinstance(content, str) and len(content) > MAX_CONTENT_CHARS:
        content = content[:MAX_CONTENT_CHARS] + f"\n[... {len(reply.content) - MAX_CONTENT_CHARS} characters cut]"
    if len(kept) == len(reply.tool_calls) and content is reply.content:
        return reply
    return reply.model_copy(update={"tool_calls": kept, "invalid_tool_calls": demoted, "content": content})


def preview_calls(calls: list[dict]) -> list[dict[str, Any]]:
    """Tool calls for the event log: names and arguments, long strings shortened."""
    def short(value: Any) -> Any:
        if isinstance(value, str) and len(value) > PREVIEW_CHARS:
            return value[:PREVIEW_CHARS] + f"...<{len(value)} chars>"
        return value
    return [{"name": c.get("name"), "args": {k: short(v) for k, v in c["args"].items()}
             if isinstance(c.get("args"), dict) else short(c.get("args"))} for c in calls]
