"""Numbers from outside are bounded, not believed (issue 32 class 11, second half; invariant (h)).

A model server that answered 5,000 tool calls in one reply (three times, despite
``parallel_tool_calls: false``) had all 15,000 kept: one request carried 15,007 messages, the
checkpoints grew to 59 MB, and only 3 tool calls were counted against the limit. Now at most
``max_tool_calls_per_reply`` calls of a reply are kept (the first run, the rest refused), the
others dropped with a note, and every call the server sent is counted. A gzip-compressed reply is
bounded by its decompressed size. All through the real openai client on the wire
(tests/openai_server.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from astra_memory.events import read_events
from astra_memory.models.live import MAX_RESPONSE_BYTES
from tests.openai_server import DEFAULT_KEY, OpenAIServer, many_tool_calls
from tests.test_live_wire import ALPHA, run_alpha

pytestmark = pytest.mark.live_wire

FLOOD = 5_000
READ = ("read_file", {"path": "app/settings.py"})


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
    return DEFAULT_KEY


def checkpoint_bytes(settings) -> int:
    path = Path(settings.checkpoint_path)
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


@pytest.mark.parametrize("wire", ["chat", "responses"])
def test_a_flood_of_tool_calls_in_one_reply_is_bounded_and_all_counted(settings, api_key, wire):
    script = [many_tool_calls([READ] * FLOOD) for _ in range(3)] + ALPHA
    with OpenAIServer(script) as server:
        final, task, _ = run_alpha(settings, server, f"flood-{wire}", max_tool_calls=100_000,
                                   use_responses_api=wire == "responses")
    assert server.violations == [] and final["status"] == "fixed", final.get("reason")
    assert final["budget"]["tool_calls"] == 3 * FLOOD + len(ALPHA)  # every call the server sent is counted
    kept = [len(m.tool_calls) + len(m.invalid_tool_calls) for m in final["messages"] if isinstance(m, AIMessage)]
    assert max(kept) == 8  # the default bound per reply; the first is run, the other 7 refused
    requests = server.model_requests()
    carried = [len(r["body"].get("messages") or r["body"].get("input") or []) for r in requests]
    assert max(carried) < 60, carried  # was 15,007 messages in one request
    assert max(len(r["raw"]) for r in requests) < 200_000
    assert checkpoint_bytes(settings) < 5_000_000  # was 59 MB
    dropped = [e for e in read_events(task["run_dir"]) if e["event"] == "tool_calls_dropped"]
    assert [e["dropped"] for e in dropped] == [FLOOD - 8] * 3


def test_a_flood_past_the_tool_call_limit_ends_the_run_before_another_request(settings, api_key):
    with OpenAIServer([many_tool_calls([READ] * FLOOD)] + ALPHA) as server:
        final, _, rows = run_alpha(settings, server, "flood-limit", use_responses_api=False)  # max_tool_calls 60
    assert final["status"] == "budget_exhausted"
    assert "tool call limit reached (5000 of 60)" in final["reason"] and "max-tool-calls" in final["reason"]
    assert len(server.model_requests()) == 1 and len(rows) == 1  # no request paid for after the flood


def test_the_per_reply_bound_is_a_setting(settings, api_key, monkeypatch):
    monkeypatch.setenv("ASTRA_MAX_TOOL_CALLS_PER_REPLY", "2")
    with OpenAIServer([many_tool_calls([READ] * 5)] + ALPHA) as server:
        final, _, _ = run_alpha(settings, server, "flood-small", use_responses_api=False)
    assert final["status"] == "fixed" and final["budget"]["tool_calls"] == 5 + len(ALPHA)
    first = next(m for m in final["messages"] if isinstance(m, AIMessage))
    assert len(first.tool_calls) == 2


def test_a_gzip_bomb_is_bounded_by_its_decompressed_size(settings, api_key):
    """Outside case 08: Content-Encoding gzip, tiny compressed, huge decompressed."""
    bomb = many_tool_calls([READ], gzip_padding=4 * MAX_RESPONSE_BYTES)
    with OpenAIServer([bomb] + ALPHA) as server:
        final, task, rows = run_alpha(settings, server, "gzip-bomb", use_responses_api=False, max_retries=0)
    assert final["status"] == "failed" and "larger than" in final["reason"], final.get("reason")
    assert len(server.model_requests()) == 1  # refused once, not retried
    assert rows[0]["cost_usd"] == rows[0]["reserved_usd"] > 0  # the server did the work: counted
    errors = [json.loads(line) for line in (Path(task["run_dir"]) / "transcript.jsonl").read_text().splitlines()
              if '"kind": "error"' in line]
    assert errors and "decompressed" in errors[0]["error"]


def test_a_reply_with_huge_unparsable_arguments_or_names_is_bounded_before_it_is_logged(settings, api_key):
    """Own outside round case 14: arguments that are not JSON (langchain keeps them as an invalid call,
    raw) and a tool name of 300,000 characters were kept whole: in every later checkpoint and in the
    transcript, which was written before the reply was bounded."""
    huge_args, huge_name = "{" + "x" * 2_000_000, "read_file" + "y" * 300_000
    script = [many_tool_calls([("read_file", huge_args), (huge_name, {"path": "app/settings.py"})])] + ALPHA
    with OpenAIServer(script) as server:
        final, task, _ = run_alpha(settings, server, "huge-fields", use_responses_api=False)
    assert final["status"] == "fixed", final.get("reason")
    transcript = Path(task["run_dir"]) / "transcript.jsonl"
    assert transcript.stat().st_size < 300_000  # was over 2.3 MB
    assert checkpoint_bytes(settings) < 2_000_000
    first = next(m for m in final["messages"] if isinstance(m, AIMessage))
    assert not first.tool_calls and len(first.invalid_tool_calls) == 2
    assert all(len(json.dumps(c)) < 5_000 for c in first.invalid_tool_calls)
    assert final["budget"]["tool_calls"] == 2 + len(ALPHA)
