"""Type guards for JSON-shaped data (schemas, messages) that arrives as ``Any``.

``isinstance(x, Mapping)`` narrows to ``Mapping[Unknown, Unknown]``, which strict pyright rejects at every
use; these guards narrow to the JSON shapes the code actually relies on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

__all__ = ["is_arr", "is_obj", "items", "strings"]


def is_obj(value: object) -> TypeGuard[Mapping[str, Any]]:
    """True for a JSON object (any mapping; keys are taken to be strings)."""
    return isinstance(value, Mapping)


def is_arr(value: object) -> TypeGuard[list[Any]]:
    """True for a JSON array."""
    return isinstance(value, list)


def items(value: object) -> list[Any]:
    """The items of a JSON array; ``[]`` for anything else (a missing or malformed keyword)."""
    return value if is_arr(value) else []


def strings(value: object) -> list[str]:
    """The string items of a JSON array (such as ``required``); others are ignored."""
    return [v for v in items(value) if isinstance(v, str)]
