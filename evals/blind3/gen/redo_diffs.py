"""Recompute the fix diffs of the stored runs with proper a/ b/ prefixes (the first runs used plain `git diff -R`,
which swaps the prefixes). Re-applies each injection, takes `git diff -R --src-prefix=b/ --dst-prefix=a/`, reverts.
Checks that only the header prefixes differ from the stored diff."""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec import C
from libs import LIBS
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for c in C:
    jf = os.path.join(BASE, "runs", "cand", c["key"] + ".json")
    if not os.path.exists(jf):
        continue
    meta = json.load(open(jf))
    d = os.path.join(BASE, "libs", LIBS[c["lib"]][0]); path = os.path.join(d, c["file"])
    src = open(path, encoding="utf-8").read()
    assert src.count(c["old"]) == 1
    open(path, "w", encoding="utf-8").write(src.replace(c["old"], c["new"]))
    try:
        diff = subprocess.run(["git", "diff", "-R", "--src-prefix=b/", "--dst-prefix=a/", "--", c["file"]],
                              cwd=d, stdout=subprocess.PIPE, text=True).stdout
    finally:
        subprocess.run(["git", "checkout", "-q", "--", c["file"]], cwd=d, check=True)
    body = lambda t: [l for l in t.splitlines() if not l.startswith(("diff --git", "--- ", "+++ "))]
    assert body(diff) == body(meta["diff"]), c["key"]
    meta["diff"] = diff
    json.dump(meta, open(jf, "w"), indent=1)
print("ok")
