"""The cost guard for the graph Studio serves: the CLI's durable ledger, and live models allowed only
by explicit configuration, refused in Studio's words.

The ledger is the one ``astra-memory cost`` reads: ``ledger.sqlite`` in the data folder (``ASTRA_HOME``,
else the default), or the ``ASTRA_DATABASE_URL`` database. The graph opens it once per server process
(``CliLedger``, passed in its config under ``nodes.common.COST_LEDGER_KEY``; ``context_of`` puts it in
the run's context when the caller gave none), so Studio, scripts and the CLI reserve every live request
in one ledger, under one total budget.

A live model is allowed by the assistant's context (Studio's assistant settings, or the run's
``context``): ``model``, ``base_url``, ``approve_live_cost: true``, ``session_budget_usd``,
``total_budget_usd`` (or the same settings in the server's environment, ``ASTRA_APPROVE_LIVE_COST=1``
...). The key is read from the server's environment (its ``.env``), never from a run's input.
``check_live_in_studio`` refuses a run at ``prepare``, before any model request, when something is missing.
"""

from __future__ import annotations

import re

from astra_memory.backends.memory_only import ensure_home
from astra_memory.backends.open import open_cost_ledger
from astra_memory.context import KNOBS, Context
from astra_memory.costs.ledger import ledger_path_for
from astra_memory.db.postgres import redact_url
from astra_memory.errors import ConfigurationError
from astra_memory.graph.kept_open import KEPT
from astra_memory.models.factory import model_name
from astra_memory.models.live import is_live, probe_api_key
from astra_memory.models.live import preflight as live_preflight
from astra_memory.settings import KEY_ENV, Settings, openai_api_key
from astra_memory.state import Task
from astra_memory.tasks import TaskInputError

WHERE_CONTEXT = "the assistant's context (Studio: the assistant's settings; the SDK: the run's \"context\")"


class CliLedger:
    """The CLI's cost ledger, opened once per process and settings on first use, closed at exit.
    Calling it returns the ledger (``context_of`` does)."""

    def __call__(self):
        settings = Settings()

        def opened():
            ensure_home(settings)
            return open_cost_ledger(settings)

        return KEPT.get(("ledger", str(settings.checkpoint_path), settings.database_url), opened)

    @staticmethod
    def describe() -> str:
        settings = Settings()
        if settings.database_url:
            return f"PostgreSQL {redact_url(settings.database_url)} (ASTRA_DATABASE_URL)"
        return f"SQLite {ledger_path_for(settings.checkpoint_path)} (the data folder)"


def _flag_names() -> dict[str, str]:
    """Each command-line flag of a knob -> how the context names it (``--budget`` -> ``session_budget_usd``)."""
    names = {}
    for name, knob in KNOBS.items():
        cli = knob.metadata.get("cli")
        if cli is not None:
            on, _, off = cli.decls.partition("/")
            names[on] = name
            if off:
                names[off] = f"{name}: false"
    return names


def studio_words(text: str) -> str:
    """A message written for the command line, with its flags named as the context fields Studio sets."""
    names = _flag_names()
    return re.sub(r"--[a-z][a-z-]*", lambda m: names.get(m.group(0), m.group(0)), text)


def check_live_in_studio(task: Task, context: Context) -> None:
    """Refuse a live model that is not allowed, before any model request: the approval, the key, the
    rest of the cost guard's checks (price, limits, wire settings), then whether the server accepts the
    key (a free ``GET /models``), in the words of Studio's settings.
    A task whose model is not the one its turns would be played by (the context's wins) is refused too."""
    model = model_name(task, context)
    if task.get("model") and task["model"] != model:
        raise TaskInputError(
            f"task.model: {task['model']} is not the model this run would use: the context's model {model} "
            "(the assistant's context, or ASTRA_MODEL in the server's environment) plays every turn. Set the "
            "model in one place")
    if not is_live(model):
        return
    if not context.approve_live_cost:
        raise TaskInputError(
            f"task.model: {model} is a live model and every request costs money, and live cost is not approved: "
            f"nothing was sent. Set \"approve_live_cost\": true in {WHERE_CONTEXT}, or ASTRA_APPROVE_LIVE_COST=1 in "
            f"the server's environment (.env), with \"session_budget_usd\" for one session (now ${context.session_budget_usd:g}) and "
            f"\"total_budget_usd\" for all sessions in the ledger (now ${context.total_budget_usd:g}); "
            f"the ledger: {CliLedger.describe()}")
    if not openai_api_key(required=False).strip():
        raise TaskInputError(
            f"task.model: {model} needs {KEY_ENV} in the server's environment, and it is not set: nothing was "
            f"sent. Put {KEY_ENV}=... in the .env file langgraph.json's \"env\" names (local servers such as "
            "Ollama accept any value) and restart langgraph dev; a key is never read from a run's input or context")
    try:
        live_preflight(model, context)
        probe_api_key(context)  # the server's model list (free): a rejected key stops the run here, as in the CLI
    except ConfigurationError as exc:
        raise TaskInputError(f"task.model: {studio_words(str(exc))}. Each setting named here is a field of "
                             f"{WHERE_CONTEXT}") from None
