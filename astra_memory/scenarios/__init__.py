"""Scenarios: small projects with a known bug, their acceptance tests and a scripted solution.

Templates are never edited in place: every run copies ``project/`` to a fresh workspace.
"""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astra_memory.errors import ScenarioError

BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"
_IGNORED = shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc")
# Bundled projects need no pytest plugins; not loading the ones installed beside us (langsmith's,
# anyio's) makes each test run about 2 s faster. A scenario's own [env] table overrides this.
DEFAULT_SCENARIO_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
# When a scenario joined the corpus, for the retrieval bench: "design" scenarios existed while the
# retrieval was being designed; "held-out" ones were written afterwards without looking at results.
COHORTS = ("design", "held-out")


@dataclass(frozen=True)
class Scenario:
    name: str
    family: str
    project: str
    title: str
    prompt: str
    test_command: str
    root: Path
    solution: list[dict[str, Any]] = field(default_factory=list)
    protected: tuple[str, ...] = ("tests",)
    env: dict[str, str] = field(default_factory=dict)
    cohort: str = "design"

    @property
    def template(self) -> Path:
        return self.root / "project"

    def copy_to(self, destination: Path) -> Path:
        """Copy the template to a fresh ``destination`` (which must not exist yet)."""
        if destination.exists():
            raise ScenarioError(f"{destination} already exists; a scenario is always copied to a fresh folder")
        # symlinks stay symlinks (which the tools refuse): a link out must not become a copy of its target
        shutil.copytree(self.template, destination, ignore=_IGNORED, symlinks=True)
        return destination


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A bundled scenario by name, or a scenario folder by path."""
    candidate = Path(name_or_path)
    root = candidate if (candidate / "scenario.toml").is_file() else BUNDLED_DIR / str(name_or_path)
    toml_path = root / "scenario.toml"
    if not toml_path.is_file():
        known = ", ".join(s.name for s in list_scenarios()) or "(none)"
        raise ScenarioError(f"no scenario {str(name_or_path)!r}: not a bundled name ({known}) "
                            "and not a folder with scenario.toml")
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{toml_path} is not valid TOML: {exc}") from None
    missing = [k for k in ("name", "family", "prompt", "test_command") if not data.get(k)]
    if missing:
        raise ScenarioError(f"{toml_path} lacks {', '.join(missing)}")
    project = root / "project"
    tests_dir = project / "tests"
    if not tests_dir.is_dir() or not any(tests_dir.rglob("test*.py")):
        raise ScenarioError(f"scenario {data['name']!r} has no tests: expected test files under {tests_dir}")
    cohort = data.get("cohort", "design")
    if cohort not in COHORTS:
        raise ScenarioError(f"{toml_path}: cohort must be one of {', '.join(COHORTS)}, got {cohort!r}")
    solution = data.get("solution") or []
    for number, step in enumerate(solution, start=1):
        if not isinstance(step, dict) or "tool" not in step:
            raise ScenarioError(f"{toml_path}: solution step {number} needs a 'tool'")
    return Scenario(
        name=data["name"], family=data["family"], project=data.get("project", data["name"]),
        title=data.get("title", ""), prompt=data["prompt"].strip(), test_command=data["test_command"],
        root=root, solution=[{"tool": s["tool"], "args": dict(s.get("args", {}))} for s in solution],
        protected=tuple(data.get("protected", ["tests"])),
        env={k: str(v) for k, v in data.get("env", DEFAULT_SCENARIO_ENV).items()},
        cohort=cohort,
    )


def list_scenarios() -> list[Scenario]:
    if not BUNDLED_DIR.is_dir():
        return []
    return [load_scenario(p) for p in sorted(BUNDLED_DIR.iterdir()) if (p / "scenario.toml").is_file()]
