"""What the CLI's commands share: the consoles, exit codes, settings from the command line, errors, JSON."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console

from astra_memory.settings import Settings


@dataclass(frozen=True)
class Given:
    """What the command line gave before the command: ``--database-url`` (the app's callback) and
    ``memory --namespace`` (the memory app's). The callbacks put it in typer's context object
    (``ctx.obj``), which the command's context inherits; None: not given (the environment decides)."""

    database_url: str | None = None
    namespace: str | None = None


def _given(ctx: typer.Context) -> Given:
    """What the command line gave (nothing, for an app invoked without the main callback)."""
    found = ctx.find_object(Given)
    return found if found is not None else Given()


def _child_env(ctx: typer.Context) -> dict[str, str]:
    """What a subprocess of ours needs to see the same data (``memory smoke``'s read-back)."""
    given = _given(ctx)
    env = {"ASTRA_DATABASE_URL": given.database_url} if given.database_url else {}
    return env | ({"ASTRA_NAMESPACE": given.namespace} if given.namespace is not None else {})


def _settings(ctx: typer.Context) -> Settings:
    """Settings from the environment, with what the command line gave (--database-url)."""
    url = _given(ctx).database_url
    return Settings(database_url=url) if url else Settings()


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
