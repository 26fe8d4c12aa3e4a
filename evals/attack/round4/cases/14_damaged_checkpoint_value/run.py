"""A checkpoint file that passes PRAGMA quick_check but holds a damaged *value*: thread A's latest
checkpoint blob is garbage, thread D's registered task is not JSON. Thread B is intact. Promise: "a
damaged memory file or checkpoint must not stop the product" / "Damaged ... data are reported, never
overwritten": `threads` still lists B, a new `run` works, `resume A` says what is wrong (exit 2, no
traceback)."""
import sys, json, os, sqlite3
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c14")
ws = {t: c.project("proj" + t, BUGGY_CALC) for t in "ABD"}
for t in "ABD":
    p = c.run_replay(ws[t], thread="thread-" + t)
    print(t, parse_json(p).get("status"))
db = sqlite3.connect(os.path.join(c.home, "checkpoints.sqlite"))
cid = db.execute("select checkpoint_id from checkpoints where thread_id='thread-A' order by checkpoint_id desc limit 1").fetchone()[0]
db.execute("update checkpoints set checkpoint=? where thread_id='thread-A' and checkpoint_id=?", (b"\x07" + b"garbage!" * 40, cid))
db.execute("update astra_threads set task='{not json' where thread_id='thread-D'")
db.commit(); db.close()
th = c.astra(["threads"])
print("threads rc", th.returncode, th.stdout[-900:], th.stderr[-600:])
ws_c = c.project("projC", BUGGY_CALC)
rc = c.run_replay(ws_c, thread="thread-C")
dc = parse_json(rc)
print("run C rc", rc.returncode, dc.get("status"), rc.stderr[-300:])
ra = c.astra(["resume", "thread-A"])
print("resume A rc", ra.returncode, ra.stdout[-300:], ra.stderr[-400:])
rd = c.astra(["resume", "thread-D"])
print("resume D rc", rd.returncode, rd.stdout[-300:], rd.stderr[-400:])
problems = []
if th.returncode != 0 or "thread-B" not in th.stdout:
    problems.append(f"`threads` rc={th.returncode} lists B={'thread-B' in th.stdout}: {th.stderr.strip()[-200:]}")
if dc.get("status") not in ("needs_model", "fixed"):
    problems.append(f"new run C ended {dc.get('status')} rc={rc.returncode}: {rc.stderr.strip()[-200:]}")
for name, r in (("A", ra), ("D", rd)):
    if "Traceback" in r.stderr or r.returncode not in (0, 2):
        problems.append(f"resume {name} rc={r.returncode}: {r.stderr.strip()[-200:]}")
verdict(bool(problems), "; ".join(problems) if problems else f"threads rc=0 lists B; run C {dc.get('status')}; resume A rc={ra.returncode}: {ra.stderr.strip()[:150]}")
