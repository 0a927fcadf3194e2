"""The constrain setting: ``auto`` (constrain calls where the backend can), ``on`` (insist), ``off``. The options
of one turn are built by the loop (`shim.agent_types.constrained_options`), which knows the backend.

The tools a constraint carries have their schemas made expressible where a grammar converter would drop a
rule: an integer with ``minimum`` / ``maximum`` (which llama.cpp's converter ignores, so a forced call could
still miss the schema) becomes the ``enum`` of its values when there are at most `MAX_ENUMERATED` of them. The
arguments are validated against the real schema afterwards either way."""

from __future__ import annotations

import math
from typing import Any, cast

from shim.constrain.schema import ConstrainMode
from shim.errors import ConfigError

__all__ = ["CONSTRAIN_MODES", "HEADER", "MAX_ENUMERATED", "check_mode", "expressible"]

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
