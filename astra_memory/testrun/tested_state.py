"""The state a test run ran in, as one digest: what a failed attempt failed against.

A failed attempt (stores/attempts.py) is evidence that a change does not pass *in a given state*;
a test run can change that state for itself and every later run (a planted ``conftest.py``, a
rewritten test file, a ``.pth``), and then the right change fails too. So an attempt keeps the
digest of the state it failed in, and refuses a repeat only in the same state (issue 32 class 5).

The digest covers, inside the folder the run ran in (the workspace or the fresh copy):

- every Python file (``.py``, ``.pyc``, ``.pth``): the tests, their conftests and the modules they
  import; a ``.pyc`` is what Python loads in place of its source;
- pytest's machinery and configuration by name (protected.py ``MACHINERY_NAMES``: ``pytest.ini``,
  ``tox.ini``, ``setup.cfg``, ``pyproject.toml``, ...), and the lockfiles and requirement lists;
- every file inside a ``tests``/``test`` folder (the data the tests read);
- the machinery files by name in each folder above it (pytest reads a ``tox.ini`` there);
- the test command and the task's declared environment variables.

Left out: the files of the change itself (compared on their own, byte for byte, by the attempt's
``file_states``), version control and caches (``.git``, ``.pytest_cache``, ...: never copied into
a fresh copy either) and installed environments (``.venv``, ...: held to observe's manifest within
a session, testrun/manifest.py; not compared across sessions). Paths are relative to the folder (or
``../`` per level above it), so a workspace and its fresh copy in the same state agree.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from astra_memory.workspace.protected import ENVIRONMENT_DIRS, MACHINERY_NAMES, TEST_DIRS

NOT_STATE_DIRS = frozenset({".git", ".hg", ".svn", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".astra",
                            ".hypothesis", *ENVIRONMENT_DIRS})
STATE_SUFFIXES = (".py", ".pyc", ".pth", ".lock")
STATE_PREFIXES = ("requirements", "constraints")  # requirements*.txt, constraints-dev.txt, ...
VERSION = "v1"


def _in_state(rel_dir: tuple[str, ...], name: str) -> bool:
    return (name.endswith(STATE_SUFFIXES) or name in MACHINERY_NAMES or name in {"Pipfile"}
            or (name.startswith(STATE_PREFIXES) and name.endswith(".txt"))
            or any(part in TEST_DIRS for part in rel_dir))


def _content(path: str) -> str:
    """sha256 of a file's bytes; a symbolic link by its target (never followed)."""
    try:
        if os.path.islink(path):
            return "link:" + os.readlink(path)
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    except OSError as exc:
        return f"unreadable:{exc.errno}"


def state_files(root: str | Path, leave_out: Iterable[str] = ()) -> dict[str, str]:
    """relative path -> content digest, for every file of the state (module docstring)."""
    root = Path(root)
    skipped = {p.replace("\\", "/").strip("/") for p in leave_out}
    files: dict[str, str] = {}
    for folder, dirs, names in os.walk(root, followlinks=False):
        rel_dir = Path(folder).relative_to(root).parts
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]  # by target, never followed
        dirs[:] = sorted(d for d in dirs if d not in NOT_STATE_DIRS and d not in links)
        for name in [*names, *(d for d in links if d not in NOT_STATE_DIRS)]:
            rel = "/".join((*rel_dir, name))
            if rel not in skipped and (name in links or _in_state(rel_dir, name)):
                files[rel] = _content(os.path.join(folder, name))
    for level, parent in enumerate(root.resolve().parents, start=1):
        for name in sorted(MACHINERY_NAMES):
            if os.path.lexists(parent / name):
                files["../" * level + name] = _content(str(parent / name))
    return files


def tested_state(root: str | Path, *, command: str, env: Mapping[str, str] | None = None,
                 leave_out: Iterable[str] = ()) -> str:
    """The digest of the state a test run in ``root`` ran (or would run) in, ``leave_out`` (the
    change's files) aside: 64 hex digits."""
    digest = hashlib.sha256(f"{VERSION}\x1f{command}\x1f".encode())
    for key, value in sorted((env or {}).items()):
        digest.update(f"env\x1d{key}\x1d{value}\x1e".encode("utf-8", errors="surrogateescape"))
    for rel, content in sorted(state_files(root, leave_out).items()):
        digest.update(f"file\x1d{rel}\x1d{content}\x1e".encode("utf-8", errors="surrogateescape"))
    return digest.hexdigest()
