"""shim: tool use for language models that have none.

The names here follow the data flow: prompts (`render_system_prompt`, `render_messages`) → a backend
(`get_backend`) → the parser (`StreamParser` and its events) → tools (`ToolCall`, `ToolResult`) → the loop
that joins them (`Agent`). MCP servers are reached through `shim.routing.ToolRouter`.
"""

from shim.__about__ import __version__
from shim.agent import Agent, AgentResult
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
from shim.parsing.readers import Dialect, register_dialect
from shim.parsing.ids import IdGenerator
from shim.parsing.stream import StreamParser, parse_text
from shim.prompting import render_messages, render_system_prompt
from shim.types import Message, ToolCall, ToolResult, ToolSpec

__all__ = [
    "Agent",
    "AgentResult",
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
    "ToolResult",
    "ToolSpec",
    "__version__",
    "get_backend",
    "parse_text",
    "register_dialect",
    "render_messages",
    "render_system_prompt",
]
