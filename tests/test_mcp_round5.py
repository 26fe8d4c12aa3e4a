"""The breaks of outside round 5 (evals/attack/round5/REPORT.md) against `astra-memory mcp`, each
through the SDK's own client and `astra-memory mcp` (tests/test_mcp_server.py `stdio`): the workspace swapped for a link after
begin_fix (03), a path that is no folder (11), secrets in the caller's words (12), a reverted try
that made the right fix unstorable (19), and a server killed inside finish_fix (20)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.helpers import PROJECT_TESTS
from tests.test_mcp_server import (
    CAUSE,
    DESCRIPTION,
    call,
    fix,
    memory_ids,
    project_copy,
    stdio,
)

pytestmark = pytest.mark.slow


def begin(client, workspace: Path):
    return call(client, "begin_fix", workspace=str(workspace), test_command=PROJECT_TESTS)


def test_a_workspace_swapped_for_a_link_after_begin_fix_is_never_read_or_written(tmp_path):
    allowed, outside = tmp_path / "roots", tmp_path / "outside"
    workspace = project_copy(allowed, "corsgate")
    target = project_copy(outside, "elsewhere")
    fix(target)
    planted = (target / "app" / "settings.py").read_bytes()

    async def session() -> None:
        async with Client(stdio(allowed)) as client:
            begun = await begin(client, workspace)
            assert begun["status"] == "open", begun
            shutil.rmtree(workspace)
            workspace.symlink_to(target, target_is_directory=True)
            finished = await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION,
                                  cause=CAUSE)
            assert "error" in finished and "is now a link to" in finished["error"], finished
            replayed = await call(client, "replay_fix", session=begun["session"])
            assert "is now a link to" in replayed.get("error", ""), replayed

    anyio.run(session)
    assert (target / "app" / "settings.py").read_bytes() == planted
    assert memory_ids() == []


@pytest.mark.parametrize("workspace", ["/tmp/a\0b", "/" + "x" * 5_000])
def test_a_path_that_is_no_folder_gets_a_clear_error(tmp_path, workspace):
    async def session() -> str:
        async with Client(stdio(tmp_path)) as client:
            return (await begin(client, Path(workspace)))["error"]

    error = anyio.run(session)
    assert "not a folder's path: " in error and error.endswith("give the project's folder")  # not a bare failure


def test_secrets_in_the_callers_words_reach_no_data_file(tmp_path):
    workspace = project_copy(tmp_path, "corsgate")
    key = "sk-proj-" + "Q7vX2mN9pL4kR8tY6wZ3bC1dF5gH0jS2aE4uI6oP8qW9"

    async def session() -> dict:
        async with Client(stdio(tmp_path)) as client:
            begun = await begin(client, workspace)
            fix(workspace)
            return await call(client, "finish_fix", session=begun["session"],
                              description=f"{DESCRIPTION} (found with OPENAI_API_KEY={key})",
                              cause=f"{CAUSE} password: {key}")

    finished = anyio.run(session)
    assert finished["status"] == "fixed", finished
    home = Path(os.environ["ASTRA_HOME"])
    files = [p for p in home.rglob("*") if p.is_file()]
    assert any(p.name == "checkpoints.sqlite" for p in files)
    leaked = [str(p) for p in files if key.encode() in p.read_bytes()]
    for db in (p for p in files if p.suffix == ".sqlite"):  # the WAL too: read through SQLite
        with sqlite3.connect(db) as conn:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{table}"'):
                    if any(key.encode() in (v if isinstance(v, bytes) else str(v).encode()) for v in row):
                        leaked.append(f"{db.name}:{table}")
    assert leaked == []


SKIP_TRY = "    import pytest\n    pytest.skip('flaky origins')\n"


def test_a_try_undone_before_the_right_fix_does_not_make_it_unstorable(tmp_path):
    """A first change that makes the tests skip is tested and not a pass (open); the caller undoes it
    and makes the right fix: that fix is stored. The runner check reads what the session's edits
    change in the end, not an edit undone since."""
    workspace = project_copy(tmp_path, "corsgate")
    source = workspace / "app" / "settings.py"
    original = source.read_text(encoding="utf-8")
    body = original.index("    return [origin for origin")

    async def session() -> tuple[dict, dict]:
        async with Client(stdio(tmp_path)) as client:
            begun = await begin(client, workspace)
            source.write_text(original[:body] + SKIP_TRY + original[body:], encoding="utf-8")
            tried = await call(client, "finish_fix", session=begun["session"], description="skip", cause="flaky")
            source.write_text(original, encoding="utf-8")
            fix(workspace)
            return tried, await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION,
                                     cause=CAUSE)

    tried, finished = anyio.run(session)
    assert tried["status"] == "open" and tried["attempts_recorded"], tried
    assert finished["status"] == "fixed" and finished["stored_memory_id"], finished
    assert memory_ids() == [finished["stored_memory_id"]]


def test_a_server_killed_inside_finish_fix_finishes_the_session_on_the_next_call(tmp_path):
    workspace = project_copy(tmp_path, "corsgate")
    killer = stdio(tmp_path, ASTRA_CRASH_AT="confirm:copied")

    async def killed() -> str:
        async with Client(stdio(tmp_path)) as client:
            begun = await begin(client, workspace)
        fix(workspace)
        try:
            with anyio.fail_after(300):
                async with Client(killer) as client:
                    await call(client, "finish_fix", session=begun["session"], description=DESCRIPTION, cause=CAUSE)
        except Exception:  # the server SIGKILLed itself in confirm: the client sees its pipe close
            pass
        return begun["session"]

    session_id = anyio.run(killed)
    assert memory_ids() == []

    async def again() -> dict:
        async with Client(stdio(tmp_path)) as client:
            return await call(client, "finish_fix", session=session_id, description=DESCRIPTION, cause=CAUSE)

    finished = anyio.run(again)
    assert finished["status"] == "fixed" and finished["stored_memory_id"], finished
    assert memory_ids() == [finished["stored_memory_id"]]
