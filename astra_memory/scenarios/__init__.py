"""Scenarios: small projects with a known bug, their acceptance tests and a scripted solution.

Templates are never edited in place: every run copies ``project/`` to a fresh workspace.

A scripted solution plays what a model would send, through the same gates: so it states its
diagnosis (``state_diagnosis``: error type, the cause in a sentence, the files) before its first
``apply_edit``, written as a model would after reading the failure and the code and before seeing
any memory record. The retrieval bench searches with these diagnoses too (bench/retrieval.py).
"""

from __future__ import annotations

import difflib
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
DIAGNOSIS_TOOL, EDIT_TOOL = "state_diagnosis", "apply_edit"  # the graph refuses an edit before the diagnosis


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
    def diagnosis(self) -> dict[str, Any] | None:
        """The arguments of the solution's first ``state_diagnosis``, if it has one."""
        return next((step["args"] for step in self.solution if step["tool"] == DIAGNOSIS_TOOL), None)

    @property
    def template(self) -> Path:
        return self.root / "project"

    def copy_to(self, destination: Path) -> Path:
        """Copy the template to a fresh ``destination`` (which must not exist yet)."""
        if destination.exists():
            raise ScenarioError(f"{destination} already exists; a scenario is always copied to a fresh folder "
                                "(a session's: use a new thread id, or resume that thread)")
        # symlinks stay symlinks (which the tools refuse): a link out must not become a copy of its target
        shutil.copytree(self.template, destination, ignore=_IGNORED, symlinks=True)
        return destination


def scenario_names() -> list[str]:
    """The bundled scenarios' names (their folders), read without loading any of them."""
    if not BUNDLED_DIR.is_dir():
        return []
    return sorted(p.name for p in BUNDLED_DIR.iterdir() if (p / "scenario.toml").is_file())


def check_scenario_name(name_or_path: str | Path) -> None:
    """A bundled name or a scenario folder, checked before anything is loaded; an unknown name is
    refused with the closest bundled names (`astra-memory scenarios` lists them all)."""
    if (Path(name_or_path) / "scenario.toml").is_file() or (BUNDLED_DIR / str(name_or_path) / "scenario.toml").is_file():
        return
    names = scenario_names()
    close = difflib.get_close_matches(str(name_or_path), names, n=3, cutoff=0.5)
    # The closest names when there are some; else every name (a Studio user has no `scenarios` command).
    hint = f"did you mean {' or '.join(close)}?" if close else f"the bundled ones: {', '.join(names)}"
    raise ScenarioError(f"no scenario {str(name_or_path)!r}: not a bundled name and not a folder with "
                        f"scenario.toml; {hint} (`astra-memory scenarios` lists them)")


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A bundled scenario by name, or a scenario folder by path."""
    candidate = Path(name_or_path)
    root = candidate if (candidate / "scenario.toml").is_file() else BUNDLED_DIR / str(name_or_path)
    toml_path = root / "scenario.toml"
    if not toml_path.is_file():
        check_scenario_name(name_or_path)  # raises, with the closest names
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
    diagnosed = False
    for number, step in enumerate(solution, start=1):
        if not isinstance(step, dict) or "tool" not in step:
            raise ScenarioError(f"{toml_path}: solution step {number} needs a 'tool'")
        diagnosed = diagnosed or step["tool"] == DIAGNOSIS_TOOL
        if step["tool"] == EDIT_TOOL and not diagnosed:
            raise ScenarioError(f"{toml_path}: solution step {number} ({EDIT_TOOL}) comes before any "
                                f"{DIAGNOSIS_TOOL} step; the agent refuses an edit before the diagnosis search, "
                                "so a scripted solution states its diagnosis first")
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
