"""Hostile repository layout (a tarball can carry it): a symlink to a folder outside the workspace that
holds a private file, a symlink loop (loop -> .), a FIFO, and a socket-like dangling link. The snapshot
and fresh copy must not follow links out of the workspace (no outside file copied into ASTRA_HOME),
must not hang or recurse, and the session must end with a named status.
Promise: file operations stay inside the workspace; no read follows a symlink."""
import sys, json, os, subprocess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c11")
ws = c.project("proj", BUGGY_CALC)
outside = os.path.join(c.dir, "outside")
os.makedirs(outside)
open(os.path.join(outside, "id_rsa_OUTSIDE_MARKER"), "w").write("PRIVATE-OUTSIDE-CONTENT-7731\n")
os.symlink(outside, os.path.join(ws, "vendor"))
os.symlink(".", os.path.join(ws, "loop"))
os.symlink(os.path.join(outside, "id_rsa_OUTSIDE_MARKER"), os.path.join(ws, "key.txt"))
# phase 1 with the FIFO (must not hang); phase 2 without it (the links alone)
os.mkfifo(os.path.join(ws, "pipe"))
url0, _ = c.server([], tag="fifo")
try:
    d0 = parse_json(c.run_live(ws, url0, timeout=150)); fifo_hung = False
except subprocess.TimeoutExpired:
    d0, fifo_hung = {}, True
print("with FIFO:", d0.get("status"), (d0.get("reason") or "")[-160:])
os.unlink(os.path.join(ws, "pipe"))
loop_depth_snapshot = max([dp.count("/loop") for dp, dn, fn in os.walk(c.home)] + [0])
os.unlink(os.path.join(ws, "loop"))  # pytest itself would walk loop/loop/... in phase 2
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
try:
    p = c.run_live(ws, url, timeout=150)
    d = parse_json(p)
    hung = False
except subprocess.TimeoutExpired:
    d, hung = {}, True
print(json.dumps(summary(d, ("status", "reason", "stored_memory_id")), indent=1))
copied = []
for dp, dn, fn in os.walk(c.home):
    for n in fn:
        full = os.path.join(dp, n)
        if os.path.islink(full):
            continue
        try:
            if b"PRIVATE-OUTSIDE-CONTENT-7731" in open(full, "rb").read():
                copied.append(os.path.relpath(full, c.home))
        except Exception:
            pass
depth = loop_depth_snapshot
print("outside content copied into ASTRA_HOME:", copied, "max loop depth:", depth)
broken = fifo_hung or hung or bool(copied) or depth > 1 or d.get("status") in (None, "error")
verdict(broken, f"fifo: hung={fifo_hung} status={d0.get('status')}; links: hung={hung} status={d.get('status')} outside file copied to: {copied[:4]} loop depth={depth}")
