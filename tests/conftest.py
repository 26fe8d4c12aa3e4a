"""Every test gets its own data directory and no secrets; embeddings are deterministic unless a
test asks for the real packaged MiniLM (marker `minilm`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from astra_memory.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SECRET_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ASTRA_MODEL", "ASTRA_DATABASE_URL", "ASTRA_CRASH_AT",
               "ASTRA_MIN_SCORE", "ASTRA_EMBEDDING_MODEL_PATH")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, request):
    home = tmp_path / "astra-home"
    monkeypatch.setenv("ASTRA_HOME", str(home))
    for name in SECRET_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ASTRA_EMBEDDINGS", "minilm" if request.node.get_closest_marker("minilm") else "hash")
    return home


@pytest.fixture
def settings(isolated_home) -> Settings:
    return Settings()


@pytest.fixture
def agent(settings):
    from astra_memory.session import open_agent

    with open_agent(settings) as opened:
        yield opened


def cli_env(**extra: str) -> dict[str, str]:
    """Environment for a CLI subprocess: this test's settings, nothing secret."""
    env = {k: v for k, v in os.environ.items() if k not in SECRET_VARS}
    env.update(extra)
    return env


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300):
    import subprocess

    return subprocess.run([sys.executable, "-m", "astra_memory", *args], capture_output=True, text=True,
                          env=env or cli_env(), timeout=timeout, cwd=ROOT)
