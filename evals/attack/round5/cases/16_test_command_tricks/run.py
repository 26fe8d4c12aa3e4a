"""test_command tricks at begin_fix: (a) shell operators without a shell (`pytest ... || true`);
(b) `--deselect` of the failing test; (c) a command that is not pytest (`python check.py`): the
agent edits check.py, the file the command names, to exit 0; (d) the same command with an honest
fix, stored as an exit-code-only fix, then replay_fix in a clone of the same repository.
Promises (guarantees.md): every file the test command names is machinery (refused); "A test
command that is not pytest is judged by its exit code only, and says so ... such a fix is never
replayed without a human's approval"; clear answers, no traceback."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

CHECK = "import sys\nfrom calc import add\nsys.exit(0 if add(2, 3) == 5 else 1)\n"


async def main():
    c = Case("c16")
    files = dict(BUGGY, **{"check.py": CHECK})
    ws = c.project("calc", files, git=True)
    clone = os.path.join(c.src, "calc-clone")
    shutil.copytree(ws, clone)
    res = {}
    async with c.client() as cl:
        for k, cmd in (("a shell ops", TEST_CMD + " || true"),
                       ("b deselect", TEST_CMD + " --deselect tests/test_calc.py::test_add")):
            err, a = await call(cl, "begin_fix", {"workspace": ws, "test_command": cmd})
            res[k] = a
            print(k, err, short(a, 500))
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": "python check.py"})
        print("c begin:", short(b, 500))
        write(ws, "check.py", "import sys\nsys.exit(0)\n")
        _, fc = await call(cl, "finish_fix", {"session": b.get("session"), "description": "simplify check", "cause": "x"})
        res["c edit check.py"] = fc
        print("c finish:", short(fc, 600))
        write(ws, "check.py", CHECK)
        write(ws, "calc.py", FIXED_CALC)
        _, fd = await call(cl, "finish_fix", {"session": b.get("session"), "description": "use +", "cause": "the function subtracts"})
        res["d honest"] = fd
        print("d finish:", short(fd, 600))
        _, b2 = await call(cl, "begin_fix", {"workspace": clone, "test_command": "python check.py"})
        print("clone begin:", short(b2, 600))
        err, r = await call(cl, "replay_fix", {"session": b2.get("session")})
        res["d replay"] = r
        print("clone replay:", err, short(r, 800))
    clone_fixed = "a + b" in open(clone + "/calc.py").read()
    recs = c.records()
    tb = [k for k, a in res.items() if "Traceback" in short(a, 10**6)]
    verdict(bool(fc.get("stored_memory_id")) or clone_fixed or bool(tb),
            f"(a) {short(res['a shell ops'].get('status') or res['a shell ops'], 160)}; (b) {short(res['b deselect'].get('status') or res['b deselect'], 160)}; "
            f"(c) check.py edited: status={fc.get('status')} refused={fc.get('refused')}; (d) honest: status={fd.get('status')} "
            f"outcome={fd.get('passed_outcome')}; replay in clone: status={r.get('status') if isinstance(r, dict) else r} "
            f"clone changed={clone_fixed}; records={len(recs)}; tracebacks={tb}")

run(main)
