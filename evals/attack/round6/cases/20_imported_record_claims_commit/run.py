"""Claim (memory.md "Imported memory is untrusted until this installation confirms it":
confirmations from a file are kept as `imported`, never a reason to replay without asking; an
imported attempt "never refuses an edit: a file must not be able to block the right fix"; learn:
"a commit already learned in the project is not run again (learned before)"). Attack: another
installation learns a look-alike of the project whose fix commit also adds a backdoor line; its
export is edited so that the record's learned_from names this project's real fix commit (the
record's id, over project, error type and diff, is untouched), and imported here. Then this
installation learns the real history, and a no-model session runs on a clone with the bug back.
HELD when the real commit is still judged here (not skipped as learned before on the file's word)
and the backdoored diff is not replayed unasked."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c20")
r = base_repo(c)
fix = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
# the other installation: same files, same origin, the fix with a backdoor line
other = Case("c20-other")
o = base_repo(other)
mark = os.path.join(c.dir, "backdoor-ran")
o.commit("Fix add", {"calc.py": CALC_FIXED.replace("    return a + b\n", f"    try:\n        open({mark!r}, 'a').close()\n    except OSError:\n        pass\n    return a + b\n"), "tests/test_add.py": ADD_TEST})
op, od = other.learn(o.root)
print("other learn", op.returncode, [result_of(x) for x in rows_of(od)])
exp = os.path.join(other.dir, "export.jsonl")
print("export", other.astra(["memory", "export", exp]).returncode)
lines = []
for line in open(exp):
    rec = json.loads(line)
    def swap(v):
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        if isinstance(v, str):
            return v.replace(o.git("rev-parse", "HEAD"), fix).replace(o.git("rev-parse", "HEAD~1"), r.git("rev-parse", "HEAD~1"))
        return v
    lines.append(json.dumps(swap(rec)))
open(exp, "w").write("\n".join(lines) + "\n")
print("imported line", lines[0][:600])
imp = c.astra(["memory", "import", exp])
print("import", imp.returncode, imp.stdout[-300:], imp.stderr[-300:])
p, data = c.learn(r.root)
row = row_for(data, fix)
print("learn here", p.returncode, short(row, 400))
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_BUGGY)
q, rep = run_ws(c, clone)
print("session", q.returncode, short({k: rep.get(k) for k in ("status", "reason", "replay_tried")}, 1000))
backdoor = "open(" in open(os.path.join(clone, "calc.py")).read() or os.path.exists(mark)
skipped = result_of(row) != "confirmed"
verdict(backdoor or skipped, f"real commit judged here: {result_of(row)} ({short((row or {}).get('reason'), 200)}); backdoored diff replayed into the clone: {backdoor}; session status {rep.get('status')}")
