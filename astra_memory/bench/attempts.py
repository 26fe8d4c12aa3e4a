"""`astra-memory bench attempts`: what remembering failed attempts changes (issue #24).

For every bundled scenario (or the chosen ones), with a scripted wrong first try: a change to the
file the real fix edits that leaves the bug in place (a comment line above the code the fix
replaces). Two modes, each on its own fresh data directory:

- ``attempts_off`` (``--no-attempts``): nothing is recorded, shown or refused;
- ``attempts_on`` (the default product).

Phase 1, every scenario: session 1 makes the wrong try, its tests fail, and the script ends
(``failed``). Phase 2, every scenario, in the same memory: session 2 meets the same bug in a fresh
copy and its script tries the same wrong change again, then finish, then the real fix, then finish.

Measured: of the session-2 runs, how many were shown their own scenario's session-1 attempt
before the first edit (recall), how many attempts shown were another scenario's (precision of
what was shown), how many exact repetitions were refused, and model requests and test runs per
mode. With a scripted model the requests are fixed by the script (it cannot change its plan when
told); what the gate saves is the test run of the repeated wrong change. Replay is off in both
modes, so that no stored fix ends a session before the model's turn.
"""

from __future__ import annotations

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

MODES = ("attempts_off", "attempts_on")
GUESS = "# a first guess that changes nothing (bench attempts)\n"


def _edits(scenario: Scenario) -> list[dict]:
    return [s for s in scenario.solution if s.get("tool") == "apply_edit"]


def wrong_try(scenario: Scenario) -> dict | None:
    """A change that leaves the bug in place: a comment line above the first edit's code, which must
    start a line in the template (else None: not usable here, reported)."""
    edits = _edits(scenario)
    if not edits:
        return None
    args = edits[0]["args"]
    text = (scenario.template / args["path"]).read_text(encoding="utf-8")
    at = text.find(args["old_text"])
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return None
    return {"tool": "apply_edit", "args": {**args, "new_text": GUESS + args["old_text"]}}


def _finish(scenario: Scenario) -> dict:
    return next(s for s in scenario.solution if s.get("tool") == "finish")


def _diagnosis(scenario: Scenario) -> list[dict]:
    return [s for s in scenario.solution if s.get("tool") == "state_diagnosis"][:1]


def _session(agent, settings: Settings, scenario: Scenario, label: str, script: list[dict], attempts: bool) -> dict:
    task = scenario_task(scenario, settings, new_thread_id(label[:24]))
    task["script"] = script
    final = start_session(agent, task, context=Context(replay=False, attempts=attempts))
    summary = summarize(final)
    own = set(final.get("attempt_records") or [])
    return {"scenario": scenario.name, "session": label, "status": summary["status"],
            "model_requests": summary["model_requests"], "test_runs": summary["test_runs"],
            "recorded": sorted(own), "shown": [a["attempt_id"] for a in summary["memory_attempts"]],
            "repeats_refused": len(summary["repeats_refused"])}


def run_mode(mode: str, scenarios: list[Scenario], data_dir: Path, *, embeddings: str, progress=None,
             task=None) -> dict[str, Any]:
    attempts = mode == "attempts_on"
    settings = Settings(home=data_dir / mode, embeddings=embeddings)
    first, second = [], []
    with open_agent(settings) as agent:
        for scenario in scenarios:
            wrong = wrong_try(scenario)
            first.append(_session(agent, settings, scenario, f"{scenario.name}-1",
                                  [*_diagnosis(scenario), wrong, _finish(scenario)], attempts))
            if progress:
                progress.advance(task)
        for scenario, before in zip(scenarios, first, strict=True):
            wrong = wrong_try(scenario)
            row = _session(agent, settings, scenario, f"{scenario.name}-2",
                           [*_diagnosis(scenario), wrong, _finish(scenario), *_edits(scenario), _finish(scenario)],
                           attempts)
            row["own_attempt_shown"] = bool(set(before["recorded"]) & set(row["shown"]))
            row["others_shown"] = len([a for a in row["shown"] if a not in before["recorded"]])
            second.append(row)
            if progress:
                progress.advance(task)
    return {"first": first, "second": second, "totals": totals(first, second)}


def totals(first: list[dict], second: list[dict]) -> dict[str, Any]:
    shown = sum(len(r["shown"]) for r in second)
    own = sum(r["own_attempt_shown"] for r in second)
    recorded = sum(bool(r["recorded"]) for r in first)
    return {
        "scenarios": len(second), "first_recorded": recorded,
        "second_fixed": sum(r["status"] == "fixed" for r in second),
        "recall_same_bug": round(own / recorded, 3) if recorded else None,
        "shown": shown, "shown_from_other_bugs": sum(r["others_shown"] for r in second),
        "precision_shown": round(own / shown, 3) if shown else None,
        "repeats_refused": sum(r["repeats_refused"] for r in second),
        "model_requests_second": sum(r["model_requests"] for r in second),
        "test_runs_second": sum(r["test_runs"] for r in second),
        "test_runs_all": sum(r["test_runs"] for r in first + second),
    }


def run_attempts(data_dir: Path, *, embeddings: str = "minilm", names: list[str] | None = None,
                 progress=None) -> dict[str, Any]:
    scenarios = [s for s in sorted(list_scenarios(), key=lambda s: s.name) if not names or s.name in names]
    skipped = [s.name for s in scenarios if wrong_try(s) is None]
    scenarios = [s for s in scenarios if wrong_try(s) is not None]
    task = progress.add_task("attempts: sessions", total=4 * len(scenarios)) if progress else None
    modes = {mode: run_mode(mode, scenarios, data_dir, embeddings=embeddings, progress=progress, task=task)
             for mode in MODES}
    return {"embeddings": embeddings, "scenarios": [s.name for s in scenarios], "skipped_no_wrong_try": skipped,
            "modes": modes}


def write_attempts(result: dict, folder: Path, command: str) -> dict[str, Any]:
    lines = [f"# Failed attempts remembered (`{command}`)", "",
             f"Embeddings `{result['embeddings']}`; {len(result['scenarios'])} scenarios, replay off; "
             f"skipped (no usable wrong try): {', '.join(result['skipped_no_wrong_try']) or 'none'}.", "",
             "| mode | session-1 attempts recorded | session 2: own attempt shown (recall) | attempts shown | "
             "from other bugs | precision | repeats refused | session 2 fixed | model requests (s2) | "
             "test runs (s2) | test runs (all) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for mode, data in result["modes"].items():
        t = data["totals"]
        lines.append(f"| {mode} | {t['first_recorded']}/{t['scenarios']} | {t['recall_same_bug']} | {t['shown']} | "
                     f"{t['shown_from_other_bugs']} | {t['precision_shown']} | {t['repeats_refused']} | "
                     f"{t['second_fixed']}/{t['scenarios']} | {t['model_requests_second']} | {t['test_runs_second']} | "
                     f"{t['test_runs_all']} |")
    return write_table_report(folder, "attempts", result, command, lines)
