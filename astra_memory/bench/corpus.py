"""Play a bundled scenario's scripted solution without the agent, to check it and to build cases.

The retrieval cases and the scenario check both need the same two facts about a scenario: what
its tests print on the untouched template (the failure a session observes first), and whether the
scripted ``apply_edit`` steps, applied through the same confined ``Workspace.apply_edit`` the
agent's edit node uses, make every test pass. Running the tests goes through
``astra_memory.testrun.run.run_tests`` with the scenario's own environment, exactly as ``observe`` does.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from astra_memory.scenarios import Scenario
from astra_memory.testrun.run import TestRun, run_tests
from astra_memory.workspace.files import Workspace


@dataclass
class SolvedScenario:
    """A scenario's failing run on the template, its scripted fix, and the run after the fix."""
    scenario: Scenario
    before: TestRun
    after: TestRun | None
    edits: list[dict] = field(default_factory=list)  # path, diff
    finish: dict = field(default_factory=dict)  # fix_description, error_type
    problem: str = ""  # why the solution could not be applied, if it could not

    @property
    def diff(self) -> str:
        return "".join(e["diff"] for e in self.edits)

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(e["path"] for e in self.edits))


def _portable(output: str, workspace: Path) -> str:
    """Drop the temporary workspace path from test output so the text does not depend on where it ran."""
    return output.replace(str(workspace.resolve()) + "/", "").replace(str(workspace.resolve()), ".")


def solve(scenario: Scenario, workdir: Path | None = None) -> SolvedScenario:
    """Run the template's tests, apply the scripted edits in a fresh copy, run the tests again."""
    owned = workdir is None
    base = Path(tempfile.mkdtemp(prefix=f"astra-solve-{scenario.name}-")) if owned else Path(workdir)
    try:
        workspace = scenario.copy_to(base / "project")
        before = run_tests(workspace, scenario.test_command, env=scenario.env)
        before = _replace_output(before, _portable(before.output, workspace))
        finish = next((s["args"] for s in reversed(scenario.solution) if s["tool"] == "finish"), {})
        ws = Workspace(workspace, protected=scenario.protected)
        edits = []
        for step in scenario.solution:
            if step["tool"] != "apply_edit":
                continue
            try:
                record = ws.apply_edit(step["args"]["path"], step["args"]["old_text"], step["args"]["new_text"])
            except Exception as exc:  # noqa: BLE001 - reported, the check fails on it
                return SolvedScenario(scenario, before, None, edits, dict(finish), f"{type(exc).__name__}: {exc}")
            edits.append({"path": record.path, "diff": record.diff})
        after = run_tests(workspace, scenario.test_command, env=scenario.env)
        after = _replace_output(after, _portable(after.output, workspace))
        return SolvedScenario(scenario, before, after, edits, dict(finish))
    finally:
        if owned:
            shutil.rmtree(base, ignore_errors=True)


def _replace_output(run: TestRun, output: str) -> TestRun:

    return replace(run, output=output)


def solve_all(scenarios: Iterable[Scenario], *, workers: int = 2) -> list[SolvedScenario]:
    """Solve several scenarios in parallel threads (each test run is its own subprocess)."""
    items = list(scenarios)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(solve, items))
