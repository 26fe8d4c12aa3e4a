"""Shared builders for session tests: scenario tasks with custom (hostile) scripts."""

from __future__ import annotations

from pathlib import Path

from astra_memory.scenarios import load_scenario
from astra_memory.session.run import scenario_task


def call(tool: str, **args) -> dict:
    return {"tool": tool, "args": args}


def task_with_script(settings, thread_id: str, script: list[dict] | None = None, scenario: str = "alpha"):
    loaded = load_scenario(scenario)
    task = scenario_task(loaded, settings, thread_id)
    if script is not None:
        task["script"] = script
    return task


# The model states its diagnosis before its first edit (the diagnosis gate, nodes/diagnosis_search.py).
ALPHA_DIAGNOSIS = call("state_diagnosis", error_type="AssertionError",
                       cause="Comma-separated origins keep the whitespace around each entry after splitting.",
                       files=["app/settings.py"])
ALPHA_FIX = call("apply_edit", path="app/settings.py",
                 old_text='    return [origin for origin in raw.split(",") if origin]',
                 new_text='    return [origin.strip() for origin in raw.split(",") if origin.strip()]')
FINISH = call("finish", fix_description="Strip whitespace around comma-separated values.", error_type="AssertionError")


def file_text(task, rel: str) -> str:
    return (Path(task["workspace"]) / rel).read_text()
