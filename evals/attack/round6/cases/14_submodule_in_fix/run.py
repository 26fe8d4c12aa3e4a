"""Claim (memory.md: git runs "no hooks ... credential helper or network": a hostile repository
runs nothing; step 1: commits left out are named with why; a learn never stops with a traceback).
Attack: the fix commit also bumps a submodule (a gitlink) whose .gitmodules url is an `ext::`
command and whose second url is a local repository with hooks; the source fix is real. HELD when
no trap runs, nothing is fetched, and learn gives the commit a row (confirmed or named)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c14")
marks = os.path.join(c.dir, "marks")
os.makedirs(marks)
sub = c.repo("subrepo")
s1 = sub.commit("sub v1", {"x.txt": "1\n"})
s2 = sub.commit("sub v2", {"x.txt": "2\n"})
for h in ("post-checkout", "post-merge", "reference-transaction"):
    write(os.path.join(sub.root, ".git", "hooks"), h, f"#!/bin/sh\ntouch {marks}/sub-{h}\n", mode=0o755)
r = base_repo(c)
write(r.root, ".gitmodules", f'[submodule "vendor/a"]\n\tpath = vendor/a\n\turl = ext::sh -c touch% {marks}/ext% >&2\n'
                             f'[submodule "vendor/b"]\n\tpath = vendor/b\n\turl = {sub.root}\n')
r.git("add", ".gitmodules")
r.git("update-index", "--add", "--cacheinfo", f"160000,{s1},vendor/a")
r.git("update-index", "--add", "--cacheinfo", f"160000,{s1},vendor/b")
r.git("commit", "-q", "-m", "vendor submodules")
r.git("update-index", "--cacheinfo", f"160000,{s2},vendor/a")
r.git("update-index", "--cacheinfo", f"160000,{s2},vendor/b")
write(r.root, "calc.py", CALC_FIXED)
write(r.root, "tests/test_add.py", ADD_TEST)
r.git("add", "calc.py", "tests/test_add.py")
r.git("commit", "-q", "-m", "Fix add and bump vendored libs")
fix = r.git("rev-parse", "HEAD")
r.git("config", "protocol.ext.allow", "always")
r.git("config", "submodule.recurse", "true")
r.git("config", "fetch.recurseSubmodules", "true")
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-1200:])
row = row_for(data, fix)
print("row", short(row, 600))
fired = sorted(os.listdir(marks))
tb = "Traceback" in p.stderr
named = row is not None or (data is not None and fix[:8] in json.dumps(data))
verdict(bool(fired) or tb or not named, f"traps fired: {fired}; traceback={tb}; the commit has a row: {named} ({result_of(row)}: {short((row or {}).get('reason'), 200)})")
