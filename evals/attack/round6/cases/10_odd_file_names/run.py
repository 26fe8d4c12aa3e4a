"""Claim (memory.md step 1: "Each other commit is named with why it was left out"; cli.md: an
unexpected error is one `error:` line, no traceback; how-it-works/guarantees: file operations are
confined, git runs nothing the repository chooses). Attack: fix commits on source files named
`odd name.py`, `ünï.py`, `-rf.py`, `--output=PWNED-c10.py` and `new<LF>line.py` (git quotes it),
each imported by its test through its path. HELD when learn finishes with a row for each (confirmed
with the right file, or named with a true reason why not), no PWNED-c10 file appears anywhere, and no traceback."""
import glob, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

NAMES = ["odd name.py", "ünï.py", "-rf.py", "--output=PWNED-c10.py", "new\nline.py"]
c = Case("c10")
r = c.repo("calc")
files = {"tests/test_base.py": "def test_base():\n    assert True\n"}
for n in NAMES:
    files[n] = "def f(x):\n    return x - 1\n"
r.commit("initial import", files)
TEST = """import importlib.util
import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_{i}():
    spec = importlib.util.spec_from_file_location("m{i}", os.path.join(HERE, {name!r}))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    assert m.f(1) == 1
"""
shas = []
for i, n in enumerate(NAMES):
    shas.append(r.commit(f"Fix f in {n!r}", {n: "def f(x):\n    return x\n", f"tests/test_n{i}.py": TEST.format(i=i, name=n)}))
p, data = c.learn(r.root, "--message", "")
print("learn rc", p.returncode, p.stderr[-1500:])
rows = {n: row_for(data, s) for n, s in zip(NAMES, shas)}
for n, row in rows.items():
    print(repr(n), result_of(row), short((row or {}).get("reason"), 200))
recs = c.records()
for x in recs:
    print("record", x.get("file_paths"), repr(str(x.get("diff"))[:200]))
pwned = [p for p in glob.glob("/tmp/**/PWNED-c10*", recursive=True) + glob.glob(os.path.join(REPO, "**", "PWNED-c10*"), recursive=True)
         if "--output=" not in os.path.basename(p)]
skipped = {x.get("sha"): x.get("reason") for x in (data or {}).get("skipped", [])}
missing = [n for n, s in zip(NAMES, shas) if rows[n] is None and s not in skipped]
misnamed = {n: skipped[s] for n, s in zip(NAMES, shas) if "changes no source file" in str(skipped.get(s))}
print("left out:", misnamed)
wrong_file = [x.get("file_paths") for x in recs if not any(fp in NAMES for fp in (x.get("file_paths") or []))]
tb = "Traceback" in p.stderr
verdict(bool(pwned) or tb or data is None or bool(wrong_file) or bool(missing) or bool(misnamed),
        f"rc={p.returncode} json={'yes' if data else 'no'} traceback={tb} PWNED files={pwned} rows={ {n: result_of(r_) for n, r_ in rows.items()} } records={[x.get('file_paths') for x in recs]} unnamed={missing} said to change no source file although they change a .py file={list(misnamed)} records on a wrong file={wrong_file}")
