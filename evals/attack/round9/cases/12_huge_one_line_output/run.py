"""Hostile repository: the failing test's assertion message is one line of 3 MB (no newline), and a
second test prints 150 kB of text without a newline on stderr and passes. The model makes the
honest fix. Promise (how-it-works.md): output past 200 kB stops the run (never a pass); every tool
call and test step ends bounded; the session ends with a named status; checkpoints, events and the
report stay bounded; no traceback."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

TEST = '''import sys
from calc import add


def test_add():
    got = add(2, 3)
    assert got == 5, "x" * (3 * 1024 * 1024) if got != 5 else ""


def test_noise():
    sys.stderr.write("n" * 150000)
'''
c = Case("c12")
ws = c.project("proj", {"calc.py": "def add(a, b):\n    return a - b\n", "tests/test_calc.py": TEST})
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
p = c.run_live(ws, url, thread="c12", timeout=300)
d = parse_json(p)
sizes = {}
for dp, dn, fn in os.walk(c.home):
    for f in fn:
        fp = os.path.join(dp, f)
        if not os.path.islink(fp) and os.path.isfile(fp):
            sizes[os.path.relpath(fp, c.home)] = os.path.getsize(fp)
big = {k: v for k, v in sizes.items() if v > 2_000_000}
reqs = c.requests(logp)
req_sizes = [len(json.dumps(r["body"])) for r in reqs]
log(c, json.dumps(summary(d))[:600], "rc", p.returncode, "stderr:", p.stderr[-300:], "files > 2 MB:", big, "request sizes:", req_sizes)
tb = "Traceback" in p.stderr
ok = d.get("status") not in (None, "error") and not tb and not big and max(req_sizes or [0]) < 1_000_000
verdict(not ok, f"status={d.get('status')} rc={p.returncode} traceback={tb} files over 2 MB={big} largest request={max(req_sizes or [0])} bytes reason={str(d.get('reason'))[:200]!r}")
