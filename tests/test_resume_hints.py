"""Issue 36 item 2: the command a stopped live session tells the user to type is the command that
works (a live model's cost approval is never carried over from the process that gave it)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import cli_env, run_cli
from tests.helpers import PROJECT_TESTS
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
    from astra_memory.session.hints import program, resume_command

    assert resume_command("t-1", "scripted") == f"{program()} resume t-1"
    assert resume_command("t-1", "openai:gpt-4.1-mini", "--uncancel") == \
        f"{program()} resume t-1 --uncancel --approve-live-cost"


def path_without_this_venv() -> str:
    """The PATH of a shell where this venv is not activated (after scripts/demo.sh)."""
    bin_dir = Path(sys.executable).parent.resolve()
    return os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p).resolve() != bin_dir)


def test_a_resume_hint_names_the_program_as_the_shell_finds_it(monkeypatch):
    """The new-user run on more-itertools: after scripts/demo.sh the venv is not activated and the
    hints said a bare `astra-memory resume ...`, which that shell does not find."""
    from astra_memory.session.hints import resume_command

    bin_dir = Path(sys.executable).parent
    monkeypatch.setenv("PATH", path_without_this_venv())
    assert resume_command("t-1", "scripted") == f"{bin_dir / 'astra-memory'} resume t-1"
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), path_without_this_venv()]))
    assert resume_command("t-1", "scripted") == "astra-memory resume t-1"


def test_a_finished_session_given_a_raised_limit_names_the_new_run_that_works(tmp_path):
    """The new-user run on boltons: budget_exhausted said `raise max_model_requests
    (--max-model-requests, ...)`; `resume ID --max-model-requests 6` then said only "already finished;
    nothing to resume". It now says the option applies to a new session and prints that `run`, which
    works as printed."""
    from astra_memory.scenarios import load_scenario

    workspace = load_scenario("alpha").copy_to(tmp_path / "shop")
    first = run_cli("run", "--workspace", str(workspace), "--test-command", PROJECT_TESTS,
                    "--max-attempts", "2", "--thread-id", "limit-1")
    assert first.returncode == 2, first.stderr  # needs a model: the session ended
    again = run_cli("resume", "limit-1", "--max-attempts", "4", env=cli_env(COLUMNS="80"))
    assert "already finished" in again.stderr and "apply to a session that goes on" in again.stderr, again.stderr
    lines = again.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if "run it again as a new session" in line)
    block = []
    for line in lines[start + 1:]:
        block.append(line)
        if not line.endswith(" \\"):
            break
    words = shlex.split(" ".join(line.removesuffix(" \\") for line in block))
    assert words[1:3] == ["run", "--workspace"] and words[words.index("--max-attempts") + 1] == "4", words
    rerun = subprocess.run(words, capture_output=True, text=True, env=cli_env(), timeout=300)
    assert rerun.returncode == 2 and "needs_model" in rerun.stdout, rerun.stderr  # accepted: the same project, anew


def test_the_cost_lines_hint_for_cut_off_requests_names_the_program_as_the_shell_finds_it(monkeypatch):
    """The new-user run on humanize (a session killed mid-request, then resumed): the cost line said
    "(`astra-memory cost` lists them as open)" while the resume and undo hints named the venv's
    program, the only one that shell finds after scripts/demo.sh."""
    from astra_memory.cli.app import cost_line

    bin_dir = Path(sys.executable).parent
    monkeypatch.setenv("PATH", path_without_this_venv())
    line = cost_line("openai:gpt-4.1-mini", 0.0312, 24_776, 120, open_requests=2, open_usd=0.0211)
    assert f"(`{bin_dir / 'astra-memory'} cost` lists them as open)" in line, line
