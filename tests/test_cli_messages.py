"""Issue 22: the CLI prints stored and project text literally, and its messages say what will work."""

from __future__ import annotations

import io
import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from rich.console import Console

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError, ScenarioError
from tests.conftest import cli_env, run_cli
from tests.test_resume_hints import path_without_this_venv

# Rich markup, a markup look-alike in code, closing tags and backslashes: all must print as they are.
TRICKY = ('return f"{value}{t[value % 10]}"', "[bold]not bold[/bold]", "a [/b] stray close", "[/]",
          "C:\\temp\\[x]\\", "trailing backslash \\")


def _store_tricky_record() -> str:
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.stores.record import memory_id_for, utc_now, validate_record

    now = utc_now()
    record = validate_record({  # a stored fix's id is its content's (stores/record.py content_problem)
        "memory_id": memory_id_for(project="ordinals[/b]", error_type="IndexError", diff="",
                                   fix_description=" | ".join(TRICKY), file_paths=["app/[x]/ordinal.py"]),
        "symptom": "IndexError [/b] in " + TRICKY[0],
        "error_type": "IndexError", "file_paths": ["app/[x]/ordinal.py"],
        "fix_description": " | ".join(TRICKY), "outcome": "pytest passed [/] [bold]", "timestamp": now,
        "updated_at": now, "session_id": "s-1", "thread_id": "s-1", "project": "ordinals[/b]", "model": "none",
    })
    with open_memory() as memory:
        memory.put_record(record)
    return record.memory_id


@pytest.mark.parametrize("columns", ["80", "200"])
def test_stored_text_is_printed_literally(columns):
    memory_id = _store_tricky_record()
    env = cli_env(COLUMNS=columns)
    shown = run_cli("memory", "show", memory_id, env=env)
    assert shown.returncode == 0, shown.stderr
    listed = run_cli("memory", "list", env=env)
    assert listed.returncode == 0, listed.stderr
    found = run_cli("memory", "search", "IndexError ordinal", env=cli_env(COLUMNS=columns, ASTRA_MIN_SCORE="-1"))
    assert found.returncode == 0, found.stderr
    for text in TRICKY:
        assert text in shown.stdout.replace("\n", "") or text in shown.stdout
    flat = listed.stdout.replace("\n", "") if columns == "80" else listed.stdout
    assert "ordinals[/b]" in listed.stdout and memory_id in listed.stdout
    if columns == "80":  # one block per record: every cell on its own line, whole
        for text in TRICKY:
            assert text in flat
    assert f"memory_id={memory_id}" in found.stdout  # the id `memory show` needs, without --json


def test_progress_line_is_whole_and_literal(monkeypatch):
    from astra_memory.cli.progress import SessionProgress

    out = io.StringIO()
    result = "tests still fail: 2 failed; expected '[bold]x' but the value was shorter than expected by 3"
    SessionProgress(Console(file=out, width=80, soft_wrap=True))(
        "replay", {"replay": {"replayed": None, "skipped": None,
                              "tried": [{"memory_id": "18ab11b5-ca25", "result": result}]}})
    assert result in out.getvalue() and "18ab11b5-ca25" in out.getvalue()


def test_unknown_scenario_is_answered_at_once_with_the_closest_names():
    from astra_memory.scenarios import check_scenario_name

    result = run_cli("run", "alpah")
    assert result.returncode == 2
    assert "did you mean alpha" in result.stderr and "address-book-search-casefold" not in result.stderr
    assert "Traceback" not in result.stderr
    check_scenario_name("alpha")  # a bundled name passes
    with pytest.raises(ScenarioError, match="did you mean beta"):
        check_scenario_name("betta")


def test_needs_model_advice_is_a_command_that_is_accepted(monkeypatch):
    from astra_memory.models.advice import needs_model_advice
    from astra_memory.models.live import preflight

    advice = needs_model_advice({"workspace": "/src/my proj", "test_command": "python -m pytest -q"})
    assert "--workspace '/src/my proj' --test-command 'python -m pytest -q'" in advice
    words = shlex.split(advice.split("OPENAI_API_KEY=... ", 1)[1].split(" (or set")[0])
    model = words[words.index("--model") + 1]
    budget = float(words[words.index("--budget") + 1])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(ConfigurationError, match="approve-live-cost"):  # what the old advice led to
        preflight(model, Context(model=model))
    assert "--approve-live-cost" in words
    preflight(model, Context(model=model, approve_live_cost=True, session_budget_usd=budget))  # accepted
    assert "astra-memory run alpha " in needs_model_advice({"scenario": "alpha", "workspace": "/tmp/x"})


def test_replay_rejection_does_not_ask_for_a_reason_for_the_model(monkeypatch):
    from astra_memory.cli.approval import ask_on_terminal
    from astra_memory.rules.approval import REPLAY_REQUEST

    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("r\n\n"))
    answer = ask_on_terminal(Console(file=out, width=80))({
        "kind": REPLAY_REQUEST, "memory_id": "m-1", "path": "app/[b]x.py", "diff": "-a[/]\n+b", "error": "[/b]"})
    assert answer == {"action": "reject", "reason": ""}
    assert "shown to the model" not in out.getvalue() and "optional" in out.getvalue()
    assert "app/[b]x.py" in out.getvalue() and "[/b]" in out.getvalue() and "-a[/]" in out.getvalue()


