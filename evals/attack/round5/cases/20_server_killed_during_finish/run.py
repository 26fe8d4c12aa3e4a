"""The server process is killed (SIGKILL, as an editor that is closed hard) while finish_fix runs
the tests; a new server is started and the agent calls finish_fix again with the same session.
Promises (mcp.md): "A fix session is a LangGraph thread in the durable checkpointer: the server
(or your editor) can restart between begin_fix and finish_fix; the session id still works";
guarantees.md: a killed session resumes and finishes with exactly one record; one runner per
thread (a dead holder's lease is taken over)."""
import asyncio, os, signal, subprocess, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *


def server_pids(home):
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            env = open(f"/proc/{pid}/environ", "rb").read()
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        except Exception:
            continue
        if f"ASTRA_HOME={home}".encode() in env and b"mcp" in cmd.split(b"\0") and b"astra-memory" in cmd:
            out.append(int(pid))
    return out


async def main():
    c = Case("c20")
    ws = c.project("calc", dict(BUGGY, **{"tests/test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(4)\n"}))
    sid = None
    killed = []
    try:
        async with c.client() as cl:
            _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
            sid = b.get("session")
            print("begin:", short(b, 200))
            write(ws, "calc.py", FIXED_CALC)

            async def killer():
                await asyncio.sleep(3)
                for pid in server_pids(c.home):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            t = asyncio.create_task(killer())
            err, f = await call(cl, "finish_fix", {"session": sid, "description": "use +", "cause": "the function subtracts"}, timeout=60)
            await t
            print("finish during kill:", err, short(f, 300))
    except BaseException as e:  # the client's stream ends with the server
        print("client ended:", type(e).__name__, str(e)[:200])
    print("killed server pids:", killed)
    time.sleep(1)
    print("threads:", c.astra(["threads"]).stdout[-500:])
    async with c.client() as cl:
        err, f2 = await call(cl, "finish_fix", {"session": sid, "description": "use +", "cause": "the function subtracts"})
        print("finish after restart:", err, short(f2, 900))
        if f2.get("status") not in ("fixed",):
            err, f3 = await call(cl, "finish_fix", {"session": sid, "description": "use +", "cause": "the function subtracts"})
            print("finish once more:", err, short(f3, 900))
        else:
            f3 = f2
    rs = c.astra(["resume", sid, "--json"], timeout=200)
    print("astra-memory resume:", rs.returncode, (rs.stdout + rs.stderr)[-400:])
    recs = c.records()
    print("workspace calc.py:", repr(open(ws + "/calc.py").read()))
    verdict(not killed or f3.get("status") != "fixed" or len(recs) != 1,
            f"killed={killed}; after restart: {short(f2.get('status') or f2, 300)}; then: {short(f3.get('status') or f3, 300)}; "
            f"`astra-memory resume` rc={rs.returncode} {short((rs.stdout + rs.stderr).strip(), 200)}; records={len(recs)}; calc.py fixed in workspace={'a + b' in open(ws + '/calc.py').read()}")

run(main)
