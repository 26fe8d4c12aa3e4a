"""Hostile memory file: (A) an export cut in the middle of its last line (a download that stopped);
(B) lines that name another namespace and another store key than the one imported into (`"namespace":
["astra", "fixes"]`, `"prefix"`, `"key"`), imported with `memory --namespace team-a import`. Promise
(memory.md, cli.md): bad import lines exit 2 naming the line, nothing half-imported; a namespace keeps a
team's memory apart: import "stays in it"."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c06")
src = c.dir + "/donor"
ws = git_project(c, "proj", dict(BUGGY_CALC))
url, _ = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
d = parse_json(c.run_live(ws, url, home=src, thread="c06-donor"))
exp = c.dir + "/export.jsonl"
p = c.astra(["memory", "export", exp], home=src)
lines = [l for l in open(exp).read().splitlines() if l.strip()]
log(c, "donor", d.get("status"), "export lines", len(lines), p.stderr[-200:])

# (A) cut in the middle of the last line
cut = c.dir + "/cut.jsonl"
raw = open(exp).read()
open(cut, "w").write(raw[: len(raw) - len(lines[-1]) // 2 - 1])
pa = c.astra(["memory", "import", cut])
after_a = c.records()
log(c, "A rc", pa.returncode, "out", pa.stdout[-300:], "err", pa.stderr[-400:], "records", len(after_a) if isinstance(after_a, list) else after_a)
a_ok = pa.returncode == 2 and "Traceback" not in pa.stderr and isinstance(after_a, list) and len(after_a) == 0 and "line" in pa.stderr

# (B) namespace fields in the lines
recs = [json.loads(l) for l in lines]
for r in recs:
    r["namespace"] = ["astra", "fixes"]
    r["prefix"] = "astra.fixes"
    r["key"] = r.get("memory_id")
nsf = c.dir + "/ns.jsonl"
open(nsf, "w").write("".join(json.dumps(r) + "\n" for r in recs))
pb = c.astra(["memory", "--namespace", "team-a", "import", nsf])
default_after = c.records()
team = c.astra(["memory", "--namespace", "team-a", "list", "--json", "--all"])
log(c, "B rc", pb.returncode, pb.stdout[-300:], pb.stderr[-300:])
log(c, "default namespace records:", len(default_after) if isinstance(default_after, list) else default_after, "team-a list:", team.stdout[:300])
b_ok = isinstance(default_after, list) and len(default_after) == 0 and "Traceback" not in pb.stderr
verdict(not (a_ok and b_ok), f"A cut line: rc={pa.returncode} err={pa.stderr.strip()[-200:]!r} records={len(after_a) if isinstance(after_a, list) else after_a}; "
        f"B namespace fields: rc={pb.returncode} records in the default namespace={len(default_after) if isinstance(default_after, list) else default_after}")
