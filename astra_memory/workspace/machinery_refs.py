"""The workspace files the test machinery names, besides the files the test command names itself:
they decide whether the tests pass, so workspace/protected.py makes them read-only (issue 32).

- **pytest plugins**: the modules pytest imports as plugins before any test runs, named by
  ``-p NAME`` in the test command or in the project's ``addopts``, by ``pytest_plugins`` in a
  ``conftest.py``, or by the project's own ``pytest11`` entry points (``pyproject.toml``,
  ``setup.cfg``, or the ``entry_points.txt`` of a ``*.egg-info`` / ``*.dist-info`` folder in the
  project), which an editable install of the project loads into every run. ``-p
  app.plugin`` names ``app/plugin.py`` (or the package ``app/plugin/``), under the project folder
  or its ``src/``. A plugin's hooks can answer every test as passed with its id unchanged, so its
  module is machinery even when it lives beside the source. So is a module a conftest or a plugin
  takes hooks or fixtures from by importing them (workspace/conftest_imports.py).
- **what a command's script runs**: a script the test command names (``bash ci/test.sh``) that
  names further files of the workspace (``python ci/check.py``, ``. ci/env.sh``, ``-c
  ci/pytest.ini``), transitively, up to ``MAX_DEPTH`` scripts deep. A word counts when it is a
  relative path to an existing file inside the workspace; a script is read only when it is a
  text file of at most ``MAX_SCRIPT_BYTES``. ``python -m NAME`` names the module ``NAME``.

Everything here is read from the pre-session snapshot where there is one (protected.py passes its
root), so a test run cannot rewrite what counts.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
import shlex
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

from astra_memory.workspace.conftest_imports import hook_sources
from astra_memory.workspace.pytest_tables import pytest_tables

MAX_DEPTH = 3
MAX_SCRIPT_BYTES = 200_000
MAX_CONFTESTS = 200
MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
SKIPPED_DIRS = frozenset({".git", ".hg", ".venv", "venv", "node_modules", ".tox", ".nox", "__pycache__",
                          "site-packages"})


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def _inside_file(root: Path, candidate: str) -> str | None:
    """``candidate`` as a workspace-relative path when it names an existing file inside ``root``."""
    if not candidate or candidate.startswith("-") or os.path.isabs(candidate) or "\x00" in candidate:
        return None
    try:
        full = (root / candidate).resolve()
        if full != root and root in full.parents and full.is_file():
            return full.relative_to(root).as_posix()
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        pass
    return None


def module_files(root: Path, name: str) -> list[str]:
    """The workspace files of the module or package ``name`` (dotted), under ``root`` or ``root/src``:
    ``a/b.py``, or every file of the package folder ``a/b/``."""
    if not MODULE_NAME.fullmatch(name):
        return []
    parts = name.split(".")
    found: list[str] = []
    for base in (root, root / "src"):
        module = base.joinpath(*parts[:-1], parts[-1] + ".py")
        package = base.joinpath(*parts)
        if (rel := _inside_file(root, os.path.relpath(module, root))) is not None:
            found.append(rel)
        if (package / "__init__.py").is_file() and not package.is_symlink():
            found.extend(_package_files(root, package))
    return found


def _package_files(root: Path, package: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        for name in files:
            rel = _inside_file(root, os.path.relpath(Path(folder) / name, root))
            if rel is not None:
                yield rel


def plugin_names(words: Iterable[str]) -> list[str]:
    """The plugin names of ``-p NAME`` / ``-pNAME`` in command-line words (``no:NAME`` disables one)."""
    names, words = [], list(words)
    for i, word in enumerate(words):
        value = words[i + 1] if word == "-p" and i + 1 < len(words) else (
            word[2:] if word.startswith("-p") and len(word) > 2 and not word.startswith("-p=") else "")
        if value and not value.startswith("no:"):
            names.append(value)
    return names


def _read(path: Path) -> str | None:
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_SCRIPT_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return None if b"\x00" in data else data.decode("utf-8", errors="replace")


def _config_plugins(root: Path) -> list[str]:
    """``-p`` in the project's ``addopts`` (every config file pytest might read) and its ``pytest11``
    entry points."""
    names: list[str] = []
    for _name, table in pytest_tables(lambda name: _read(root / name)):
        addopts = table.get("addopts", "")
        names += plugin_names(_words(" ".join(map(str, addopts)) if isinstance(addopts, list) else str(addopts)))
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(_read(root / "setup.cfg") or "")
    except configparser.Error:
        pass
    if parser.has_section("options.entry_points"):
        names += _entry_point_lines(parser["options.entry_points"].get("pytest11", ""))
    try:
        project = tomllib.loads(_read(root / "pyproject.toml") or "")
    except tomllib.TOMLDecodeError:
        project = {}
    entry_points = ((project.get("project") or {}).get("entry-points") or {}).get("pytest11") or {}
    if isinstance(entry_points, dict):
        names += [str(v).partition(":")[0].strip() for v in entry_points.values()]
    return names + _metadata_plugins(root)


def _metadata_plugins(root: Path) -> list[str]:
    """``pytest11`` entry points of installed package metadata in the project folder (``*.egg-info``,
    ``*.dist-info``, left by ``pip install -e .``): on ``sys.path``, pytest loads them."""
    names: list[str] = []
    try:
        folders = [p for p in root.iterdir() if p.name.endswith((".egg-info", ".dist-info")) and p.is_dir()]
        folders += [p for p in (root / "src").iterdir() if p.name.endswith((".egg-info", ".dist-info"))] if (
            root / "src").is_dir() else []
    except OSError:
        return names
    for folder in folders[:20]:
        parser = configparser.ConfigParser(interpolation=None, strict=False, delimiters=("=",))
        try:
            parser.read_string(_read(folder / "entry_points.txt") or "")
        except configparser.Error:
            continue
        if parser.has_section("pytest11"):
            names += [v.partition(":")[0].strip() for v in parser["pytest11"].values()]
    return names


def _entry_point_lines(text: str) -> list[str]:
    return [line.partition("=")[2].partition(":")[0].strip() for line in text.splitlines() if "=" in line]


def _conftests(root: Path) -> list[str]:
    """Every ``conftest.py`` of the project (relative paths), at most ``MAX_CONFTESTS``."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        if "conftest.py" in files and len(found) < MAX_CONFTESTS:
            found.append((Path(folder) / "conftest.py").relative_to(root).as_posix())
    return found


