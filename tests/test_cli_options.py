"""The session options come from the Context fields, and what the command line gives before a
command travels in typer's context object, never in module state."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.cli.options import (
    FALSE_IS_GIVEN,
    SESSION_OPTIONS,
    given_options,
    session_options,
)
from astra_memory.context import (
    KNOBS,
    Context,
    Flag,
    default_of,
    option_help,
    setting_name,
    shown,
)
from astra_memory.errors import ConfigurationError
from tests.conftest import ROOT


def _params(command: str) -> dict[str, Any]:
    group = typer.main.get_command(app)
    return {p.name: p for p in group.commands[command].params}


def test_every_flagged_knob_is_an_option_of_run_resume_and_demo():
    flagged = {name for name, f in KNOBS.items() if f.metadata["cli"] is not None}
    assert set(SESSION_OPTIONS) == flagged
    for command in ("run", "resume", "demo"):
        params = _params(command)
        for name in flagged:
            flag: Flag = KNOBS[name].metadata["cli"]
            param = params[name]
            on, _, off = flag.decls.partition("/")
            assert param.opts == [on] and param.secondary_opts == ([off] if off else []), (command, name)
            assert param.help == option_help(name) and "{" not in param.help
            assert (param.min, param.max) == (flag.min, flag.max)
            assert param.rich_help_panel == flag.panel
            assert param.default is (False if name == "approve_live_cost" else None)


def test_the_flags_users_know_are_kept():
    params = _params("run")
    names = {opt for p in params.values() for opt in (*p.opts, *p.secondary_opts)}
    assert {"--model", "--no-replay", "--replay", "--chat-completions", "--responses-api", "--no-chain-responses",
            "--approve-edits", "--no-approve-edits", "--approve-live-cost", "--budget", "--total-budget",
            "--price-in", "--price-out", "--test-timeout", "--max-attempts", "--max-output-tokens"} <= names
    assert "--no-approve-live-cost" not in names  # a single switch: on when given, never turned off
    assert (params["max_attempts"].min, params["max_attempts"].max) == (1, 20)
    assert set(FALSE_IS_GIVEN) == {"use_responses_api", "chain_responses", "approve_edits", "replay", "attempts"}


def test_help_says_the_fields_default_and_environment_variable():
    assert option_help("max_attempts") == f"Test runs after finish() before the run ends failed (default {default_of('max_attempts')})."
    assert "(default 120)" in option_help("test_timeout_s")  # 120.0, said as people write it
    assert "default 0.25" in option_help("session_budget_usd") and "default 5)" in option_help("total_budget_usd")
    assert "(ASTRA_REPLAY; default on)" in option_help("replay")
    assert "ASTRA_APPROVE_LIVE_COST=1" in option_help("approve_live_cost")
    assert (shown(True), shown(4096), shown(120.0), shown(0.25)) == ("on", "4096", "120", "0.25")


def test_default_of_is_the_declared_default_before_the_environment(monkeypatch):
    monkeypatch.setenv("ASTRA_MAX_ATTEMPTS", "7")
    assert Context().max_attempts == 7 and default_of("max_attempts") == 3
    assert default_of("replay") is True and default_of("model") is None


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("ASTRA_MAX_TOOL_CALLS", "-3", "ASTRA_MAX_TOOL_CALLS=-3 is out of range: it must be at least 1"),
    ("ASTRA_MAX_ATTEMPTS", "1000", "ASTRA_MAX_ATTEMPTS=1000 is out of range: it must be from 1 to 20"),
    ("ASTRA_MAX_MODEL_REQUESTS", "0", "ASTRA_MAX_MODEL_REQUESTS=0 is out of range: it must be at least 1"),
])
def test_an_environment_value_is_held_to_its_options_bounds(monkeypatch, variable, value, message):
    """The variable is the same setting as the option: on main ASTRA_MAX_TOOL_CALLS=-3 and
    ASTRA_MAX_ATTEMPTS=1000 were taken where --max-tool-calls -3 and --max-attempts 1000 are refused
    (outside round 9 case 09)."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as refused:
        Context()
    assert str(refused.value) == message


def test_messages_name_the_flag_that_changes_the_knob():
    assert setting_name("replay") == "replay (--no-replay, ASTRA_REPLAY)"
    assert setting_name("session_budget_usd") == "session_budget_usd (--budget, ASTRA_SESSION_BUDGET_USD)"
    assert setting_name("use_responses_api") == "use_responses_api (--chat-completions, ASTRA_RESPONSES_API)"
    assert setting_name("memory_top_k") == "memory_top_k (ASTRA_MEMORY_TOP_K)"  # no flag


