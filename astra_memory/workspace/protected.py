"""What the agent may not edit: everything that decides whether the tests pass.

A fix that edits the acceptance tests, or the machinery that runs them, is not a fix: a root
``conftest.py`` hook can mark every test passed with the source unchanged. So these are read-only
to the agent, at any depth of the workspace:

- the paths the scenario or the user declares (``task["protected"]``: ``tests`` by default, plus
  every path given with ``--protect`` / ``task.protect``, checked by ``checked_protect``);
- test code, by the names pytest collects by default: every file in a ``test/`` or ``tests/``
  folder, every ``test_*.py``, ``*_test.py`` and ``tests.py`` (Django's), and every file matching
  the project's own ``python_files`` patterns (under its ``testpaths``, when it sets them) in
  ``pytest.ini``, ``pyproject.toml``, ``tox.ini`` or ``setup.cfg``, read from the pre-session
  snapshot when there is one (a test run cannot widen what is editable by rewriting them);
- every file a test collected at observe lives in (its node id ``path::name``, from pytest's own
  results, or the failing tests read from the output), whatever it is named, a text file of
  doctests (``docs/usage.txt::usage.txt``) included; a module doctest's node id
  (``app/calc.py::app.calc.add``) names a source module, which stays editable, but not its
  examples: a change that rewrites or removes the ``>>>`` examples (or their expected output) of
  a file whose doctests ran at observe is a test edit (``why_changed``, workspace/doctests.py);
- pytest/tox/nox machinery: every ``conftest.py``, ``pytest.ini``, ``tox.ini``, ``setup.cfg``,
  ``pyproject.toml`` and ``noxfile.py`` (whole files: ``pyproject.toml`` also holds the project's
  metadata and dependencies, but telling its test sections apart safely is not worth the risk, so
  a fix that needs a dependency changed is left to a human);
- ``sitecustomize.py`` / ``usercustomize.py``: the test command runs with the workspace on
  ``PYTHONPATH``, so Python imports them into every test process;
- installed environments (``.venv``, ``venv``, ``node_modules``, ``.tox``, ``.nox``, any
  ``site-packages``): editing pytest itself is editing the machinery; and installed package
  metadata (any ``*.egg-info/`` or ``*.dist-info/`` folder, which ``pip install -e .`` leaves in a
  project): with the project on ``sys.path``, its ``entry_points.txt`` can register a ``pytest11``
  plugin that pytest loads into every run;
- every file the test command names that lives in the workspace (``bash run_tests.sh``,
  ``python tests/run.py``, ``pytest -c ci/pytest.ini``): the command's own script;
- every file that names in turn (a script's own scripts, ``python -m NAME``), and every module
  pytest loads as a plugin (``-p NAME`` in the command or ``addopts``, ``pytest_plugins`` in a
  ``conftest.py``, the project's ``pytest11`` entry points): workspace/machinery_refs.py.

Names are compared case-insensitively (``TESTS/Test_x.py`` is ``tests/test_x.py`` on a
case-insensitive disk). One rule, one place: the edit path (workspace.Workspace, which replay's
writes go through too, and its preview), replay's plan (workspace/patch.py) and the fresh-copy
confirmation (nodes/confirm.py) all ask ``ProtectedPaths.why`` and ``ProtectedPaths.why_changed``.
"""

from __future__ import annotations

import fnmatch
import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from astra_memory.errors import WorkspaceError
from astra_memory.workspace import doctests
from astra_memory.workspace.confined import (
    is_git_name,
    open_dir,
    open_regular,
    read_bounded,
)
from astra_memory.workspace.expected_values import expected_value_modules
from astra_memory.workspace.machinery_refs import machinery_files
from astra_memory.workspace.pytest_tables import pytest_tables

DEFAULT_DECLARED = ("tests",)
MACHINERY_NAMES = frozenset({
    "conftest.py",
    "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml",
    "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py",
    "sitecustomize.py", "usercustomize.py",
})

ENVIRONMENT_DIRS = frozenset({".venv", "venv", "node_modules", ".tox", ".nox"})
PACKAGE_METADATA = (".egg-info", ".dist-info")  # pip install -e . leaves one in the project; on sys.path it is read
TEST_DIRS = frozenset({"test", "tests"})
TEST_FILE_PATTERNS = ("test_*.py", "*_test.py", "tests.py")  # pytest's defaults, and Django's tests.py
MAX_CONFIG_BYTES = 1_000_000


def _clean(path: str) -> str:
    return PurePosixPath(path.replace("\\", "/")).as_posix().strip("/")


