"""For every record: inject the bug, apply the record's diff with `git apply`, and check the file is back to the original."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec import C
from libs import LIBS
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
keymap = json.load(open(os.path.join(BASE, "gen", "keymap.json")))
cases = {json.loads(l)["id"]: json.loads(l) for l in open(os.path.join(BASE, "final", "cases.jsonl"), encoding="utf-8")}
spec = {c["key"]: c for c in C}
bad = 0
for key, cid in keymap.items():
    rec = cases[cid]
    if rec["type"] != "record":
        continue
    c = spec[key]; d = os.path.join(BASE, "libs", LIBS[c["lib"]][0]); path = os.path.join(d, c["file"])
    src = open(path, encoding="utf-8").read()
    open(path, "w", encoding="utf-8").write(src.replace(c["old"], c["new"]))
    with tempfile.NamedTemporaryFile("w", suffix=".diff", delete=False) as f:
        f.write(rec["diff"])
    ok = subprocess.run(["git", "apply", f.name], cwd=d).returncode == 0
    clean = subprocess.run(["git", "diff", "--quiet", "--", c["file"]], cwd=d).returncode == 0
    subprocess.run(["git", "checkout", "-q", "--", c["file"]], cwd=d, check=True)
    os.unlink(f.name)
    if not (ok and clean):
        bad += 1; print("BAD", key, cid)
print("verified records, bad =", bad)
