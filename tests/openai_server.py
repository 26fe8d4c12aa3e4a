"""A small OpenAI-compatible HTTP server for the live-wire tests (no network: 127.0.0.1 only).

It answers ``POST /v1/chat/completions`` and ``POST /v1/responses`` in the real wire formats with
scripted replies (tool calls, plain text, or HTTP errors), and ``GET /v1/models`` (the free call
the CLI uses to check the API key before any work starts). Every request is recorded (path,
headers, raw body, parsed JSON) so tests can assert what the real ``langchain-openai`` /
``openai`` client put on the wire.

It also checks each model request the way OpenAI does, and answers 400 with an OpenAI-style
error when a check fails (each failure is also appended to ``violations``):

* the ``Authorization`` header carries the expected key (401 otherwise, like OpenAI);
* every tool is sent strict: ``strict: true``, ``additionalProperties: false``, every property
  required;
* ``parallel_tool_calls`` is false and an output-token cap is sent (the cost guard relies on it);
* every tool result answers a tool call this server issued, in the assistant turn right before it,
  and every tool call of that turn is answered;
* the API key does not occur anywhere in the request body.

Responses API chaining: every response is kept by its id with the conversation it ended (input
items + output items). A request with ``previous_response_id`` continues that conversation; an id
the server does not know (never issued, or dropped by ``forget_responses()`` / ``forget_after``, as
a real server forgets expired ones) is answered 400 ``previous_response_not_found``, like OpenAI.
Usage is counted over the whole conversation the model reads (a chained request is billed for its
context too, as on OpenAI), unless a step gives ``usage``.

Script steps are plain dicts, built with the helpers below:
``tool_call(name, args)`` (``args`` a dict, or a raw string for malformed JSON), ``many_tool_calls([(name,
args), ...])`` (one reply with many calls, optionally gzip-compressed and padded), ``text(content)``,
``http_error(status, retry_after_ms=...)`` (repeat it with ``times``), optionally with ``usage``
(``(input_tokens, output_tokens)``, or ``"omit"`` for a server that reports none).

``call_id="call_0"``: every tool call of every reply gets that id (some compatible local servers give a
fixed one); response ids stay distinct. ``response_id="same"``: every reply has the same id
(``resp_same``, ``chatcmpl-same``). By default each call and each reply has its own id.
"""

from __future__ import annotations

import gzip
import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_KEY = "sk-test-livewire-0123456789abcdefSECRET"


def tool_call(name: str, args: dict | str, *, usage: tuple[int, int] | None = None) -> dict:
    return {"kind": "tool_call", "name": name, "args": args, "usage": usage}


def many_tool_calls(calls: list[tuple[str, dict | str]], *, usage: tuple[int, int] | None = None,
                    gzip_padding: int = 0) -> dict:
    """One reply carrying every call of ``calls`` (a hostile server: ``parallel_tool_calls`` is false).
    ``gzip_padding``: the reply is sent gzip-compressed with that many bytes of JSON whitespace in it
    (tiny on the wire, huge decompressed)."""
    return {"kind": "tool_call", "calls": list(calls), "usage": usage, "gzip_padding": gzip_padding}


def text(content: str, *, usage: tuple[int, int] | None = None) -> dict:
    return {"kind": "text", "content": content, "usage": usage}


def http_error(status: int, *, times: int = 1, retry_after_ms: int | None = 20, message: str = "") -> list[dict]:
    step = {"kind": "error", "status": status, "retry_after_ms": retry_after_ms, "message": message}
    return [dict(step) for _ in range(times)]


def script_from_solution(solution: list[dict]) -> list[dict]:
    """A bundled scenario's scripted solution as wire replies (what a good model would send)."""
    return [tool_call(turn["tool"], turn.get("args", {})) for turn in solution]


