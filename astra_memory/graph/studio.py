"""The compiled graph for ``langgraph dev`` / LangGraph Studio (see langgraph.json).

Studio supplies the checkpointer. The fix memory is, by default, the CLI's: the data folder's
SQLite memory (``ASTRA_HOME``, else the default data folder), or the ``ASTRA_DATABASE_URL``
PostgreSQL memory (or ``ASTRA_VECTORAI_URL``), opened once per server process on first use and
kept open. So a fix the CLI stored is found and replayed by a Studio run, and a fix confirmed in
Studio is found by ``astra-memory memory search``. ``ASTRA_STUDIO_MEMORY=server`` keeps the
server's own store (``.langgraph_api/``, langgraph.json ``store``) instead, apart from the CLI's.

The graph passes the opener in its config (``nodes.common.MEMORY_STORE_KEY``), which ``fix_memory``
prefers to ``runtime.store`` (langgraph dev always passes its own store there). Its ``prepare``
says which memory the run uses, in the first update: ``task.fix_memory`` (and the ``memory`` event).

The cost guard's ledger is the CLI's too, whichever memory (``graph/studio_cost.py``): live models run
from Studio when the assistant's context allows them, and are refused at ``prepare`` otherwise.

Scripts use ``astra_memory.graph.builder`` and compile their own with their own store.
"""

from __future__ import annotations

import os

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from astra_memory.backends.base import Backend
from astra_memory.backends.open import open_backend
from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.events import emit
from astra_memory.graph.builder import build_graph
from astra_memory.graph.kept_open import KEPT
from astra_memory.graph.studio_cost import CliLedger, check_live_in_studio
from astra_memory.nodes.common import COST_LEDGER_KEY, MEMORY_STORE_KEY, context_of
from astra_memory.nodes.prepare import prepare
from astra_memory.settings import Settings
from astra_memory.state import AgentState
from astra_memory.stores.embeddings import make_embeddings

MEMORY_SETTING = "ASTRA_STUDIO_MEMORY"
CLI_MEMORY, SERVER_MEMORY = "cli", "server"  # the values of ASTRA_STUDIO_MEMORY; cli is the default


def memory_choice() -> str:
    raw = os.environ.get(MEMORY_SETTING, "").strip().lower() or CLI_MEMORY
    if raw not in (CLI_MEMORY, SERVER_MEMORY):
        raise ConfigurationError(f"{MEMORY_SETTING}={raw!r} is not one of: {CLI_MEMORY} (the CLI's fix memory, "
                                 f"the default), {SERVER_MEMORY} (the langgraph dev server's own store)")
    return raw


class CliMemory:
    """The CLI's fix memory, opened once per process and settings on first use, closed at exit.
    Calling it returns the store (``fix_memory`` does)."""

    def backend(self) -> Backend:
        settings = Settings()
        key = ("memory", str(settings.home), settings.database_url, settings.vectorai_url, settings.embeddings,
               settings.embedding_model_path)
        return KEPT.get(key, lambda: open_backend(
            settings, make_embeddings(settings.embeddings, settings.embedding_model_path), checkpointer=False))

    def __call__(self) -> BaseStore:
        return self.backend().store

    def describe(self) -> str:
        where = self.backend().memory_text  # the backend's kind, place and setting, said by its opener
        return f"the CLI's fix memory: {where}; {MEMORY_SETTING}={SERVER_MEMORY} uses the server's store instead"


SERVER_STORE_TEXT = (f"the langgraph dev server's own store ({MEMORY_SETTING}={SERVER_MEMORY}), not the CLI's fix "
                     f"memory; unset {MEMORY_SETTING} to share the CLI's")


def describe_memory(config: RunnableConfig) -> str:
    opener = (config.get("configurable") or {}).get(MEMORY_STORE_KEY)
    return opener.describe() if isinstance(opener, CliMemory) else SERVER_STORE_TEXT


def prepare_in_studio(state: AgentState, config: RunnableConfig, runtime: Runtime[Context]) -> dict:
    """``prepare``, and which fix memory the run uses in its update (the run's first) and its events.
    The memory is opened here, so a memory that cannot be opened stops the run at its first step; a
    live model that is not allowed (approval, key, price, limits) stops it here too, before any request."""
    update = prepare(state, config, runtime)
    check_live_in_studio(update["task"], context_of(runtime))
    where = describe_memory(config)
    task = {**update["task"], "fix_memory": where}
    emit(task.get("run_dir"), "memory", where=where)
    return {**update, "task": task}


def studio_graph(choice: str | None = None):
    builder = build_graph()
    del builder.nodes["prepare"]  # the same node, saying which memory the run uses (edges are by name)
    builder.add_node("prepare", prepare_in_studio)
    compiled = builder.compile()
    openers = {COST_LEDGER_KEY: CLI_LEDGER}  # the CLI's cost ledger, whichever memory
    if (choice or memory_choice()) != SERVER_MEMORY:
        openers[MEMORY_STORE_KEY] = CLI_STORE
    return compiled.with_config(configurable=openers)


CLI_STORE = CliMemory()
CLI_LEDGER = CliLedger()
graph = studio_graph()

__all__ = ["graph", "studio_graph"]
