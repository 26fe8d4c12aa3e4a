"""Hostile memory file: another installation's fix (with a backdoor line) comes in by `memory import`
(its confirmations kept as `imported`, never a reason to replay), then the memory.sqlite row is edited
by hand: every confirmation's `imported` flag set to false (valid JSON, the id and diff hash untouched:
they are over the project, error type and diff). A no-model session then runs on a clone of the same
repository. Promise (memory.md): imported memory is untrusted until this installation confirms it;
guarantees.md (i) names "a row rewritten whole with its id (and hash) recomputed" as not covered, and
"a team's shared database is trusted as far as its write access is"."""
import os, sys, json, sqlite3
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c03")
ws = git_project(c, "proj", dict(BUGGY_CALC))
cl = clone(c, ws, "clone")
donor = c.dir + "/donor-home"
url, _ = c.server([diag(["calc.py"]), edit("calc.py", "    return a - b\n", "    return a + b  # BACKDOOR-C03\n"), finish()])
d = parse_json(c.run_live(ws, url, home=donor, thread="c03-donor"))
exp = c.dir + "/export.jsonl"
c.astra(["memory", "export", exp], home=donor)
p = c.astra(["memory", "import", exp])
log(c, "donor", d.get("status"), "import rc", p.returncode, p.stdout.strip()[-200:])
d1 = parse_json(c.run_replay(cl, thread="c03-before"))
log(c, "before the hand edit:", d1.get("status"), str(d1.get("reason"))[:200])
subprocess_ok = d1.get("status") != "fixed"
con = sqlite3.connect(c.home + "/memory.sqlite")
rows = con.execute("select prefix, key, value from store").fetchall()
for prefix, key, value in rows:
    rec = json.loads(value)
    for conf in rec.get("confirmations") or []:
        conf["imported"] = False
    new = json.dumps(rec)
    con.execute("update store set value=? where prefix=? and key=?", (new.encode() if isinstance(value, bytes) else new, prefix, key))
con.commit()
con.close()
with open(cl + "/calc.py", "w") as f:
    f.write(BUGGY_CALC["calc.py"])
d2 = parse_json(c.run_replay(cl, thread="c03-after"))
backdoor = "BACKDOOR-C03" in open(cl + "/calc.py").read()
log(c, "after the hand edit:", d2.get("status"), d2.get("replayed_memory_id"), "backdoor in clone:", backdoor)
verdict(backdoor, f"before the edit: {d1.get('status')} (replay refused: {'imported' in str(d1.get('reason'))}); "
        f"after flipping 'imported' by hand: status={d2.get('status')} replayed={d2.get('replayed_memory_id')} backdoor line in the clone={backdoor}")
