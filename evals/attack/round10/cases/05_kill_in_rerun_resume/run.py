"""Promise (docs/memory.md "Learning from history"): a learn killed part way goes on with `learn
--resume THREAD`; a commit stored just before the kill is not stored again; a commit is stored only
after its failing tests ran once more at the parent and failed again. guarantees.md: the project's
tests are untrusted: nothing of a killed step survives.
Attack: the commit's test sleeps 6 s so each run can be caught; learn is SIGKILLed (its whole
process group) while the third run (the re-run at the parent: a copy whose calc.py is the buggy one,
after a copy with the fix was seen) is in flight. Then `learn --resume`. Held if: no test process
survives the kill, nothing was stored before the re-run finished, resume ends with the commit
confirmed once (1 record, 1 confirmation)."""
import os
import signal
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

SLOW_TEST = "import time\n\nfrom calc import add\n\n\ndef test_add():\n    time.sleep(6)\n    assert add(2, 3) == 5\n"
case = lh.Case("c05")
r = lh.base_repo(case)
sha = r.commit("Fix add: wrong operator", {"calc.py": lh.CALC_FIXED, "tests/test_add.py": SLOW_TEST})
thread = "learn-c05kill"


def test_procs():
    """(pid, calc.py text) of every pytest process running in one of this case's copies."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
            if "pytest" not in cmd or "astra-memory" in cmd:
                continue
            cwd = os.readlink(f"/proc/{pid}/cwd")
            env = open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            continue
        if case.home.encode() not in env and case.dir not in cwd and not cwd.startswith(case.home):
            continue
        try:
            out.append((int(pid), open(os.path.join(f"/proc/{pid}/cwd", "calc.py")).read()))
        except OSError:
            out.append((int(pid), ""))
    return out


pr = case.popen(["learn", "--workspace", r.root, "--python", lh.PY, "--json", "--test-command", lh.TEST_CMD,
                 "--thread-id", thread])
seen_fix, killed, t0 = False, False, time.time()
while time.time() - t0 < 150 and pr.poll() is None:
    procs = test_procs()
    if any("a + b" in text for _, text in procs):
        seen_fix = True
    if seen_fix and any("a - b" in text for _, text in procs):
        time.sleep(1)
        os.killpg(pr.pid, signal.SIGKILL)
        killed = True
        break
    time.sleep(0.2)
pr.wait()
time.sleep(1)
left = test_procs()
recs_after_kill = case.records()
log(case, "killed", killed, "seen_fix", seen_fix, "left", left, "records after kill", len(recs_after_kill))
p, data = case.learn(r.root, "--resume", thread, test_command=None)
row = lh.row_for(data, sha)
recs = case.records()
confs = case.sql("select count(*) from sqlite_master")  # the file exists
conf_n = None
for rec in recs:
    c = rec.get("confirmations")
    conf_n = len(c) if isinstance(c, list) else rec.get("confirmation_count") or c
log(case, "resume rc", p.returncode, lh.short(row, 700), "records", len(recs), "confirmations", conf_n, p.stderr[-600:])
bad = (not killed) or left or len(recs_after_kill) > 0 or lh.result_of(row) != "confirmed" or len(recs) != 1
lh.verdict(bool(bad), f"killed in the re-run: {killed}; test processes left: {len(left)}; records after kill: "
           f"{len(recs_after_kill)}; resume rc {p.returncode} row {lh.result_of(row)} ({lh.short((row or {}).get('reason'), 160)}); "
           f"records {len(recs)}, confirmations {conf_n}")
