"""docs/mcp.md's configurations start a server that serves exactly the tools its table lists.

Each paste-able configuration (Claude Code's `claude mcp add`, Codex CLI's config.toml, Cursor's
and VS Code's mcp.json) is read from the page, its command started with the SDK's own client over
stdio (the page's example folder replaced by this test's), and the tools it serves compared with
the page's tool table and with the tools each setup names.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import tomllib
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import ROOT
from tests.test_mcp_server import server_env

PAGE = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
EXAMPLE_FOLDER = "/home/me/src"
COMMAND = str(Path(sys.executable).parent / "astra-memory")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, flags=re.DOTALL)


def documented_tools() -> set[str]:
    return set(re.findall(r"^\| `(\w+)` \|", PAGE, flags=re.MULTILINE))


def configurations() -> dict[str, tuple[str, list[str]]]:
    """(command, args) of each setup on the page."""
    found: dict[str, tuple[str, list[str]]] = {}
    claude = next(b for b in blocks("bash") if b.startswith("claude mcp add"))
    words = shlex.split(claude)
    assert words[:4] == ["claude", "mcp", "add", "astra-memory"] and words[4] == "--"
    found["claude code"] = (words[5], words[6:])
    codex = tomllib.loads(blocks("toml")[0])["mcp_servers"]["astra-memory"]
    found["codex cli"] = (codex["command"], codex["args"])
    for block in blocks("json"):
        data = json.loads(block)
        if "mcpServers" in data:
            server = data["mcpServers"]["astra-memory"]
            found["cursor"] = (server["command"], server["args"])
        else:
            server = data["servers"]["astra-memory"]
            assert server["type"] == "stdio"
            found["vs code"] = (server["command"], server["args"])
    return found


def test_the_page_has_the_four_setups_and_a_tool_table():
    assert set(configurations()) == {"claude code", "codex cli", "cursor", "vs code"}
    assert len(documented_tools()) == 5


@pytest.mark.parametrize("setup", ["claude code", "codex cli", "cursor", "vs code"])
def test_each_configuration_starts_a_server_with_the_documented_tools(setup, tmp_path):
    command, args = configurations()[setup]
    assert command == "astra-memory"
    args = [a.replace(EXAMPLE_FOLDER, str(tmp_path)).replace("${workspaceFolder}", str(tmp_path)) for a in args]

    async def served() -> set[str]:
        async with Client(StdioServerParameters(command=COMMAND, args=args, env=server_env())) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(served) == documented_tools()
