"""shim: tool use for language models that have none."""

from shim.__about__ import __version__
from shim.errors import ShimError
from shim.events import (
    Event,
    ParseIssue,
    ParseResult,
    ReasoningDelta,
    TextDelta,
    ToolCallChunk,
    ToolCallEnd,
    ToolCallStart,
)
from shim.parsing.ids import IdGenerator
from shim.types import Message, ToolCall, ToolSpec

__all__ = [
    "Event",
    "IdGenerator",
    "Message",
    "ParseIssue",
    "ParseResult",
    "ReasoningDelta",
    "ShimError",
    "TextDelta",
    "ToolCall",
    "ToolCallChunk",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolSpec",
    "__version__",
]
