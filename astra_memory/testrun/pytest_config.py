"""Pytest's rootdir and configuration come from the project folder alone.

Left to itself, pytest looks for its configuration (``pytest.toml``, ``pytest.ini``,
``pyproject.toml``, ``tox.ini``, ``setup.cfg``) from the test paths upwards to ``/``, and loads
every ``conftest.py`` above them up to its rootdir. A folder above the workspace, which is also
above the fresh copy that confirms a fix, is outside what a session's diff shows: a ``tox.ini``
written there by a test run (``[pytest] addopts = -p app.plugin``) would otherwise change how
every later run, the confirming one included, is judged (issue 32, class 1).

``pinned_options`` finds the configuration pytest would pick, searching only inside the folder
(pytest's own search order and file loaders, ``_pytest.config.findpaths``), and pins it: ``-c``
that file, or ``/dev/null`` when the folder has none, ``--rootdir`` and ``--confcutdir`` its
folder. Every pytest run of a session gets the same options, so test ids agree between observe,
the workspace's runs and the confirming copy.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

NO_CONFIG = os.devnull
# pytest 8's order; pytest 9 adds pytest.toml/.pytest.toml first (read from pytest when it is here)
_NAMES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def _loaders() -> list[tuple[str, object]]:
    try:
        from _pytest.config import findpaths
    except ImportError:
        return []
    by_name = getattr(findpaths, "CONFIG_LOADERS_BY_NAME", None)
    if by_name:
        return list(by_name.items())
    load = getattr(findpaths, "load_config_dict_from_file", None)
    return [(name, load) for name in _NAMES] if load else []


def _refusal() -> type[BaseException]:
    """What pytest's ``fail()`` raises: a loader refuses a file that way (a ``[pytest]`` section in
    ``setup.cfg``), and it is no ``Exception``."""
    try:
        from _pytest.outcomes import OutcomeException
    except ImportError:
        return Exception
    return OutcomeException


def _has_config(loader, path: Path) -> bool:
    try:
        return loader(path) is not None
    except (Exception, _refusal()):  # noqa: BLE001 - a file pytest cannot read or refuses: pytest itself will say so
        return True


def _start_dirs(folder: Path, argv: list[str]) -> list[Path]:
    """The folders pytest starts its search from: each test path the command names inside ``folder``."""
    starts = []
    for arg in argv[1:]:
        if arg.startswith("-"):
            continue
        path = (folder / arg.split("::")[0]).resolve()
        if path.exists() and (path == folder or folder in path.parents):
            starts.append(path)
    return starts or [folder]


def find_config(folder: str | Path, argv: list[str]) -> Path | None:
    """The configuration file pytest would use for ``argv`` run in ``folder``, searched inside it only."""
    folder = Path(folder).resolve()
    loaders = _loaders()
    first_pyproject = None
    for start in _start_dirs(folder, argv):
        for base in (start, *start.parents):
            for name, loader in loaders:
                candidate = base / name
                if candidate.is_file() and not candidate.is_symlink():
                    if name == "pyproject.toml" and first_pyproject is None:
                        first_pyproject = candidate
                    if _has_config(loader, candidate):
                        return candidate
            if base == folder:
                break
    return first_pyproject


def pinned_options(folder: str | Path, argv: list[str]) -> list[str]:
    """The pytest options that pin its configuration and rootdir to ``folder``."""
    folder = Path(folder).resolve()
    config = find_config(folder, argv)
    root = config.parent if config is not None else folder
    return ["-c", str(config or NO_CONFIG), f"--rootdir={root}", f"--confcutdir={root}"]


def addopts(folder: str | Path, argv: list[str]) -> str:
    """``pinned_options`` as PYTEST_ADDOPTS text (quoted: paths may hold spaces)."""
    return shlex.join(pinned_options(folder, argv))
