"""The pytest options of each configuration file pytest reads by name in a folder, in pytest's order.

One list for every rule that reads the project's own pytest options: the plugins its ``addopts``
loads (``machinery_refs``) and its ``python_files``/``testpaths`` (``protected``). pytest 9 reads
``pytest.toml``/``.pytest.toml`` (table ``[pytest]``) first and pyproject's native ``[tool.pytest]``
table beside ``[tool.pytest.ini_options]``; a reader that knew only the older names let a ``-p``
plugin named there be edited as source (outside round 9 case 02).
"""

from __future__ import annotations

import configparser
import tomllib
from collections.abc import Callable, Iterator, Mapping

# (file, table): pytest 9's order (``_pytest.config.findpaths.CONFIG_LOADERS_BY_NAME``); a pyproject
# holds either the native table or the ini_options one (pytest refuses both in one file).
PYTEST_CONFIGS = (("pytest.toml", "pytest"), (".pytest.toml", "pytest"), ("pytest.ini", "pytest"),
                  (".pytest.ini", "pytest"), ("pyproject.toml", "tool.pytest.ini_options"),
                  ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


def pytest_table(text: str | None, name: str, section: str) -> Mapping | None:
    """The pytest table of one config file's text, or None (absent, no such table, unparsable)."""
    if text is None:
        return None
    if name.endswith(".toml"):
        try:
            table: object = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
        for key in section.split("."):
            table = table.get(key) if isinstance(table, dict) else None
        if section == "tool.pytest" and isinstance(table, dict):
            table = {k: v for k, v in table.items() if k != "ini_options"} or None
        return table if isinstance(table, dict) else None
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return dict(parser[section]) if parser.has_section(section) else None


def pytest_tables(read: Callable[[str], str | None]) -> Iterator[tuple[str, Mapping]]:
    """(file name, its pytest table) for each config file ``read(name)`` gives text of, in pytest's order."""
    for name, section in PYTEST_CONFIGS:
        table = pytest_table(read(name), name, section)
        if table is not None:
            yield name, table
