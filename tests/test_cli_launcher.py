"""The suite's CLI launcher (tests/cli_launcher.py) ends a command as a cold start of the command does:
the same exit status, output and error output, in the command's own environment (COLUMNS, its home); a
command that kills itself ends killed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from tests.cli_launcher import attached, run
from tests.conftest import ROOT, cli_env


def _both(args: list[str], tmp_path, **extra: str) -> list[tuple]:
    """The command started warm and cold, each in a home of its own (named the same length)."""
    ended = []
    for how in ("warm", "cold"):
        env = cli_env(ASTRA_HOME=str(tmp_path / how), COLUMNS="50", **extra)
        if how == "warm":
            done = run(args, env=env, cwd=ROOT, timeout=300)
        else:
            done = subprocess.run([sys.executable, "-m", "astra_memory", *args], capture_output=True, text=True,
                                  env=env, timeout=300, cwd=ROOT)
        ended.append((done.returncode, done.stdout.replace(how, "HOME"), done.stderr.replace(how, "HOME")))
    return ended


def test_a_forked_command_ends_as_a_cold_one(tmp_path, monkeypatch):
    monkeypatch.setenv("ASTRA_TEST_CLI_FORK", "1")
    warm, cold = _both(["--help"], tmp_path)
    assert warm == cold and max(len(line) for line in warm[1].splitlines()) <= 50  # its own COLUMNS
    warm, cold = _both(["memory", "show", "no-such-id"], tmp_path)
    assert warm == cold and warm[0] == 2 and "no-such-id" in warm[2]
    warm, cold = _both(["run", "alpha", "--thread-id", "t-1", "--json"], tmp_path)  # times and ids differ
    assert warm[0] == cold[0] == 0 and json.loads(warm[1])["status"] == json.loads(cold[1])["status"] == "fixed"
    warm, cold = _both(["run", "alpha", "--thread-id", "t-2"], tmp_path, ASTRA_CRASH_AT="after:prepare")
    assert warm[0] == cold[0] == -9


def test_an_attached_command_ends_as_a_cold_one_on_the_streams_it_was_given(tmp_path, monkeypatch):
    """``attached`` (the MCP servers' launch): the command reads and writes the pipes its starter gave,
    and the starter ends with the command's status, or killed by the command's signal."""
    monkeypatch.setenv("ASTRA_TEST_CLI_FORK", "1")
    for args, extra in ((["memory", "show", "no-such-id"], {}), (["--help"], {"COLUMNS": "50"}),
                        (["run", "alpha", "--thread-id", "t-1"], {"ASTRA_CRASH_AT": "after:prepare"})):
        ended = []
        for how, argv in (("warm", attached(args)), ("cold", [sys.executable, "-m", "astra_memory", *args])):
            env = cli_env(ASTRA_HOME=str(tmp_path / how), **extra)
            done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
            ended.append((done.returncode, done.stdout.replace(how, "HOME"), done.stderr.replace(how, "HOME")))
        assert ended[0] == ended[1], args
    assert argv[0] == sys.executable and "cli_attach.py" in " ".join(attached(["--help"]))


def test_an_attached_server_reads_its_stdin_and_ends_on_a_terminate(tmp_path, monkeypatch):
    monkeypatch.setenv("ASTRA_TEST_CLI_FORK", "1")
    server = subprocess.Popen(attached(["mcp", "--allow", str(tmp_path)]), env=cli_env(), cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    server.stdin.write(json.dumps(hello) + "\n")
    server.stdin.flush()
    reply = json.loads(server.stdout.readline())
    assert reply["id"] == 1 and "serverInfo" in reply["result"]
    server.terminate()  # passed on to the command: it ends by it (as a cold server does), and so does its starter
    assert server.wait(timeout=60) == -signal.SIGTERM
