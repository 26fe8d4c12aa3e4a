"""Issue #25 part 2: the live defaults (Responses API, reasoning effort and verbosity low where the model
takes them) on the wire of a local OpenAI-compatible server (tests/openai_server.py); a setting the
model does not take refused before any request; our `.env` (never the working folder's) and its precedence;
`.env.example` lists every setting."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.context import KNOBS, Context
from astra_memory.errors import ConfigurationError
from astra_memory.models.live import preflight
from astra_memory.models.wire_settings import chat_openai_settings, model_takes
from astra_memory.scenarios import load_scenario
from astra_memory.settings import load_dotenv, parse_dotenv
from tests.openai_server import DEFAULT_KEY, OpenAIServer, script_from_solution

pytestmark = pytest.mark.live_wire

ROOT = Path(__file__).resolve().parents[1]
ALPHA = script_from_solution(load_scenario("alpha").solution)


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
    return DEFAULT_KEY


def run_cli_alpha(server: OpenAIServer, model: str, *extra: str):
    return CliRunner().invoke(app, ["run", "alpha", "--model", model, "--base-url", server.base_url,
                                    "--approve-live-cost", "--budget", "0.05", "--no-replay", "--json", *extra])


def test_the_defaults_go_on_the_wire_responses_api_effort_and_verbosity_low(settings, api_key):
    with OpenAIServer(ALPHA) as server:
        result = run_cli_alpha(server, "openai:gpt-5-mini")
    assert result.exit_code == 0, result.output
    assert server.violations == []
    posts = server.model_requests()
    assert [r["path"] for r in posts] == ["/v1/responses"] * 4
    for request in posts:
        body = request["body"]
        assert body["reasoning"]["effort"] == "low" and body["text"]["verbosity"] == "low"


def test_a_model_that_takes_neither_gets_neither(settings, api_key):
    with OpenAIServer(ALPHA) as server:
        result = run_cli_alpha(server, "openai:gpt-4.1-mini")
    assert result.exit_code == 0, result.output
    posts = server.model_requests()
    assert [r["path"] for r in posts] == ["/v1/responses"] * 4
    for request in posts:
        body = request["body"]
        assert "reasoning" not in body and "verbosity" not in (body.get("text") or {})


def test_chat_completions_is_still_there_with_the_defaults(settings, api_key):
    with OpenAIServer(ALPHA) as server:
        result = run_cli_alpha(server, "openai:gpt-5-mini", "--chat-completions")
    assert result.exit_code == 0, result.output
    posts = server.model_requests()
    assert [r["path"] for r in posts] == ["/v1/chat/completions"] * 4
    assert (posts[0]["body"]["reasoning_effort"], posts[0]["body"]["verbosity"]) == ("low", "low")


@pytest.mark.parametrize("model, flags, says", [
    ("openai:gpt-4.1-mini", ["--reasoning-effort", "low"], "gpt-4.1-mini takes no reasoning_effort"),
    ("openai:gpt-4o", ["--verbosity", "low"], "gpt-4o takes no verbosity"),
    ("openai:gpt-5.1", ["--reasoning-effort", "minimal"], "gpt-5.1 does not take --reasoning-effort minimal"),
    ("openai:gpt-5-mini", ["--reasoning-effort", "none"], "gpt-5-mini does not take --reasoning-effort none"),
    ("openai:o4-mini", ["--verbosity", "high"], "o4-mini takes no verbosity"),
])
def test_a_setting_the_model_does_not_take_is_refused_before_any_request(settings, api_key, isolated_home,
                                                                         model, flags, says):
    with OpenAIServer(ALPHA) as server:
        result = run_cli_alpha(server, model, *flags)
    assert result.exit_code == 2 and says in result.stderr
    assert server.requests == []  # not even the key check: nothing was sent, nothing counted
    assert not (isolated_home / "runs").exists()


def test_which_models_take_which_settings(api_key):
    efforts = {m: model_takes(m)["reasoning_effort"] for m in (
        "gpt-4.1-mini", "gpt-4o", "gpt-3.5-turbo", "o3", "o4-mini-2025-04-16", "gpt-5", "gpt-5-nano-2025-08-07",
        "gpt-5.1", "gpt-5.2", "gpt-6-sol", "llama3.1")}
    assert efforts == {
        "gpt-4.1-mini": (), "gpt-4o": (), "gpt-3.5-turbo": (), "o3": ("low", "medium", "high"),
        "o4-mini-2025-04-16": ("low", "medium", "high"), "gpt-5": ("minimal", "low", "medium", "high"),
        "gpt-5-nano-2025-08-07": ("minimal", "low", "medium", "high"), "gpt-5.1": ("none", "low", "medium", "high"),
        "gpt-5.2": ("none", "low", "medium", "high", "xhigh"), "gpt-6-sol": ("none", "low", "medium", "high", "xhigh"),
        "llama3.1": None}  # None: not known here
    assert model_takes("o3")["verbosity"] == () and model_takes("gpt-5.4-mini")["verbosity"] == ("low", "medium", "high")
    plain = Context()
    assert chat_openai_settings(plain, "gpt-5-pro") == {"verbosity": "low", "use_previous_response_id": True}
    assert chat_openai_settings(plain, "o3") == {"reasoning_effort": "low", "use_previous_response_id": True}
    # A model the rule does not know (a local server's): what is set goes through, no default is added.
    assert chat_openai_settings(replace(plain, chain_responses=False), "llama3.1") == {}
    assert chat_openai_settings(replace(plain, reasoning_effort="high", chain_responses=False), "llama3.1") == {
        "reasoning_effort": "high"}
    with pytest.raises(ConfigurationError, match="gpt-5-pro does not take --reasoning-effort low"):
        preflight("openai:gpt-5-pro", Context(approve_live_cost=True, reasoning_effort="low"))


def _clean(monkeypatch, *names: str) -> None:
    for name in names:  # set, then delete: monkeypatch restores "not set" after the test
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)


def test_dotenv_is_read_below_the_environment_and_flags_win(tmp_path, monkeypatch):
    _clean(monkeypatch, "ASTRA_MAX_ATTEMPTS", "ASTRA_MAX_TOOL_CALLS", "ASTRA_VERBOSITY", "OPENAI_API_KEY",
           "ASTRA_REASONING_EFFORT")
    (tmp_path / ".env").write_text(
        "# a comment\n\nASTRA_MAX_ATTEMPTS=7\nexport ASTRA_MAX_TOOL_CALLS=11  # inline comment\n"
        "ASTRA_VERBOSITY='medium'\nOPENAI_API_KEY=sk-dotenv-SECRET\nASTRA_REASONING_EFFORT=  # unset\n")
    monkeypatch.setenv("ASTRA_MAX_TOOL_CALLS", "22")  # the environment wins over .env
    monkeypatch.setenv("ASTRA_HOME", str(tmp_path))  # our .env is in the data home
    loaded = load_dotenv()
    assert sorted(loaded) == ["ASTRA_MAX_ATTEMPTS", "ASTRA_REASONING_EFFORT", "ASTRA_VERBOSITY", "OPENAI_API_KEY"]
    context = Context()
    assert (context.max_attempts, context.max_tool_calls, context.verbosity, context.reasoning_effort) == (
        7, 22, "medium", None)  # .env, environment, .env, an empty value: the default
    assert replace(context, max_attempts=2).max_attempts == 2  # a flag (applied on Context()) wins over both
    assert Context.__dataclass_fields__["test_timeout_s"].default_factory() == 120.0  # neither: the default


def test_dotenv_through_the_cli_and_its_errors_never_show_the_file(tmp_path, monkeypatch, isolated_home):
    _clean(monkeypatch, "ASTRA_MODEL")
    monkeypatch.chdir(tmp_path)
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / ".env").write_text("OPENAI_API_KEY=sk-x\nthis line holds sk-SECRET-KEY\n")
    result = CliRunner().invoke(app, ["threads"])
    assert result.exit_code == 2 and ".env line 2 is not NAME=value" in result.stderr
    assert "SECRET" not in result.output + result.stderr
    with pytest.raises(ConfigurationError):
        parse_dotenv("=x")
    (isolated_home / ".env").write_text("ASTRA_MODEL=openai:gpt-5-mini\n")
    refused = CliRunner().invoke(app, ["run", "alpha"])  # the model came from .env: its cost needs approval
    assert refused.exit_code == 2 and "refusing to start a live run on openai:gpt-5-mini" in refused.stderr


def test_a_projects_dotenv_is_never_read_into_our_process(tmp_path, monkeypatch, isolated_home):
    """Outside case 01: the working folder is the project; its `.env` (the project's own, perhaps an
    untrusted checkout's) set OPENAI_BASE_URL and OPENAI_API_KEY, which redirected our model client
    (and sent the user's key to that server). Our `.env` is ASTRA_ENV_FILE or the data home's."""
    _clean(monkeypatch, "OPENAI_BASE_URL", "ASTRA_APPROVE_LIVE_COST", "ASTRA_SESSION_BUDGET_USD", "ASTRA_ENV_FILE")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-users-own-key-000000")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".env").write_text("OPENAI_BASE_URL=http://127.0.0.1:9/v1\nOPENAI_API_KEY=sk-project\n"
                                  "ASTRA_APPROVE_LIVE_COST=1\nASTRA_SESSION_BUDGET_USD=1000\n")
    monkeypatch.chdir(project)
    assert CliRunner().invoke(app, ["threads"]).exit_code == 0  # the command's start reads our .env
    assert "OPENAI_BASE_URL" not in os.environ and os.environ["OPENAI_API_KEY"] == "sk-the-users-own-key-000000"
    context = Context()
    assert context.base_url is None and not context.approve_live_cost and context.session_budget_usd == 0.25
    named = tmp_path / "ours.env"  # a file the user names is read
    named.write_text("ASTRA_SESSION_BUDGET_USD=0.5\n")
    monkeypatch.setenv("ASTRA_ENV_FILE", str(named))
    assert load_dotenv() == ["ASTRA_SESSION_BUDGET_USD"] and Context().session_budget_usd == 0.5


def test_env_example_lists_every_setting():
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.M))
    knobs = {f.metadata["env"] for f in KNOBS.values() if f.metadata.get("env")}
    settings = {"OPENAI_API_KEY", "ASTRA_HOME", "ASTRA_DATABASE_URL", "ASTRA_DATABASE_POOL_SIZE", "ASTRA_VECTORAI_URL",
                "ASTRA_EMBEDDINGS", "ASTRA_EMBEDDING_MODEL_PATH", "ASTRA_PRICE_DATE"}
    assert knobs | settings <= listed, sorted((knobs | settings) - listed)
    read = set(re.findall(r"\"(ASTRA_[A-Z_]+)\"", "\n".join(
        p.read_text() for p in (ROOT / "astra_memory").rglob("*.py"))))
    test_hooks = {"ASTRA_CRASH_AT", "ASTRA_CRASH_SIGNAL", "ASTRA_CRASH_TRACE", "ASTRA_HOLD_AT", "ASTRA_HOLD_FILE", "ASTRA_CANCEL_WINDOW_S",
                  "ASTRA_TOOL_FAULT",
                  "ASTRA_RESULTS_CHANNEL", "ASTRA_PYTEST_ADDOPTS_WAS"}  # ours to the project's pytest, not settings
    assert read - test_hooks <= listed, sorted(read - test_hooks - listed)
