"""The main job: three sessions, two projects, one memory.

Session alpha fixes the CORS origins bug and stores the confirmed fix. Session beta, a new
thread on a different project with no shared conversation, must find alpha's fix in its
mandatory memory search before it reads or edits any file; then it fixes its own bug and stores
that fix too. Session alpha-again meets alpha's bug once more, in a copy of alpha's project whose
file has changed (new lines above the bug): the replay node applies alpha's confirmed diff at its
new offset and the tests pass, so it is fixed with 0 model requests and counted as a confirmation
of alpha's record. Each fix is stored only after the graph's confirm node re-ran the scenario's
original tests in a fresh copy of the project with only the session's edits; the evidence reports
that run.
"""

from __future__ import annotations

import json
import shlex
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from astra_memory.context import Context
from astra_memory.events import read_events
from astra_memory.nodes.report import summarize
from astra_memory.scenarios import load_scenario
from astra_memory.session.hints import program
from astra_memory.session.run import (
    OnStart,
    OnUpdate,
    new_thread_id,
    open_agent,
    scenario_task,
    start_session,
)
from astra_memory.settings import Settings

DEMO_SCENARIOS = ("alpha", "beta")
RECURRING = ("alpha-again", "alpha")  # (session label, scenario): alpha's bug in a changed copy
CHANGED_FILE = "app/settings.py"
CHANGE = ("# This copy of corsgate has changed since alpha's fix: these lines are new, so the\n"
          "# code the fix touches sits further down the file than it did.\n")


def change_copy(workspace: Path) -> None:
    """Make the recurring session's copy differ from the one alpha fixed (other line offsets)."""
    target = Path(workspace) / CHANGED_FILE
    target.write_text(CHANGE + target.read_text(encoding="utf-8"), encoding="utf-8")


def first_action_after_memory(events: list[dict[str, Any]]) -> bool:
    """True when the memory search event precedes every file read and edit of the session."""
    seen_memory = False
    for event in events:
        if event["event"] == "memory_search":
            seen_memory = True
        if event["event"] in ("tool", "edit", "edit_refused") and not seen_memory:
            return False
    return seen_memory


def demo_memory_note(data_dir: str | Path) -> str:
    """Where the demo's memory is and how to use it: the demo never writes your own memory, so a
    later ``run alpha`` finds nothing unless it is pointed at the demo's data or its fixes are imported.
    Its first line is prose; each command after it starts a line of its own, ``ASTRA_HOME=...`` on
    its own line ended by `` \\`` (at 80 columns a terminal's wrap cut the one-line form mid-word)."""
    home, me = shlex.quote(str(data_dir)), program()
    at = f"    ASTRA_HOME={home} \\\n        "
    return (f"the demo kept its own memory in {data_dir} (your sessions' memory is untouched).\n"
            f"To use it:\n{at}{me} run alpha\n"
            f"or copy its fixes into yours:\n{at}{me} memory export demo-fixes.jsonl\n"
            f"    {me} memory import demo-fixes.jsonl")


def run_demo(settings: Settings, *, model: str = "scripted", context: Context | None = None,
             on_session: OnUpdate | None = None, on_update: OnUpdate | None = None,
             on_start: OnStart | None = None) -> dict[str, Any]:
    """Run the demo (alpha, beta, alpha again) in a fresh data directory under ``settings.home``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    demo_home = settings.home / "demo" / f"{stamp}-{new_thread_id('run')[4:]}"
    demo_settings = Settings(home=demo_home, embeddings=settings.embeddings,
                             embedding_model_path=settings.embedding_model_path,
                             database_url=None)  # always a fresh local memory, even on a team setup
    sessions = []
    started = time.monotonic()
    with open_agent(demo_settings) as agent:
        for name, scenario_name in [*((n, n) for n in DEMO_SCENARIOS), RECURRING]:
            scenario = load_scenario(scenario_name)
            thread_id = new_thread_id(name)
            if on_session:
                on_session(name, {"thread_id": thread_id})
            session_started = time.monotonic()
            task = scenario_task(scenario, demo_settings, thread_id, model=model)
            if name != scenario_name:
                change_copy(Path(task["workspace"]))
            final = start_session(agent, task, context=context or Context(model=model), on_update=on_update,
                                  on_start=on_start)
            summary = summarize(final)
            run_dir = Path(task["run_dir"])
            fresh = summary["confirm"] or {}  # the confirm node's fresh-copy run (nodes/confirm.py)
            sessions.append({
                "scenario": name,
                "thread_id": thread_id,
                "status": summary["status"],
                "memory_hits_before_first_edit": [
                    {"memory_id": h["memory_id"], "score": h["score"], "session_id": h["session_id"]}
                    for h in summary["memory_hits"]
                ],
                "memory_searched_before_any_read_or_edit": first_action_after_memory(read_events(run_dir)),
                "model_requests": summary["model_requests"],
                "tool_calls": summary["tool_calls"],
                "cost_usd": summary["cost_usd"],
                "stored_memory_id": summary["stored_memory_id"],
                "replayed_memory_id": summary["replayed_memory_id"],
                "original_tests_passed": bool(fresh.get("passed")),
                "original_tests_outcome": (fresh.get("outcome") or fresh.get("reason")
                                           or "no fresh-copy run (no passing fix)"),
                "wall_time_s": round(time.monotonic() - session_started, 2),
                "run_dir": str(run_dir),
            })
    evidence = {
        "sessions": sessions,
        "model": model,
        "scripted": model == "scripted",
        "embeddings": settings.embeddings,
        "data_dir": str(demo_home),
        "wall_time_s": round(time.monotonic() - started, 2),
        "cost_usd": round(sum(s["cost_usd"] for s in sessions), 6),
    }
    (demo_home / "evidence.json").write_text(json.dumps(evidence, indent=2), encoding="utf-8")
    return evidence
