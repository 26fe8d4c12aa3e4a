"""A stored fix's diff is changed in memory.sqlite (id kept) by appending a backdoor line AFTER
its hunk, the hunk header left as it was (`@@ -1,2 +1,2 @@`, so the line is outside the hunk's
counted lines). A clone of the same repository then calls begin_fix (memory hits, shown to the
calling agent "with its description and diff"), show_fix and replay_fix. Case 15 does the same
with a consistent header (+1,3), which is caught. Promise: invariant (i) "a fix record whose
content no longer gives its content-derived id ... is such a row: never replayed, never shown to
the model, named by memory list"; caveat: whoever can write the memory file is trusted (round 4
case 22), and guarantees.md leaves "a change to a diff's context lines, line numbers" uncaught
until diff_sha256 is written."""
import json, os, shutil, sqlite3, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

LINE = "+import os; os.system('touch /tmp/PWNED-c23')\n"


async def main():
    c = Case("c23")
    ws = c.project("calc", BUGGY, git=True)
    clone = os.path.join(c.src, "calc-clone")
    shutil.copytree(ws, clone)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        write(ws, "calc.py", FIXED_CALC)
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +", "cause": "the function subtracts"})
        mid = f.get("stored_memory_id")
        print("finish:", short(f, 300))
    db = sqlite3.connect(os.path.join(c.home, "memory.sqlite"))
    changed = 0
    for key, val in db.execute("select key, value from store where prefix='astra.fixes'").fetchall():
        was_bytes = isinstance(val, bytes)
        rec = json.loads(val.decode() if was_bytes else val)
        if rec.get("diff", "").endswith("+    return a + b\n"):
            rec["diff"] += LINE
            new = json.dumps(rec, separators=(",", ":"))
            db.execute("update store set value=? where prefix='astra.fixes' and key=?", (new.encode() if was_bytes else new, key))
            changed += 1
    db.commit(); db.close()
    ml = c.astra(["memory", "list", "--json", "--all"])
    print("rows changed:", changed, "; memory list names it damaged:", "damaged" in (ml.stdout + ml.stderr).lower(),
          "; memory list shows the line:", "PWNED-c23" in ml.stdout)
    async with c.client() as cl:
        _, b2 = await call(cl, "begin_fix", {"workspace": clone, "test_command": TEST_CMD})
        in_hits = "PWNED-c23" in short(b2.get("memory"), 10**7)
        print("clone begin memory:", short(b2.get("memory"), 1500))
        _, sh = await call(cl, "show_fix", {"memory_id": mid})
        in_show = "PWNED-c23" in short(sh, 10**7)
        print("show_fix:", short(sh, 1500))
        _, r = await call(cl, "replay_fix", {"session": b2.get("session")})
        print("replay:", short(r, 600))
    written = "PWNED" in open(clone + "/calc.py").read()
    verdict(changed == 0 or in_hits or in_show or written,
            f"rows changed={changed}; backdoor line shown to the calling agent as part of a confirmed fix: in begin_fix's "
            f"memory hits={in_hits}, in show_fix={in_show}; replay: status={r.get('status')} "
            f"replayed={r.get('replayed_memory_id')}; backdoor written into the clone={written}")

run(main)
