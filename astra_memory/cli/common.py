"""What the CLI's commands share: the consoles, exit codes, settings from the command line, errors, JSON."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console

from astra_memory.settings import Settings

_given_settings: dict[str, Any] = {}


def _child_env() -> dict[str, str]:
    """What a subprocess of ours needs to see the same data (``memory smoke``'s read-back)."""
    url = _given_settings.get("database_url")
    return {"ASTRA_DATABASE_URL": url} if url else {}


def _settings() -> Settings:
    """Settings from the environment, with what the command line gave (--database-url)."""
    return Settings(**_given_settings)


console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)  # paths and reasons are never folded mid-word

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")]


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    err.print("[red]error:[/red] ", end="")
    err.print(message, markup=False, highlight=False)  # messages may hold [brackets]: not markup
    raise typer.Exit(code)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")
