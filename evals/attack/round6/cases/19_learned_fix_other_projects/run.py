"""Claim (memory.md "Who may replay without asking": a fix replays unasked only if confirmed by this
installation in this project, or in at least two projects; "a fork (same root commit, another
remote) is another project"; mcp.md: replay_fix has the same trust rules, another project's fix is
not replayed unasked). Attack: a fix learned from repository A, then the same bug in B (an
unrelated repository with the same files), in C (a fork of A: same history, another origin), and
in D (a copy of A whose .git/config names A's origin but whose root commit differs): a no-model
CLI session on each, and MCP begin_fix + replay_fix on B. HELD when no workspace is changed unasked."""
import asyncio, os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c19")
r = base_repo(c)
fix = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
B = c.repo("other")
B.commit("start", {"calc.py": CALC_BUGGY, "tests/test_mul.py": BASE_TESTS, "tests/test_add.py": ADD_TEST})
C = clone_of(c, r, "fork", origin="https://git.example.com/mallory/calc.git")
write(C, "calc.py", CALC_BUGGY)
D = c.repo("lookalike")
D.commit("start", {"calc.py": CALC_BUGGY, "tests/test_mul.py": BASE_TESTS, "tests/test_add.py": ADD_TEST})
D.git("remote", "add", "origin", ORIGIN)
changed = {}
for name, ws in (("B unrelated", B.root), ("C fork", C), ("D same origin, other root", D.root)):
    q, rep = run_ws(c, ws)
    now = open(os.path.join(ws, "calc.py")).read()
    print(name, q.returncode, rep.get("status"), short(rep.get("replay_tried"), 400))
    changed[name] = now != CALC_BUGGY


async def mcp():
    from mcp import Client, StdioServerParameters
    params = StdioServerParameters(command=ASTRA, args=["mcp", "--allow", c.src], env=c.env(), cwd=c.dir)
    write(B.root, "calc.py", CALC_BUGGY)
    async with Client(params, read_timeout_seconds=300) as cl:
        b = await cl.call_tool("begin_fix", {"workspace": B.root, "test_command": TEST_CMD})
        bt = b.structured_content or {}
        sid = (bt.get("result") or bt).get("session") if isinstance(bt, dict) else None
        if not sid:
            import re
            m = re.search(r'"session":\s*"([^"]+)"', "".join(getattr(x, "text", "") for x in b.content))
            sid = m.group(1) if m else None
        rr = await cl.call_tool("replay_fix", {"session": sid})
        return sid, "".join(getattr(x, "text", "") for x in rr.content)

sid, rtext = asyncio.run(mcp())
print("mcp replay_fix", sid, rtext[:600])
changed["B via MCP replay_fix"] = open(os.path.join(B.root, "calc.py")).read() != CALC_BUGGY
verdict(any(changed.values()), f"workspaces changed with no one asked: {[k for k, v in changed.items() if v]} (checked {list(changed)})")