def _conftest_plugins(root: Path, conftests: list[str]) -> list[str]:
    """The names ``pytest_plugins`` lists at the top level of the project's ``conftest.py`` files."""
    names: list[str] = []
    for conftest in conftests:
        try:
            tree = ast.parse(_read(root / conftest) or "")
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytest_plugins"
                                                    for t in node.targets):
                names += _strings(node.value)
    return names


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _named_files(root: Path, words: list[str]) -> list[str]:
    """The workspace files ``words`` name: paths, ``--opt=path`` values, ``-m module``, ``-p plugin``."""
    found: list[str] = []
    for i, word in enumerate(words):
        for candidate in (word, word.partition("=")[2]):
            if (rel := _inside_file(root, candidate)) is not None:
                found.append(rel)
        if word == "-m" and i + 1 < len(words):
            found += module_files(root, words[i + 1])
    for name in plugin_names(words):
        found += module_files(root, name)
    return found


def machinery_files(root: str | Path, test_command: str | None) -> tuple[str, ...]:
    """Every workspace file the test command, the scripts it runs and the project's pytest
    configuration name as something that runs the tests (see the module's text)."""
    root = Path(root).resolve()
    found = _named_files(root, _words(test_command or ""))
    conftests = _conftests(root)
    for name in (*_config_plugins(root), *_conftest_plugins(root, conftests)):
        found += module_files(root, name)
    found += hook_sources(root, [*conftests, *(f for f in found if f.endswith(".py"))], _read)
    scripts, depth = [f for f in found if not f.endswith(".py")], 0
    while scripts and depth < MAX_DEPTH:
        named = [rel for script in scripts for rel in _named_files(root, _words(_read(root / script) or ""))]
        scripts = [rel for rel in named if rel not in found and not rel.endswith(".py")]
        found += named
        depth += 1
    return tuple(dict.fromkeys(found))
