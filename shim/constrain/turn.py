"""Per turn: whether to constrain the calls, and the options that say how.

The tools a constraint carries are the offered tools with their schemas made expressible where a grammar
converter would drop a rule: an integer with ``minimum`` / ``maximum`` (which llama.cpp's converter ignores,
so a forced call could still miss the schema) becomes the ``enum`` of its values when there are at most
`MAX_ENUMERATED` of them. The arguments are validated against the real schema afterwards either way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from shim.backends.base import Backend, GenerationOptions
from shim.constrain.schema import ConstrainMode, build_constraint
from shim.errors import ConfigError
from shim.prompting import ToolChoice, normalize_tool_choice
from shim.types import ToolSpec

if TYPE_CHECKING:
    from shim.server.chat import ChatRequest

__all__ = [
    "CONSTRAIN_MODES",
    "HEADER",
    "MAX_ENUMERATED",
    "can_constrain",
    "check_mode",
    "constrained_options",
    "constraint_header",
    "expressible",
]

HEADER = b"x-shim-call-constraint"
"""The response header saying whether the engine constrained the calls: ``grammar`` or ``none``."""

CONSTRAIN_MODES: tuple[ConstrainMode, ...] = ("auto", "on", "off")
MAX_ENUMERATED = 1024
"""Largest integer range written out as an ``enum`` for a grammar."""


def check_mode(value: Any, where: str = "constrain") -> ConstrainMode:
    """``value`` as a `ConstrainMode`.

    Raises:
        ConfigError: it is not one of ``auto``, ``on``, ``off`` (``where`` says where it came from).
    """
    if value in CONSTRAIN_MODES:
        return value
    raise ConfigError(f"{where}: expected one of {list(CONSTRAIN_MODES)!r}, got {value!r}")


def can_constrain(backend: Backend) -> bool:
    """The backend can make every call the model opens a valid call (`Backend.can_constrain`)."""
    return backend.can_constrain


def constrained_options(
    options: GenerationOptions | None,
    *,
    backend: Backend,
    tools: Sequence[ToolSpec],
    dialect: str | Path,
    tool_choice: ToolChoice,
    mode: ConstrainMode,
) -> GenerationOptions | None:
    """``options`` with the turn's `CallConstraint`, when ``mode`` and the backend allow one.

    A caller's own ``grammar`` wins (it already constrains the whole reply).

    Raises:
        ConfigError: ``mode`` is ``on`` and the backend cannot constrain.
    """
    if mode == "off" or not tools or (options is not None and options.grammar):
        return options
    if not can_constrain(backend):
        if mode == "on":
            raise ConfigError(
                f"backend {backend.name!r} cannot constrain tool calls; use constrain 'auto' (constrain where the "
                "backend can) or 'off'"
            )
        return options
    kind, named = normalize_tool_choice(tool_choice, [t.name for t in tools])
    constraint = build_constraint(tools, dialect, mode=kind, named=named)
    if constraint is None:
        return options
    constraint = replace(
        constraint, tools=tuple(replace(t, input_schema=expressible(t.input_schema)) for t in constraint.tools)
    )
    return replace(options or GenerationOptions(), constraint=constraint)


def constraint_header(
    backend: Backend, request: ChatRequest, *, mode: str, server_tools: bool
) -> list[tuple[bytes, bytes]]:
    """The response header for a request that offers tools: ``grammar`` where the engine constrains every call
    to the offered tools (forced from the first token for ``tool_choice`` required or named), else ``none``
    (calls are read from free text, and a forced choice is kept by reminding the model). The same decision
    `constrained_options` makes for each turn."""
    if not request.tools and not server_tools:
        return []
    constrained = (
        mode != "off"
        and request.tool_choice != "none"
        and not request.options.grammar  # the client's own grammar constrains the whole reply instead
        and can_constrain(backend)
    )
    return [(HEADER, b"grammar" if constrained else b"none")]


def expressible(schema: Any) -> Any:
    """``schema`` with every bounded integer of at most `MAX_ENUMERATED` values written as the ``enum`` of them
    (the same values, in a form grammar converters keep); everything else as it is."""
    if isinstance(schema, list):
        return [expressible(item) for item in cast("list[Any]", schema)]
    if not isinstance(schema, dict):
        return schema
    node = {str(k): expressible(v) for k, v in cast("dict[Any, Any]", schema).items()}
    values = _integer_range(node)
    if values is not None:
        node = {k: v for k, v in node.items() if k not in _BOUNDS and k != "type"} | {"enum": list(values)}
    return node


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _integer_range(node: dict[str, Any]) -> range | None:
    """The values of a bounded integer schema with no other rule on it, when there are few enough."""
    if node.get("type") != "integer" or "enum" in node or "const" in node:
        return None
    bound = {k: node.get(k) for k in _BOUNDS}
    if any(v is not None and (isinstance(v, bool) or not isinstance(v, int | float)) for v in bound.values()):
        return None
    low, high = bound["minimum"], bound["maximum"]
    if bound["exclusiveMinimum"] is not None:
        low = bound["exclusiveMinimum"] + 1 if low is None else max(low, bound["exclusiveMinimum"] + 1)
    if bound["exclusiveMaximum"] is not None:
        high = bound["exclusiveMaximum"] - 1 if high is None else min(high, bound["exclusiveMaximum"] - 1)
    if low is None or high is None:
        return None
    start, stop = math.ceil(low), math.floor(high)
    step = bound["multipleOf"]
    if step is not None and (step <= 0 or step != int(step)):
        return None
    if step is not None:
        start = -(-start // int(step)) * int(step)
    values = range(start, stop + 1, int(step or 1))
    return values if 0 < len(values) <= MAX_ENUMERATED else None
