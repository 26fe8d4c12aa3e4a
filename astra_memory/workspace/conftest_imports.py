"""The workspace modules a ``conftest.py`` or a project pytest plugin takes hooks or fixtures from by
importing them: pytest registers the conftest's (or plugin's) whole namespace, so a ``pytest_*``
function or a fixture that arrives there by an import is the conftest's own (outside round 10 case
02: ``from testing_support import *`` in the root conftest, and a "fix" that gave
``testing_support.py`` a ``pytest_collection_modifyitems`` making every test a no-op was stored as
confirmed, by learn and by a live session).

A module counts when the conftest or plugin, at its top level,

- imports everything from it (``from M import *``: whatever ``M`` defines later arrives too),
- imports a ``pytest_*`` name from it (``from M import pytest_runtest_makereport``), or binds one
  to an attribute of it (``pytest_runtest_setup = M.setup``),
- imports a name that ``M`` defines as a fixture (a function under a ``fixture`` decorator),
- names it (or a name imported from it) inside one of its own ``pytest_*`` hooks: what a hook calls
  decides as much as the hook,

and, transitively, what such a module takes the same way (up to ``MAX_DEPTH``). A plain ``import M``
or ``from M import helper`` of the code under test, used by the conftest's fixtures, does not count:
that is how a conftest builds its fixtures, and making the project's source read-only would refuse
every fix (so a fixture that calls into such a module to change the code under test is not covered).

Read from the pre-session snapshot like the rest of workspace/machinery_refs.py.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

MAX_DEPTH = 4


Reader = Callable[[Path], "str | None"]


def hook_sources(root: Path, modules: list[str], read: Reader) -> list[str]:
    """The workspace files (relative to ``root``) the conftests and plugin files ``modules`` take
    hooks or fixtures from, transitively; ``read`` gives a file's text (None: not read)."""
    found: list[str] = []
    todo, depth = list(modules), 0
    parsed = cache(lambda path: _parse(read(path)))  # a module imported by several is read and parsed once
    while todo and depth < MAX_DEPTH:
        named = [rel for module in todo for rel in _taken_from(root, module, parsed)]
        todo = [rel for rel in dict.fromkeys(named) if rel not in found and rel not in modules]
        found += todo
        depth += 1
    return found


def _taken_from(root: Path, module: str, parsed: Callable[[Path], ast.Module | None]) -> Iterator[str]:
    tree = parsed(root / module)
    if tree is None:
        return
    bound: dict[str, str] = {}  # a name an import binds -> the file it comes from
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            source = _module_file(root, module, node.module, node.level)
            if source is None:
                continue
            names = [alias.name for alias in node.names]
            if "*" in names or any(n.startswith("pytest_") for n in names) or _fixtures(parsed(root / source)) & set(names):
                yield source
            bound.update({alias.asname or alias.name: source for alias in node.names if alias.name != "*"})
        elif isinstance(node, ast.Import):
            for alias in node.names:
                source = _module_file(root, module, alias.name, 0)
                if source is not None:
                    bound[alias.asname or alias.name.partition(".")[0]] = source
    for node in tree.body:
        if _is_hook(node):
            yield from dict.fromkeys(bound[n.id] for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in bound)


def _is_hook(node: ast.stmt) -> bool:
    """A ``pytest_*`` hook the module defines, or binds (``pytest_runtest_setup = M.setup``): what it
    calls decides as much as it does."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name.startswith("pytest_")
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.startswith("pytest_")
                                                 for t in node.targets)


def _module_file(root: Path, importer: str, name: str | None, level: int) -> str | None:
    """The workspace file of the module an import in ``importer`` names: relative to the importer's
    folder (``from .m``, and the folder pytest puts on ``sys.path`` for a conftest), else under the
    project folder or its ``src/``."""
    parts = [p for p in (name or "").split(".") if p]
    here = (root / importer).parent
    if level:
        bases = [here.parents[level - 2] if level > 1 else here]
    else:
        bases = [here, root, root / "src"]
    for base in bases:
        for candidate in (base.joinpath(*parts).with_suffix(".py") if parts else None,
                          base.joinpath(*parts, "__init__.py")):
            if candidate is None:
                continue
            try:
                full = candidate.resolve()
                if root in full.parents and full.is_file() and not candidate.is_symlink():
                    return full.relative_to(root).as_posix()
            except (OSError, ValueError, RuntimeError, IndexError):
                continue
    return None


def _fixtures(tree: ast.Module | None) -> set[str]:
    if tree is None:
        return set()
    return {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(_is_fixture(d) for d in node.decorator_list)}


def _is_fixture(decorator: ast.expr) -> bool:
    node = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(node, ast.Name) and node.id == "fixture") or (
        isinstance(node, ast.Attribute) and node.attr == "fixture")


def _parse(text: str | None) -> ast.Module | None:
    try:
        return ast.parse(text or "")
    except (SyntaxError, ValueError):
        return None
