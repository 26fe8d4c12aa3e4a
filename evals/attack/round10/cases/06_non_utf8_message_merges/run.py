"""Promise (docs/memory.md "Learning from history" step 1; cli.md: no traceback, one line per
problem): each commit left out is named with why (a merge commit is left out), a commit subject is
printed as text; every candidate gets a verdict.
Attack: a history with a commit message in Latin-1 bytes (no encoding header: git stores it raw),
a fix on a side branch merged with a merge commit whose message says "Fix", a merge that carries its
own fix (an evil merge: the source change only in the merge), and an honest fix with a non-UTF-8
message after them. learn must exit 0 with a row for each candidate, no traceback, and store only
the real fixes (the side-branch fix and the last one)."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c06")
r = lh.base_repo(case)
CALC2 = lh.CALC_BUGGY + "\n\ndef sub(a, b):\n    return a + b\n"
r.commit("add sub", {"calc.py": CALC2})
base = r.git("rev-parse", "HEAD")
r.git("checkout", "-q", "-b", "side")
side = r.commit("Fix add on the side branch", {"calc.py": CALC2.replace("a - b", "a + b"), "tests/test_add.py": lh.ADD_TEST})
r.git("checkout", "-q", "main")
r.commit("unrelated work", {"README.txt": "hello\n"})
r.git("merge", "-q", "--no-ff", "-m", "Fix: merge branch side", "side")
merge1 = r.git("rev-parse", "HEAD")
# an evil merge: a branch that only adds a test, merged with the source fix of sub() made in the merge
r.git("checkout", "-q", "-b", "side2")
r.commit("test sub", {"tests/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
r.git("checkout", "-q", "main")
r.git("merge", "-q", "--no-ff", "--no-commit", "side2")
lh.write(r.root, "calc.py", open(os.path.join(r.root, "calc.py")).read().replace("return a + b\n", "return a - b\n", 1)
         if False else open(os.path.join(r.root, "calc.py")).read().rsplit("return a + b", 1)[0] + "return a - b\n")
r.git("add", "-A")
r.git("commit", "-q", "-m", "Fix sub in the merge")
merge2 = r.git("rev-parse", "HEAD")
# a fix whose message is Latin-1 bytes
msgf = os.path.join(case.dir, "msg")
open(msgf, "wb").write(b"Fix mul: caf\xe9 r\xe9sum\xe9 \xff\xfe bytes\n\nbody \xe9\n")
calc = open(os.path.join(r.root, "calc.py")).read().replace("return a * b", "return a * b  # checked")
lh.write(r.root, "calc.py", calc)
lh.write(r.root, "tests/test_mul2.py", "from calc import mul\n\n\ndef test_mul_neg():\n    assert mul(-1, 2) == -2\n")
r.git("add", "-A")
e = dict(os.environ, **lh.GIT_ENV)
subprocess.run(["git", "-C", r.root, "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-F", msgf], env=e, check=True)
sha_l1 = r.git("rev-parse", "HEAD")
# one more message: raw bytes and no encoding header at all
open(msgf, "wb").write(b"Fix mul again \xc3\x28 \x80\x81 broken utf-8\n")
lh.write(r.root, "calc.py", calc.replace("  # checked", ""))
r.git("add", "-A")
subprocess.run(["git", "-C", r.root, "commit", "-q", "-F", msgf], env=e, check=True)
p, data = case.learn(r.root, "--message", "")
rows = lh.rows_of(data)
log(case, "learn rc", p.returncode, "stderr", p.stderr[-1500:])
log(case, "rows", lh.short(rows, 2500))
log(case, "left out", lh.short({k: v for k, v in (data or {}).items() if k not in ("rows",)}, 1500))
side_row = lh.row_for(data, side)
m2 = lh.row_for(data, merge2)
tb = "Traceback" in p.stderr or "Traceback" in p.stdout
recs = case.records()
log(case, "records", len(recs), [x.get("fix_description") for x in recs])
bad = p.returncode != 0 or tb or data is None or lh.result_of(side_row) != "confirmed" or (m2 and lh.result_of(m2) == "confirmed")
lh.verdict(bool(bad), f"learn rc {p.returncode}, traceback {tb}; side fix {lh.result_of(side_row)}; evil merge row {lh.short(m2, 200)}; "
           f"rows {[(x.get('sha', '')[:8], lh.result_of(x), (x.get('subject') or '')[:40]) for x in rows]}; records {len(recs)}")
