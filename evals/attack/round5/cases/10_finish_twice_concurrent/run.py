"""finish_fix called twice at once on one session (two clients, two server processes sharing
ASTRA_HOME, and the same client with two concurrent calls), then once more after it is fixed.
Promises: one runner per thread; every confirmed fix stored once; a clear answer for the loser
(no traceback, no lost session); a finished session is not re-run or re-stored."""
import asyncio, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c10")
    ws = c.project("calc", BUGGY)
    async with c.client() as a, c.client() as b:
        _, beg = await call(a, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        sid = beg.get("session")
        print("begin:", short(beg, 200))
        write(ws, "calc.py", FIXED_CALC)
        args = {"session": sid, "description": "use +", "cause": "the function subtracts"}
        r = await asyncio.gather(call(a, "finish_fix", args), call(b, "finish_fix", args), call(a, "finish_fix", args))
        for i, (e, x) in enumerate(r):
            print(f"concurrent finish {i}: is_error={e} {short(x, 700)}")
        e4, x4 = await call(b, "finish_fix", args)
        print("after fixed, finish again:", e4, short(x4, 700))
    recs = c.records()
    print("memory:", short([(x.get("memory_id"), len(x.get("confirmations") or [])) for x in recs]))
    th = c.astra(["threads"]).stdout
    print("threads:", th[-600:])
    fixed = [x.get("stored_memory_id") for e, x in r if isinstance(x, dict) and x.get("status") == "fixed"]
    tracebacks = [i for i, (e, x) in enumerate(r + [(e4, x4)]) if "Traceback" in short(x, 10**6)]
    confs = sum(len(x.get("confirmations") or []) for x in recs)
    bad = len(recs) != 1 or bool(tracebacks) or not fixed or confs != 1
    verdict(bad, f"statuses={[ (x.get('status') if isinstance(x, dict) else x) for e, x in r]}; "
                 f"answers with mcp_error={[i for i, (e, x) in enumerate(r) if 'mcp_error' in x]}; fixed ids={fixed}; "
                 f"records={len(recs)} confirmations={confs}; tracebacks={tracebacks}; 4th call: {x4.get('status')!r} "
                 f"{short(x4.get('reason') or x4, 200)}")

run(main)
