"""prepare: the graph's entry. Checks the input and completes the task (astra_memory/tasks.py).

A minimal input (``{"task": {"scenario": "alpha"}}``, or a workspace and a test command) gets its
session id from the thread id, its run directory, a fresh scenario copy and the defaults here, so
LangGraph Studio and scripts start a session with the same two lines the CLI builds for them.
Bad input stops the run before anything touches a file, with a message naming the field.
"""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.nodes.common import context_of
from astra_memory.settings import Settings
from astra_memory.state import STATE_VERSION, AgentState
from astra_memory.tasks import TaskInputError, complete_task, interpreter_note


def prepare(state: AgentState, config: RunnableConfig, runtime: Runtime[Context]) -> dict:
    if state.get("test_runs") or state.get("status"):
        raise TaskInputError(
            f"this thread already ran a session (status {state.get('status') or 'unfinished'}): start a new "
            "thread for a new task, or resume this one without input")
    thread_id = (config.get("configurable") or {}).get("thread_id")
    task = complete_task(state.get("task"), thread_id=str(thread_id) if thread_id else None,
                         settings=Settings(), context=context_of(runtime))
    task = {**task, "state_version": STATE_VERSION}
    emit(task.get("run_dir"), "prepare", scenario=task.get("scenario"), project=task.get("project"),
         project_id=task.get("project_id"),
         model=task.get("model"), approve_edits=task.get("approve_edits"),
         interpreter=interpreter_note(task))
    return {"task": task}
