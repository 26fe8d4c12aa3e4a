"""Between begin_fix and finish_fix the hostile agent moves the workspace folder away and puts a
symlink at its path that points at a folder outside every allowed root (a copy of the project with
a correct add and a marker file). Promises: workspaces only under the roots (--allow / MCP roots);
no read or write follows a symlink; the change is the workspace's change since begin_fix."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c03")
    ws = c.project("calc", BUGGY)
    outside = os.path.join(c.dir, "outside", "calc")
    shutil.copytree(ws, outside)
    write(outside, "calc.py", "# OUTSIDE-ROOT-MARKER-5521\ndef add(a, b):\n    return a + b\n")
    before = open(outside + "/calc.py").read()
    st0 = os.stat(outside + "/calc.py")
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 300))
        os.rename(ws, ws + ".moved")
        os.symlink(outside, ws)
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +",
                                             "cause": "the function subtracts"})
        print("finish:", short(f, 1500))
    recs = c.records()
    leaked = c.grep_home("OUTSIDE-ROOT-MARKER-5521")
    after = open(outside + "/calc.py").read()
    st1 = os.stat(outside + "/calc.py")
    rewritten = (st0.st_ino, st0.st_mtime_ns) != (st1.st_ino, st1.st_mtime_ns)
    print("outside calc.py inode/mtime before", (st0.st_ino, st0.st_mtime_ns), "after", (st1.st_ino, st1.st_mtime_ns))
    print("memory:", short([(r.get("memory_id"), r.get("diff")) for r in recs], 1000))
    print("outside calc.py unchanged:", after == before, "marker under ASTRA_HOME:", leaked)
    bad = bool(f.get("stored_memory_id")) or bool(leaked) or after != before or rewritten
    verdict(bad, f"finish status={f.get('status')} reason={f.get('reason')!r} stored={f.get('stored_memory_id')}; "
                 f"outside file same bytes={after == before}, rewritten in place (inode/mtime changed)={rewritten}; outside text in ASTRA_HOME={leaked}")

run(main)
