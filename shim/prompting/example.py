"""Plausible example arguments built from a tool's schema, for the one worked example in the prompt.

The example must use a real tool (a weak model copies made-up tools) and arguments that would pass its
schema, so the values come from the schema first (``examples``, ``default``, ``const``, ``enum``,
``format``, bounds) and from the parameter's name only when the schema says nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shim.prompting._json import is_arr, is_obj, items, strings
from shim.prompting.schema import SchemaText
from shim.types import ToolSpec
from shim.validation import schema_check

__all__ = ["example_arguments", "pick_example_tool"]

_BY_FORMAT: dict[str, Any] = {
    "date-time": "2025-06-01T09:00:00Z",
    "date": "2025-06-01",
    "time": "09:00:00",
    "email": "alice@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.168.1.1",
    "hostname": "example.com",
}
# Checked in order against the parameter name (lowercased); the first fragment found wins.
_BY_NAME: tuple[tuple[str, str], ...] = (
    ("timezone", "Europe/Paris"),
    ("url", "https://example.com"),
    ("uri", "https://example.com"),
    ("email", "alice@example.com"),
    ("path", "/tmp/notes.txt"),
    ("file", "notes.txt"),
    ("dir", "/tmp"),
    ("city", "Paris"),
    ("location", "Paris"),
    ("country", "France"),
    ("query", "latest release notes"),
    ("search", "latest release notes"),
    ("language", "en"),
    ("lang", "en"),
    ("date", "2025-06-01"),
    ("time", "09:00"),
    ("repo", "octocat/hello-world"),
    ("owner", "octocat"),
    ("user", "alice"),
    ("name", "example"),
    ("title", "Example title"),
    ("message", "Hello!"),
    ("text", "Hello!"),
    ("content", "Hello!"),
    ("code", "print('hello')"),
    ("command", "ls -la"),
    ("id", "123"),
    ("key", "example"),
)
_MAX_DEPTH = 4


def pick_example_tool(tools: Sequence[ToolSpec]) -> tuple[ToolSpec, dict[str, Any]]:
    """The tool whose example teaches the most, and the example's arguments.

    Preference: a tool with a required parameter, then one with any parameter, then any tool; within
    that, the first whose example passes its own schema (a ``pattern`` can defeat the guesses here).

    Raises:
        ValueError: ``tools`` is empty.
    """
    if not tools:
        raise ValueError("an example needs at least one tool")
    ranked = sorted(tools, key=lambda t: (not t.input_schema.get("required"), not t.input_schema.get("properties")))
    for tool in ranked:
        arguments = example_arguments(tool.input_schema)
        if _passes(tool.input_schema, arguments):
            return tool, arguments
    return ranked[0], example_arguments(ranked[0].input_schema)


def _passes(schema: Mapping[str, Any], arguments: dict[str, Any]) -> bool:
    return schema_check(schema).is_valid(arguments)  # a broken schema cannot be checked: it passes


def example_arguments(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments for ``schema``: every required parameter, or the first one when none is required."""
    text = SchemaText(schema)
    root = text.resolve(schema)
    return _object(text, root, 0, at_least_one=True) if is_obj(root) else {}


def _object(text: SchemaText, schema: Mapping[str, Any], depth: int, *, at_least_one: bool) -> dict[str, Any]:
    props = schema.get("properties")
    if not is_obj(props) or not props:
        return {}
    required = [k for k in strings(schema.get("required")) if k in props]
    keys = required or ([next(iter(props))] if at_least_one else [])
    return {key: _value(text, props[key], key, depth + 1) for key in keys}


def _value(text: SchemaText, schema: Any, name: str, depth: int) -> Any:
    if is_obj(schema) and schema.get("$ref") in text.recursive:
        # resolve() leaves recursive refs alone; follow one level here, the depth limit stops the loop.
        schema = {**(text.lookup(schema["$ref"]) or {}), **{k: v for k, v in schema.items() if k != "$ref"}}
    schema = text.resolve(schema)
    if not is_obj(schema):
        return _by_name(name)
    if is_arr(schema.get("examples")) and schema["examples"]:
        return schema["examples"][0]
    if "const" in schema:
        return schema["const"]
    if "default" in schema:
        return schema["default"]
    if is_arr(schema.get("enum")) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        variants = [v for v in items(schema.get(key)) if not _is_null(text.resolve(v))]
        if variants:
            return _value(text, variants[0], name, depth)
    kind = schema.get("type")
    if is_arr(kind):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or (kind is None and "properties" in schema):
        return _object(text, schema, depth, at_least_one=False) if depth < _MAX_DEPTH else {}
    if kind == "array":
        item_schema = schema.get("items")
        if depth >= _MAX_DEPTH or not is_obj(item_schema):
            return []
        count = max(1, int(schema.get("minItems") or 1))
        return [_value(text, item_schema, name.rstrip("s"), depth + 1)] * min(count, 3)
    if kind == "integer":
        return int(_number(schema, 1))
    if kind == "number":
        return _number(schema, 1.5)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _BY_FORMAT:
        return _BY_FORMAT[fmt]
    return _by_name(name)


def _is_null(schema: Any) -> bool:
    return is_obj(schema) and schema.get("type") == "null"


def _number(schema: Mapping[str, Any], fallback: float) -> float:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if isinstance(low, (int, float)):
        return low + 1 if "exclusiveMinimum" in schema and "minimum" not in schema else low
    if isinstance(high, (int, float)) and high < fallback:
        return high
    return fallback


def _by_name(name: str) -> str:
    lowered = name.lower()
    for fragment, value in _BY_NAME:
        if fragment in lowered:
            return value
    return "example"
