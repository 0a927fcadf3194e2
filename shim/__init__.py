"""shim: tool use for language models that have none.

The names here follow the data flow: prompts (`render_system_prompt`, `render_messages`) → a backend
(`get_backend`) → the parser (`StreamParser` and its events) → tools (`ToolCall`, `ToolResult`) → the loop
that joins them (`Agent`). MCP servers are reached through `shim.routing.ToolRouter`.

Every name loads on first use (PEP 562 ``__getattr__``): ``import shim``, and so ``shim --help``, costs
the version string only, not the agent, the MCP SDK or jsonschema.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from shim.__about__ import __version__

if TYPE_CHECKING:
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
    from shim.ids import IdGenerator
    from shim.parsing.readers import Dialect, register_dialect
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

_HOMES: dict[str, str] = {
    "Agent": "shim.agent",
    "AgentResult": "shim.agent",
    "get_backend": "shim.backends",
    "ShimError": "shim.errors",
    **dict.fromkeys(
        [
            "Event",
            "ParseIssue",
            "ParseResult",
            "ReasoningDelta",
            "TextDelta",
            "ToolCallChunk",
            "ToolCallEnd",
            "ToolCallStart",
        ],
        "shim.events",
    ),
    "Dialect": "shim.parsing.readers",
    "register_dialect": "shim.parsing.readers",
    "IdGenerator": "shim.ids",
    "StreamParser": "shim.parsing.stream",
    "parse_text": "shim.parsing.stream",
    "render_messages": "shim.prompting",
    "render_system_prompt": "shim.prompting",
    **dict.fromkeys(["Message", "ToolCall", "ToolResult", "ToolSpec"], "shim.types"),
}
"""Public name -> the module that defines it (every name of ``__all__`` but ``__version__``)."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'shim' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next lookup is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
