"""Hostile repository: the failing test lives in a file whose name is not UTF-8 (Latin-1 bytes,
`tests/test_caf\xe9.py`), and it writes bytes that are not UTF-8 to stdout before failing. The model
then makes the honest fix. Promise: every session ends with a named status; no traceback; a
confirmed fix is stored (or refused with a reason), and memory list/export/import keep working."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c08")
ws = c.project("proj", {"calc.py": BUGGY_CALC["calc.py"], "tests/__init__.py": ""})
test = ("import sys\nfrom calc import add\n\n\ndef test_add():\n    sys.stdout.buffer.write(b'bytes \\xff\\xfe\\xe9 here\\n')\n"
        "    sys.stdout.flush()\n    assert add(2, 3) == 5\n")
with open(os.fsencode(ws) + b"/tests/test_caf\xe9.py", "w") as f:
    f.write(test)
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
p = c.run_live(ws, url, thread="c08")
d = parse_json(p)
log(c, "run rc", p.returncode, json.dumps(summary(d))[:500], "stderr tail:", p.stderr[-800:])
exp = c.dir + "/export.jsonl"
pl = c.astra(["memory", "list"])
pe = c.astra(["memory", "export", exp])
pt = c.astra(["threads"])
home2 = c.dir + "/home2"
pi = c.astra(["memory", "import", exp], home=home2)
outs = {"run": (p.returncode, d.get("status")), "list": pl.returncode, "export": pe.returncode, "threads": pt.returncode, "import": pi.returncode}
tb = [k for k, x in (("run", p), ("list", pl), ("export", pe), ("threads", pt), ("import", pi)) if "Traceback" in x.stderr + x.stdout]
log(c, json.dumps(outs), "tracebacks:", tb, pe.stderr[-300:], pi.stderr[-300:])
ok = d.get("status") in ("fixed", "unconfirmed", "failed", "cannot_run") and not tb and all(v == 0 for k, v in outs.items() if k != "run") and d.get("status") != "error"
verdict(not ok, f"{json.dumps(outs)}; tracebacks in {tb}; stored={d.get('stored_memory_id')} reason={str(d.get('reason'))[:200]!r}")
