"""LangGraph Studio's server for real: `langgraph dev` on a free port, driven with `langgraph_sdk` as
Studio drives it (one server for the module; stopped, with its children, at the end).

The server is started on this checkout's langgraph.json (its relative paths made absolute) from its
own empty folder, so its `.langgraph_api/` state starts empty and the checkout's stays untouched;
it watches that folder for .py changes like it watches a user's repository. ASTRA_HOME is unset:
the data goes to the default location (XDG_DATA_HOME pointed at a temporary folder outside it).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.schema import Command

from astra_memory.backends.memory_only import open_memory
from astra_memory.context import KNOBS
from astra_memory.scenarios import load_scenario
from astra_memory.settings import Settings
from tests.conftest import LIVE_COST_VARS, ROOT, SECRET_VARS
from tests.helpers import PROJECT_TESTS

pytestmark = [pytest.mark.slow, pytest.mark.minilm]
GRAPH = "astra_memory"
RELOADING = "Reloading..."  # uvicorn's line when its file watcher restarts the server
START_TIMEOUT_S = 240
RUN_TIMEOUT_S = 300


def _absolute(spec: str) -> str:
    path, _, attr = spec.partition(":")
    return f"{(ROOT / path).resolve()}:{attr}" if attr else str((ROOT / path).resolve())


def _config() -> dict:
    config = json.loads((ROOT / "langgraph.json").read_text())
    config["dependencies"] = [str(ROOT)]
    config["graphs"] = {name: _absolute(spec) for name, spec in config["graphs"].items()}
    config["store"]["index"]["embed"] = _absolute(config["store"]["index"]["embed"])
    config["env"] = str((ROOT / config["env"]).resolve())
    return config


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``dotenv``: the server's env file instead of the checkout's .env.example (langgraph.json ``env``);
    ``environ``: more of the server process's environment (ASTRA_DATABASE_URL, ...)."""

    def __init__(self, root: Path, *, dotenv: Path | None = None, environ: dict[str, str] | None = None):
        self.serve = root / "serve"  # the folder it serves and watches
        self.data_home = root / "xdg"  # XDG_DATA_HOME: outside the served folder, as ~/.local/share is
        self.serve.mkdir()
        config = _config()
        if dotenv is not None:
            config["env"] = str(dotenv)
        (self.serve / "langgraph.json").write_text(json.dumps(config, indent=2))
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = root / "server.log"
        dropped = set(SECRET_VARS) | set(LIVE_COST_VARS) | {"ASTRA_HOME", "ASTRA_EMBEDDINGS"} | {
            f.metadata["env"] for f in KNOBS.values() if f.metadata.get("env")}
        env = {k: v for k, v in os.environ.items() if k not in dropped}
        env.update(XDG_DATA_HOME=str(self.data_home), LANGGRAPH_NO_VERSION_CHECK="true",
                   LANGGRAPH_CLI_NO_ANALYTICS="1", LANGSMITH_TRACING="false", LANGCHAIN_TRACING_V2="false")
        self.environ = dict(environ or {})
        env.update(self.environ)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "langgraph"), "dev", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-browser", "--config", str(self.serve / "langgraph.json")],
            cwd=self.serve, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"langgraph dev exited with {self.proc.returncode}:\n{self.text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/ok", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"langgraph dev did not answer in {START_TIMEOUT_S}s:\n{self.text()[-4000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the reloader and its server process
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)
        self.log.close()


@contextmanager
def running(root: Path, **kwargs) -> Iterator[Server]:
    """A ``Server`` that answers, stopped (with its children) at the end."""
    started = Server(root, **kwargs)
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()
    assert started.proc.poll() is not None


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(tmp_path_factory.mktemp("studio")) as started:
        yield started


@pytest.fixture(scope="module")
def client(server):
    return get_sync_client(url=server.url, timeout=RUN_TIMEOUT_S)


@pytest.fixture(scope="module")
def assistant(client) -> str:
    return client.assistants.search(graph_id=GRAPH)[0]["assistant_id"]


def _cli_memory(server, memory_id: str):
    """A record of the fix memory the server's runs use by default: the CLI's, in the data folder."""
    with open_memory(Settings(home=server.data_home / "astra-memory"), read_only=True) as memory:
        return memory.get(memory_id)


def _error_of(client, assistant: str, payload: dict, context: dict | None = None) -> dict:
    """Start a run as Studio does (streamed) and return the error event it ends with."""
    thread = client.threads.create()
    events = list(client.runs.stream(thread["thread_id"], assistant, input=payload, stream_mode="updates",
                                     context=context))
    errors = [e.data for e in events if e.event == "error"]
    assert errors, f"no error for {payload}: {events}"
    return errors[-1]


