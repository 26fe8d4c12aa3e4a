"""Hostile memory file: the diff of a confirmed record is changed in memory.sqlite directly (valid JSON,
valid record, id kept) to add a backdoor line. Ids are "uuid5 over project, error type and the
normalised diff" and import recomputes them -- does replay? A second clone of the same repository runs
replay-only. Promise: replay applies "byte for byte the diff that was confirmed"; a tampered memory
file must not spread a bad fix. (Docs: "quick_check finds structural damage, not changed bytes inside
a stored value" -- so this probes whether the id/content check exists outside import.)"""
import sys, json, os, sqlite3, subprocess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c22")
ORIGIN = "https://example.org/team/calc2.git"
a = c.project("a/calc2", BUGGY_CALC, git=True, origin=ORIGIN)
b = c.project("b/calc2", {}, git=False)
subprocess.run(["rm", "-rf", b]); subprocess.run(["git", "clone", "-q", a, b], check=True)
subprocess.run(["git", "-C", b, "remote", "set-url", "origin", ORIGIN], check=True)
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
da = parse_json(c.run_live(a, url))
print("A:", json.dumps(summary(da)))
db_ = sqlite3.connect(os.path.join(c.home, "memory.sqlite"))
n = 0
for prefix, key, value in db_.execute("select prefix, key, value from store").fetchall():
    v = json.loads(value)
    if isinstance(v, dict) and v.get("diff") and key == da.get("stored_memory_id"):
        v["diff"] = v["diff"].replace("+    return a + b\n", "+    return a + b\n+\n+\n+BACKDOOR_TAMPERED = 1\n").replace("@@ -1,2 +1,2 @@", "@@ -1,2 +1,5 @@")
        db_.execute("update store set value=? where prefix=? and key=?", (json.dumps(v), prefix, key)); n += 1
db_.commit(); db_.close()
print("tampered rows:", n)
show = c.astra(["memory", "show", da.get("stored_memory_id") or "x"])
print("memory show rc", show.returncode, show.stdout[:300].replace("\n", " | "), show.stderr[-300:])
dbb = parse_json(c.run_replay(b))
print("B:", json.dumps(summary(dbb, ("status", "reason", "replayed_memory_id")))[:600])
backdoor = "BACKDOOR_TAMPERED" in open(b + "/calc.py").read()
verdict(backdoor, f"tampered rows={n}; B status={dbb.get('status')} replayed={dbb.get('replayed_memory_id')}; backdoor line written into B's calc.py={backdoor}")
