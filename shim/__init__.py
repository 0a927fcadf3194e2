"""shim: tool use for language models that have none."""

from shim.__about__ import __version__
from shim.backends import get_backend
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
from shim.parsing.dialects import Dialect, register_dialect
from shim.parsing.ids import IdGenerator
from shim.parsing.stream import StreamParser, parse_text
from shim.prompting import render_messages, render_system_prompt
from shim.types import Message, ToolCall, ToolSpec

__all__ = [
    "Dialect",
    "Event",
    "IdGenerator",
    "Message",
    "ParseIssue",
    "ParseResult",
    "ReasoningDelta",
    "ShimError",
    "StreamParser",
    "TextDelta",
    "ToolCall",
    "ToolCallChunk",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolSpec",
    "__version__",
    "get_backend",
    "parse_text",
    "register_dialect",
    "render_messages",
    "render_system_prompt",
]
