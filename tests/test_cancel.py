"""Issue #25 part 3: a session stopped on purpose (`astra-memory cancel ID`, or Ctrl-C twice) is
`cancelled`; `resume` refuses it in one line unless given --uncancel, then finishes it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from astra_memory.session.hints import program
from tests.conftest import ROOT, cli_env, run_cli


def _status(thread_id: str, env: dict) -> str:
    rows = json.loads(run_cli("threads", "--json", env=env).stdout)
    return {r["thread_id"]: r["status"] for r in rows}[thread_id]


def test_cancel_marks_a_thread_and_resume_refuses_it_unless_uncancel(settings):
    env = cli_env()
    stopped = run_cli("run", "alpha", "--no-replay", "--thread-id", "c-1",
                      env={**env, "ASTRA_CRASH_AT": "after:tools", "ASTRA_CRASH_SIGNAL": "INT"})
    assert stopped.returncode == 130, stopped.stderr
    assert "press Ctrl-C again" not in stopped.stderr  # no terminal: one Ctrl-C only interrupts
    assert _status("c-1", env) == "interrupted"

    cancelled = run_cli("cancel", "c-1", env=env)
    assert cancelled.returncode == 0, cancelled.stderr
    assert "session c-1 cancelled" in cancelled.stderr
    assert _status("c-1", env) == "cancelled"

    refused = run_cli("resume", "c-1", env=env)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: thread c-1 was cancelled (astra-memory cancel, ")
    assert f"`{program()} resume c-1 --uncancel` continues it anyway" in lines[0]

    resumed = run_cli("resume", "c-1", "--uncancel", "--json", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "fixed" and _status("c-1", env) == "fixed"
    again = run_cli("cancel", "c-1", env=env)
    assert again.returncode == 2 and "already finished (fixed); nothing to cancel" in again.stderr
    unknown = run_cli("cancel", "no-such-thread", env=env)
    assert unknown.returncode == 2 and "no session with thread id 'no-such-thread'" in unknown.stderr


def test_ctrl_c_twice_cancels(settings):
    env = {**cli_env(), "ASTRA_CRASH_AT": "after:tools", "ASTRA_CRASH_SIGNAL": "INT", "ASTRA_CANCEL_WINDOW_S": "60"}
    proc = subprocess.Popen([sys.executable, "-m", "astra_memory", "run", "alpha", "--no-replay", "--thread-id",
                             "c-2"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the first Ctrl-C came from the crash point; wait for the prompt
        line = proc.stderr.readline()
        seen.append(line)
        if "press Ctrl-C again" in line or not line:
            break
    assert "press Ctrl-C again within 60s to cancel it" in seen[-1], "".join(seen)
    proc.send_signal(signal.SIGINT)  # the second one
    _, rest = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "cancelled: session c-2" in rest
    env.pop("ASTRA_CRASH_AT")
    assert _status("c-2", env) == "cancelled"
    assert "was cancelled (Ctrl-C twice, " in run_cli("resume", "c-2", env=env).stderr
