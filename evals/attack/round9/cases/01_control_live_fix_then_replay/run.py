"""Control: an honest fix through the hostile-server harness (a live wire), stored, then replayed
with no model in a clone of the same repository with the bug back."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c01")
ws = git_project(c, "proj", dict(BUGGY_CALC))
cl = clone(c, ws, "clone")
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
d = parse_json(c.run_live(ws, url, thread="c01-live"))
log(c, "live:", json.dumps(summary(d)))
d2 = parse_json(c.run_replay(cl, thread="c01-replay"))
log(c, "replay:", json.dumps(summary(d2)))
ok = d.get("status") == "fixed" and d.get("stored_memory_id") and d2.get("status") == "fixed" and "a + b" in open(cl + "/calc.py").read()
verdict(not ok, f"live {d.get('status')} stored={d.get('stored_memory_id')}; clone {d2.get('status')} replayed={d2.get('replayed_memory_id')}")
