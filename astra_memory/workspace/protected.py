"""What the agent may not edit: everything that decides whether the tests pass.

A fix that edits the acceptance tests, or the machinery that runs them, is not a fix: a root
``conftest.py`` hook can mark every test passed with the source unchanged. So these are read-only
to the agent, at any depth of the workspace:

- the paths the scenario or the user declares (``task["protected"]``; ``tests`` by default);
- pytest/tox/nox machinery: every ``conftest.py``, ``pytest.ini``, ``tox.ini``, ``setup.cfg``,
  ``pyproject.toml`` and ``noxfile.py`` (whole files: ``pyproject.toml`` also holds the project's
  metadata and dependencies, but telling its test sections apart safely is not worth the risk, so
  a fix that needs a dependency changed is left to a human);
- ``sitecustomize.py`` / ``usercustomize.py``: the test command runs with the workspace on
  ``PYTHONPATH``, so Python imports them into every test process;
- installed environments (``.venv``, ``venv``, ``node_modules``, ``.tox``, ``.nox``, any
  ``site-packages``): editing pytest itself is editing the machinery;
- every file the test command names that lives in the workspace (``bash run_tests.sh``,
  ``python tests/run.py``, ``pytest -c ci/pytest.ini``): the command's own script.

One rule, one place: the edit path (workspace.Workspace) and the fresh-copy confirmation
(nodes/confirm.py) both ask ``ProtectedPaths.why``.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

DEFAULT_DECLARED = ("tests",)
MACHINERY_NAMES = frozenset({
    "conftest.py",
    "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml",
    "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py",
    "sitecustomize.py", "usercustomize.py",
})

ENVIRONMENT_DIRS = frozenset({".venv", "venv", "node_modules", ".tox", ".nox"})


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
            except (OSError, ValueError):
                continue
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class ProtectedPaths:
    """The protected-path rule for one workspace: declared prefixes, machinery names, command files."""

    declared: tuple[str, ...] = DEFAULT_DECLARED
    command_files: tuple[str, ...] = ()

    @classmethod
    def of(cls, declared: Iterable[str] | None, *, workspace: str | Path | None = None,
           test_command: str | None = None) -> "ProtectedPaths":
        cleaned = tuple(p for p in (_clean(d) for d in (DEFAULT_DECLARED if declared is None else declared)) if p)
        scripts = command_files(workspace, test_command) if workspace is not None else ()
        return cls(cleaned, scripts)

    def why(self, rel: str) -> str | None:
        """Why the workspace-relative path ``rel`` is protected, or None when the agent may edit it."""
        rel = _clean(rel)
        for prefix in self.declared:
            if rel == prefix or rel.startswith(prefix + "/"):
                return f"{rel} is a protected acceptance-test path ({prefix!r} is declared protected)"
        parts = PurePosixPath(rel).parts
        environment = next((p for p in parts[:-1] if p in ENVIRONMENT_DIRS or p == "site-packages"), None)
        if environment:
            return f"{rel} is inside an installed environment ({environment}/), which runs the tests"
        name = PurePosixPath(rel).name
        if name in MACHINERY_NAMES:
            return f"{rel} is test machinery ({name} decides whether tests pass)"
        if rel in self.command_files:
            return f"{rel} is named by the test command, so it decides whether tests pass"
        return None

    def __contains__(self, rel: str) -> bool:
        return self.why(rel) is not None


def protected_paths(task: dict) -> ProtectedPaths:
    """The rule for a session's task (its declared list, its workspace and its test command)."""
    return ProtectedPaths.of(task.get("protected") or DEFAULT_DECLARED, workspace=task.get("workspace"),
                             test_command=task.get("test_command"))
