"""The session's model transcript: ``run_dir/transcript.jsonl``, beside ``events.jsonl``.

Why a separate file: the event log says *what happened* in a line per step; the transcript keeps
*what was said* to and by the model (messages, tool calls, usage, cost, errors), which is what
you need to audit a bill or debug a model's behaviour. Each request line carries only the messages
that are new since the model's previous reply (the first carries the whole prompt), so the file
grows linearly and the conversation can be replayed from it in order.

Every line is scrubbed: the patterns in ``astra_memory.redact`` plus the literal values of the
secrets in use (the API key may not look like a key, e.g. a local server's token).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, convert_to_openai_messages

from astra_memory.models.untrusted import DROPPED_KEY
from astra_memory.redact import REDACTED, scrub, scrub_data

TRANSCRIPT_FILE = "transcript.jsonl"
MIN_SECRET_LENGTH = 8  # shorter values (e.g. "ollama") are placeholders, and replacing them would mangle text


def redact_secrets(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``scrub`` plus literal replacement of the given secret values."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_LENGTH:
            text = text.replace(secret, REDACTED)
    return scrub(text)


def new_messages(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The messages after the model's last reply (all of them for the first request)."""
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], AIMessage):
            return messages[index + 1:]
    return list(messages)


def wire_messages(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """Messages in the OpenAI chat format (role, content, tool_calls, tool_call_id)."""
    return convert_to_openai_messages(list(messages))


class Transcript:
    """Appends scrubbed JSON lines to ``run_dir/transcript.jsonl`` (no-op without a run dir)."""

    def __init__(self, run_dir: str | Path | None, *, secrets: tuple[str, ...] = ()) -> None:
        self.path = Path(run_dir) / TRANSCRIPT_FILE if run_dir else None
        self.secrets = tuple(s for s in secrets if s)

    def write(self, kind: str, **data: Any) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = scrub_data(json.loads(json.dumps(data, default=str)))  # as data: no pattern spans a JSON escape
        line = json.dumps({"ts": datetime.now(timezone.utc).isoformat(), "kind": kind, **data})
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(redact_secrets(line, self.secrets) + "\n")

    def request(self, request_id: str, *, model: str, wire: str, messages: list[BaseMessage],
                max_cost_usd: float, input_token_bound: int, max_output_tokens: int, chained: bool = False) -> None:
        fresh = new_messages(messages)
        self.write("request", request_id=request_id, model=model, wire=wire, messages_total=len(messages),
                   messages=wire_messages(fresh), max_cost_usd=max_cost_usd,
                   input_token_bound=input_token_bound, max_output_tokens=max_output_tokens, chained=chained)

    def response(self, request_id: str, reply: AIMessage, *, cost_usd: float, usage: dict[str, Any]) -> None:
        metadata = reply.response_metadata or {}
        self.write("response", request_id=request_id, content=reply.content,
                   tool_calls=[{"id": c.get("id"), "name": c["name"], "args": c["args"]} for c in reply.tool_calls],
                   invalid_tool_calls=[{"id": c.get("id"), "name": c.get("name"), "args": c.get("args"),
                                        "error": c.get("error")} for c in reply.invalid_tool_calls],
                   tool_calls_dropped=metadata.get(DROPPED_KEY, 0),
                   usage=usage, cost_usd=cost_usd, response_id=metadata.get("id"),
                   model_name=metadata.get("model_name"), finish_reason=metadata.get("finish_reason"))

    def error(self, request_id: str, *, error: str, status_code: int | None, kept_usd: float) -> None:
        self.write("error", request_id=request_id, error=error, status_code=status_code, counted_usd=kept_usd)


def read_transcript(run_dir: str | Path) -> list[dict[str, Any]]:
    path = Path(run_dir) / TRANSCRIPT_FILE
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
