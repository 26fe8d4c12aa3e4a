"""Run a library's test suite; print rc and summary; save output.
usage: run.py LIB OUTFILE [extra pytest args...]"""
import os, subprocess, sys
sys.path.insert(0, os.path.dirname(__file__))
from libs import LIBS, VENV
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lib, out, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
d, cmd = LIBS[lib]
env = dict(os.environ)
venv = os.path.join(BASE, "venvs", VENV.get(lib, "v4"))
env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env["PATH"]
env["VIRTUAL_ENV"] = venv
env.pop("PYTHONPATH", None)
cwd0 = os.path.join(BASE, "libs", d)
env["PYTHONPATH"] = os.path.join(cwd0, "src") if os.path.isdir(os.path.join(cwd0, "src")) else cwd0  # source checkout on the path (like an editable install)
env["COLUMNS"] = "100"
cwd = os.path.join(BASE, "libs", d)
subprocess.run(["rm", "-rf", ".pytest_cache"], cwd=cwd)
p = subprocess.run(cmd + extra, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=240)
txt = p.stdout.decode("utf-8", "replace")
with open(out, "w") as f:
    f.write(txt)
lines = [l for l in txt.splitlines() if l.strip()]
print(lib, "rc=%d" % p.returncode, "len=%d" % len(txt), lines[-1] if lines else "")
