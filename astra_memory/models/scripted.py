"""A deterministic chat model that plays a scenario's scripted tool calls, in order.

It is a real LangChain ``BaseChatModel``: the graph drives it exactly as it drives a live model,
through the same tools and the same gates. Its position in the script is the number of its own
replies already in the conversation, so a session resumed after a crash gets the same next turn.
Everything it says is labelled ``scripted``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from astra_memory.crash import crash_point

MODEL_NAME = "scripted"


class ScriptedChatModel(BaseChatModel):
    """Plays ``turns`` (each ``{"tool": name, "args": {...}}``); replies without a tool call after the last."""

    turns: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedChatModel":
        return self  # the script already names its tools; the graph validates every call

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        crash_point("model:call")  # a kill here is a crash in the middle of a model request
        position = sum(1 for m in messages if isinstance(m, AIMessage))
        metadata = {"model_name": MODEL_NAME, "scripted_turn": position}
        if position >= len(self.turns):
            message = AIMessage(content="(scripted model: the script has no more turns)",
                                response_metadata=metadata, name=MODEL_NAME)
        elif isinstance(self.turns[position].get("args"), str):  # a scripted malformed (non-JSON) call
            turn = self.turns[position]
            message = AIMessage(
                content="",
                invalid_tool_calls=[{"name": turn["tool"], "args": turn["args"], "id": f"call_scripted_{position}",
                                     "error": "arguments are not valid JSON", "type": "invalid_tool_call"}],
                response_metadata=metadata,
                name=MODEL_NAME,
            )
        else:
            turn = self.turns[position]
            message = AIMessage(
                content="",
                tool_calls=[{"name": turn["tool"], "args": turn.get("args", {}), "id": f"call_scripted_{position}",
                             "type": "tool_call"}],
                response_metadata=metadata,
                name=MODEL_NAME,
            )
        message.usage_metadata = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
        return ChatResult(generations=[ChatGeneration(message=message)])
