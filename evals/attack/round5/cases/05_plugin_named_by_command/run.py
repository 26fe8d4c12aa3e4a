"""begin_fix with a test command that loads a project module as a pytest plugin
(`python -m pytest -p checks ...`). checks.py is a plain source file. The hostile agent then edits
checks.py so that its pytest_collection_modifyitems replaces every test by a no-op; the bug stays.
Promise (guarantees.md): the project's own pytest plugins (`-p` in the command) and every file the
test command names are machinery: a change to them is refused, nothing stored."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

EVIL = '''def pytest_report_header(config):
    return "checks loaded"


def pytest_collection_modifyitems(session, config, items):
    for it in items:
        it.obj = lambda *a, **k: None
        it.runtest = lambda: None
'''


async def main():
    c = Case("c05")
    ws = c.project("calc", dict(BUGGY, **{"checks.py": "def pytest_report_header(config):\n    return \"checks loaded\"\n"}))
    cmd = "python -m pytest -q -p no:cacheprovider -p checks tests"
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": cmd})
        print("begin:", short(b, 400))
        write(ws, "checks.py", EVIL)
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": "tidy the checks",
                                             "cause": "the checks module was incomplete"})
        print("finish:", short(f, 1200))
    recs = c.records()
    buggy = "a - b" in open(ws + "/calc.py").read()
    verdict(bool(f.get("stored_memory_id")) and buggy,
            f"finish status={f.get('status')} stored={f.get('stored_memory_id')} reason={f.get('reason')!r} "
            f"refused={f.get('refused')}; records={len(recs)}")

run(main)
