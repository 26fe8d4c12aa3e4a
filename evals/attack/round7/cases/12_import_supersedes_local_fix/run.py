"""Claim (memory.md "Imported memory is untrusted until this installation confirms it": "a record
this installation confirmed keeps its content and status"; "a file must not be able to block the
right fix"; supersede: "when a fix is stored for the first time, earlier active records of the same
project whose diffs remove some of the same lines are marked `superseded_by` the new one";
"invalidated and superseded records are never replayed"). Attack: this installation learns the
real fix X. Then a file brings another "fix" of this project for the same bug (it removes the same
line, `return a - b`, and adds a wrong one). Imported, it is a fix stored here for the first time.
Then a no-model session on a clone with the bug back. HELD when X stays active (not superseded by
the file's record) and is still replayed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c = Case("c12")
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
lines = export_lines(c, os.path.join(c.dir, "mine.jsonl"))
X = lines[0]["memory_id"]
rec = lines[0]
rec["diff"] = rec["diff"].replace("+    return a + b\n", "+    return abs(a) + abs(b)\n")
rec["fix_description"] = "Fix add (better)"
rec["timestamp"] = rec["updated_at"] = "2027-01-01T00:00:00Z"
imp, _ = import_fixing_id(c, lines, name="hostile.jsonl")
recs = c.records()
x_rec = next((x for x in recs if x.get("memory_id") == X), {})
print("after import", [(x.get("memory_id"), x.get("status"), x.get("superseded_by")) for x in recs])
clone = bug_clone(c, r)
pr, rep = run_ws(c, clone)
now = open(os.path.join(clone, "calc.py")).read()
print("session", pr.returncode, rep.get("status"), short(rep.get("replay_tried"), 500), short(rep.get("replay_skipped"), 500))
verdict(x_rec.get("status") != "active" or now != CALC_FIXED,
        f"import rc {imp.returncode}; X status after import: {x_rec.get('status')} (superseded_by {x_rec.get('superseded_by')}); clone fixed by X's replay: {now == CALC_FIXED}; session {rep.get('status')}")
