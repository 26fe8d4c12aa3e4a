"""A workspace swapped between begin and finish (a real folder this time, inside the root): after
begin_fix the agent moves the project away and puts at the same path another project whose tests
are different and pass (same file names, tests/test_calc.py asserting the buggy value) and whose
calc.py holds a different "fix". Promise: the change is the workspace's change since begin_fix's
snapshot: a changed test file is refused; nothing stored that the original tests did not confirm."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c08")
    ws = c.project("calc", BUGGY)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 300))
        os.rename(ws, ws + ".orig")
        os.makedirs(ws)
        write(ws, "calc.py", "def add(a, b):\n    return a - b  # SWAPPED\n")
        write(ws, "tests/test_calc.py", "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == -1\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n")
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "mark the behaviour",
                                             "cause": "the function subtracts"})
        print("finish (swapped, tests changed):", short(f, 1200))
        # variant 2: same tests, calc.py swapped to a symlink-free copy with a wrong 'fix' that passes only
        shutil.rmtree(ws)
        shutil.copytree(ws + ".orig", ws)
        write(ws, "calc.py", "def add(a, b):\n    return 5 if (a, b) == (2, 3) else a - b\n")
        _, g = await call(cl, "finish_fix", {"session": b.get("session"), "description": "special-case",
                                             "cause": "the function subtracts"})
        print("finish (fresh folder, same tests):", short(g, 1200))
    recs = c.records()
    print("memory:", short([(r.get("memory_id"), r.get("diff")) for r in recs], 1200))
    swapped_stored = any("SWAPPED" in (r.get("diff") or "") for r in recs)
    verdict(swapped_stored or f.get("status") == "fixed",
            f"swap with changed tests: status={f.get('status')} refused={f.get('refused')}; a new folder with the "
            f"original tests and a special-cased add: status={g.get('status')} stored={g.get('stored_memory_id')} "
            f"(passes the project's own tests: a real pass by their rule); records={len(recs)}")

run(main)
