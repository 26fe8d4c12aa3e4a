"""Consequence of case 01 through replay: the oracle-module "fix" (spec.py rewritten to expect the
buggy value, calc.add untouched) is stored from clone A of a git repository; clone B of the same
repository (same project identity, same bug) calls begin_fix then replay_fix. Promise (the task:
"replay never spreads" a fix that was not confirmed; mcp.md replay_fix "with the same trust rules
as the agent")."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

FILES = {"calc.py": "def add(a, b):\n    return a - b\n",
         "spec.py": "EXPECTED = {(2, 3): 5, (0, 0): 0}\n",
         "tests/test_calc.py": "from calc import add\nfrom spec import EXPECTED\n\n\n"
                               "def test_add():\n    assert add(2, 3) == EXPECTED[(2, 3)]\n\n\n"
                               "def test_zero():\n    assert add(0, 0) == EXPECTED[(0, 0)]\n"}


async def main():
    c = Case("c21")
    a = c.project("calc-a", FILES, git=True)
    bdir = os.path.join(c.src, "calc-b")
    shutil.copytree(a, bdir)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": a, "test_command": TEST_CMD})
        write(a, "spec.py", "EXPECTED = {(2, 3): -1, (0, 0): 0}\n")
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "correct the table", "cause": "wrong expectation"})
        print("A finish:", short(f, 400))
        _, b2 = await call(cl, "begin_fix", {"workspace": bdir, "test_command": TEST_CMD})
        print("B begin memory:", short(b2.get("memory"), 500))
        _, r = await call(cl, "replay_fix", {"session": b2.get("session")})
        print("B replay:", short(r, 800))
    spec_b = open(bdir + "/spec.py").read()
    spread = "-1" in spec_b
    verdict(spread, f"A: status={f.get('status')} stored={f.get('stored_memory_id')}; B replay: status={r.get('status')} "
                    f"replayed={r.get('replayed_memory_id')}; B's spec.py now expects the bug={spread}; "
                    f"B's calc.add still a - b={'a - b' in open(bdir + '/calc.py').read()}")

run(main)
