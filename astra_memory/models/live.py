"""Live models through langchain-openai: OpenAI or any OpenAI-compatible server."""

from __future__ import annotations

import os

from langchain_core.runnables import Runnable

from astra_memory.errors import ConfigurationError
from astra_memory.graph.context import Context
from astra_memory.tools.schemas import openai_tool_specs

MAX_RETRIES = 3
REQUEST_TIMEOUT_S = 120.0


def parse_model_name(name: str) -> str:
    provider, _, model = name.partition(":")
    if provider != "openai" or not model:
        raise ConfigurationError(
            f"model {name!r} is not understood: use 'scripted' or 'openai:<model>' "
            "(any OpenAI-compatible server via --base-url / OPENAI_BASE_URL)"
        )
    return model


def live_chat_model(name: str, context: Context) -> Runnable:
    """ChatOpenAI with the strict tool contract bound, one tool call per turn."""
    model = parse_model_name(name)
    api_key = os.environ.get("OPENAI_API_KEY")
    if not api_key:
        raise ConfigurationError("OPENAI_API_KEY is not set; a live model needs it (local servers accept any value)")
    from langchain_openai import ChatOpenAI

    llm = ChatOpenAI(
        model=model,
        api_key=api_key,
        base_url=context.base_url or os.environ.get("OPENAI_BASE_URL") or None,
        max_retries=MAX_RETRIES,  # the openai client retries timeouts, 429 and 5xx with backoff
        timeout=REQUEST_TIMEOUT_S,
        use_responses_api=context.use_responses_api,
    )
    return llm.bind_tools(openai_tool_specs(), strict=True, parallel_tool_calls=False)
