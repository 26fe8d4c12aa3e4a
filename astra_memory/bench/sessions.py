"""Sessions bench: the origin story's five-session experiment, and one family run with memory growing.

**Five sessions on beta.** Session 1 runs scenario beta on an empty memory and stores its
confirmed fix. Sessions 2..N each run beta again on a fresh workspace and a new thread, starting
with only session 1's record: whatever a later session stored is deleted before the next one
starts. The question per session: was session 1's record found by the mandatory memory search,
before the first edit (rank, score)? And what did the session cost (model requests, tool calls,
wall time), and do the original, untouched tests pass on its fixed tree?

**Family run.** All scenarios of one bug family in sequence on one memory that keeps every
confirmed fix: session k starts with the k-1 fixes of its siblings (other projects, same kind of
bug).

Everything goes through the library a user's session uses: ``open_agent``, ``scenario_task``,
``start_session``; "original tests" is the confirm node's run in a fresh copy of the project. With the scripted model (the default) the request
and tool-call counts are fixed by each scenario's script, so they show the harness is the same
in every session, not that memory saved work; ``--model`` runs a live model instead.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from astra_memory.bench.common import machine_info, make_progress
from astra_memory.context import Context
from astra_memory.errors import ScenarioError
from astra_memory.events import read_events
from astra_memory.nodes.report import summarize
from astra_memory.scenarios import list_scenarios, load_scenario
from astra_memory.session.demo import first_action_after_memory
from astra_memory.session.run import (
    new_thread_id,
    open_agent,
    scenario_task,
    start_session,
)
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import make_embeddings

DEFAULT_SCENARIO = "beta"


def _session_row(agent, scenario, settings, thread_id: str, model: str, context) -> dict[str, Any]:

    task = scenario_task(scenario, settings, thread_id, model=model)
    started = time.perf_counter()
    final = start_session(agent, task, context=context)
    wall = time.perf_counter() - started
    summary = summarize(final)
    run_dir = Path(task["run_dir"])
    fresh = summary["confirm"] or {}  # the confirm node's fresh-copy run (nodes/confirm.py)
    return {
        "scenario": scenario.name,
        "project": scenario.project,
        "thread_id": thread_id,
        "status": summary["status"],
        "hits": summary["memory_hits"],
        "memory_searched_before_any_read_or_edit": first_action_after_memory(read_events(run_dir)),
        "model_requests": summary["model_requests"],
        "tool_calls": summary["tool_calls"],
        "test_runs": summary["test_runs"],
        "wall_time_s": round(wall, 3),
        "stored_memory_id": summary["stored_memory_id"],
        "original_tests_passed": bool(fresh.get("passed")),
        "original_tests_outcome": (fresh.get("outcome") or fresh.get("reason")
                                   or "no fresh-copy run (no passing fix)"),
    }


def _rank_of(hits: list[dict], memory_id: str | None) -> tuple[int | None, float | None]:
    for position, hit in enumerate(hits, start=1):
        if hit["memory_id"] == memory_id:
            return position, hit["score"]
    return None, None


def five_sessions(home: Path, *, sessions: int, scenario_name: str, model: str, embeddings: str,
                  progress) -> dict[str, Any]:
    """Session 1 stores beta's fix; sessions 2..N start from that one record only."""
    scenario = load_scenario(scenario_name)
    settings = Settings(home=home, embeddings=embeddings)
    rows: list[dict[str, Any]] = []
    task = progress.add_task(f"sessions: {sessions} x {scenario_name}", total=sessions)
    with open_agent(settings) as agent:
        first_id: str | None = None
        for number in range(1, sessions + 1):
            if first_id is not None:  # later sessions' records go before the next session starts
                for record in list(agent.memory.iter_records()):
                    if record.memory_id != first_id:
                        agent.memory.delete(record.memory_id)
            in_memory = agent.memory.count()
            row = _session_row(agent, scenario, settings, new_thread_id(f"s{number}"), model, Context(model=model, replay=False))
            rank, score = _rank_of(row["hits"], first_id)
            row.update(session=number, records_in_memory=in_memory, session1_rank=rank, session1_score=score,
                       retrieved_before_first_edit=rank is not None and row["memory_searched_before_any_read_or_edit"])
            if number == 1:
                first_id = row["stored_memory_id"]
            rows.append(row)
            progress.advance(task)
    return {"scenario": scenario_name, "sessions": rows, "session1_memory_id": first_id}


def family_run(home: Path, *, family: str, model: str, embeddings: str, progress) -> dict[str, Any]:
    """Every scenario of ``family`` in name order, one memory that keeps each confirmed fix."""
    members = [s for s in list_scenarios() if s.family == family]
    if not members:
        known = sorted({s.family for s in list_scenarios()})
        raise ScenarioError(f"no bundled scenario in family {family!r}; families: {', '.join(known)}")
    settings = Settings(home=home, embeddings=embeddings)
    rows: list[dict[str, Any]] = []
    stored: dict[str, str] = {}  # memory id -> scenario that stored it
    task = progress.add_task(f"sessions: family {family} ({len(members)} scenarios)", total=len(members))
    with open_agent(settings) as agent:
        for scenario in members:
            in_memory = agent.memory.count()
            row = _session_row(agent, scenario, settings, new_thread_id(scenario.name[:20]), model,
                               Context(model=model, replay=False))
            best = row["hits"][0] if row["hits"] else None
            row.update(records_in_memory=in_memory, hits_from=[stored.get(h["memory_id"], "?") for h in row["hits"]],
                       best_score=best["score"] if best else None,
                       best_from=stored.get(best["memory_id"]) if best else None,
                       retrieved_before_first_edit=bool(row["hits"]) and row["memory_searched_before_any_read_or_edit"])
            if row["stored_memory_id"]:
                stored[row["stored_memory_id"]] = scenario.name
            rows.append(row)
            progress.advance(task)
    return {"family": family, "sessions": rows}


def run_sessions(*, sessions: int = 5, scenario: str = DEFAULT_SCENARIO, family: str | None = None,
                 model: str = "scripted", data_dir: Path, progress=None,
                 embeddings: str | None = None) -> dict[str, Any]:
    """Both experiments, each in its own fresh data directory under ``data_dir``."""
    if sessions < 1:
        raise ValueError("--sessions must be at least 1")
    embeddings = embeddings or Settings().embeddings
    family = family or load_scenario(scenario).family
    data_dir = Path(data_dir)
    for sub in ("five-sessions", "family-run"):
        shutil.rmtree(data_dir / sub, ignore_errors=True)  # only our own folders: a fresh, empty memory
    progress = progress or make_progress(False)
    # Load the embedding model before session 1 (once per process), so that session 1's wall time
    # is a session's, comparable with the others; the load is reported on its own.

    loading = time.perf_counter()
    make_embeddings(embeddings, Settings().embedding_model_path).embed_query("warm-up")
    model_load_s = round(time.perf_counter() - loading, 2)
    started = time.perf_counter()
    with progress:
        five = five_sessions(data_dir / "five-sessions", sessions=sessions, scenario_name=scenario, model=model,
                             embeddings=embeddings, progress=progress)
        fam = family_run(data_dir / "family-run", family=family, model=model, embeddings=embeddings,
                         progress=progress)
    return {"bench": "sessions", "model": model, "scripted": model == "scripted", "embeddings": embeddings,
            "min_score": Context().min_score,
            "five_sessions": five, "family_run": fam, "data_dir": str(data_dir), "model_load_s": model_load_s,
            "wall_time_s": round(time.perf_counter() - started, 2), "machine": machine_info()}
