"""One rule for the type of a value written as text: an XML-style parameter (``<parameter=K>5</parameter>``,
``<arg_value>5</arg_value>``, ``<param name="k">5</param>``, ``<k>5</k>``) carries no type of its own.

With the tool's schema, the schema decides: a ``string`` parameter keeps its text exactly; ``integer``,
``number``, ``boolean``, ``null``, ``object`` and ``array`` read the text as (lenient) JSON, else as a Python
literal of that type (``True``, ``['a', 'b']``: what templates print with ``{{ value }}``), else keep the text.
A parameter whose schema admits null (a type list or an ``anyOf`` / ``oneOf`` with ``null``) reads the text
``null`` as null. Without a schema (an unknown tool or parameter, or a type union), the same rule for every
family: the value is its text (``5`` is ``"5"``), as the engines' own parsers of these formats keep it (vLLM's
Qwen3-Coder and MiniMax parsers, Ollama's GLM parser): nothing is guessed that the model did not write. Every XML
family reader and the template-derived reader call `typed_value`.
"""

from __future__ import annotations

import ast
import json
from typing import Any, cast

from shim.parsing import lenient_json
from shim.parsing.shapes import ToolIndex

__all__ = ["typed_value", "unlaid"]

_LITERAL_KINDS: dict[str, type | tuple[type, ...]] = {
    "array": list,
    "object": dict,
    "boolean": bool,
    "integer": int,
    "number": (int, float),
}
_PY_WORDS = {"True": True, "False": False, "None": None}


def unlaid(raw: str) -> str:
    """A value with the layout newline each side removed (``<parameter=k>\\nvalue\\n</parameter>``)."""
    if not raw.startswith("\n") and raw[:1].isspace():
        return raw  # indentation kept right after the opener: the value's whitespace is data
    raw = raw[1:] if raw.startswith("\n") else raw
    return raw[:-1] if raw.endswith("\n") else raw


def typed_value(tools: ToolIndex, tool: str, key: str, raw: str) -> Any:
    """The value of parameter ``key`` of ``tool`` written as ``raw`` text (see the module docstring)."""
    name = tools.resolve(tool)
    kind = tools.property_type(name, key)
    text = raw.strip()
    if text == "null" and tools.admits_null(name, key):
        return None  # the model wrote JSON null where the schema admits it (`"anyOf": [{"type": "null"}, …]`)
    if kind == "string":
        return raw
    if kind is None:
        return raw
    if kind == "null" and text in ("null", "None", ""):
        return None
    try:
        value: Any = lenient_json.loads(text)
    except lenient_json.LenientJSONError:
        value = _literal(text)
    expected = _LITERAL_KINDS.get(kind)
    if expected is None or _is_kind(value, expected):
        return raw if value is _NOT else value
    return raw


class _Not:
    pass


_NOT: Any = _Not()


def _is_kind(value: Any, expected: type | tuple[type, ...]) -> bool:
    if value is _NOT:
        return False
    if isinstance(value, bool) and expected in (int, (int, float)):
        return False  # True is an int to Python, not to JSON Schema
    return isinstance(value, expected)


def _literal(text: str) -> Any:
    if text in _PY_WORDS:
        return _PY_WORDS[text]
    if text[:1] not in "[{(-0123456789.":
        return _NOT
    try:
        value: Any = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT
    if isinstance(value, tuple):
        value = list(cast("tuple[Any, ...]", value))
    try:
        return json.loads(json.dumps(value))  # JSON data only: sets, bytes, complex stay text
    except (ValueError, TypeError, RecursionError):
        return _NOT
