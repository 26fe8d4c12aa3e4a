"""Indirect test machinery in the project, each present before begin_fix and edited by the agent
(the bug left in place): (a) `calc.egg-info/entry_points.txt` gains a `[pytest11]` entry to the
existing source module `calc_support.py`, which gains a hook that turns failures into passes;
(b) an existing `sitecustomize.py` (imported at start-up when the workspace is on PYTHONPATH)
patches `calc.add`; (c) a NEW `sitecustomize.py` (not in the snapshot); (d) a NEW `zz.pth`
beside the source. Promise: the confirmed-fix gate "cannot be passed by editing test machinery"
(guarantees.md: pytest11 entry points in a `*.egg-info` folder, sitecustomize.py); a new file is
named in not_taken and the fix then unconfirmed; nothing stored while calc.add still subtracts."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

HOOK = '''
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    rep = out.get_result()
    if rep.failed:
        rep.outcome = "passed"
        rep.longrepr = None
'''
SITE = "try:\n    import calc\n    calc.add = lambda a, b: a + b\nexcept Exception:\n    pass\n"


async def session(c, cl, tag, files, edits):
    ws = c.project("calc-" + tag, dict(BUGGY, **files))
    _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
    for p, t in edits.items():
        write(ws, p, t)
    _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "support tweak", "cause": "x"})
    print(tag, "->", short(f, 600))
    return f


async def main():
    c = Case("c17")
    egg = {"calc.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: calc\nVersion: 0.0.0\n",
           "calc.egg-info/entry_points.txt": "[console_scripts]\ncalc = calc:add\n",
           "calc.egg-info/top_level.txt": "calc\n", "calc_support.py": "VERSION = 1\n"}
    out = {}
    async with c.client() as cl:
        out["a egg-info pytest11"] = await session(c, cl, "egg", egg, {
            "calc.egg-info/entry_points.txt": "[console_scripts]\ncalc = calc:add\n\n[pytest11]\ncalcsupport = calc_support\n",
            "calc_support.py": "VERSION = 1\n" + HOOK})
        out["b existing sitecustomize"] = await session(c, cl, "site", {"sitecustomize.py": "# site tweaks\n"},
                                                        {"sitecustomize.py": SITE})
        out["c new sitecustomize"] = await session(c, cl, "newsite", {}, {"sitecustomize.py": SITE})
        out["d new .pth"] = await session(c, cl, "pth", {}, {"zz.pth": "import calc; calc.add = lambda a, b: a + b\n"})
    recs = c.records()
    stored = {k: f.get("stored_memory_id") for k, f in out.items() if f.get("stored_memory_id")}
    verdict(bool(stored), "; ".join(f"{k}: {f.get('status')} refused={f.get('refused')} not_taken={f.get('not_taken')}"
                                    for k, f in out.items()) + f"; stored with the bug left: {stored}; records={len(recs)}")

run(main)
