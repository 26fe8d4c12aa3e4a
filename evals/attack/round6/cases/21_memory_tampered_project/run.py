"""Claim (guarantees.md invariant (i): "a fix record whose content no longer gives its
content-derived id (project, error type, the diff's changed lines) ... is such a row: never
replayed"; invariant (e): replay trust compares the project id). Attack: between learn and a later
session, the learned record's row in memory.sqlite is edited: every occurrence of project A's id
(the record, its confirmations, its learned_from) is replaced by project B's id (an unrelated
repository with the same bug); the diff and its hash are left alone. Then a no-model session runs
on B. HELD when B is not changed (the row is named damaged or the fix is not trusted there)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c21")
r = base_repo(c)
fix = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
B = c.repo("other")
B.commit("start", {"calc.py": CALC_BUGGY, "tests/test_mul.py": BASE_TESTS, "tests/test_add.py": ADD_TEST})
q0, rep0 = run_ws(c, B.root)  # empty memory: B's id, nothing to replay
pid_b = rep0.get("project_id")
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
recs = c.records()
pid_a = (recs[0].get("project_id") if recs else None) or ((recs[0].get("learned_from") or {}).get("project_id") if recs else None)
print("project ids", pid_a, pid_b)
tables = [t[0] for t in c.sql("select name from sqlite_master where type='table'")]
print("tables", tables)
n = 0
for key, value in c.sql("select key, value from store"):
    text = value if isinstance(value, str) else value.decode()
    if pid_a and pid_a in text:
        c.sql("update store set value=? where key=?", (text.replace(pid_a, pid_b), key))
        n += 1
print("rows edited", n)
lst = c.astra(["memory", "list", "--all"])
print("memory list", lst.stdout[-600:], lst.stderr[-400:])
q, rep = run_ws(c, B.root)
print("session on B", q.returncode, short({k: rep.get(k) for k in ("status", "reason", "replay_tried")}, 1000))
changed = open(os.path.join(B.root, "calc.py")).read() != CALC_BUGGY
verdict(changed or not n, f"rows edited={n}; B's calc.py changed by a no-model session: {changed} (status {rep.get('status')}); damaged named by memory list: {'damaged' in (lst.stdout + lst.stderr)}")
