"""`memory import` of a 300-record file killed (SIGKILL) in the middle: "Import records from a JSON-lines
file: all lines validated first, nothing half-imported". Ids are learned from the product's own refusal
messages (it names the id each line's content gives). The import is watched through a read-only SQLite
connection and killed as soon as any row of it is visible (or at half its measured duration); then the
number of records is 0 (nothing) or 300 (all), never in between."""
import sys, json, os, re, sqlite3, subprocess, time, signal
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

N = 300
c = Case("c15")
t = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.json")))
recs = []
for i in range(N):
    r = dict(t)
    r["diff"] = t["diff"].replace("a + b\n", "a + b  # variant %d\n" % i)
    r["fix_description"] = "fixed the operator, variant %d" % i
    recs.append(r)
def write(path, rs):
    with open(path, "w") as f:
        for r in rs:
            f.write(json.dumps(r) + "\n")
probe_home = os.path.join(c.dir, "probe-home")
for start in range(0, N, 50):
    part = os.path.join(c.dir, "part.jsonl")
    write(part, recs[start:start + 50])
    p = c.astra(["memory", "import", part], home=probe_home)
    for line, mid in re.findall(r"line (\d+): memory_id \S+ is not this record's id: .*? gives ([0-9a-f-]{36})", p.stderr):
        recs[start + int(line) - 1]["memory_id"] = mid
assert all(r["memory_id"] != t["memory_id"] for r in recs), "could not learn every id"
full = os.path.join(c.dir, "full.jsonl")
write(full, recs)

def count(home):
    path = os.path.join(home, "memory.sqlite")
    if not os.path.exists(path):
        return 0
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=1)
        n = db.execute("select count(*) from store").fetchone()[0]
        db.close()
        return n
    except Exception:
        return -1

# measure a full import once
mhome = os.path.join(c.dir, "measure-home")
t0 = time.time(); pm = c.astra(["memory", "import", full], home=mhome); dur = time.time() - t0
print("full import:", pm.returncode, pm.stdout.strip()[-120:], "in %.1fs; rows=%d" % (dur, count(mhome)))
khome = os.path.join(c.dir, "kill-home")
os.makedirs(khome)
proc = subprocess.Popen([ASTRA, "memory", "import", full], env=c.env(home=khome), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
t0 = time.time(); seen = 0
while proc.poll() is None:
    seen = count(khome)
    if 0 < seen < N or time.time() - t0 > dur * 0.92:
        break
    time.sleep(0.02)
proc.send_signal(signal.SIGKILL); proc.wait()
time.sleep(0.5)
after = count(khome)
pl = c.astra(["memory", "list", "--json", "--limit", "1000"], home=khome)
try:
    ml = json.loads(pl.stdout)
    listed = len(next(v for v in ml.values() if isinstance(v, list))) if isinstance(ml, dict) else len(ml)
except Exception:
    listed = -1
print(f"killed at {time.time() - t0:.2f}s; rows seen while running={seen}; rows after kill={after}; memory list shows {listed}")
verdict(0 < after < N or 0 < listed < N, f"SIGKILL during import of {N} records: {after} rows in store afterwards, `memory list` shows {listed} (nothing-or-all expected)")
