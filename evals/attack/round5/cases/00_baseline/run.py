"""Control: an honest agent fixes calc.add through the server; the fix must be stored (else every
HELD below means nothing)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c00")
    ws = c.project("calc", BUGGY)
    async with c.client() as cl:
        err, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 1500))
        write(ws, "calc.py", FIXED_CALC)
        err2, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +", "cause": "the function subtracts"})
        print("finish:", short(f, 1500))
    recs = c.records()
    print("memory:", short(recs, 1500))
    verdict(not (f.get("status") == "fixed" and len(recs) == 1),
            f"control: finish status={f.get('status')} stored={f.get('stored_memory_id')} records={len(recs)}")

run(main)
