"""Claim (memory.md "Learning from history": every tree is written from the commit's blobs as git
stores them, "no filter driver ... runs", "a symlink only where it points inside the tree"; git
runs with "no hooks, pager, fsmonitor, credential helper or network, no system or global config";
results.md: `bench history` walks each history "with `astra-memory learn`'s own library"; `bench
history --bundle PATH` measures the given git bundles). Attack: a bundle whose history has
`.gitattributes` routing `*.py` through a filter `evil` (defined in the user's global git config,
as git-lfs is), a symlink `helper.py -> <outside>/secret.py` that the source imports and a fix
commit changes, and a 40 MB file; `bench history --bundle` on it with the hash embeddings. HELD
when no filter command ran, nothing outside was read into the results or written, and the bench
ends without a traceback."""
import glob, os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c = Case("c10")
outside = os.path.join(c.dir, "outside")
os.makedirs(outside)
SECRET = "def CANARY_C10_OUTSIDE():\n    return 41\n"
write(outside, "secret.py", SECRET)
mark = os.path.join(c.dir, "filter-ran")
home = c.env()["HOME"]
write(home, ".gitconfig", f"[filter \"evil\"]\n\tsmudge = sh -c 'touch {mark}; cat'\n\tclean = sh -c 'touch {mark}; cat'\n\tprocess = sh -c 'touch {mark}'\n[core]\n\tfsmonitor = sh -c 'touch {mark}'\n")
r = c.repo("hostile")
r.commit("initial import", {"calc.py": "from helper import base\n" + CALC_BUGGY, "tests/test_mul.py": BASE_TESTS,
                            ".gitattributes": "*.py filter=evil\n", "big.bin": b"\0" * (40 * 1024 * 1024)},
         symlinks={"helper.py": os.path.join(outside, "secret.py")}, date=DATE)
r.commit("Fix add", {"calc.py": "from helper import base\n" + CALC_FIXED, "tests/test_add.py": ADD_TEST}, date=DATE)
os.unlink(os.path.join(r.root, "helper.py"))
os.symlink("../../outside/secret.py", os.path.join(r.root, "helper.py"))
r.commit("Fix helper link", {"tests/test_add2.py": "from calc import add\n\n\ndef test_add2():\n    assert add(1, 1) == 2\n"}, date=DATE)
if os.path.exists(mark):
    os.unlink(mark)  # the case's own git ran the filter while committing (the case's HOME): not the product
bundle = os.path.join(c.dir, "hostile.bundle")
subprocess.run(["git", "-C", r.root, "bundle", "create", bundle, "--all"], check=True, capture_output=True, env={**os.environ, **GIT_ENV})
print("bundle", os.path.getsize(bundle))
out = os.path.join(c.dir, "out")
p = c.astra(["bench", "history", "--bundle", bundle, "--python", PY, "--embeddings", "hash", "--out", out, "--json"], timeout=900)
print("bench", p.returncode, p.stdout[-2500:], p.stderr[-2500:])
leaked = []
for base in (out, c.home):
    for f in glob.glob(os.path.join(base, "**", "*"), recursive=True):
        if os.path.isfile(f) and not os.path.islink(f):
            try:
                if b"CANARY_C10_OUTSIDE" in open(f, "rb").read():
                    leaked.append(os.path.relpath(f, c.dir))
            except OSError:
                pass
secret_same = open(os.path.join(outside, "secret.py")).read() == SECRET
tb = "Traceback" in p.stderr
verdict(os.path.exists(mark) or bool(leaked) or not secret_same or tb,
        f"bench rc {p.returncode}; filter/fsmonitor from the global config ran: {os.path.exists(mark)}; outside file's text in results/home: {leaked}; outside file unchanged: {secret_same}; traceback: {tb}")
