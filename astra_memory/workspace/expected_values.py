"""Test data kept beside the source: a module the tests import for their expected values.

A test that asserts ``add(1, 2) == EXPECTED["add"]`` with ``from spec import EXPECTED`` has its
oracle in ``spec.py``, which is neither test-named nor in a test folder. Rewriting it to expect the
buggy value makes the tests pass with the bug in place, and that was stored and replayed (outside
round 5, cases 01 and 21). So a module is test data, protected like the tests, when, in the
pre-session snapshot:

- a test file that ran at observe imports it (``import spec``, ``from spec import X``, ``from pkg
  import spec``, relative imports included), and it is one ``.py`` file of the project;
- it defines no function and no class at its top level (it holds values, not code under test);
- no other module of the project imports it (a settings module the code reads is source, even when
  the tests read it too).

Where the project has more than ``MAX_SCANNED`` Python files, the last condition is not checked and
such a data module counts as test data (the safe side for a trust rule). A module with a function
beside its tables is source: expected values kept there are not covered (docs/guarantees.md).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path, PurePosixPath

from astra_memory.workspace.machinery_refs import SKIPPED_DIRS, module_files

MAX_SCANNED = 3_000  # Python files read to find who imports a candidate
MAX_FILE_BYTES = 1_000_000
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _tree(path: Path) -> ast.Module | None:
    try:
        if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None


def _package_of(rel: str) -> list[str]:
    return list(PurePosixPath(rel).parent.parts)


def imported_names(tree: ast.Module, rel: str) -> Iterator[str]:
    """The dotted names a module at ``rel`` imports, ``from a import b`` giving both ``a`` and ``a.b``;
    relative imports made absolute from ``rel``'s folder."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(rel)
                package = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                base = ".".join([*package, *([base] if base else [])])
            if base:
                yield base
            yield from (f"{base}.{alias.name}" if base else alias.name for alias in node.names)


def _single_module(root: Path, name: str) -> str | None:
    files = module_files(root, name)
    return files[0] if len(files) == 1 and files[0].endswith(".py") and not files[0].endswith("__init__.py") else None


def _data_only(tree: ast.Module) -> bool:
    return not any(isinstance(node, DEFINITIONS) for node in tree.body)


def _python_files(root: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(folder, name).relative_to(root).as_posix()


def _module_name(rel: str) -> str:
    parts = list(PurePosixPath(rel).with_suffix("").parts)
    if parts and parts[0] == "src":
        parts = parts[1:]
    return ".".join(parts[:-1] if parts and parts[-1] == "__init__" else parts)


@lru_cache(maxsize=64)
def _test_data(root: str, stamped: tuple[tuple[str, int, int], ...]) -> tuple[str, ...]:
    """Cached by the test files' names, sizes and times (the snapshot does not change under a session)."""
    base = Path(root)
    test_files = tuple(rel for rel, _, _ in stamped)
    tests = set(test_files)
    candidates: dict[str, str] = {}  # module name -> file
    for rel in test_files:
        tree = _tree(base / rel)
        for name in imported_names(tree, rel) if tree is not None else ():
            file = _single_module(base, name)
            if file and file not in tests and name not in candidates:
                module = _tree(base / file)
                if module is not None and _data_only(module):
                    candidates[name] = file
    if not candidates:
        return ()
    used_by_source: set[str] = set()
    for count, rel in enumerate(_python_files(base)):
        if count >= MAX_SCANNED:
            break
        if rel in tests or rel in candidates.values():
            continue
        tree = _tree(base / rel)
        names = set(imported_names(tree, rel)) if tree is not None else set()
        used_by_source |= {n for n in candidates if n in names or any(i.startswith(n + ".") for i in names)}
    return tuple(sorted({file for name, file in candidates.items() if name not in used_by_source}))


def expected_value_modules(root: str | Path | None, test_files: Iterable[str]) -> tuple[str, ...]:
    """The project's test-data modules (see the module's text), read under ``root`` (the snapshot)."""
    if root is None or not Path(root).is_dir():
        return ()
    base = Path(root).resolve()
    stamped = []
    for rel in sorted(set(test_files)):
        try:
            info = (base / rel).stat()
        except OSError:
            continue
        stamped.append((rel, info.st_size, info.st_mtime_ns))
    return _test_data(str(base), tuple(stamped))
