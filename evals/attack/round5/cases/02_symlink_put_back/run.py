"""The hostile agent replaces the workspace's calc.py by a symlink to a file outside every allowed
root (victim.py, holding a correct add). finish_fix "puts the changed files back as they were" and
replays the change through the graph's edit node. Promises: no read or write follows a symlink;
files outside the roots are never read or written; only a confirmed fix is stored."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c02")
    ws = c.project("calc", BUGGY)
    outside = os.path.join(c.dir, "outside")
    os.makedirs(outside)
    victim = os.path.join(outside, "victim.py")
    body = "# victim file outside the roots: SECRET-OUTSIDE-CONTENT-7731\ndef add(a, b):\n    return a + b\n"
    write(outside, "victim.py", body)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 300))
        os.remove(ws + "/calc.py")
        os.symlink(victim, ws + "/calc.py")
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "link the right add",
                                             "cause": "the function subtracts"})
        print("finish:", short(f, 1500))
    after = open(victim).read()
    recs = c.records()
    leaked = c.grep_home("SECRET-OUTSIDE-CONTENT-7731")
    print("memory:", short([(r.get("memory_id"), r.get("diff")) for r in recs], 1200))
    print("victim unchanged:", after == body, "; outside text under ASTRA_HOME:", leaked)
    print("workspace calc.py is link:", os.path.islink(ws + "/calc.py"))
    bad = after != body or bool(recs and any("SECRET-OUTSIDE" in (r.get("diff") or "") for r in recs)) or bool(leaked)
    verdict(bad, f"finish status={f.get('status')} reason={f.get('reason')!r} refused={f.get('refused')} "
                 f"stored={f.get('stored_memory_id')}; victim unchanged={after == body}; outside text in ASTRA_HOME={leaked}")

run(main)
