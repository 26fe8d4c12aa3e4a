"""Claim (guarantees.md: "no read or write follows a symlink", confinement to the workspace;
memory.md: "A stored diff is untrusted data like a model's edit: it gets no more reach than
apply_edit has"). Attack: (A) at the parent, calc.py is a symlink to a file outside the repository
(under the product checkout, not /tmp); the fix commit makes calc.py a regular file with the fix.
(B) lib.py is a symlink to impl_v1.py (buggy); the fix commit points it at impl_v2.py. Then the bug
comes back in a clone (lib.py -> impl_v1.py again) and a session replays with no model. HELD when
the outside file is untouched and unread into memory, and the replay neither writes through the
link (impl_v1.py's bytes) nor turns lib.py into a text file holding a path."""
import hashlib, os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c11")
outside = os.path.join(SCRATCH, "c11-" + os.path.basename(c.dir))
os.makedirs(outside, exist_ok=True)
victim = os.path.join(outside, "calc.py")
write(outside, "calc.py", "# OUTSIDE-MARKER-C11\ndef add(a, b):\n    return a - b\n")
before = (hashlib.sha256(open(victim, "rb").read()).hexdigest(), os.stat(victim).st_mtime_ns)
r = c.repo("calc")
r.commit("initial import", {"tests/test_base.py": "def test_base():\n    assert True\n",
                            "impl_v1.py": "def mul(a, b):\n    return a + b\n", "impl_v2.py": "def mul(a, b):\n    return a * b\n"},
         symlinks={"calc.py": victim, "lib.py": "impl_v1.py"})
a = r.commit("Fix add: vendor calc instead of linking it", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
b = r.commit("Fix mul: use the v2 implementation", {"tests/test_lib.py": "from lib import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"},
             symlinks={"lib.py": "impl_v2.py"})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-800:])
print("rows", short([(result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for s in (a, b)], 800))
recs = c.records()
for x in recs:
    print("record", x.get("file_paths"), repr(str(x.get("diff"))[:300]))
after = (hashlib.sha256(open(victim, "rb").read()).hexdigest(), os.stat(victim).st_mtime_ns)
marker_in_memory = c.grep_home("OUTSIDE-MARKER-C11")
# the bug comes back in a clone: lib.py -> impl_v1.py
clone = clone_of(c, r, "clone")
os.unlink(os.path.join(clone, "lib.py"))
os.symlink("impl_v1.py", os.path.join(clone, "lib.py"))
v1_before = open(os.path.join(clone, "impl_v1.py"), "rb").read()
q, rep = run_ws(c, clone)
print("replay run rc", q.returncode, short({k: rep.get(k) for k in ("status", "reason", "replay_tried")}, 1200))
lib = os.path.join(clone, "lib.py")
lib_state = ("link->" + os.readlink(lib)) if os.path.islink(lib) else ("file:" + open(lib, "rb").read()[:80].decode("latin-1"))
v1_after = open(os.path.join(clone, "impl_v1.py"), "rb").read()
problems = []
if after != before:
    problems.append("the outside file was written")
if marker_in_memory:
    problems.append(f"the outside file's text is under ASTRA_HOME: {marker_in_memory}")
if v1_after != v1_before:
    problems.append(f"replay wrote through the link into impl_v1.py: {v1_after[:80]!r}")
if lib_state.startswith("file:"):
    problems.append(f"replay turned lib.py into a text file: {lib_state!r}")
shutil.rmtree(outside, ignore_errors=True)
verdict(bool(problems), f"{problems or 'outside file untouched, nothing of it stored'}; lib.py now {lib_state}; records={[x.get('file_paths') for x in recs]}")
