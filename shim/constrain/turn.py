"""The constrain setting: ``auto`` (constrain calls where the backend can), ``on`` (insist), ``off``. The options
of one turn are built by the loop (`shim.agent_types.constrained_options`), which knows the backend.

The tools a constraint carries have their schemas made expressible where a grammar converter would drop a
rule: an integer with ``minimum`` / ``maximum`` (which llama.cpp's converter ignores, so a forced call could
still miss the schema) becomes the ``enum`` of its values when there are at most `MAX_ENUMERATED` of them. The
arguments are validated against the real schema afterwards either way.

A profile may also bound what a constrained call can write (`Bounds`, for models too small to stop on their
own): a free string at most so many characters, an array at most so many items. SmolLM2-135M under a forced
grammar sometimes repeats itself inside a string (or keeps adding array items) until the token limit, and the
reply ends in a call that was never closed; with the bound the grammar closes the string and the call must be
finished."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from shim.constrain.schema import ConstrainMode
from shim.errors import ConfigError

__all__ = ["CONSTRAIN_MODES", "HEADER", "MAX_ENUMERATED", "Bounds", "check_mode", "expressible"]

HEADER = "x-shim-call-constraint"
"""The response header saying whether the engine constrained the calls: ``grammar`` or ``none`` (the loop's
own decision for its first turn, told to the response through `shim.notices`)."""

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


@dataclass(frozen=True, kw_only=True)
class Bounds:
    """The most a constrained call may write where its schema sets no smaller bound."""

    string: int | None = None
    """Characters in a free string (one with no ``enum``, ``const``, ``pattern`` or ``format``)."""
    items: int | None = None
    """Items in an array."""


def expressible(schema: Any, bounds: Bounds | None = None) -> Any:
    """``schema`` with every bounded integer of at most `MAX_ENUMERATED` values written as the ``enum`` of them
    (the same values, in a form grammar converters keep), and ``bounds`` written in as ``maxLength`` and
    ``maxItems`` (a schema's own smaller bound stays); everything else as it is."""
    if isinstance(schema, list):
        return [expressible(item, bounds) for item in cast("list[Any]", schema)]
    if not isinstance(schema, dict):
        return schema
    node = {str(k): expressible(v, bounds) for k, v in cast("dict[Any, Any]", schema).items()}
    values = _integer_range(node)
    if values is not None:
        node = {k: v for k, v in node.items() if k not in _BOUNDS and k != "type"} | {"enum": list(values)}
    return _bounded(node, bounds) if bounds is not None else node


_FIXED_STRING = ("enum", "const", "pattern", "format")


def _bounded(node: dict[str, Any], bounds: Bounds) -> dict[str, Any]:
    kind = node.get("type")
    if bounds.string is not None and kind == "string" and not any(k in node for k in _FIXED_STRING):
        return node | {"maxLength": _lower(node.get("maxLength"), bounds.string, node.get("minLength"))}
    if bounds.items is not None and kind == "array":
        return node | {"maxItems": _lower(node.get("maxItems"), bounds.items, node.get("minItems"))}
    return node


def _lower(own: Any, bound: int, least: Any) -> int:
    """The smaller of a schema's own maximum and the bound, never under the schema's own minimum."""
    if isinstance(own, int) and not isinstance(own, bool) and own >= 0:
        bound = min(own, bound)
    if isinstance(least, int) and not isinstance(least, bool):
        bound = max(bound, least)
    return bound


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
