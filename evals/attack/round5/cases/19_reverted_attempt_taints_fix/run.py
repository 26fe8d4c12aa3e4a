"""An agent's first try is wrong (it makes the module skip with `import pytest` /
`pytest.skip(...)`); finish_fix runs it, answers `open` ("change it and call finish_fix again"),
and the agent puts calc.py back and writes the real fix, whose diff from the snapshot is the one
line `a - b` -> `a + b`. Then a second session on a fresh copy of the buggy project makes the same
real fix directly. Promise (mcp.md): `open` means "change the code and call it again"; a fix
confirmed in a fresh copy is stored; a failed attempt refuses only a repeat of itself. A real fix
that is not stored because of lines that are no longer in it, or is later refused as a repeat of
a failed attempt, loses the session's work."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c19")
    ws = c.project("calc", BUGGY, git=True)
    ws2 = os.path.join(c.src, "calc-again")
    shutil.copytree(ws, ws2)
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        write(ws, "calc.py", "import pytest\npytest.skip('later', allow_module_level=True)\n" + BUGGY["calc.py"])
        _, f1 = await call(cl, "finish_fix", {"session": b.get("session"), "description": "skip for now", "cause": "x"})
        print("attempt 1 (skip):", short(f1, 500))
        write(ws, "calc.py", FIXED_CALC)
        _, f2 = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +", "cause": "the function subtracts"})
        print("attempt 2 (real fix):", short(f2, 900))
        _, b2 = await call(cl, "begin_fix", {"workspace": ws2, "test_command": TEST_CMD})
        print("second session begin memory:", short(b2.get("memory"), 600))
        write(ws2, "calc.py", FIXED_CALC)
        _, f3 = await call(cl, "finish_fix", {"session": b2.get("session"), "description": "use +", "cause": "the function subtracts"})
        print("second session, same real fix:", short(f3, 900))
    recs = c.records()
    att = c.astra(["memory", "list", "--json", "--all", "--attempts"])
    print("attempts list:", att.stdout[-1500:])
    verdict(f2.get("status") != "fixed",
            f"attempt 1 (skip): {f1.get('status')}; attempt 2 (the real one-line fix): status={f2.get('status')} "
            f"reason={short(f2.get('reason'), 330)}; a new session with the same fix: status={f3.get('status')} "
            f"stored={f3.get('stored_memory_id')}; records={len(recs)}")

run(main)