def test_the_input_form_has_the_task_fields(client, assistant):
    schemas = client.assistants.get_schemas(assistant)
    schema = schemas["input_schema"]
    assert schema is not None and list(schema["properties"]) == ["task"]
    task = schema["$defs"]["Task"]["properties"]
    assert {"scenario", "workspace", "test_command", "prompt", "model", "approve_edits"} <= set(task)
    assert "approve_edits" in schemas["context_schema"]["properties"]


def test_bad_inputs_come_back_with_clear_messages(client, assistant, tmp_path):
    missing = tmp_path / "no-such-project"
    error = _error_of(client, assistant, {"task": {"workspace": str(missing), "test_command": "python -m pytest -q"}})
    assert error["error"] == "TaskInputError"
    assert error["message"].startswith(f"task.workspace: {missing} does not exist")
    error = _error_of(client, assistant, {"task": {"scenari": "alpha"}})
    assert "task.scenari: unknown field" in error["message"] and '{"task": {"scenario": "alpha"}}' in error["message"]
    error = _error_of(client, assistant, {"task": {"scenario": "alpha", "model": "openai:gpt-4.1-mini"}})
    assert "task.model" in error["message"] and "internal error" not in error["message"]
    assert '"approve_live_cost": true' in error["message"]  # a live model is not approved by default
    error = _error_of(client, assistant, {"task": {"scenario": "alpha"}},
                      context={"model": "openai:gpt-4.1-mini", "approve_live_cost": True})
    assert "needs OPENAI_API_KEY in the server's environment" in error["message"]  # this server has none
    error = _error_of(client, assistant, {})
    assert "has no task" in error["message"]


def test_minimal_inputs_run_and_beta_finds_alpha_before_its_first_edit(server, client, assistant, tmp_path):
    # 1. A bundled scenario from one line: fixed, and the fix is in the CLI's memory (the data folder).
    alpha = client.threads.create()["thread_id"]
    final = client.runs.wait(alpha, assistant, input={"task": {"scenario": "alpha"}})
    assert final["status"] == "fixed", final.get("reason")
    assert RELOADING not in server.text(), "the scenario copy or the agent's edit restarted the server"
    assert final["task"]["session_id"] == alpha and final["task"]["approve_edits"] is False
    workspace = Path(final["task"]["workspace"])
    assert workspace == server.data_home / "astra-memory" / "runs" / alpha / "workspace"
    stored = _cli_memory(server, final["stored_memory_id"])  # the CLI's memory, Studio's default
    assert stored.session_id == alpha and stored.outcome == final["passed_outcome"]

    # 2. The user's own project (here: a copy of beta's) from a workspace and a test command; the
    #    scripted model needs the turns it plays, so they are given too. Edits wait for approval.
    beta = load_scenario("beta")
    project = tmp_path / "ledgerline"
    shutil.copytree(beta.template, project)
    thread = client.threads.create()["thread_id"]
    paused = client.runs.wait(thread, assistant, input={"task": {
        "workspace": str(project), "test_command": PROJECT_TESTS, "script": beta.solution}})
    state = client.threads.get_state(thread)
    assert state["next"] == ["approve"] and not state["values"].get("edits")
    hits = state["values"]["memory"]["hits"]
    assert hits and hits[0]["memory_id"] == final["stored_memory_id"] and hits[0]["session_id"] == alpha
    (request,) = [i["value"] for i in paused["__interrupt__"]]
    assert request["path"] == "app/fields.py" and "-    return name.lower()" in request["diff"]
    before = (project / "app" / "fields.py").read_text()
    assert before == (beta.template / "app" / "fields.py").read_text()  # nothing applied while it waits

    done = client.runs.wait(thread, assistant, command=Command(resume="approve"))
    assert done["status"] == "fixed" and done["approvals"][0]["decision"] == "approve"
    assert (project / "app" / "fields.py").read_text() != before and len(done["edits"]) == 1
    assert _cli_memory(server, done["stored_memory_id"]).project == "ledgerline"

    # 3. The minimal workspace input alone, on a project whose tests pass.
    calm = tmp_path / "calm"
    (calm / "tests").mkdir(parents=True)
    (calm / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    quiet = client.runs.wait(client.threads.create()["thread_id"], assistant,
                             input={"task": {"workspace": str(calm), "test_command": "python -m pytest -q"}})
    assert quiet["status"] == "nothing_to_fix" and quiet["task"]["project"] == "calm"

    # 4. None of it restarted the server: its data is not under the folder it watches.
    assert RELOADING not in server.text()
    assert not any(server.serve.rglob("*.py"))


def test_the_watcher_was_live_all_along(server, client):
    """So the 'no reload' above means something: a .py file under the served folder does reload it."""
    (server.serve / "touched.py").write_text("x = 1\n")
    deadline = time.monotonic() + 60
    while RELOADING not in server.text() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert RELOADING in server.text()
