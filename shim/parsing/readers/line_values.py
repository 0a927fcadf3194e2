"""Values of ``key: value`` lines written as YAML writes them, for every reader of such a body.

    content: |
      line one
      line two
    steps:
      - write the file
      - run it

A block scalar (``KEY: |``, ``|-``, ``|+``, ``>``) is the indented lines under its key less their common
indentation (`block_scalar`); a key with nothing after it and lines indented under it (or a YAML list at the key's
own indent) holds a nested block, read as YAML where the tool declares the parameter an array or an object
(`nested_block`): a list of the items, a mapping; each scalar typed as YAML types it, text where the schema declares
a string at its place. The readers are
`shim.parsing.readers.name_lines` (a call tag's or fence's ``key: value`` lines) and
`shim.parsing.readers.tool_xml` (tool-name XML whose body is such lines).
"""

from __future__ import annotations

import textwrap
from typing import Any, cast

import regex

from shim.parsing.readers.yaml_fence import load_yaml, yaml_typed
from shim.parsing.shapes import ToolIndex

__all__ = ["BLOCK_SCALAR", "block_scalar", "nested_block"]

BLOCK_SCALAR = regex.compile(r"[|>][+-]?")
"""A block scalar's header, the whole value on its key's line."""


def block_scalar(header: str, lines: list[str]) -> str:
    """A YAML block scalar (``content: |`` then indented ``lines``, each with its line break): the lines less their
    common indentation; ``>`` folds single line breaks into spaces; the final line breaks kept as the chomping sign
    says (none: one, ``-``: none, ``+``: all)."""
    indent = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
    body = [x[indent:] if x.startswith(" " * indent) else x.lstrip(" \t") for x in lines]
    text = "".join(body).replace("\r\n", "\n")
    if header.startswith(">"):
        text = regex.sub(r"(?<=\S)\n(?=\S)", " ", text)
    if header.endswith("-"):
        return text.rstrip("\n")
    if header.endswith("+"):
        return text
    return text.rstrip("\n") + "\n" if text.strip() else ""


def nested_block(tools: ToolIndex, tool: str, key: str, lines: list[str]) -> Any | None:
    """The YAML block of ``lines`` (each with its line break) under ``KEY:`` when ``tool`` declares ``key`` an
    array and they are a YAML list, or an object and they are a mapping: the value, typed by the schema; None
    otherwise (the caller keeps the lines as text)."""
    kind = tools.property_type(tools.resolve(tool), key)
    if kind not in ("array", "object") or not any(line.strip() for line in lines):
        return None
    try:
        data: Any = load_yaml(textwrap.dedent("".join(lines)))
    except ValueError:
        return None
    if not isinstance(data, list if kind == "array" else dict):
        return None
    properties = tools.properties(tools.resolve(tool)) or {}
    return _typed(properties.get(key), data, 0)


def _typed(schema: Any, value: Any, depth: int) -> Any:
    """The loaded tree typed as its YAML says (`yaml_typed`: ``1`` a number, ``"1"`` text), except where the schema
    declares a string at that place: the plain scalar's text as written."""
    node: dict[str, Any] = cast("dict[str, Any]", schema) if isinstance(schema, dict) else {}
    if isinstance(value, list) and depth <= 32:
        return [_typed(node.get("items"), v, depth + 1) for v in cast("list[Any]", value)]
    if isinstance(value, dict) and depth <= 32:
        props: Any = node.get("properties")
        sub = cast("dict[str, Any]", props) if isinstance(props, dict) else {}
        return {str(k): _typed(sub.get(str(k)), v, depth + 1) for k, v in cast("dict[Any, Any]", value).items()}
    if isinstance(value, str) and node.get("type") == "string":
        return str(value)
    return yaml_typed(value)