def command_files(workspace: str | Path, test_command: str | None) -> tuple[str, ...]:
    """The files inside ``workspace`` that the test command names (its script, its config file).

    A word of the command counts when it (or the value of a ``--opt=value`` word) is a relative path
    to an existing file inside the workspace. Directories are not protected by this rule: ``pytest
    app`` must not make the source read-only.
    """
    if not test_command:
        return ()
    try:
        words = shlex.split(test_command)
    except ValueError:  # an unbalanced quote: the test run itself reports the command as unrunnable
        return ()
    root = Path(workspace).resolve()
    found: list[str] = []
    for word in words:
        for candidate in (word, word.partition("=")[2]):
            if not candidate or candidate.startswith("-") or Path(candidate).is_absolute() or "\x00" in candidate:
                continue
            try:
                full = (root / candidate).resolve()
                inside = full != root and root in full.parents
                if inside and full.is_file():
                    found.append(full.relative_to(root).as_posix())
            except (OSError, ValueError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
                continue
    return tuple(dict.fromkeys(found))


def _test_file(test_id: object) -> tuple[str, bool] | None:
    """(workspace-relative file, is it a module doctest's) of one pytest node id; None for an id that
    leaves the workspace (absolute, ``..``). A module doctest's id has a dotted name after ``::``
    (``app/calc.py::app.calc.add``); a text file's doctest is named as its file (``README.txt::README.txt``)."""
    if not isinstance(test_id, str):
        return None
    path, _, name = test_id.partition("::")
    rel = _clean(path.strip())
    if not rel or os.path.isabs(path.strip()) or ".." in PurePosixPath(rel).parts:
        return None
    head = name.partition("[")[0]
    return rel, "." in head and head != PurePosixPath(rel).name


def files_of_test_ids(test_ids: Iterable[str]) -> tuple[str, ...]:
    """The workspace-relative files that pytest node ids (``tests/a.py::test_x``, ``b.py::C::test_y[1]``,
    ``c_check.py`` for a collection error, ``docs/usage.txt::usage.txt`` a text file's doctest) live in.
    A module doctest's id (``app/calc.py::app.calc.add``) names a source module: it is left out, so the
    source stays editable (its examples do not: ``doctest_files_of_test_ids``). Ids that leave the
    workspace (absolute, ``..``) are left out too."""
    found = (_test_file(t) for t in test_ids)
    return tuple(dict.fromkeys(rel for rel, doctest in filter(None, found) if not doctest))


def doctest_files_of_test_ids(test_ids: Iterable[str]) -> tuple[str, ...]:
    """The source files that module doctests among ``test_ids`` live in (``app/calc.py::app.calc.add``)."""
    found = (_test_file(t) for t in test_ids)
    return tuple(dict.fromkeys(rel for rel, doctest in filter(None, found) if doctest))


def observed_test_ids(state: Mapping | None) -> list[str]:
    """The test ids observe recorded in a session's state: every test pytest ran at observe (the observe
    run's ``tests``, from pytest's own results) and the tests that failed (``failure.failing_ids``, and
    ``failure.failing_tests`` as read from the output, for a command whose results were not read)."""
    state = state or {}
    failure = state.get("failure") or {}
    ids = [*(failure.get("failing_ids") or []), *(failure.get("failing_tests") or [])]
    for run in state.get("test_runs") or []:
        if isinstance(run, Mapping) and run.get("phase") == "observe" and isinstance(run.get("tests"), Mapping):
            ids.extend(run["tests"])
    return [t for t in ids if isinstance(t, str)]


def _config_text(root: Path, name: str) -> str | None:
    """A config file at the root, read without following a symlink; None if absent or unreadable."""
    try:
        with open_dir(root, ()) as dir_fd, open_regular(dir_fd, name, name) as (fd, _):
            data = read_bounded(fd, MAX_CONFIG_BYTES)
    except (WorkspaceError, OSError):
        return None
    return data.decode("utf-8", errors="replace") if len(data) <= MAX_CONFIG_BYTES else None


def _words(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [w for v in value if isinstance(v, str) for w in v.split()]
    return []


def collection_config(root: str | Path) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """(``python_files`` patterns, ``testpaths``, the file they came from) of the pytest configuration
    at ``root``; empty when the project sets none (pytest's defaults are TEST_FILE_PATTERNS). The
    first file with a pytest section counts, as for pytest; one that cannot be parsed is skipped
    (pytest itself would refuse to run with it)."""
    for name, options in pytest_tables(lambda name: _config_text(Path(root), name)):
        files = tuple(_clean(w) for w in _words(options.get("python_files")) if _clean(w))
        paths = tuple(_clean(w) for w in _words(options.get("testpaths")) if _clean(w))
        return files, paths, name
    return (), (), ""


def _glob(rel: str, pattern: str) -> bool:
    """pytest's way: a pattern without a ``/`` matches the file name, one with it the path's tail."""
    if "/" not in pattern:
        return fnmatch.fnmatchcase(PurePosixPath(rel).name, pattern.casefold())
    return fnmatch.fnmatchcase(rel, pattern.casefold()) or fnmatch.fnmatchcase(rel, "*/" + pattern.casefold())


@dataclass(frozen=True)
class ProtectedPaths:
    """The protected-path rule for one workspace: declared prefixes, test names, the files of the
    tests that failed, the project's own ``python_files``, machinery names, command files."""

    declared: tuple[str, ...] = DEFAULT_DECLARED
    command_files: tuple[str, ...] = ()
    test_files: tuple[str, ...] = ()  # files of the tests observe ran (files_of_test_ids)
    python_files: tuple[str, ...] = ()  # the project's python_files patterns ...
    testpaths: tuple[str, ...] = ()  # ... applied under its testpaths (everywhere when empty)
    config: str = ""  # the file both came from
    doctest_files: tuple[str, ...] = ()  # source files whose doctests ran at observe: their examples are tests
    machinery: tuple[str, ...] = ()  # plugins and the files the command's scripts run (machinery_refs.py)
    linked: tuple[str, ...] = ()  # what a protected symlink of the workspace points at (a file or a folder)
    test_data: tuple[str, ...] = ()  # data-only modules only the tests import: their expected values (expected_values.py)

    @classmethod
    def of(cls, declared: Iterable[str] | None, *, workspace: str | Path | None = None,
           test_command: str | None = None, test_ids: Iterable[str] = (),
           config_root: str | Path | None = None) -> "ProtectedPaths":
        """``config_root``: where to read the pytest configuration (the pre-session snapshot; by
        default the workspace)."""
        cleaned = tuple(p for p in (_clean(d) for d in (DEFAULT_DECLARED if declared is None else declared)) if p)
        scripts = command_files(workspace, test_command) if workspace is not None else ()
        root = config_root if config_root is not None else workspace
        files, paths, config = collection_config(root) if root is not None else ((), (), "")
        test_ids = tuple(test_ids)
        machinery = machinery_files(root, test_command) if root is not None else ()
        rule = cls(cleaned, scripts, files_of_test_ids(test_ids), files, paths, config,
                   doctest_files_of_test_ids(test_ids), tuple(m for m in machinery if m not in scripts))
        data = expected_value_modules(root, rule.test_files)
        rule = replace(rule, test_data=tuple(d for d in data if rule.why(d) is None)) if data else rule
        roots = dict.fromkeys(Path(r) for r in (workspace, root) if r is not None)
        linked = tuple(dict.fromkeys(t for r in roots for t in _protected_link_targets(Path(r), rule)))
        return replace(rule, linked=linked) if linked else rule

    def why(self, rel: str) -> str | None:
        """Why the workspace-relative path ``rel`` is protected, or None when the agent may edit it."""
        rel = _clean(rel)
        folded = rel.casefold()
        for prefix in self.declared:
            if folded == prefix.casefold() or folded.startswith(prefix.casefold() + "/"):
                return f"{rel} is a protected acceptance-test path ({prefix!r} is declared protected)"
        parts = PurePosixPath(folded).parts
        environment = next((p for p in parts[:-1] if p in ENVIRONMENT_DIRS or p == "site-packages"), None)
        if environment:
            return f"{rel} is inside an installed environment ({environment}/), which runs the tests"
        metadata = next((p for p in parts[:-1] if p.endswith(PACKAGE_METADATA)), None)
        if metadata:
            return (f"{rel} is installed package metadata ({metadata}/): its entry points load pytest plugins "
                    "into every test run")
        name = PurePosixPath(folded).name
        if name in MACHINERY_NAMES:
            return f"{rel} is test machinery ({name} decides whether tests pass)"
        folder = next((p for p in parts[:-1] if p in TEST_DIRS), None)
        if folder:
            return f"{rel} is in a test folder ({folder}/), so it is part of the acceptance tests"
        pattern = next((p for p in TEST_FILE_PATTERNS if fnmatch.fnmatchcase(name, p)), None)
        if pattern:
            return f"{rel} is a test file (pytest collects {pattern})"
        pattern = self._python_files_match(folded)
        if pattern:
            return f"{rel} is a test file (python_files = {pattern} in the project's {self.config})"
        if folded in (t.casefold() for t in self.test_files):
            return f"{rel} holds tests pytest collected when the session started"
        if rel in self.command_files:
            return f"{rel} is named by the test command, so it decides whether tests pass"
        if any(folded == t.casefold() or folded.startswith(t.casefold() + "/") for t in self.linked):
            return f"{rel} is what a protected path of the workspace links to (a symlink), so it is protected too"
        if folded in (d.casefold() for d in self.test_data):
            return (f"{rel} is test data: the tests that ran when the session started import it, it defines no "
                    "function or class and no other module imports it (their expected values)")
        if folded in (m.casefold() for m in self.machinery):
            return (f"{rel} is test machinery: a pytest plugin of the project (or a module a conftest or "
                    "plugin takes hooks or fixtures from), or a file the test command's scripts run")
        return None

    def why_changed(self, rel: str, before: str, after: str) -> str | None:
        """Why changing ``rel`` from ``before`` to ``after`` is a test edit in an editable file, or None:
        the file held doctests that ran at observe and the change rewrites or removes one's examples."""
        rel = _clean(rel)
        if rel.casefold() not in (f.casefold() for f in self.doctest_files):
            return None
        try:
            names = doctests.changed(before, after)
        except doctests.Unreadable as exc:
            return (f"{rel} holds doctests that ran when the session started, and after this change {exc}, so "
                    "its doctests cannot be told unchanged")
        if not names:
            return None
        return (f"the change rewrites the doctest examples of {', '.join(names[:3])} in {rel} (doctests are tests "
                "that ran when the session started: their examples and expected output are the acceptance tests)")

    def _python_files_match(self, folded: str) -> str | None:
        """The project's ``python_files`` pattern ``folded`` matches, under one of its ``testpaths``."""
        if self.testpaths and not any(fnmatch.fnmatchcase(folded, p.casefold())
                                      or fnmatch.fnmatchcase(folded, p.casefold() + "/*") for p in self.testpaths):
            return None
        return next((p for p in self.python_files if _glob(folded, p)), None)

    def __contains__(self, rel: str) -> bool:
        return self.why(rel) is not None


MAX_WALKED = 20_000  # entries looked at for symlinks: a huge tree is not walked whole


def _protected_link_targets(root: Path, rule: ProtectedPaths) -> list[str]:
    """Where the protected symlinks under ``root`` point, inside it (``tests/test_calc.py ->
    ../checks/spec_impl.py``: pytest runs the target's bytes, so editing the target edits the test)."""
    try:
        root = root.resolve()
    except OSError:
        return []
    found: list[str] = []
    walked = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ENVIRONMENT_DIRS and not is_git_name(d) and d != "__pycache__"]
        for name in [*dirs, *files]:
            walked += 1
            path = Path(folder) / name
            if walked > MAX_WALKED:
                return found
            if not path.is_symlink():
                continue
            rel = path.relative_to(root).as_posix()
            try:
                target = path.resolve()
            except (OSError, RuntimeError):
                continue
            if target != root and root in target.parents and rule.why(rel) is not None:
                found.append(target.relative_to(root).as_posix())
    return found


def checked_protect(workspace: str | Path, paths: Iterable[object]) -> list[str]:
    """The user's extra protected paths (``--protect``, ``task.protect``) as workspace-relative paths.

    Each must name an existing file or folder inside the workspace: a relative path without ``..``,
    or an absolute one under the workspace. A WorkspaceError names the first that does not.
    """
    root = Path(workspace).resolve()
    checked: list[str] = []
    for given in paths:
        if not isinstance(given, str) or not given.strip() or "\x00" in given:
            raise WorkspaceError(f"protected path {given!r} is not a path; give a file or folder of the project")
        path = Path(given.strip()).expanduser()
        if path.is_absolute():
            if path != root and root not in path.parents:
                raise WorkspaceError(f"protected path {given!r} is outside the workspace {root}; give a path inside it")
            path = path.relative_to(root)
        rel = _clean(path.as_posix())
        parts = PurePosixPath(rel).parts
        if ".." in parts:
            raise WorkspaceError(f"protected path {given!r} contains '..'; give a path inside the workspace, "
                                 "relative to its folder")
        parts = tuple(p for p in parts if p != ".")
        if not parts:
            raise WorkspaceError(f"protected path {given!r} is the whole workspace: nothing could be fixed; give "
                                 "the files or folders of the tests")
        if any(is_git_name(p) for p in parts):
            continue  # .git is never touched by the agent anyway
        rel = "/".join(parts)
        if not os.path.lexists(root / rel):
            raise WorkspaceError(f"protected path {given!r} does not exist in the workspace {root}; give a file or "
                                 "folder relative to it, e.g. acceptance/ or app/golden_test_data.json")
        checked.append(rel)
    return list(dict.fromkeys(checked))


def protected_paths(task: Mapping, state: Mapping | None = None) -> ProtectedPaths:
    """The rule for a session: its task's declared list, workspace and test command; with its
    ``state``, also the files of the tests observe ran or saw fail, and the pytest configuration
    read from the pre-session snapshot (``state["pristine"]``)."""
    pristine = (state or {}).get("pristine")
    config_root = pristine if pristine and Path(pristine).is_dir() else task.get("workspace")
    return ProtectedPaths.of(task.get("protected") or DEFAULT_DECLARED, workspace=task.get("workspace"),
                             test_command=task.get("test_command"), test_ids=observed_test_ids(state),
                             config_root=config_root)
