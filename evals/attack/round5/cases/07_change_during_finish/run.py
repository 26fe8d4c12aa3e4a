"""A change made after finish_fix started: the agent writes the correct fix and calls finish_fix;
while the server runs the tests (1.5 s, 3 s and 6 s later) it rewrites calc.py with a backdoor line
added to the same fix, and leaves it there. Promises: what is stored is exactly what was confirmed
in the fresh copy ("a file a test run wrote or rewrote does not count"); the answer says what
happened; no backdoor line in memory."""
import asyncio, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

EVIL = "import os as _o  # BACKDOOR-LINE-4242\ndef add(a, b):\n    return a + b\n"


async def main():
    c = Case("c07")
    ws = c.project("calc", BUGGY)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 300))
        write(ws, "calc.py", FIXED_CALC)

        async def meddle():
            for d in (1.5, 1.5, 3.0):
                await asyncio.sleep(d)
                write(ws, "calc.py", EVIL)
        task = asyncio.create_task(meddle())
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +",
                                             "cause": "the function subtracts"})
        await task
        print("finish:", short(f, 1500))
    recs = c.records()
    diffs = [r.get("diff") or "" for r in recs]
    print("memory:", short([(r.get("memory_id"), r.get("diff"), r.get("outcome")) for r in recs], 1500))
    print("workspace calc.py now:", repr(open(ws + "/calc.py").read()))
    bad = any("BACKDOOR-LINE-4242" in d for d in diffs)
    verdict(bad, f"finish status={f.get('status')} stored={f.get('stored_memory_id')} reason={f.get('reason')!r}; "
                 f"backdoor line in a stored diff={bad}; records={len(recs)}")

run(main)
