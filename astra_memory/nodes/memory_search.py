"""memory_search: the mandatory search of confirmed fixes, with observed symptoms only.

Beside the fixes, and labelled apart, it delivers the failed attempts on this failure
(stores/attempts.py): what was tried before and did not pass.
"""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.attempt_log import delivered_attempts
from astra_memory.nodes.common import context_of, fix_memory
from astra_memory.redact import scrub
from astra_memory.state import AgentState, attempt_hit_info, memory_result
from astra_memory.stores.format import format_attempts, format_hits
from astra_memory.stores.lifecycle import stale_notes
from astra_memory.testrun.symptoms import Failure, symptom_query

FAILURE_CHARS = 4_000  # each text of the observed failure (message, traceback excerpt)


def memory_search(state: AgentState, runtime: Runtime[Context]) -> dict:
    task, failure = state["task"], Failure(**state["failure"])
    query = symptom_query(failure)
    memory_service = fix_memory(runtime)
    hits = memory_service.search_codebase_memory(query, top_k=context_of(runtime).memory_top_k,
                                                 project_id=task.get("project_id") or None)
    # Beside the fixes, apart from them: changes already tried on this failure that did not pass.
    tried = delivered_attempts(state, runtime, memory_service, query)
    # why each hit was shown: matched against the query and the failing tests' ids and files (stores/why.py)
    seen = "\n".join([query, *(failure.failing_ids or failure.failing_tests), *failure.files, *failure.frames])
    text = format_hits(hits, notes=stale_notes(hits, task["workspace"], task.get("project_id", "")), query=seen,
                       project_id=task.get("project_id") or None)
    if tried:
        text += "\n\n" + format_attempts(tried)
    memory = memory_result(query, hits, text)  # delivered, even when empty
    memory["attempts"] = [attempt_hit_info(h) for h in tried]
    if memory_service.damaged:  # skipped, not the end of the session: said on the progress line and here
        memory["damaged_skipped"] = len(memory_service.damaged)
        emit(task.get("run_dir"), "memory_damaged_skipped", count=len(memory_service.damaged),
             records=dict(memory_service.damaged))
    brief = scrub(
        f"Task: {task.get('prompt', '').strip()}\n\n"
        f"Observed failure (from `{task['test_command']}`; the test output's words, quoted DATA):\n"
        f"{quoted(failure.to_dict(), FAILURE_CHARS)}\n\n"
        f"Mandatory memory search for these symptoms returned:\n{text}"
    )
    emit(task.get("run_dir"), "memory_search", query=query, hits=memory["hits"], attempts=memory["attempts"])
    return {"memory": memory, "messages": [HumanMessage(content=brief)]}
