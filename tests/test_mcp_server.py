"""`astra-memory mcp` driven by the official `mcp` SDK's own client, over stdio and streamable HTTP.

The server is ``astra-memory mcp`` in a process of its own on this test's data folder, forked from the
worker's warm launcher on the pipes the client starts it with (tests/cli_launcher.py ``attached``; the
installed command itself serves tests/test_mcp_docs.py); the client is the SDK's ``Client``. What the calling agent may do is edit the workspace: a source fix is stored only
after the graph's test, confirm and store nodes ran; a test file edited, a conftest planted or the
tests made to skip get the change refused (or not passing), and nothing is stored.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from astra_memory.scenarios import load_scenario
from tests.cli_launcher import attached
from tests.conftest import run_cli
from tests.helpers import PROJECT_TESTS

ROOT = Path(__file__).resolve().parent.parent
ALPHA = load_scenario("alpha")
BROKEN = '    return [origin for origin in raw.split(",") if origin]'
FIXED = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]'
CAUSE = "The comma-separated value is split on commas without stripping whitespace, so entries keep a leading space."
DESCRIPTION = "Strip every comma-separated entry after splitting and drop the empty ones (parse_allowed_origins)."
TOOLS = {"search_fixes", "begin_fix", "finish_fix", "replay_fix", "show_fix"}


def project_copy(where: Path, name: str) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    return ALPHA.copy_to(where / name)


def server_env() -> dict[str, str]:
    keep = ("ASTRA_HOME", "ASTRA_EMBEDDINGS", "ASTRA_PRICE_DATE", "PATH", "HOME", "LANG")
    return {k: os.environ[k] for k in keep if k in os.environ}


def stdio(allow: Path | None, **extra: str) -> StdioServerParameters:
    """The server on stdio, allowed ``allow`` (None: only the roots its client declares)."""
    command, *args = attached(["mcp", *(["--allow", str(allow)] if allow is not None else [])])
    return StdioServerParameters(command=command, args=args, env={**server_env(), **extra})


async def call(client: Client, tool: str, **args) -> dict:
    result = await client.call_tool(tool, args)
    if result.is_error:
        return {"error": " ".join(c.text for c in result.content if hasattr(c, "text"))}
    return result.structured_content


def memory_ids() -> list[str]:
    out = run_cli("memory", "list", "--json", env=server_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    return [r["memory_id"] for r in json.loads(out.stdout)]


def fix(workspace: Path) -> None:
    source = workspace / "app" / "settings.py"
    source.write_text(source.read_text(encoding="utf-8").replace(BROKEN, FIXED), encoding="utf-8")


def test_stdio_begin_fix_finish_fix_stores_a_confirmed_fix_found_by_the_next_project(tmp_path):
    first, second = project_copy(tmp_path, "corsgate"), project_copy(tmp_path, "corsgate-fork")

    async def session() -> None:
        async with Client(stdio(tmp_path)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            assert set(tools["begin_fix"].input_schema["properties"]) == {"workspace", "test_command"}
            assert set(tools["finish_fix"].input_schema["required"]) == {"session", "description", "cause"}
            assert "stored_memory_id" in tools["finish_fix"].output_schema["properties"]
            begun = await call(client, "begin_fix", workspace=str(first), test_command=PROJECT_TESTS)
            assert begun["status"] == "open", begun
            assert "tests/test_cors.py::test_second_origin_gets_allow_origin_header" in begun["failing_tests"]
            assert begun["memory"]["hits"] == []
            fix(first)
            done = await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION, cause=CAUSE)
            assert done["status"] == "fixed", done
            stored = done["stored_memory_id"]
            assert stored
            shown = await call(client, "show_fix", memory_id=stored)
            assert shown["kind"] == "fix" and len(shown["confirmations"]) == 1
            assert json.loads(shown["fields"]["fix_description"]) == DESCRIPTION
            again = await call(client, "begin_fix", workspace=str(second), test_command=PROJECT_TESTS)
            assert stored in [h["memory_id"] for h in again["memory"]["hits"]], again["memory"]
            found = await call(client, "search_fixes", failure="AssertionError ' https://admin.example.com' "
                                                               "!= 'https://admin.example.com' origins whitespace")
            assert stored in [h["memory_id"] for h in found["hits"]]

    anyio.run(session)
    assert len(memory_ids()) == 1


def test_a_workspace_outside_the_roots_is_refused(tmp_path):
    outside = project_copy(tmp_path / "elsewhere", "corsgate")
    (tmp_path / "allowed").mkdir()

    async def session() -> None:
        async with Client(stdio(tmp_path / "allowed")) as client:
            refused = await call(client, "begin_fix", workspace=str(outside), test_command=PROJECT_TESTS)
            assert "outside the roots" in refused["error"] and "--allow" in refused["error"]

    anyio.run(session)
    assert not (Path(os.environ["ASTRA_HOME"]) / "runs").exists() or not any(
        (Path(os.environ["ASTRA_HOME"]) / "runs").iterdir())


HOSTILE = {
    "edits a test file": lambda ws: (ws / "tests" / "test_cors.py").write_text(
        "def test_nothing():\n    assert True\n", encoding="utf-8"),
    "plants a conftest": lambda ws: (ws / "conftest.py").write_text(
        "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n", encoding="utf-8"),
    "configures pytest to deselect them": lambda ws: (ws / "pytest.ini").write_text(
        "[pytest]\naddopts = -k 'not origin and not blank'\n", encoding="utf-8"),
    "makes the tests skip": lambda ws: (ws / "app" / "settings.py").write_text(
        "import pytest\npytest.skip('not today', allow_module_level=True)\n"
        + (ws / "app" / "settings.py").read_text(encoding="utf-8"), encoding="utf-8"),
}


@pytest.mark.parametrize("how", sorted(HOSTILE))
def test_a_hostile_change_is_refused_and_nothing_is_stored(tmp_path, how):
    workspace = project_copy(tmp_path, "corsgate")

    async def session() -> None:
        async with Client(stdio(tmp_path)) as client:
            begun = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
            assert begun["status"] == "open"
            HOSTILE[how](workspace)
            done = await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION, cause=CAUSE)
            assert done["status"] != "fixed", done
            assert done["stored_memory_id"] is None
            if how == "makes the tests skip":
                assert done["status"] == "open" and done["attempts_recorded"], done  # ran, did not pass: an attempt
            else:
                assert done["status"] == "refused" and done["refused"], done

    anyio.run(session)
    assert memory_ids() == []


def test_a_server_restart_between_begin_fix_and_finish_fix_changes_nothing(tmp_path):
    workspace = project_copy(tmp_path, "corsgate")

    async def begin() -> str:
        async with Client(stdio(tmp_path)) as client:
            return (await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS))["session"]

    session = anyio.run(begin)  # that server process has exited
    fix(workspace)
    # Our own agent does not take the client's turn: `resume` refuses the thread, and leaves it as it was.
    resumed = run_cli("resume", session, env=server_env(), timeout=120)
    assert resumed.returncode == 2 and "finish_fix" in resumed.stderr, resumed.stderr

    async def finish() -> dict:
        async with Client(stdio(tmp_path)) as client:
            return await call(client, "finish_fix", session=session, description=DESCRIPTION, cause=CAUSE)

    done = anyio.run(finish)
    assert done["status"] == "fixed", done
    assert memory_ids() == [done["stored_memory_id"]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_serves_the_same_tools_and_sessions(tmp_path):
    workspace = project_copy(tmp_path, "corsgate")
    port = free_port()
    server = subprocess.Popen(attached(["mcp", "--http", str(port), "--allow", str(tmp_path)]), env=server_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)

        async def session() -> dict:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                begun = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
                fix(workspace)
                return await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION,
                                  cause=CAUSE)

        done = anyio.run(session)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert done["status"] == "fixed", done
    assert memory_ids() == [done["stored_memory_id"]]


def test_a_workspace_under_a_root_the_client_declares_is_accepted_without_allow(tmp_path):
    import mcp_types

    workspace = project_copy(tmp_path / "declared", "corsgate")

    async def roots(context) -> mcp_types.ListRootsResult:
        return mcp_types.ListRootsResult(roots=[mcp_types.Root(uri=(tmp_path / "declared").as_uri())])

    async def session() -> None:
        async with Client(stdio(None), list_roots_callback=roots) as client:
            begun = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
            assert begun.get("status") == "open", begun
            other = project_copy(tmp_path / "undeclared", "corsgate")
            refused = await call(client, "begin_fix", workspace=str(other), test_command=PROJECT_TESTS)
            assert "outside the roots" in refused["error"] and str(tmp_path / "declared") in refused["error"]

    anyio.run(session)


def test_replay_fix_replays_this_projects_confirmed_fix_and_leaves_another_projects_workspace_as_it_was(tmp_path):
    workspace, fork = project_copy(tmp_path, "corsgate"), project_copy(tmp_path, "corsgate-fork")
    source = workspace / "app" / "settings.py"

    async def session() -> None:
        async with Client(stdio(tmp_path)) as client:
            begun = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
            fix(workspace)
            stored = (await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION,
                                 cause=CAUSE))["stored_memory_id"]
            assert stored
            # Another project: its fix is replayed only with a human's yes, and no one answers here.
            before = {p: p.read_bytes() for p in fork.rglob("*") if p.is_file()}
            other = await call(client, "begin_fix", workspace=str(fork), test_command=PROJECT_TESTS)
            replayed = await call(client, "replay_fix", session=other["session"])
            assert replayed["status"] == "open" and replayed["replayed_memory_id"] is None, replayed
            assert "approval" in replayed["tried"][0] + replayed["skipped"], replayed
            assert {p: p.read_bytes() for p in fork.rglob("*") if p.is_file()} == before
            # This project, the bug back: its own confirmed fix is replayed, confirmed and counted.
            source.write_text(source.read_text(encoding="utf-8").replace(FIXED, BROKEN), encoding="utf-8")
            again = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
            replayed = await call(client, "replay_fix", session=again["session"])
            assert replayed["status"] == "fixed" and replayed["replayed_memory_id"] == stored, replayed
            assert FIXED in source.read_text(encoding="utf-8")
            shown = await call(client, "show_fix", memory_id=stored)
            assert [c["kind"] for c in shown["confirmations"]] == ["fix", "replay"], shown["confirmations"]

    anyio.run(session)


def test_tests_still_failing_leave_the_session_open_and_the_next_finish_fix_takes_the_rest(tmp_path):
    workspace = project_copy(tmp_path, "corsgate")
    source = workspace / "app" / "settings.py"
    halfway = '    return [origin.strip() for origin in raw.split(",") if origin]'

    async def session() -> None:
        async with Client(stdio(tmp_path)) as client:
            begun = await call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)
            source.write_text(source.read_text(encoding="utf-8").replace(BROKEN, halfway), encoding="utf-8")
            first = await call(client, "finish_fix", session=begun["session"], description="Strip each entry.",
                               cause=CAUSE)
            assert first["status"] == "open" and first["attempts_recorded"], first
            assert first["stored_memory_id"] is None and halfway in source.read_text(encoding="utf-8")
            source.write_text(source.read_text(encoding="utf-8").replace(halfway, FIXED), encoding="utf-8")
            done = await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION, cause=CAUSE)
            assert done["status"] == "fixed", done
            shown = await call(client, "show_fix", memory_id=done["stored_memory_id"])
            diff = json.loads(shown["fields"]["diff"])
            assert f"-{BROKEN}" in diff and f"+{FIXED}" in diff, diff  # the session's edits, from the snapshot

    anyio.run(session)
    assert len(memory_ids()) == 1