def test_given_is_what_the_command_line_said():
    assert given_options({"replay": None, "approve_live_cost": False, "model": None}) == {}
    assert given_options({"replay": False, "use_responses_api": False, "approve_live_cost": True,
                          "price_out_per_mtok": 0.0, "max_attempts": 2}) == {
        "replay": False, "use_responses_api": False, "approve_live_cost": True, "price_out_per_mtok": 0.0,
        "max_attempts": 2}


def test_a_decorated_command_receives_only_the_given_options():
    """Through typer itself: a flag left off is not given (the environment can still set it)."""
    seen: list[dict] = []
    probe = typer.Typer()

    @probe.command()
    @session_options
    def go(name: str = "x", given: dict | None = None) -> None:
        seen.append(given)

    runner = CliRunner()
    assert runner.invoke(probe, []).exit_code == 0
    assert runner.invoke(probe, ["--no-replay", "--chat-completions", "--price-out", "0", "--budget", "0.5",
                                 "--approve-live-cost"]).exit_code == 0
    assert seen == [{}, {"replay": False, "use_responses_api": False, "price_out_per_mtok": 0.0,
                         "session_budget_usd": 0.5, "approve_live_cost": True}]
    refused = runner.invoke(probe, ["--max-attempts", "21"])
    assert refused.exit_code == 2 and "--max-attempts" in refused.output


def test_no_module_level_state_carries_options_between_commands():
    """`memory --namespace` lives in typer's context object: a second command in the same process
    does not inherit the first one's."""
    for module in ("astra_memory/cli/common.py", "astra_memory/cli/memory.py", "astra_memory/cli/app.py"):
        text = (ROOT / module).read_text()
        assert "_given_settings" not in text and "_memory_namespace" not in text, module
    runner = CliRunner()
    ran = runner.invoke(app, ["run", "alpha", "--thread-id", "ns-a", "--namespace", "team"])
    assert ran.exit_code == 0, ran.output
    team = runner.invoke(app, ["memory", "--namespace", "team", "list", "--json"])
    assert len(json.loads(team.stdout)) == 1, team.output
    shared = runner.invoke(app, ["memory", "list", "--json"])
    assert json.loads(shared.stdout) == [], shared.output  # the shared namespace


def test_the_database_url_reaches_the_command_and_its_children():
    """The app's own callback puts --database-url in ctx.obj; the memory callback adds its namespace."""
    from astra_memory.cli.app import _database
    from astra_memory.cli.common import child_env, settings_of
    from astra_memory.cli.memory import _memory_options

    seen: list[tuple] = []
    probe, memory = typer.Typer(), typer.Typer()
    probe.callback()(_database)
    memory.callback()(_memory_options)
    probe.add_typer(memory, name="memory")

    @memory.command()
    def show(ctx: typer.Context) -> None:
        seen.append((settings_of(ctx).database_url, child_env(ctx)))

    runner = CliRunner()
    url = "postgresql://u:p@/x?host=/nowhere"
    assert runner.invoke(probe, ["--database-url", url, "memory", "--namespace", "team", "show"]).exit_code == 0
    assert runner.invoke(probe, ["memory", "show"]).exit_code == 0
    assert seen == [(url, {"ASTRA_DATABASE_URL": url, "ASTRA_NAMESPACE": "team"}), (None, {})]


def test_memory_smoke_reads_back_in_the_namespace_it_was_given():
    """The read-back runs in a child process: it gets the namespace (and database) this command was given."""
    result = CliRunner().invoke(app, ["memory", "--namespace", "team", "smoke", "--json"])
    assert result.exit_code == 0, result.output
    assert all(step["ok"] for step in json.loads(result.stdout)["steps"])


def test_the_context_schema_still_builds_for_studio():
    """pydantic reads a dataclass field's metadata keys named like its Field arguments; the CLI facts
    in the metadata must not collide with them (LangGraph builds Studio's context form this way)."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(Context).json_schema()
    assert set(schema["properties"]) == set(KNOBS)
    assert schema["properties"]["max_attempts"] == {"title": "Max Attempts", "type": "integer"}


def test_every_limit_a_message_names_can_be_raised_from_the_command_line():
    """Issue 36 item 8: the advice `raise max_invalid_turns (ASTRA_MAX_INVALID_TURNS)` named a setting
    with no flag and no doc."""
    from astra_memory.rules.limits import LIMITS

    for limit in LIMITS.values():
        flag = KNOBS[limit.setting].metadata["cli"]
        assert flag is not None, limit.setting
        assert flag.decls.split("/")[0] in setting_name(limit.setting)
        assert flag.decls.split("/")[0] in _params("run")[limit.setting].opts
