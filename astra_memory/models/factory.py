"""Pick the chat model for a session: scripted (offline) or a live OpenAI-compatible endpoint."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.models.advice import needs_model_advice
from astra_memory.models.live import live_chat_model
from astra_memory.models.scripted import ScriptedChatModel
from astra_memory.state import Task


def model_name(task: Task, context: Context) -> str:
    return context.model or task.get("model") or "scripted"


def missing_model(task: Task, context: Context) -> str | None:
    """Why no model can play the next turn (the scripted model without a script), with the whole
    command that gets one (models/advice.py), or ``None``."""
    return needs_model_advice(task) if model_name(task, context) == "scripted" and not task.get("script") else None


def chat_model_for(task: Task, context: Context) -> BaseChatModel:
    """The model that plays the next turn. Live models get the strict tool schemas bound."""
    name = model_name(task, context)
    if name == "scripted":
        if not task.get("script"):
            raise ConfigurationError(needs_model_advice(task))
        return ScriptedChatModel(turns=list(task["script"]))
    return live_chat_model(name, context)
