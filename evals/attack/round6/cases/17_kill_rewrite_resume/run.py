"""Claim (memory.md: "a learn killed part way goes on from the next commit with astra-memory resume
THREAD (or learn --resume THREAD); a commit stored just before the kill is not stored again";
guarantees.md: test processes do not survive a SIGKILL of the agent; cli.md: no traceback). Attack:
SIGKILL the learn (its whole process group) while the second of three fix commits is being tested,
then rewrite the history (reset, a new different commit, reflog expired, gc --prune=now: the
remaining commits are gone), then `learn --resume`. HELD when nothing is stored that was not
confirmed, no record twice, no test process left, and the resume ends with a named status or a clear
one-line error, no traceback."""
import os, signal, subprocess, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c17")
r = c.repo("calc")
r.commit("initial import", {"calc.py": "def f1(x):\n    return x - 1\n\n\ndef f2(x):\n    return x - 1\n\n\ndef f3(x):\n    return x - 1\n",
                            "tests/test_base.py": "def test_base():\n    assert True\n"})
SLOW = "import time\n\nfrom calc import f{i}\n\n\ndef test_f{i}():\n    time.sleep(2)\n    assert f{i}(1) == 1\n"
shas = []
body = open(os.path.join(r.root, "calc.py")).read()
for i in (1, 2, 3):
    body = body.replace(f"def f{i}(x):\n    return x - 1", f"def f{i}(x):\n    return x")
    shas.append(r.commit(f"Fix f{i}", {"calc.py": body, f"tests/test_f{i}.py": SLOW.format(i=i)}))
tid = "learn-c17-" + os.path.basename(c.dir)[-6:].replace("_", "x")
proc = c.popen(["learn", "--workspace", r.root, "--python", PY, "--test-command", TEST_CMD, "--thread-id", tid])
# kill once the first commit is done (its line is printed) and the second is running
t0, buf = time.time(), ""
os.set_blocking(proc.stderr.fileno(), False)
os.set_blocking(proc.stdout.fileno(), False)
killed_at = None
while time.time() - t0 < 120 and proc.poll() is None:
    for s in (proc.stdout, proc.stderr):
        try:
            buf += s.read() or ""
        except Exception:
            pass
    if shas[0][:8] in buf and killed_at is None:
        time.sleep(3.0)
        os.killpg(proc.pid, signal.SIGKILL)
        killed_at = round(time.time() - t0, 1)
        break
    time.sleep(0.2)
proc.wait()
print("killed at", killed_at, "output so far:", buf[-800:])
time.sleep(1)
left = subprocess.run(["pgrep", "-af", c.dir], capture_output=True, text=True).stdout.strip()
print("processes left:", left)
recs1 = c.records()
print("records after kill", len(recs1))
# rewrite the history: the commits after the first fix are replaced by another one, then gc'd
r.git("reset", "-q", "--hard", shas[0])
other = r.commit("Fix f2 differently", {"calc.py": open(os.path.join(r.root, "calc.py")).read().replace("def f2(x):\n    return x - 1", "def f2(x):\n    return x + 0 if False else x"),
                                        "tests/test_f2.py": SLOW.format(i=2)})
r.git("reflog", "expire", "--expire=now", "--all")
r.git("gc", "-q", "--prune=now")
gone = r.git("cat-file", "-t", shas[2], check=False)
print("old third commit still present:", repr(gone))
p = c.astra(["learn", "--resume", tid, "--python", PY, "--json"], timeout=200)
print("resume rc", p.returncode, p.stdout[-1200:], p.stderr[-1200:])
recs = c.records()
print("records", [(x.get("memory_id"), (x.get("learned_from") or {}).get("commit")) for x in recs])
ids = [x.get("memory_id") for x in recs]
problems = []
if left:
    problems.append("processes survived the kill: " + left[:300])
if len(ids) != len(set(ids)):
    problems.append("a record twice")
if "Traceback" in p.stderr or "Traceback" in p.stdout:
    problems.append("resume ended with a traceback: " + p.stderr[-300:])
stored_commits = [str((x.get("learned_from") or {}).get("commit")) for x in recs]
if any(sc.startswith(shas[2][:8]) for sc in stored_commits):
    problems.append("a commit gone from the history was stored after the rewrite")
if p.returncode not in (0, 1, 2):
    problems.append(f"resume exit code {p.returncode}")
verdict(bool(problems), f"{problems or 'ok'}; resume rc={p.returncode} last line={short((p.stderr or p.stdout).strip().splitlines()[-1:] , 300)}; records={len(recs)}")
