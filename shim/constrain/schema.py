"""What a constrained call may look like: the offered tools as one JSON schema, plus the dialect's markers.

A `CallConstraint` is built once per model turn from the tools, the prompt dialect and the tool choice. Every
engine-specific form is derived from it: a GBNF grammar (`shim.constrain.gbnf`) for llama.cpp, the JSON
schema of the call body (`call_schema`) for engines that take schemas (Ollama's ``format``, vLLM and SGLang
structured outputs, llama-server's ``json_schema``).

```
CallConstraint(tools, open="<function_call>", close="</function_call>", forced=False)
  call_schema()  ->  {"oneOf": [{"type": "object", "properties": {"name": {"const": "get_time"},
                                  "arguments": <get_time's inputSchema>}, "required": [...]}, ...]}
  trigger        ->  "<function_call>"   (the opener, stripped: where a lazy grammar switches on)
```

``forced`` (``tool_choice`` required, or a named tool, which leaves only that tool in ``tools``) means the
whole reply is calls, at most ``max_calls`` of them; otherwise free text may come before a call and after it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from shim.prompting.dialects import PromptDialect, get_dialect
from shim.types import ToolSpec

__all__ = ["CallConstraint", "ConstrainMode", "build_constraint", "call_schema", "loose_arguments"]

ConstrainMode: TypeAlias = Literal["auto", "on", "off"]
"""``auto``: constrain where the backend can; ``on``: constrain or fail; ``off``: never."""

loose_arguments: dict[str, Any] = {"type": "object"}
"""What a tool's arguments degrade to when its schema cannot be turned into a grammar: any JSON object
(the arguments are still validated against the real schema after the call is parsed)."""


@dataclass(frozen=True, kw_only=True)
class CallConstraint:
    """The calls one model turn may make, and the markers around them."""

    tools: tuple[ToolSpec, ...]
    """The tools a call may name (one tool when ``tool_choice`` names it)."""
    open: str
    """The dialect's opening marker as the prompt writes it (``"<function_call>"``, ``"<tool_call>\\n"``)."""
    close: str
    """The dialect's closing marker (``"</function_call>"``, ``"\\n</tool_call>"``)."""
    forced: bool = False
    """The whole reply must be calls (``tool_choice`` required or named), not text before or after."""
    max_calls: int | None = None
    """The most calls a forced reply may hold (None: any number)."""
    steer: tuple[str, ...] = ()
    """Values the user's request names, toward which an engine that can steers a forced reply's further calls
    (`shim.request_values`; a small model's profile ``steer_further_calls``)."""
    copy_from: str = ""
    """The user's request, whose spans an engine that can has every call's string values copy whole
    (`shim.request_values.span_continuation`; a small model's profile ``copy_request_spans``)."""
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Per enumerated parameter, the choices the request names, toward which an engine that can steers that
    parameter's value (`shim.request_values.named_choices`)."""

    @property
    def trigger(self) -> str:
        """The text that starts a call: the opener without surrounding whitespace."""
        return self.open.strip()

    @property
    def closer(self) -> str:
        """The text that ends a call: the closer without surrounding whitespace."""
        return self.close.strip()

    def call_schema(self) -> dict[str, Any]:
        """The JSON schema of one call body; see `call_schema`."""
        return call_schema(self.tools)

    def key(self) -> str:
        """A stable text identifying this constraint's grammar (for caches; ``steer``, ``copy_from`` and
        ``choices`` change sampling only)."""
        tools = [[t.name, t.input_schema] for t in self.tools]
        return json.dumps([tools, self.open, self.close, self.forced, self.max_calls], sort_keys=True, default=str)


def call_schema(tools: Sequence[ToolSpec], *, loose: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The union over ``tools`` of ``{"name": <tool>, "arguments": <its inputSchema>}``.

    Args:
        tools: The offered tools.
        loose: Names of tools whose arguments are reduced to `loose_arguments` (their schema uses something
            a converter cannot express).
    """
    variants = [_variant(tool, loose_arguments if tool.name in loose else tool.input_schema) for tool in tools]
    if len(variants) == 1:
        return variants[0]
    return {"oneOf": variants}


def _variant(tool: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"name": {"const": tool.name}, "arguments": arguments},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def build_constraint(
    tools: Sequence[ToolSpec],
    dialect: str | PromptDialect | Any,
    *,
    mode: Literal["auto", "none", "required", "named"] = "auto",
    named: str | None = None,
    max_calls: int | None = None,
) -> CallConstraint | None:
    """The constraint for one turn, or None when no call may be made (no tools, ``tool_choice`` none).

    Args:
        tools: The offered tools.
        dialect: The prompt dialect (a name, a template path, or a `PromptDialect`).
        mode: The turn's tool choice, as `shim.tool_choice.TurnChoice` decided it.
        named: The tool a ``named`` choice names.
        max_calls: The most calls a forced reply may hold (None: any number).
    """
    if not tools or mode == "none":
        return None
    syntax = get_dialect(dialect)
    offered = tuple(t for t in tools if t.name == named) if mode == "named" else tuple(tools)
    if not offered:
        return None
    forced = mode != "auto"
    return CallConstraint(
        tools=offered,
        open=syntax.call_open,
        close=syntax.call_close,
        forced=forced,
        max_calls=max_calls if forced else None,
    )
