"""What every surface reduces a request to (`ChatRequest`), and what the loop answers it with (`Output` items):
the two types between the wire modules and `shim.server.chat.run_chat`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from shim.backends.base import GenerationOptions
from shim.constrain.structured import StructuredOutput
from shim.prompting import ToolChoice
from shim.types import ChatMessage, ToolSpec

__all__ = ["CallOut", "ChatRequest", "Finish", "FinishOut", "Output", "ReasoningOut", "TextOut"]

Finish: TypeAlias = Literal["stop", "length", "tool_calls"]


@dataclass(frozen=True, kw_only=True)
class ChatRequest:
    """A chat request in the form both surfaces reduce theirs to."""

    model: object
    """As the client sent it; the model registry checks it (and lists the models when it is wrong)."""
    messages: list[ChatMessage]
    """The conversation, read once from the surface's wire form (`shim.server.wire.openai_chat.check_messages`):
    the loop takes these as they are and never reads the client's JSON again."""
    tools: list[ToolSpec] = field(default_factory=list[ToolSpec])
    """The client's own tools."""
    tool_choice: ToolChoice = "auto"
    parallel_tool_calls: bool = True
    """False: generation stops after the first complete call, and only that call is returned."""
    options: GenerationOptions = field(default_factory=GenerationOptions)
    structured: StructuredOutput | None = None
    """The answer's required format (``response_format`` / ``format``); see `shim.constrain.structured`."""


@dataclass(frozen=True, kw_only=True)
class TextOut:
    text: str


@dataclass(frozen=True, kw_only=True)
class ReasoningOut:
    text: str


@dataclass(frozen=True, kw_only=True)
class CallOut:
    """A complete call to one of the client's tools."""

    index: int
    """Position among the calls of this response (OpenAI's ``tool_calls[].index``)."""
    id: str
    name: str
    fragments: tuple[str, ...]
    """The arguments as JSON text, in the pieces the parser produced; they concatenate to ``arguments``."""
    arguments: dict[str, Any]

    @property
    def arguments_json(self) -> str:
        return "".join(self.fragments) or "{}"


@dataclass(frozen=True, kw_only=True)
class FinishOut:
    """The end of the response; always the last item."""

    reason: Finish
    prompt_tokens: int
    """Summed over every model turn of the request; 0 where the engine does not count."""
    completion_tokens: int


Output: TypeAlias = "TextOut | ReasoningOut | CallOut | FinishOut"
