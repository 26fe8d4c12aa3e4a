"""Inject each candidate bug, run the library's own test suite, capture output and the fix diff, revert.
usage: inject_run.py [KEY ...]   (default: all candidates in spec.py); runs strictly one at a time (max_workers=1)."""
import json, os, subprocess, sys, shutil
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec import C
from libs import LIBS
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(BASE, "runs", "cand")
os.makedirs(OUT, exist_ok=True)

def clean_pyc(root):
    for dp, dns, fns in os.walk(root):
        if ".git" in dp:
            continue
        for d in list(dns):
            if d == "__pycache__":
                shutil.rmtree(os.path.join(dp, d), ignore_errors=True)

def one(c):
    d = os.path.join(BASE, "libs", LIBS[c["lib"]][0])
    path = os.path.join(d, c["file"])
    src = open(path, encoding="utf-8").read()
    assert src.count(c["old"]) == 1, c["key"]
    assert subprocess.run(["git", "diff", "--quiet", "--", c["file"]], cwd=d).returncode == 0, "dirty " + c["key"]
    open(path, "w", encoding="utf-8").write(src.replace(c["old"], c["new"]))
    try:
        clean_pyc(d)
        outf = os.path.join(OUT, c["key"] + ".txt")
        p = subprocess.run([sys.executable, os.path.join(BASE, "gen", "run.py"), c["lib"], outf] + c["extra"],
                           stdout=subprocess.PIPE, text=True)
        # the fix = reverse of the injection, as a git unified diff
        diff = subprocess.run(["git", "diff", "-R", "--src-prefix=b/", "--dst-prefix=a/", "--", c["file"]], cwd=d, stdout=subprocess.PIPE, text=True).stdout
    finally:
        subprocess.run(["git", "checkout", "-q", "--", c["file"]], cwd=d, check=True)
        clean_pyc(d)
    rc = int(p.stdout.split("rc=")[1].split()[0])
    meta = dict(c, rc=rc, summary=p.stdout.strip(), diff=diff)
    json.dump(meta, open(os.path.join(OUT, c["key"] + ".json"), "w"), indent=1)
    return c["key"], rc, p.stdout.strip().split(" len=")[1] if " len=" in p.stdout else p.stdout

def lib_job(lib, cases):
    return [one(c) for c in cases]

keys = set(sys.argv[1:])
todo = [c for c in C if not keys or c["key"] in keys]
bylib = {}
for c in todo:
    bylib.setdefault(c["lib"], []).append(c)
with ThreadPoolExecutor(max_workers=1) as ex:
    for res in ex.map(lambda kv: lib_job(*kv), bylib.items()):
        for r in res:
            print(*r)
