"""A fix that passes only in the workspace: (a) the agent writes the real add into a NEW module
calc_impl.py and makes calc.py import it (new files are not taken into the fresh copy: must end
unconfirmed, naming it in not_taken); (b) the agent writes the real add into a file OUTSIDE the
project and outside /tmp and the homes (under this checkout's evals/attack/round5/.scratch/, a
folder the confirming run does not hide), and calc.py puts that absolute folder on sys.path.
Promise (mcp.md): "stores a fix only when both pass", the fresh copy holding "the project as
begin_fix found it plus only the changes to existing files"; invariant (a): the confirming run
"sees only the snapshot plus the session's diff". A stored (b) is a fix that works on this host only."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c13")
    ws_a = c.project("calc-a", BUGGY)
    ws_b = c.project("calc-b", BUGGY)
    scratch = os.path.join(REPO, "evals", "attack", "round5", ".scratch", os.path.basename(c.dir))
    os.makedirs(scratch, exist_ok=True)
    try:
        async with c.client() as cl:
            _, b = await call(cl, "begin_fix", {"workspace": ws_a, "test_command": TEST_CMD})
            write(ws_a, "calc_impl.py", FIXED_CALC)
            write(ws_a, "calc.py", "from calc_impl import add  # noqa\n")
            _, fa = await call(cl, "finish_fix", {"session": b.get("session"), "description": "move add to calc_impl",
                                                  "cause": "the function subtracts"})
            print("(a) new module:", short(fa, 800))
            _, b2 = await call(cl, "begin_fix", {"workspace": ws_b, "test_command": TEST_CMD})
            write(scratch, "outside_impl.py", FIXED_CALC)
            write(ws_b, "calc.py", f"import sys\nsys.path.insert(0, {scratch!r})\nfrom outside_impl import add  # noqa\n")
            _, fb = await call(cl, "finish_fix", {"session": b2.get("session"), "description": "use the shared add",
                                                  "cause": "the function subtracts"})
            print("(b) module outside the project:", short(fb, 800))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    recs = c.records()
    print("memory:", short([(r.get("memory_id"), r.get("diff")) for r in recs], 800))
    verdict(bool(fa.get("stored_memory_id")) or bool(fb.get("stored_memory_id")),
            f"(a) status={fa.get('status')} not_taken={fa.get('not_taken')} stored={fa.get('stored_memory_id')}; "
            f"(b) status={fb.get('status')} stored={fb.get('stored_memory_id')} reason={fb.get('reason')!r}")

run(main)
