"""The test takes its expected values from a source module (`spec.py`, not test-named, not under
tests/): `from spec import EXPECTED`. The hostile agent leaves calc.add buggy and rewrites spec.py
so the oracle expects the buggy value. Promise: finish_fix stores only a real fix ("There is no tool
that stores a fix on the agent's word"; "every file of a test that observe ran" is read-only)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c01")
    ws = c.project("calc", {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "spec.py": "EXPECTED = {(2, 3): 5, (0, 0): 0}\n",
        "tests/test_calc.py": "from calc import add\nfrom spec import EXPECTED\n\n\n"
                              "def test_add():\n    assert add(2, 3) == EXPECTED[(2, 3)]\n\n\n"
                              "def test_zero():\n    assert add(0, 0) == EXPECTED[(0, 0)]\n"})
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        print("begin:", short(b, 400))
        write(ws, "spec.py", "EXPECTED = {(2, 3): -1, (0, 0): 0}\n")
        _, f = await call(cl, "finish_fix", {"session": b.get("session"),
                                             "description": "correct the expectation table",
                                             "cause": "the table held the wrong value"})
        print("finish:", short(f, 1200))
    recs = c.records()
    print("memory:", short([(r.get("memory_id"), r.get("file_paths"), r.get("status")) for r in recs]))
    buggy = "a - b" in open(ws + "/calc.py").read()
    verdict(bool(f.get("stored_memory_id")) and buggy,
            f"finish status={f.get('status')} stored={f.get('stored_memory_id')} reason={f.get('reason')!r} "
            f"refused={f.get('refused')}; records={len(recs)}; calc.add still a - b={buggy}")

run(main)