def test_a_replay_prompt_says_why_it_needs_approval(monkeypatch):
    from astra_memory.cli.approval import ask_on_terminal
    from astra_memory.rules.approval import replay_request

    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    request = replay_request(memory_id="m-1", path="app/x.py", diff="-a\n+b\n",
                             why=["it was confirmed in another project", "its outcome is exit code only"])
    assert ask_on_terminal(Console(file=out, width=80))(request) == "approve"
    shown = out.getvalue()
    assert "it was confirmed in another project" in shown and "its outcome is exit code only" in shown
    assert shown.index("another project") < shown.index("apply this replay?")


def test_a_reused_thread_id_says_what_to_do(tmp_path):
    from astra_memory.scenarios import load_scenario

    scenario = load_scenario("alpha")
    scenario.copy_to(tmp_path / "workspace")
    with pytest.raises(ScenarioError) as caught:
        scenario.copy_to(tmp_path / "workspace")
    assert "new thread id" in str(caught.value) and "resume" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("on_path", [True, False])
def test_the_demo_says_where_its_memory_is_with_a_command_that_runs(on_path, monkeypatch):
    """After scripts/demo.sh the venv is not activated: the hint names the console script by its full
    path then, and the bare name only when the shell's PATH finds this very program (issue 36 item 10)."""
    import os
    import shutil
    import sys
    from pathlib import Path

    from astra_memory.session.demo import demo_memory_note

    bin_dir = Path(sys.executable).parent
    others = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p).resolve() != bin_dir.resolve()]
    monkeypatch.setenv("PATH", os.pathsep.join(([str(bin_dir)] if on_path else []) + others))
    found = shutil.which("astra-memory")
    assert (found is not None and Path(found).resolve() == (bin_dir / "astra-memory").resolve()) == on_path
    me = "astra-memory" if on_path else str(bin_dir / "astra-memory")
    note = demo_memory_note("/home/u/.astra/demo/2026 run")
    lines = note.splitlines()
    assert lines[2:4] == ["    ASTRA_HOME='/home/u/.astra/demo/2026 run' \\", f"        {me} run alpha"]
    assert f"        {me} memory export demo-fixes.jsonl" in lines and f"    {me} memory import demo-fixes.jsonl" in lines


def shell_path(tmp_path: Path) -> str:
    """A PATH where this venv is not activated (after scripts/demo.sh) but whose `python` is this
    one (the project's tests run on the shell's python)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
    return os.pathsep.join([str(bin_dir), path_without_this_venv()])


@pytest.mark.slow
def test_a_session_that_needs_a_model_prints_the_command_whole_at_80_columns(tmp_path):
    """The needs_model advice is one long line (it is the report's reason); at 80 columns a terminal's
    own wrap cut its command mid-word (`--t|est-command`). The terminal also gets the command as shell
    lines of at most 80 characters, broken between options, that give back the advice's very words."""
    from astra_memory.scenarios import load_scenario

    workspace = load_scenario("alpha").copy_to(tmp_path / "my project")
    result = run_cli("run", "--workspace", str(workspace), "--test-command", "python -m pytest -q -p no:cacheprovider",
                     "--thread-id", "needs-model-80", env=cli_env(COLUMNS="80", PATH=shell_path(tmp_path)))
    assert result.returncode == 2, result.stderr  # needs a model: the user's choice to make
    lines = result.stdout.splitlines()
    start = lines.index("  to go on with a live model (each request costs money; the budget caps it):")
    block = []
    for line in lines[start + 1:]:
        block.append(line)
        if not line.endswith(" \\"):
            break
    # at most 80 where the words allow: only the line of the (long, temporary) workspace path is longer
    assert len(block) >= 3 and all(len(line) <= 80 or str(workspace) in line for line in block), block
    assert sum(str(workspace) in line for line in block) == 1
    words = shlex.split(" ".join(line.removesuffix(" \\") for line in block))
    report = Path(os.environ["ASTRA_HOME"]) / "runs" / "needs-model-80" / "report.json"
    reason = json.loads(report.read_text(encoding="utf-8"))["reason"]  # the advice, whole
    advised = shlex.split(reason.split("OPENAI_API_KEY=... ", 1)[1].split(" (or set")[0])
    # the program as a shell without this venv activated finds it (after scripts/demo.sh)
    assert advised[0] == "astra-memory" and words[1] == str(Path(sys.executable).parent / "astra-memory")
    assert words == ["OPENAI_API_KEY=...", words[1], *advised[1:]]
    # said once: the status line gives the reason up to the advice, the block gives its command
    status_line = next(line for line in lines if "needs_model" in line)
    assert "OPENAI_API_KEY" not in status_line and status_line.endswith("plays only a bundled scenario's script.")
    assert result.stdout.count("--approve-live-cost") == 1
    assert words[words.index("--workspace") + 1] == str(workspace)
