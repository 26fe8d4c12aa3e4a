"""Where data lives, and the API key, read from the environment. Nothing here opens a file or a connection,
except ``load_dotenv``, which the command calls once at its start.

Run knobs (model, limits, minimum score, budgets, prices) are not settings: they live in
``context.Context``, which reads its own environment variables.

Precedence, for settings and knobs alike: command-line flags > the environment > our ``.env`` >
the defaults. ``load_dotenv`` puts a ``.env`` variable into the environment only where the
environment does not set it; flags win over both because they are applied on top of ``Context()``.
``.env.example`` lists every variable.

Our ``.env`` is ``ASTRA_ENV_FILE`` when set, else ``.env`` in the data home (``ASTRA_HOME``, else
``default_home()``): never the working folder's. The working folder is usually the project being
fixed, and a project's ``.env`` is the project's (an untrusted checkout's, perhaps): one that sets
``OPENAI_BASE_URL`` would send our requests, and the user's API key, to its server; one that sets
``ASTRA_APPROVE_LIVE_COST`` or a budget would spend for the user. It is never read into our process.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from astra_memory.errors import ConfigurationError
from astra_memory.thread_names import check_thread_id

KEY_ENV = "OPENAI_API_KEY"
DOTENV = ".env"
ENV_FILE_ENV = "ASTRA_ENV_FILE"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_dotenv(text: str) -> dict[str, str]:
    """``NAME=value`` lines (``export NAME=value`` too); ``#`` comments, blank lines; a value in single
    or double quotes is taken as written (no escapes, no ``${VAR}`` expansion); an unquoted value
    ends at `` #``. A line that is not an assignment is an error naming its number (never its text,
    which may hold a key)."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        name, eq, value = line.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not _NAME.fullmatch(name):
            raise ConfigurationError(f"{DOTENV} line {number} is not NAME=value")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = "" if value.startswith("#") else value.split(" #", 1)[0].rstrip()
        values[name] = value
    return values


def dotenv_path() -> Path:
    """Our ``.env``: ``ASTRA_ENV_FILE``, else ``.env`` in the data home; never the working folder's."""
    named = os.environ.get(ENV_FILE_ENV, "").strip()
    return Path(named).expanduser() if named else _home() / DOTENV


def load_dotenv(path: Path | None = None) -> list[str]:
    """Read our ``.env`` (``dotenv_path()``) into the environment, below what the environment
    already sets. Returns the names it set (never their values: the file may hold the API key).
    No file: nothing happens."""
    path = path or dotenv_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"cannot read {path}: {type(exc).__name__}") from None
    loaded = []
    for name, value in parse_dotenv(text).items():
        if name not in os.environ:
            os.environ[name] = value
            loaded.append(name)
    return loaded


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not a whole number") from None


def openai_api_key(*, required: bool = True) -> str:
    """The live model's API key. Read where it is sent, never stored in state, context or files."""
    key = os.environ.get(KEY_ENV, "")
    if required and not key.strip():
        raise ConfigurationError(
            f"{KEY_ENV} is not set: a live model needs it (export {KEY_ENV}=...; local servers such as "
            "Ollama accept any value, e.g. 'ollama')"
        )
    return key


def default_home() -> Path:
    """Where data lives when ``ASTRA_HOME`` is not set: ``$XDG_DATA_HOME/astra-memory``, else
    ``~/.local/share/astra-memory``.

    Not a folder under the current directory: ``langgraph dev`` reloads the server (and retries the
    running session) whenever a ``.py`` file changes anywhere under the folder it serves, and every
    session copies a project and edits it under ``runs/``.
    """
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "astra-memory"


def _home() -> Path:
    raw = os.environ.get("ASTRA_HOME", "").strip()
    return Path(raw).expanduser() if raw else default_home()


@dataclass(frozen=True)
class Settings:
    """Where data lives, and which embeddings to use."""

    home: Path = field(default_factory=_home)  # ASTRA_HOME, else default_home()
    # "minilm" (the packaged all-MiniLM-L6-v2) or "hash" (deterministic, for tests only).
    embeddings: str = field(default_factory=lambda: os.environ.get("ASTRA_EMBEDDINGS", "minilm"))
    embedding_model_path: str | None = field(
        default_factory=lambda: os.environ.get("ASTRA_EMBEDDING_MODEL_PATH") or None
    )
    # One PostgreSQL database for checkpoints and fix memory (a team's shared backend); unset means
    # the SQLite files under `home`. Read here, connected to only by astra_memory.backends.open.
    database_url: str | None = field(default_factory=lambda: os.environ.get("ASTRA_DATABASE_URL") or None)
    # Fix memory on Actian VectorAI DB (host:port of its gRPC API; docker-compose.yml serves it on
    # localhost:16574). Checkpoints and the cost ledger stay where they are (SQLite, or PostgreSQL).
    vectorai_url: str | None = field(default_factory=lambda: os.environ.get("ASTRA_VECTORAI_URL") or None)
    # Connections per process in the PostgreSQL pool (each agent needs at most two at once).
    database_pool_size: int = field(default_factory=lambda: _env_int("ASTRA_DATABASE_POOL_SIZE", 4))

    @property
    def checkpoint_path(self) -> Path:
        return self.home / "checkpoints.sqlite"

    @property
    def memory_path(self) -> Path:
        return self.home / "memory.sqlite"

    @property
    def runs_dir(self) -> Path:
        return self.home / "runs"

    def run_dir(self, thread_id: str) -> Path:
        return self.runs_dir / check_thread_id(thread_id)  # a name, never a path join that leaves runs/

    def ensure_home(self) -> Path:
        self.home.mkdir(parents=True, exist_ok=True)
        return self.home
