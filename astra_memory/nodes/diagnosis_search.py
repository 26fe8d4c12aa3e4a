"""diagnosis_search: the second mandatory memory search, with the model's own diagnosis.

The first search (memory_search) knew only the observed symptoms. Before its first edit the model
states what it believes is wrong through ``state_diagnosis(error_type, cause, files)``; this node
searches memory with ``"<error_type>: <cause>"`` as the first search does (same memory, same top
k, same minimum score, same project, same rendering as quoted data with staleness notes), except
that its words are matched against each record's cause (the fixing session's diagnosis, or the fix
description of a record without one: ``against="cause"``, stores/memory.py), and answers the call
with the result. The edge into ``edit`` (rules/routing.py) and the edit and
approve nodes (rules/gates.require_diagnosis) require that result delivered.

A model may state a new diagnosis later (after a failing test run, say); each is searched and the
latest is kept in state. A refused call (bad arguments) delivers nothing and counts as a refused turn.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.common import (
    fix_memory,
    refuse_call,
    refuse_rest,
    reply,
    tool_step,
)
from astra_memory.redact import scrub
from astra_memory.rules.gates import require_memory
from astra_memory.state import AgentState, DiagnosisResult, memory_result
from astra_memory.stores.format import format_hits
from astra_memory.stores.lifecycle import stale_notes
from astra_memory.stores.record import diagnosis_text
from astra_memory.tools.guard import bound_text
from astra_memory.tools.registry import TOOLS, ToolCallError, ToolKind, validate_call


def diagnosis_query(error_type: str, cause: str) -> str:
    """What memory is searched with: ``"<ErrorType>: <the cause>"``, the form of the diagnoses the
    retrieval bench measures (bench/retrieval.py uses this function for the scenarios' scripted ones).
    The files stay out of the query: workspace paths are a project's own names, not the cause.
    A stored record's cause is written the same way (``FixRecord.cause_text``)."""
    return diagnosis_text(error_type, cause)


def diagnosis_search(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "diagnosis search")
    context, task, calls, stop = tool_step(state, runtime)
    if stop is not None:
        return stop
    call = calls[0]
    update: dict = {}  # its calls were counted when the reply arrived (nodes/investigate.py)
    try:
        args = validate_call(call["name"], call.get("args"))
        if TOOLS[call["name"]].kind is not ToolKind.DIAGNOSIS:  # the router sends only state_diagnosis here
            raise ToolCallError(f"{call['name']} is not a diagnosis")
    except ToolCallError as exc:
        return refuse_call(state, context, update, call, calls, exc)
    # The model's words are checkpointed and logged: scrubbed of secrets like everything else (redact.py).
    query = scrub(diagnosis_query(args.error_type, args.cause))
    hits = fix_memory(runtime).search_codebase_memory(query, top_k=context.memory_top_k, against="cause",
                                                      project_id=task.get("project_id") or None)
    text = format_hits(hits, notes=stale_notes(hits, task["workspace"], task.get("project_id", "")),
                       query=" ".join([query, *(scrub(f) for f in args.files)]), project_id=task.get("project_id") or None)
    result = DiagnosisResult(error_type=scrub(args.error_type), cause=scrub(args.cause),
                             files=[scrub(f) for f in args.files],
                             **memory_result(query, hits, text))  # delivered, even when empty
    emit(task.get("run_dir"), "diagnosis_search", query=query, files=result["files"], hits=result["hits"])
    content = (f"Memory searched with your diagnosis {quoted(query, 1_000)} returned:\n{text}\n\n"
               "You may now edit (apply_edit).")
    update.update(diagnosis=result, messages=[reply(call, bound_text(content)), *refuse_rest(calls)])
    return update
