"""store: write the confirmed fix to memory, with the exact outcome string of the fresh-copy run.

Reached only through confirm (graph/builder.py); ``require_fix_confirmed`` checks again that both the
workspace run and the fresh-copy run passed for exactly the current edits.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.events import emit
from astra_memory.nodes.common import fix_memory
from astra_memory.rules.gates import require_fix_confirmed
from astra_memory.state import AgentState
from astra_memory.stores.lifecycle import supersede_earlier
from astra_memory.testrun.symptoms import Failure, symptom_query


def store(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_fix_confirmed(state)
    task, fix, edits = state["task"], state["fix"] or {}, state.get("edits") or []
    confirmed = state["confirm"]  # the fresh copy's run: its outcome is what memory keeps
    replayed = (state.get("replay") or {}).get("replayed")
    memory = fix_memory(runtime)
    record = memory.store_fix_memory(
        fix_description=fix["fix_description"],
        error_type=fix.get("error_type") or state["failure"]["error_type"],
        file_paths=list(dict.fromkeys(e["path"] for e in edits)),
        outcome=confirmed["outcome"],
        confirmed_outcome=confirmed["outcome"],  # verbatim, from the run itself
        symptom=symptom_query(Failure(**state["failure"])),
        diff="".join(e["diff"] for e in edits),
        session_id=task["session_id"],
        thread_id=task["session_id"],
        project=task.get("project", ""),
        model="none (replayed from memory)" if replayed else task.get("model", "scripted"),
        kind="replay" if replayed else "fix",
    )
    crash_point("store:written")
    if len(record.confirmations) == 1:  # a fix stored for the first time replaces earlier ones on its lines
        superseded = supersede_earlier(memory, record)
        if superseded:
            emit(task.get("run_dir"), "superseded", memory_id=record.memory_id, superseded=superseded)
    emit(task.get("run_dir"), "store", memory_id=record.memory_id, outcome=record.outcome)
    return {"stored_memory_id": record.memory_id, "status": "fixed",
            "reason": f"confirmed in a fresh copy of the project by {record.outcome}"
                      + (f"; replayed memory {replayed} with 0 model requests" if replayed else "")}
