"""`undo` after a failed session, when the edited file's folder has meanwhile become a symlink to a
folder outside the workspace whose calc.py has exactly the bytes the session's last edit made (e.g. a
build step or the project's own test run moved app/ away and linked it back). If undo writes through the
link, a file outside the workspace is overwritten. Promise: "no read or write follows a symlink";
file operations stay inside the workspace."""
import sys, json, os, shutil
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c12")
ws = c.project("proj", {"app/__init__.py": "", "app/calc.py": "def add(a, b):\n    return a - b\n",
                        "tests/test_calc.py": "from app.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"})
url, logp = c.server([diag(["app/calc.py"]), edit("app/calc.py", "a - b", "a * b"), finish("try multiplication")])
d = parse_json(c.run_live(ws, url, thread="undo-victim", extra_args=["--max-attempts", "1"]))
print(json.dumps(summary(d, ("status", "reason")), indent=1))
after = open(ws + "/app/calc.py").read()
outside = os.path.join(c.dir, "outside_app")
shutil.move(ws + "/app", outside)           # app/ moved out of the workspace ...
os.symlink(outside, ws + "/app")            # ... and linked back in
victim = os.path.join(outside, "calc.py")
before = open(victim).read()
p = c.astra(["undo", "undo-victim"])
print("undo rc", p.returncode, p.stdout[-500:], p.stderr[-500:])
now = open(victim).read()
wrote_outside = now != before
verdict(wrote_outside, f"outside file {victim} before undo={before!r} after undo={now!r} (undo rc={p.returncode})")
