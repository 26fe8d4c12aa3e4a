"""Issue 22: usable at 80 columns (and into a file): ids, names and numbers are printed whole."""

from __future__ import annotations

import io
import json
import re

from rich.console import Console
from typer.testing import CliRunner

from astra_memory.cli.app import app
from tests.conftest import cli_env, run_cli


def narrow() -> dict[str, str]:
    return cli_env(COLUMNS="80")  # at call time: this test's ASTRA_HOME


def test_ids_and_names_are_whole_at_80_columns():
    assert run_cli("run", "alpha", "--thread-id", "alpha-004dcd3f72ab-narrow-columns").returncode == 0
    (memory,) = json.loads(run_cli("memory", "list", "--json").stdout)
    memory_id = memory["memory_id"]
    threads = run_cli("threads", env=narrow())
    assert "alpha-004dcd3f72ab-narrow-columns" in threads.stdout and "…" not in threads.stdout
    listed = run_cli("memory", "list", env=narrow())
    assert memory_id in listed.stdout and "…" not in listed.stdout
    found = run_cli("memory", "search", "origin comma whitespace", env=cli_env(COLUMNS="80", ASTRA_MIN_SCORE="0"))
    assert f"memory_id={memory_id}" in found.stdout
    names = [s["name"] for s in json.loads(run_cli("scenarios", "--json").stdout)]
    shown = run_cli("scenarios", env=narrow()).stdout
    assert all(re.search(rf"^{re.escape(name)}$", shown, re.M) for name in names) and "…" not in shown
    # What was printed is what the next command takes.
    assert run_cli("memory", "show", memory_id, env=narrow()).returncode == 0
    assert run_cli("resume", "alpha-004dcd3f72ab-narrow-columns", env=narrow()).returncode == 0


def test_session_help_fits_80_columns():
    from astra_memory.cli.options import SESSION_OPTIONS
    from astra_memory.context import KNOBS

    for command in ("run", "resume", "demo"):
        result = run_cli(command, "--help", env=narrow())
        assert result.returncode == 0
        lines = result.stdout.splitlines()
        assert "…" not in result.stdout and all(len(line) <= 80 for line in lines)
        for name in SESSION_OPTIONS:
            for decl in KNOBS[name].metadata["cli"].decls.split("/"):
                assert decl in result.stdout, (command, decl)
    assert len(run_cli("run", "--help", env=narrow()).stdout.splitlines()) < 120


EVIDENCE = {
    "model": "scripted", "cost_usd": 0.0, "data_dir": "/home/u/.local/share/astra-memory/demo/20261202T000000Z-1",
    "wall_time_s": 12.34,
    "sessions": [{"scenario": name, "thread_id": f"{name}-004dcd3f72ab", "status": "fixed",
                  "memory_hits_before_first_edit": [{"memory_id": "m", "score": 0.812345, "session_id": "alpha-1"}],
                  "model_requests": 4, "tool_calls": 12, "cost_usd": 0.012345,
                  "stored_memory_id": "18ab11b5-ca25-541b-8415-aa070265aadd", "replayed_memory_id": None,
                  "original_tests_passed": True, "original_tests_outcome": "4 of 4 failing tests now pass"}
                 for name in ("alpha", "beta", "alpha-again")],
}


def test_demo_evidence_at_80_columns_keeps_every_value_whole(monkeypatch):
    from astra_memory.cli import common

    out = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=out, width=80, soft_wrap=True))
    monkeypatch.setattr("astra_memory.cli.app.console", common.console)
    monkeypatch.setattr("astra_memory.session.demo.run_demo", lambda *a, **k: EVIDENCE)
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    text = out.getvalue()
    assert "..." not in text and "…" not in text
    assert all(len(line) <= 80 for line in text.splitlines() if "demo kept its own memory" not in line
               and "evidence:" not in line)
    for value in ("alpha-again-004dcd3f72ab", "18ab11b5-ca25-541b-8415-aa070265aadd", "0.0123", "0.8123 from alpha-1",
                  "4 of 4 failing tests now pass"):
        assert value in text, value
    assert "ASTRA_HOME=" in text  # where the demo's memory is, and how to use it


def _every_command(group, path=()) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in getattr(group, "commands", {}).items():
        found += _every_command(sub, (*path, name))
    return found


def test_no_help_shows_a_python_type_or_breaks_a_sentence_of_its_own():
    """Issue 36 item 10: every flag showed `<bool>`, `--help` too, a text `<str>` (later: `<list[Path]>`, `<int range>`); `cost --help` and
    `prices --help` broke lines where the docstring did, mid-sentence at 80 columns (cli/help_text.py).
    Every command's help, rendered at 80 columns in-process."""
    import typer

    commands = _every_command(typer.main.get_command(app))
    assert len(commands) > 20
    runner = CliRunner()
    for command in commands:
        shown = runner.invoke(app, [*command, "--help"], env=narrow(), terminal_width=80).stdout
        assert "Usage:" in shown, command
        typed = [line for line in shown.splitlines() if re.search(r"│ +-\S*( \S+)? +<\w[^>]*>", line)]
        assert typed == [], command  # an option's line (an argument's column names its kind, as typer does)
    cost = runner.invoke(app, ["cost", "--help"], env=narrow(), terminal_width=80).stdout
    assert "at its reserved worst case" in " ".join(cost.split())
    assert not re.search(r"at its reserved\s*\n\s*worst case\s*\n", cost)  # the docstring's own break


def test_reflowed_joins_a_paragraph_and_keeps_lists():
    from astra_memory.cli.help_text import reflowed

    assert reflowed("First line.\n\n  Spend counts a\n  request at its\n  worst case.") == (
        "First line.\n\nSpend counts a request at its worst case.")
    assert reflowed("Steps:\n- one\n- two\n  indented") == "Steps:\n- one\n- two\n  indented"
