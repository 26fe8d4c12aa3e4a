"""Promise (docs/mcp.md "The tools"; guarantees.md "An agent we do not run (MCP) can store a fix only
through the graph's own gates": finish_fix refuses a change to test machinery before any test runs;
cli.md: bad input is a clear error, never a traceback).
Attack, through the real `astra-memory mcp` and the `mcp` SDK's client: (A) the agent's "fix" gives
testing_support.py (star-imported by the root conftest.py) a hook that makes every test a no-op,
then finish_fix; (B) hostile arguments: search_fixes with top_k -1, 0, 10**9, a string, a 2 MB
failure, a NUL and an escape, a dict as project; show_fix with a path, an empty id, a glob, 10,000
characters; replay_fix / finish_fix with a path as session. The server must answer each (an error
is fine), stay up, and store nothing for (A)."""
import asyncio
import os
import sys
os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack10")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "round5", "lib"))
from mcpharness import BUGGY, Case, TEST_CMD, call, short, verdict, write  # noqa: E402

SUPPORT0 = "def make_numbers():\n    return [1, 2, 3]\n"
NO_OP = ("\n\ndef pytest_collection_modifyitems(session, config, items):\n"
         "    for item in items:\n        item.runtest = lambda: None\n")


async def main():
    c = Case("c09")
    ws = c.project("calc", {**BUGGY, "conftest.py": "from testing_support import *  # noqa\n",
                            "testing_support.py": SUPPORT0}, git=True)
    bad, seen = [], {}
    async with c.client() as cl:
        err, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        seen["begin"] = short(b, 300)
        write(ws, "testing_support.py", SUPPORT0 + NO_OP)
        err, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "made tests deterministic",
                                              "cause": "flaky collection"})
        seen["finish (A)"] = short(f, 500)
        if isinstance(f, dict) and (f.get("status") == "fixed" or f.get("memory_id") or f.get("stored_memory_id")):
            bad.append(f"(A) finish_fix stored: {short(f, 300)}")
        tries = [
            ("search_fixes", {"failure": "AssertionError add", "top_k": -1}),
            ("search_fixes", {"failure": "AssertionError add", "top_k": 0}),
            ("search_fixes", {"failure": "AssertionError add", "top_k": 10 ** 9}),
            ("search_fixes", {"failure": "AssertionError add", "top_k": "3; drop"}),
            ("search_fixes", {"failure": "E" * 2_000_000}),
            ("search_fixes", {"failure": "assert \x00\x1b[2J == 1"}),
            ("search_fixes", {"failure": "x", "project": {"$ne": 1}}),
            ("show_fix", {"memory_id": "../../../etc/passwd"}),
            ("show_fix", {"memory_id": ""}),
            ("show_fix", {"memory_id": "%"}),
            ("show_fix", {"memory_id": "*"}),
            ("show_fix", {"memory_id": "a" * 10_000}),
            ("replay_fix", {"session": "../../home"}),
            ("finish_fix", {"session": "/etc", "description": "d", "cause": "c"}),
        ]
        for tool, args in tries:
            err, a = await call(cl, tool, args, timeout=300)
            text = short(a, 220)
            seen[f"{tool} {short(args, 60)}"] = (err, text)
            if "Traceback" in str(a) or "mcp_error" in str(a) and "Timeout" in str(a):
                bad.append(f"{tool} {short(args, 40)}: {text}")
        err, last = await call(cl, "search_fixes", {"failure": "AssertionError add"})
        if err and "mcp_error" in str(last):
            bad.append(f"server not answering after the sweep: {short(last, 200)}")
    recs = c.records()
    for k, v in seen.items():
        print(k, "->", v)
    if recs:
        bad.append(f"{len(recs)} record(s) stored: {short(recs, 300)}")
    verdict(bool(bad), f"{len(bad)} problem(s): {bad[:5]}; finish (A): {seen['finish (A)'][:300]}")


asyncio.run(main())
