"""Claim (memory.md step 3: "the commit's source diff only (tests left out) byte for byte as git
wrote it"; invariant (f): replay applies byte for byte the diff that was confirmed; a record that
cannot be replayed says so). Attack: the repository's own .gitattributes marks calc.py `-diff`
(git prints "Binary files differ") and mathx.py `export-subst` holding `$Format:%H$`. HELD when
every stored record's diff is the change that was confirmed (it holds the fixed line) and a clone
with the bug back is fixed by replaying it, or the record is not stored / said not replayable."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c12")
r = base_repo(c)
r.commit("attributes", {".gitattributes": "calc.py -diff\nmathx.py export-subst\n",
                        "mathx.py": "REV = '$Format:%H$'\n\n\ndef sq(x):\n    return x + x\n"})
a = r.commit("Fix add subtracting", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
b = r.commit("Fix sq doubling", {"mathx.py": "REV = '$Format:%H$'\n\n\ndef sq(x):\n    return x * x\n",
                                 "tests/test_sq.py": "from mathx import sq\n\n\ndef test_sq():\n    assert sq(3) == 9\n"})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-600:])
print("rows", short([(result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for s in (a, b)], 800))
recs = c.records()
bad = []
for x in recs:
    d = str(x.get("diff"))
    print("record", x.get("file_paths"), repr(d[:400]))
    if "calc.py" in (x.get("file_paths") or []) and "+    return a + b" not in d:
        bad.append(f"calc.py record's diff does not hold the change: {d[:120]!r}")
    if "mathx.py" in (x.get("file_paths") or []) and "$Format:%H$" not in d and "REV" in d:
        bad.append(f"mathx.py record's diff is not the blob's text: {d[:200]!r}")
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_BUGGY)
q, rep = run_ws(c, clone)
print("replay", q.returncode, short({k: rep.get(k) for k in ("status", "reason", "replay_tried")}, 1000))
calc_rec = [x for x in recs if "calc.py" in (x.get("file_paths") or [])]
if calc_rec and rep.get("status") != "fixed":
    bad.append(f"a stored calc.py fix that cannot be replayed for the bug come back: status={rep.get('status')}")
verdict(bool(bad), f"{bad or 'stored diffs are the confirmed changes'}; records={[x.get('file_paths') for x in recs]}")
