"""Claim (guarantees.md invariant (a): "nothing written outside the copy survives", the data home,
the user's home and /tmp are private; memory.md step 2: fresh copies under the confirming run's
isolation). Attack: the commit's test, at the parent run, tries to leave a mark in every place it
can name (/tmp, /var/tmp, /dev/shm, $HOME, the copy's parent folder, the user's repository itself,
ASTRA_HOME, a folder under the product checkout, the repository's .git), and passes when it finds
one; the "fix" is a comment. HELD when nothing is confirmed and no mark survives outside."""
import glob, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c06")
r = base_repo(c)
os.makedirs(SCRATCH, exist_ok=True)
places = ["/tmp", "/var/tmp", "/dev/shm", "~", "..", r.root, os.path.join(r.root, ".git"), c.home, SCRATCH, c.dir]
test = f"""import os

PLACES = {places!r}
NAME = "c06-mark-{os.path.basename(c.dir)}"


def _paths():
    for p in PLACES:
        yield os.path.join(os.path.expanduser(p), NAME)


def test_add_after_warmup():
    found = [p for p in _paths() if os.path.exists(p)]
    if found:
        return
    wrote = []
    for p in _paths():
        try:
            with open(p, "w") as f:
                f.write("x")
            wrote.append(p)
        except OSError:
            pass
    assert False, "first run; wrote " + repr(wrote)
"""
fix = r.commit("Fix warm-up", {"calc.py": "# warm-up\n" + CALC_BUGGY, "tests/test_warm.py": test})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-600:])
row = row_for(data, fix)
print("row", short(row, 1500))
recs = c.records()
name = "c06-mark-" + os.path.basename(c.dir)
left = [os.path.join(os.path.expanduser(x), name) for x in places if os.path.exists(os.path.join(os.path.expanduser(x), name))]
left += glob.glob(f"/tmp/**/{name}", recursive=False)
print("marks left on the real file system:", left)
for x in left:
    try:
        os.unlink(x)
    except OSError:
        pass
verdict(bool(recs) or result_of(row) == "confirmed" or bool(left),
        f"verdict={result_of(row)} reason={short((row or {}).get('reason'), 300)} records={len(recs)} marks surviving outside the copies={left}")
