"""Issue 36 item 2: the command a stopped live session tells the user to type is the command that
works (a live model's cost approval is never carried over from the process that gave it)."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from tests.conftest import cli_env, run_cli
from tests.openai_server import DEFAULT_KEY, OpenAIServer
from tests.test_live_wire import ALPHA, MODEL

pytestmark = pytest.mark.live_wire


def _hint(stderr: str) -> list[str]:
    (command,) = re.findall(r"continue it with\n  `astra-memory ([^`]+)`", stderr)  # a line of its own
    return shlex.split(command)


def test_the_resume_hint_after_ctrl_c_in_a_live_session_is_the_command_that_works():
    env = cli_env(OPENAI_API_KEY=DEFAULT_KEY)
    with OpenAIServer(ALPHA) as server:
        stopped = run_cli("run", "alpha", "--model", MODEL, "--base-url", server.base_url, "--approve-live-cost",
                          "--thread-id", "live-ctrl-c", env={**env, "ASTRA_CRASH_AT": "after:tools",
                                                             "ASTRA_CRASH_SIGNAL": "INT"}, timeout=120)
        assert stopped.returncode == 130, stopped.stderr
        hint = _hint(stopped.stderr)
        assert hint[:2] == ["resume", "live-ctrl-c"]
        resumed = run_cli(*hint, "--json", env=env, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "fixed" and server.violations == []


def test_a_scripted_session_hint_asks_for_no_cost_approval():
    from astra_memory.session.hints import resume_command

    assert resume_command("t-1", "scripted") == "astra-memory resume t-1"
    assert resume_command("t-1", "openai:gpt-4.1-mini", "--uncancel") == \
        "astra-memory resume t-1 --uncancel --approve-live-cost"
