"""Malformed and huge arguments: begin_fix with a NUL byte in the workspace, a 5,000-character
workspace path, an empty / 200,000-character test command, a test_command that is a list; then an
honest session whose finish_fix sends a 5 MB description and a 2 MB cause, search_fixes with
top_k -1 / 10**9 / "3" and a 1 MB failure text. Promise (the task's rule for every case, and
guarantees.md: "no tool call crashes or hangs a session"): a clear error naming what is wrong, never
an unexplained failure with a traceback; the session not lost; memory bounded."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c11")
    ws = c.project("calc", BUGGY)
    bad = {}
    async with c.client() as cl:
        tries = [("begin_fix", "nul in workspace", {"workspace": ws + "\x00x", "test_command": TEST_CMD}),
                 ("begin_fix", "5000-char workspace", {"workspace": os.path.join(c.src, "a" * 5000), "test_command": TEST_CMD}),
                 ("begin_fix", "empty command", {"workspace": ws, "test_command": ""}),
                 ("begin_fix", "200k command", {"workspace": ws, "test_command": "python -m pytest -q " + "x" * 200000}),
                 ("begin_fix", "list command", {"workspace": ws, "test_command": ["python", "-m", "pytest"]}),
                 ("search_fixes", "top_k -1", {"failure": "AssertionError add", "top_k": -1}),
                 ("search_fixes", "top_k 1e9", {"failure": "AssertionError add", "top_k": 10**9}),
                 ("search_fixes", "1MB failure", {"failure": "AssertionError " * 70000}),
                 ("show_fix", "nul id", {"memory_id": "a\x00b"})]
        for tool, k, args in tries:
            err, a = await call(cl, tool, args, timeout=300)
            txt = a.get("text", "") if isinstance(a, dict) else ""
            unexplained = err and (txt.strip() == f"Error executing tool {tool}" or "mcp_error" in a)
            print(f"{tool}({k}): is_error={err} unexplained={unexplained} {short(a, 250)}")
            if unexplained:
                bad[k] = txt or a.get("mcp_error")
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 200))
        write(ws, "calc.py", FIXED_CALC)
        err, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "D" * 5_000_000,
                                               "cause": "C" * 2_000_000})
        print("huge finish:", err, short(f, 500))
        if err and f.get("text", "").strip() in ("Error executing tool finish_fix", ""):
            bad["huge finish"] = f
        if f.get("status") != "fixed":
            err2, f2 = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +", "cause": "subtracts"})
            print("finish again, normal words:", err2, short(f2, 400))
            if f2.get("status") != "fixed":
                bad["session lost after huge finish"] = f2
    size = os.path.getsize(os.path.join(c.home, "memory.sqlite")) if os.path.exists(os.path.join(c.home, "memory.sqlite")) else 0
    recs = c.records()
    longest = max([len(r.get("fix_description") or "") for r in recs] + [0])
    print("memory.sqlite bytes:", size, "longest stored description:", longest)
    verdict(bool(bad), f"unexplained errors (server log shows a traceback; client gets no reason): {list(bad)}; "
                       f"records={len(recs)} longest description stored={longest} chars")

run(main)
