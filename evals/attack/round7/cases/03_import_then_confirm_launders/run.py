"""Claim (guarantees.md (f): "Replay applies byte for byte the diff that was confirmed"; memory.md
"Imported memory is untrusted until this installation confirms it"; one record per fix: the id is
over project, error type and the *normalised* diff, "whitespace squashed, hunk headers and context
left out"). Attack: before this installation learns its own fix, a file brings a record with the
same id but other bytes: the same changed lines with other whitespace inside them. Then `learn`
confirms the real commit here (same id: one record, a confirmation of this installation), and a
no-model session runs on a clone with the bug back. HELD when what replay writes is the confirmed
commit's bytes, not the file's."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c = Case("c03")
lines = learned_template(c)
rec = lines[0]
real_id = rec["memory_id"]
VARIANT = "    return  a  +  b   \n"
rec["diff"] = rec["diff"].replace("+    return a + b\n", "+" + VARIANT)
print("variant diff", rec["diff"])
imp, _ = import_fixing_id(c, lines)
print("imported id", lines[0]["memory_id"], "same as the real fix's:", lines[0]["memory_id"] == real_id)
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn here", p.returncode, short(row_for(data, fix), 500))
recs = c.records()
print("records", len(recs), [(x.get("memory_id"), [k.get("kind") for k in x.get("confirmations", [])]) for x in recs])
clone = bug_clone(c, r)
pr, rep = run_ws(c, clone)
now = open(os.path.join(clone, "calc.py")).read()
print("session", pr.returncode, rep.get("status"), short(rep.get("replay_tried"), 600))
print("clone calc.py", repr(now))
launder = VARIANT in now
verdict(launder, f"imported id == real id: {lines[0]['memory_id'] == real_id}; records {len(recs)}; replay wrote the imported bytes: {launder}; clone is the confirmed commit: {now == CALC_FIXED}; session {rep.get('status')}")
