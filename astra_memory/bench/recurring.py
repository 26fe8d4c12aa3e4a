"""`astra-memory bench recurring`: what memory saves when a bug comes back.

For every bundled family (scenarios in name order): session 1 fixes the first scenario; session 2
meets the same bug again in a copy of the same project whose edited file has changed (new lines
at its top, so the fix sits at other line offsets); session 3 meets a related bug (the family's
second scenario) in another project. Three modes, each on its own fresh data directory:

- ``memory_off``: every session on an empty memory (a fresh data directory per session);
- ``memory_on``: one memory across the three sessions, replay switched off (the model is asked);
- ``memory_replay``: one memory, replay on (the default product).

Per session: model requests, tool calls, test runs, wall time, status, and the memory replayed.
With the scripted model the request counts of a session that reaches the model are fixed by its
script: the figure that changes with memory is whether the model is reached at all.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from astra_memory.bench.common import write_table_report
from astra_memory.context import Context
from astra_memory.nodes.report import summarize
from astra_memory.scenarios import Scenario, list_scenarios
from astra_memory.session.run import (
    new_thread_id,
    open_agent,
    scenario_task,
    start_session,
)
from astra_memory.settings import Settings

MODES = ("memory_off", "memory_on", "memory_replay")
CHANGE = "# This copy has changed since the first fix: new lines above the code the fix touches.\n# (bench recurring)\n"
ORIGIN_STORY = {"model_requests": 7, "tool_calls": 9}  # per session, ORIGIN.md


def edited_file(scenario: Scenario) -> str | None:
    for step in scenario.solution:
        if step.get("tool") == "apply_edit":
            return step["args"]["path"]
    return None


def change_copy(workspace: Path, rel: str) -> None:
    target = workspace / rel
    target.write_text(CHANGE + target.read_text(encoding="utf-8"), encoding="utf-8")


def _session(agent, settings: Settings, scenario: Scenario, label: str, model: str, replay: bool,
             changed: bool) -> dict[str, Any]:
    thread_id = new_thread_id(label[:24])
    task = scenario_task(scenario, settings, thread_id, model=model)
    if changed and edited_file(scenario):
        change_copy(Path(task["workspace"]), edited_file(scenario))
    started = time.perf_counter()
    final = start_session(agent, task, context=Context(model=model, replay=replay))
    wall = time.perf_counter() - started
    summary = summarize(final)
    return {"session": label, "scenario": scenario.name, "status": summary["status"],
            "model_requests": summary["model_requests"], "tool_calls": summary["tool_calls"],
            "test_runs": summary["test_runs"], "wall_time_s": round(wall, 3),
            "replayed_memory_id": summary["replayed_memory_id"], "memory_hits": len(summary["memory_hits"]),
            # the confirm node's run: the scenario's original tests in a fresh copy with only the session's edits
            "original_tests_passed": bool((summary["confirm"] or {}).get("passed"))}


def run_family(family: str, members: list[Scenario], data_dir: Path, *, model: str, embeddings: str) -> dict:
    plan = [("first", members[0], False), ("same bug, changed copy", members[0], True)]
    if len(members) > 1:
        plan.append(("related bug, other project", members[1], False))
    modes: dict[str, list[dict]] = {}
    for mode in MODES:
        rows = []
        for number, (label, scenario, changed) in enumerate(plan, start=1):
            home = data_dir / family / mode / (f"s{number}" if mode == "memory_off" else "shared")
            settings = Settings(home=home, embeddings=embeddings)
            with open_agent(settings) as agent:
                rows.append(_session(agent, settings, scenario, f"{family}-{number}", model,
                                     replay=mode == "memory_replay", changed=changed) | {"label": label})
        modes[mode] = rows
    return {"family": family, "scenarios": [m.name for m in members[:2]], "modes": modes}


def run_recurring(data_dir: Path, *, model: str = "scripted", embeddings: str = "minilm",
                  families: list[str] | None = None, progress=None) -> dict[str, Any]:
    by_family: dict[str, list[Scenario]] = {}
    for scenario in sorted(list_scenarios(), key=lambda s: s.name):
        by_family.setdefault(scenario.family, []).append(scenario)
    chosen = sorted(families or by_family)
    task = progress.add_task("recurring: families", total=len(chosen)) if progress else None
    results = []
    for family in chosen:
        results.append(run_family(family, by_family[family], data_dir, model=model, embeddings=embeddings))
        if progress:
            progress.advance(task)
    return {"model": model, "embeddings": embeddings, "origin_story_per_session": ORIGIN_STORY,
            "families": results, "totals": totals(results)}


def totals(results: list[dict]) -> dict[str, dict[str, Any]]:
    """Per mode and session position: sums over families (docs/results.md's table)."""
    out: dict[str, dict[str, Any]] = {}
    for mode in MODES:
        for fam in results:
            for position, row in enumerate(fam["modes"][mode], start=1):
                cell = out.setdefault(mode, {}).setdefault(str(position), {
                    "label": row["label"], "sessions": 0, "fixed": 0, "model_requests": 0, "tool_calls": 0,
                    "test_runs": 0, "wall_time_s": 0.0, "replayed": 0})
                cell["sessions"] += 1
                cell["fixed"] += row["status"] == "fixed" and row["original_tests_passed"]
                cell["replayed"] += bool(row["replayed_memory_id"])
                for key in ("model_requests", "tool_calls", "test_runs", "wall_time_s"):
                    cell[key] = round(cell[key] + row[key], 3)
    return out


def write_recurring(result: dict, folder: Path, command: str) -> dict[str, Any]:
    lines = [f"# Recurring bugs (`{command}`)", "",
             f"Model `{result['model']}`, embeddings `{result['embeddings']}`; origin story: "
             f"{ORIGIN_STORY['model_requests']} requests / {ORIGIN_STORY['tool_calls']} tool calls per session.", "",
             "| mode | session | sessions | fixed | replayed | model requests | tool calls | test runs | wall s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for mode, positions in result["totals"].items():
        for cell in positions.values():
            lines.append(f"| {mode} | {cell['label']} | {cell['sessions']} | {cell['fixed']} | {cell['replayed']} | "
                         f"{cell['model_requests']} | {cell['tool_calls']} | {cell['test_runs']} | {cell['wall_time_s']:.1f} |")
    return write_table_report(folder, "recurring", result, command, lines)
