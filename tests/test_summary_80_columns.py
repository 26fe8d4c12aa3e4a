"""What an 80-column terminal shows at the end of a session: every line of the summary breaks
between words (the new-user run on toolz saw `memor|y`, `OPEN|AI_API_KEY`, `$0.010|1` where the
terminal's own wrap cut them); into a pipe each line stays whole, for grep."""

from __future__ import annotations

import re

import pytest

from astra_memory.scenarios import load_scenario
from tests.conftest import cli_env, run_cli

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # colours, and the spinner's cursor moves


@pytest.mark.slow
def test_a_sessions_summary_breaks_between_words_at_80_columns(tmp_path):
    workspace = load_scenario("alpha").copy_to(tmp_path / "shop")
    command = ("run", "--workspace", str(workspace), "--test-command", "python -m pytest -q -p no:cacheprovider")
    shown = run_cli(*command, "--thread-id", "sum-80", env=cli_env(TTY_COMPATIBLE="1", COLUMNS="80"))
    assert shown.returncode == 2, shown.stderr  # needs_model: its reason is the longest summary line
    lines = ANSI.sub("", shown.stdout).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("sum-80: needs_model"))
    too_wide = [line for line in lines[start:]  # a word longer than a line (the long temporary path) is whole
                if len(line) > 80 and len(line.split()) > 1 and str(workspace) not in line]
    assert too_wide == [], too_wide
    assert lines[start + 1].startswith("  ") and not lines[start + 1][2].isspace()  # under the summary's indent
    words = " ".join(" ".join(lines[start:start + 4]).split())
    assert "no confirmed fix from memory fixed this failure" in words
    piped = run_cli(*command, "--thread-id", "sum-pipe", env=cli_env(COLUMNS="80"))
    (status,) = [line for line in piped.stdout.splitlines() if line.startswith("sum-pipe: needs_model")]
    assert len(status) > 80 and "no confirmed fix from memory fixed this failure" in status  # whole, one line


@pytest.mark.slow
def test_the_demos_ending_breaks_between_words_and_gives_each_command_a_line_at_80_columns():
    """The demo's last lines (where its evidence and its memory are, how to use them) were one long
    line each: a terminal's wrap cut them mid-word (`evi|dence.json`, `ast|ra-memory`)."""
    shown = run_cli("demo", env=cli_env(TTY_COMPATIBLE="1", COLUMNS="80"))
    assert shown.returncode == 0, shown.stderr
    lines = ANSI.sub("", shown.stdout).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("evidence:"))
    data_dir = " ".join(lines[start:start + 2]).split()[1].removesuffix("/evidence.json")
    too_wide = [line for line in lines[start:] if len(line) > 80 and data_dir not in line]
    assert too_wide == [], too_wide  # only the data folder, a word longer than a line, may run over
    commands = [line.strip() for line in lines[start:] if line.startswith("    ")]
    assert commands[0] == f"ASTRA_HOME={data_dir} \\" and commands[1].endswith("astra-memory run alpha")
    assert commands[-1].endswith("astra-memory memory import demo-fixes.jsonl")
    # its progress lines too: a test id longer than the room under the detail column starts further
    # left, whole (`test_env_origins_with_tabs_and_trailing_sp|aces` was cut by the terminal's wrap)
    progress = ANSI.sub("", shown.stderr).splitlines()
    assert "tests/test_cors.py::test_env_origins_with_tabs_and_trailing_spaces," in [p.strip() for p in progress]
    assert [line for line in progress if len(line) > 80 and not line.startswith("⠋")] == []


def test_memory_search_list_and_attempts_break_between_words_at_80_columns(agent, settings):
    """The new-user run on more-itertools: `memory search` and `memory list --attempts` printed each
    field on one line, and the terminal cut it mid-word (`d|id not match`, `ti|me(s)`)."""
    from astra_memory.session.run import start_session
    from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, call, task_with_script

    wrong = call("apply_edit", path="app/settings.py", old_text="if origin]", new_text="if origin and origin]")
    start_session(agent, task_with_script(settings, "t-wrong", [ALPHA_DIAGNOSIS, wrong, FINISH]))
    start_session(agent, task_with_script(settings, "t-right", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]))
    env = cli_env(TTY_COMPATIBLE="1", COLUMNS="80", ASTRA_MIN_SCORE="0")
    for args in (("memory", "search", "AssertionError: second origin rejected, comma whitespace"),
                 ("memory", "list", "--attempts"), ("memory", "list")):
        shown = run_cli(*args, env=env)
        assert shown.returncode == 0, shown.stderr
        lines = ANSI.sub("", shown.stdout).splitlines()
        assert len(lines) > 3, lines
        too_wide = [line for line in lines if len(line) > 80 and len(line.split()) > 1]
        assert too_wide == [], (args, too_wide)
