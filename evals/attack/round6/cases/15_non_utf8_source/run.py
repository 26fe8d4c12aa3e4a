"""Claim (memory.md step 1-2: each commit gets a verdict or a reason; cli.md: no command ends with a
traceback; invariant (f): "non-UTF-8 files are refused" for replay, so such a diff must not be
stored as a replayable confirmed fix with a wrong text). Attack: a fix commit on a Latin-1 source
file (a coding cookie, an é byte), followed by an honest UTF-8 fix commit. HELD when learn ends
normally, the honest commit is confirmed, and the Latin-1 one is either named or stored with its
diff byte for byte as git writes it (git itself cuts the hunk header at the é byte)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c15")
r = base_repo(c)
L1 = "# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n\n\ndef greet():\n    return 'hello ' + NAME[:-1]\n".encode("latin-1")
L1_FIXED = L1.replace(b"NAME[:-1]", b"NAME")
r.commit("add greeting", {"greet.py": L1})
a = r.commit("Fix greet cutting the name", {"greet.py": L1_FIXED,
              "tests/test_greet.py": "# -*- coding: utf-8 -*-\nfrom greet import greet\n\n\ndef test_greet():\n    assert greet().endswith('caf\u00e9')\n"})
b = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-1200:])
ra, rb = row_for(data, a), row_for(data, b)
print("latin-1 row", short(ra, 500))
print("honest row", short(rb, 300))
recs = c.records()
problems = []
git_diff = subprocess.run(["git", "-C", r.root, "diff", "--no-color", a + "~1", a, "--", "greet.py"], capture_output=True).stdout
print("git's own diff", repr(git_diff[:300]))
for x in recs:
    d = x.get("diff") or ""
    print("record", x.get("file_paths"), repr(d[:300]))
    if "greet.py" in (x.get("file_paths") or []) and d.encode("utf-8", "surrogateescape") != git_diff and x.get("replayable", True) is not False:
        problems.append(f"the Latin-1 diff was stored changed (not git's bytes) and replayable: {d[:160]!r}")
if "Traceback" in p.stderr or data is None:
    problems.append("learn did not end normally")
if result_of(rb) != "confirmed":
    problems.append(f"the honest commit after it was not confirmed: {result_of(rb)}")
verdict(bool(problems), f"{problems or 'ok'}; latin-1 commit: {result_of(ra)} {short((ra or {}).get('reason'), 200)}")
