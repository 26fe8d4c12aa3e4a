"""Session ids that are not this client's fix sessions: paths (`../../x`, an absolute path to a
folder holding a report.json, `runs/../..`), an empty string, a 10,000-character id, NUL, and the
thread of a CLI `astra-memory run` session (another user's / another tool's thread in the same
ASTRA_HOME). finish_fix, replay_fix on each. Promises: a thread id is a name, not a path (refused,
nothing written); only a fix session started by begin_fix is finished (the CLI thread is left as
it was); a clear answer, never a traceback."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


def snapshot_tree(root):
    out = {}
    for dp, dn, fn in os.walk(root):
        for f in fn:
            p = os.path.join(dp, f)
            try:
                st = os.lstat(p)
                out[p] = (st.st_size, st.st_mtime_ns)
            except OSError:
                pass
    return out


async def main():
    c = Case("c09")
    ws = c.project("calc", BUGGY)
    other = c.project("other", BUGGY)
    # a CLI thread (replay-only: no model), in the same ASTRA_HOME
    p = c.astra(["run", "--workspace", other, "--test-command", TEST_CMD, "--thread-id", "cli-thread-1",
                 "--no-approve-edits", "--json"], timeout=300)
    print("cli run rc", p.returncode, p.stdout[-300:], p.stderr[-300:])
    victim_dir = os.path.join(c.dir, "victimdir")
    os.makedirs(victim_dir)
    write(victim_dir, "report.json", json.dumps({"status": "fixed"}))
    write(other, "calc.py", FIXED_CALC)  # the 'other user' has a fix sitting in their workspace
    ids = {"dotdot": "../../victimdir", "abs": victim_dir, "runs-dotdot": "runs/../../victimdir", "empty": "",
           "long": "a" * 10000, "nul": "calc\x00x", "cli thread": "cli-thread-1"}
    before_v = snapshot_tree(victim_dir)
    before_cli = c.astra(["threads"]).stdout
    answers = {}
    async with c.client() as cl:
        for k, sid in ids.items():
            for tool, args in (("finish_fix", {"session": sid, "description": "use +", "cause": "subtracts"}),
                               ("replay_fix", {"session": sid})):
                err, a = await call(cl, tool, args, timeout=300)
                answers[(k, tool)] = (err, a)
                print(f"{tool}({k}): is_error={err} {short(a, 300)}")
    recs = c.records()
    after_v = snapshot_tree(victim_dir)
    tracebacks = [k for k, (e, a) in answers.items() if "Traceback" in short(a, 10**6)]
    stored = [r.get("memory_id") for r in recs]
    fixed = [k for k, (e, a) in answers.items() if isinstance(a, dict) and a.get("status") == "fixed"]
    print("threads before:", before_cli[-400:], "\nthreads after:", c.astra(["threads"]).stdout[-400:])
    verdict(bool(fixed) or bool(stored) or bool(tracebacks) or before_v != after_v,
            f"answers 'fixed': {fixed}; records={stored}; tracebacks={tracebacks}; victim folder changed="
            f"{before_v != after_v}; cli thread finish_fix answer: {short(answers[('cli thread', 'finish_fix')][1], 300)}")

run(main)
