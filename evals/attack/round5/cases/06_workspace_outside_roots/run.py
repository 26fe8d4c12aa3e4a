"""begin_fix on workspaces outside the server's --allow root: an absolute path outside, a `..`
path that starts inside the root, a symlink inside the root that points outside, the root's parent,
`/`, a relative path and a file instead of a folder (a NUL byte and a very long path: case 11); then the
same client declaring an MCP root that is outside --allow (a root the client claims is allowed by
the docs: "only folders under the roots your client declares (MCP roots) or under a --allow").
Promise: anything else is refused with the roots named; nothing outside read or written (no
snapshot of it under ASTRA_HOME); a clear answer, never a traceback."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


async def main():
    c = Case("c06")
    ws = c.project("calc", BUGGY)
    outside = os.path.join(c.dir, "outside", "calc")
    shutil.copytree(ws, outside)
    write(outside, "calc.py", "# OUTSIDE-MARK-9911\ndef add(a, b):\n    return a - b\n")
    os.symlink(outside, os.path.join(c.src, "link-out"))
    tries = {
        "absolute outside": outside,
        "dotdot": os.path.join(c.src, "..", "outside", "calc"),
        "symlink in root": os.path.join(c.src, "link-out"),
        "root parent": c.dir,
        "slash": "/",
        "relative": "calc",
        "a file": os.path.join(ws, "calc.py"),
    }
    answers = {}
    async with c.client() as cl:
        for k, p in tries.items():
            err, a = await call(cl, "begin_fix", {"workspace": p, "test_command": TEST_CMD}, timeout=120)
            answers[k] = (err, a)
            print(f"{k}: is_error={err} {short(a, 300)}")
    async with c.client(roots=[os.path.join(c.dir, "outside")]) as cl:
        err, a = await call(cl, "begin_fix", {"workspace": outside, "test_command": TEST_CMD}, timeout=120)
        print(f"client root outside --allow: is_error={err} {short(a, 300)}")
        answers["client root"] = (err, a)
    leaked = c.grep_home("OUTSIDE-MARK-9911", skip_copies=False)
    opened = [k for k, (e, a) in answers.items() if k != "client root" and isinstance(a, dict) and a.get("session")]
    tracebacks = [k for k, (e, a) in answers.items() if "Traceback" in short(a, 100000)]
    print("outside text under ASTRA_HOME:", leaked)
    verdict(bool(opened) or bool(tracebacks) or (bool(leaked) and not answers["client root"][1].get("session")),
            f"sessions opened outside --allow: {opened}; tracebacks: {tracebacks}; outside text copied under "
            f"ASTRA_HOME: {leaked}; a client-declared root outside --allow: "
            f"{'session ' + str(answers['client root'][1].get('session')) if isinstance(answers['client root'][1], dict) and answers['client root'][1].get('session') else 'refused'} (documented as allowed)")

run(main)