class OpenAIServer:
    """Start with ``with OpenAIServer(script) as server:``; ``server.base_url`` ends in ``/v1``."""

    def __init__(self, script: list[dict] | None = None, *, api_key: str = DEFAULT_KEY,
                 forget_after: int | None = None, call_id: str | None = None,
                 response_id: str | None = None) -> None:
        self.script = list(script or [])
        self.call_id = call_id  # the one id of every tool call (a server that repeats ids), or None: distinct ids
        self.response_id = response_id  # the one id of every reply, or None: distinct ids
        self.responses: dict[str, list[dict]] = {}  # response id -> the conversation it ended
        self.forget_after = forget_after  # drop every stored response after this many model replies
        self.unknown_previous_ids: list[str] = []
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.issued_call_ids: list[str] = []
        self._position = 0
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    def __enter__(self) -> "OpenAIServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    # -- what arrived ----------------------------------------------------------------------------

    def model_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["method"] == "POST"]

    @property
    def steps_used(self) -> int:
        return self._position

    def forget_responses(self) -> None:
        with self._lock:
            self.responses.clear()

    # -- request handling ------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in handler.headers.items()}
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        with self._lock:
            self.requests.append({"method": method, "path": handler.path, "headers": headers,
                                  "raw": raw, "body": body, "at": time.monotonic()})
            status, payload, extra = self._respond(method, handler.path, headers, raw, body)
        data = json.dumps(payload).encode()
        if padding := extra.pop("gzip-padding", 0):  # a gzip bomb: small compressed, huge decompressed
            data = gzip.compress(data[:-1] + b" " * padding + data[-1:], compresslevel=9)
            extra["content-encoding"] = "gzip"
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        for key, value in extra.items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(data)

    def _respond(self, method: str, path: str, headers: dict, raw: bytes, body: Any) -> tuple[int, dict, dict]:
        if headers.get("authorization") != f"Bearer {self.api_key}":
            given = (headers.get("authorization") or "").removeprefix("Bearer ")
            masked = given[:8] + "*" * 8 + given[-4:] if len(given) > 12 else "***"
            return 401, _error(f"Incorrect API key provided: {masked}.", "invalid_request_error",
                               "invalid_api_key"), {}
        if method == "GET" and path.rstrip("/") == "/v1/models":
            return 200, {"object": "list", "data": [{"id": "gpt-4.1-mini", "object": "model", "created": 0,
                                                     "owned_by": "test"}]}, {}
        if method != "POST" or path not in ("/v1/chat/completions", "/v1/responses"):
            return 404, _error(f"unknown path {method} {path}", "invalid_request_error", "not_found"), {}
        if not isinstance(body, dict):
            return self._reject("request body is not a JSON object")
        history: list[dict] = []
        previous = body.get("previous_response_id")
        if path == "/v1/responses" and previous is not None:
            if previous not in self.responses:
                self.unknown_previous_ids.append(previous)
                return 400, {"error": {"message": f"Previous response with id '{previous}' not found.",
                                       "type": "invalid_request_error", "param": "previous_response_id",
                                       "code": "previous_response_not_found"}}, {"x-should-retry": "false"}
            history = self.responses[previous]
        problems = self._check_common(raw, body)
        problems += (self._check_chat(body) if path == "/v1/chat/completions"
                     else self._check_responses({**body, "input": history + list(body.get("input") or [])}))
        if problems:
            return self._reject("; ".join(problems))
        if self._position >= len(self.script):
            return self._reject(f"the test script has no step {self._position + 1}")
        step = self.script[self._position]
        self._position += 1
        if step["kind"] == "error":
            extra = {"retry-after-ms": str(step["retry_after_ms"])} if step.get("retry_after_ms") is not None else {}
            kind = {429: "rate_limit_exceeded", 401: "invalid_api_key"}.get(step["status"], "server_error")
            return step["status"], _error(step.get("message") or f"scripted HTTP {step['status']}", kind, kind), extra
        omit_usage = step.get("usage") == "omit"  # some compatible servers report no usage
        read = len(raw) + len(json.dumps(history).encode())  # what the model reads: the chained context too
        in_tokens, out_tokens = (None if omit_usage else step.get("usage")) or (max(1, read // 5), 20)
        if step["kind"] == "tool_call" and "calls" not in step:
            step = {**step, "calls": [(step["name"], step["args"])]}
        numbers = [next(self._ids) for _ in step.get("calls") or [None]]
        tag = self.response_id or f"call_{numbers[0]:04d}"  # names the reply: its response id, chatcmpl-<tag>...
        call_ids = [self.call_id or f"call_{n:04d}" for n in numbers]
        if step["kind"] == "tool_call":
            self.issued_call_ids.extend(call_ids)
        if path == "/v1/chat/completions":
            reply = _chat_reply(body, step, call_ids, tag, in_tokens, out_tokens)
        else:
            reply = _responses_reply(body, step, call_ids, tag, in_tokens, out_tokens)
            self.responses[reply["id"]] = history + list(body.get("input") or []) + reply["output"]
            if self.forget_after is not None and self._position >= self.forget_after:
                self.responses.clear()
                self.forget_after = None
        if omit_usage:
            reply.pop("usage")
        return 200, reply, ({"gzip-padding": step["gzip_padding"]} if step.get("gzip_padding") else {})

    def _reject(self, message: str) -> tuple[int, dict, dict]:
        self.violations.append(message)
        return 400, _error(message, "invalid_request_error", "invalid_request"), {"x-should-retry": "false"}

    def _check_common(self, raw: bytes, body: dict) -> list[str]:
        problems = []
        if self.api_key.encode() in raw:
            problems.append("the API key occurs in the request body")
        if body.get("parallel_tool_calls") is not False:
            problems.append("parallel_tool_calls is not false")
        if not body.get("max_completion_tokens") and not body.get("max_tokens") and not body.get("max_output_tokens"):
            problems.append("no output-token cap (max_completion_tokens / max_output_tokens)")
        return problems

    def _check_tool(self, name: str, parameters: dict, strict: Any) -> list[str]:
        problems = []
        if strict is not True:
            problems.append(f"tool {name} is not strict")
        if parameters.get("additionalProperties") is not False:
            problems.append(f"tool {name} allows additional properties")
        if sorted(parameters.get("required") or []) != sorted(parameters.get("properties") or {}):
            problems.append(f"tool {name} does not require every property")
        return problems

    def _check_chat(self, body: dict) -> list[str]:
        problems = []
        tools = body.get("tools") or []
        if not tools:
            problems.append("no tools were sent")
        for tool in tools:
            fn = tool.get("function") or {}
            problems += self._check_tool(fn.get("name"), fn.get("parameters") or {}, fn.get("strict"))
        messages = body.get("messages") or []
        for i, message in enumerate(messages):
            if message.get("role") != "assistant" or not message.get("tool_calls"):
                continue
            ids = [c["id"] for c in message["tool_calls"]]
            answered = []
            for follower in messages[i + 1:]:
                if follower.get("role") != "tool":
                    break
                answered.append(follower.get("tool_call_id"))
            if sorted(answered) != sorted(ids):
                problems.append(f"tool calls {ids} were answered by tool messages {answered}")
            unknown = [c for c in ids if c not in self.issued_call_ids]
            if unknown:
                problems.append(f"assistant turn replays tool call ids this server never issued: {unknown}")
        for i, message in enumerate(messages):
            if message.get("role") == "tool":
                previous = [m for m in messages[:i] if m.get("role") != "tool"]
                calls = (previous[-1].get("tool_calls") or []) if previous else []
                if message.get("tool_call_id") not in [c["id"] for c in calls]:
                    problems.append(f"tool message answers unknown call {message.get('tool_call_id')!r}")
        return problems

    def _check_responses(self, body: dict) -> list[str]:
        problems = []
        tools = body.get("tools") or []
        if not tools:
            problems.append("no tools were sent")
        for tool in tools:
            problems += self._check_tool(tool.get("name"), tool.get("parameters") or {}, tool.get("strict"))
        items = body.get("input") or []
        calls = [item.get("call_id") for item in items if isinstance(item, dict) and item.get("type") == "function_call"]
        outputs = [item.get("call_id") for item in items
                   if isinstance(item, dict) and item.get("type") == "function_call_output"]
        for call_id in outputs:
            if call_id not in calls:
                problems.append(f"function_call_output answers unknown call {call_id!r}")
        for call_id in calls:
            if call_id not in self.issued_call_ids:
                problems.append(f"input replays a function call id this server never issued: {call_id!r}")
            if call_id not in outputs:
                problems.append(f"function call {call_id!r} has no function_call_output")
        return problems


def _error(message: str, kind: str, code: str) -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _arguments(args: dict | str) -> str:
    return args if isinstance(args, str) else json.dumps(args)


def _chat_reply(body: dict, step: dict, call_ids: list[str], tag: str, in_tokens: int, out_tokens: int) -> dict:
    if step["kind"] == "tool_call":
        message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
            {"id": one_id, "type": "function", "function": {"name": name, "arguments": _arguments(args)}}
            for one_id, (name, args) in zip(call_ids, step["calls"], strict=True)]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": step["content"], "refusal": None}
        finish = "stop"
    return {
        "id": f"chatcmpl-{tag}", "object": "chat.completion", "created": int(time.time()),
        "model": body.get("model"), "system_fingerprint": "fp_test",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": in_tokens, "completion_tokens": out_tokens,
                  "total_tokens": in_tokens + out_tokens},
    }


def _responses_reply(body: dict, step: dict, call_ids: list[str], tag: str, in_tokens: int, out_tokens: int) -> dict:
    if step["kind"] == "tool_call":
        output = [{"type": "function_call", "id": f"fc_{one_id}", "call_id": one_id, "name": name,
                   "arguments": _arguments(args), "status": "completed"} for one_id, (name, args)
                  in zip(call_ids, step["calls"], strict=True)]
    else:
        output = [{"type": "message", "id": f"msg_{tag}", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": step["content"], "annotations": []}]}]
    return {
        "id": f"resp_{tag}", "object": "response", "created_at": int(time.time()), "status": "completed",
        "model": body.get("model"), "output": output, "error": None, "incomplete_details": None,
        "instructions": None, "metadata": {}, "parallel_tool_calls": False, "temperature": 1.0,
        "tool_choice": "auto", "tools": body.get("tools") or [], "top_p": 1.0,
        "max_output_tokens": body.get("max_output_tokens"), "service_tier": body.get("service_tier") or "default",
        "previous_response_id": body.get("previous_response_id"),
        "usage": {"input_tokens": in_tokens, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": out_tokens, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": in_tokens + out_tokens},
    }
