"""Killed session resumed by thread id, again and again, each time while a model request is in
flight (a hostile or just slow server that takes the request and never answers). A request the
server received may be billed: the session's budget must count it. Promise (guarantees.md, cli.md):
counters never lower than before the crash; "the session keeps its own budget"; limits are checked
before the work they limit. Measured: how many requests the server received in all, against
--max-model-requests 4, after 5 kill/resume cycles."""
import os, signal, subprocess, sys, json, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

LIMIT = 4
c = Case("c05")
ws = c.project("proj", dict(BUGGY_CALC))
script, logp, portf = (os.path.join(c.dir, n) for n in ("script.json", "requests.jsonl", "port"))
json.dump({"hang_from": 2, "replies": [diag(["calc.py"]), {"calls": [{"name": "read_file", "args": {"path": "calc.py"}}]}]},
          open(script, "w"))
open(logp, "w").close()
srv = subprocess.Popen([sys.executable, os.path.join(HERE, "hang_server.py"), script, logp, portf])
for _ in range(100):
    if os.path.exists(portf) and open(portf).read():
        break
    time.sleep(0.05)
url = "http://127.0.0.1:%s/v1" % open(portf).read()


def received():
    return sum(1 for x in open(logp) if x.strip())


def start(args):
    return subprocess.Popen([ASTRA] + args, env=c.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=c.dir, start_new_session=True)


def kill_when(proc, n, timeout=120):
    t = time.time()
    while time.time() - t < timeout:
        if received() >= n:
            time.sleep(0.5)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    return False


args = ["run", "--workspace", ws, "--test-command", "python -m pytest -q", "--python", PY, "--model", "openai:hostile-local",
        "--base-url", url, "--chat-completions", "--approve-live-cost", "--price-in", "0", "--price-out", "0",
        "--no-approve-edits", "--thread-id", "c05", "--max-model-requests", str(LIMIT), "--json"]
p = start(args)
killed = [kill_when(p, 3)]
log(c, "run killed with request in flight:", killed[-1], "received", received())
ends = []
for cycle in range(5):
    before = received()
    p = start(["resume", "c05", "--approve-live-cost", "--json"])
    t = time.time()
    while time.time() - t < 90 and received() == before and p.poll() is None:
        time.sleep(0.2)
    if p.poll() is None and received() > before:
        time.sleep(0.5)
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        log(c, "resume %d: killed with request %d in flight" % (cycle, received()))
    else:
        out, err = p.communicate(timeout=120)
        ends.append((p.returncode, out[-400:], err[-300:]))
        log(c, "resume %d ended rc=%s out=%s err=%s" % (cycle, p.returncode, out[-300:], err[-300:]))
        break
srv.kill()
n = received()
threads = c.astra(["threads"]).stdout
log(c, "threads:", threads[-600:])
verdict(n > LIMIT, f"the server received {n} model requests in all against --max-model-requests {LIMIT} "
        f"(each kill left one in flight); last end: {ends[-1][0:2] if ends else 'none (still resuming)'}")
