"""Tools and tool choices as requests send them, in any dialect, checked once for every surface."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from shim.prompting import ToolChoice
from shim.server.http import RequestError, is_obj
from shim.server.wire import MAX_SCHEMA_DEPTH, check_depth
from shim.types import ToolSpec, tool_specs
from shim.validation import SizedCache, schema_problem

__all__ = ["choose_tools", "parse_tools", "split_hosted"]

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-")


_SCHEMA_KEYS = (
    "function",
    "input_schema",
    "parameters",
    "inputSchema",
    "functionDeclarations",
    "function_declarations",
)
_CLIENT_KINDS = frozenset({"function", "custom", "namespace"})


def split_hosted(value: Sequence[Any] | None) -> tuple[list[Any], list[str]]:
    """The tools a model here can be offered, and the kinds of the others: hosted tools the vendor runs
    (Anthropic's ``web_search_20250305``, ``code_execution_…``; OpenAI's ``web_search``, ``file_search``…) and
    built-in tools a vendor's model knows without a schema (``bash_20250124``). Neither has a schema to put in
    a prompt, and nothing here can run a hosted one: they are left out and named (a header says so).
    """
    kept: list[Any] = []
    dropped: list[str] = []
    for tool in value or ():
        kind: Any = tool.get("type") if is_obj(tool) else None
        if isinstance(kind, str) and kind not in _CLIENT_KINDS and not any(k in tool for k in _SCHEMA_KEYS):
            dropped.append(kind)
        else:
            kept.append(tool)
    return kept, dropped


def parse_tools(value: Sequence[Any] | None, *, where: str = "tools") -> list[ToolSpec]:
    """Tool definitions in any dialect (OpenAI chat or Responses, MCP, Anthropic, Gemini), checked.

    Raises:
        RequestError: 400 naming the tool and what is wrong with it.
    """
    specs: list[ToolSpec] = []
    seen: set[str] = set()
    tools: Sequence[Any] = value or ()
    for n, tool in enumerate(tools):
        param = f"{where}[{n}]"
        name_param = f"{param}.function.name" if isinstance(tool, dict) and "function" in tool else f"{param}.name"
        try:
            check_depth(tool, MAX_SCHEMA_DEPTH + 4)
            found = tool_specs([tool])  # pyright: ignore[reportUnknownArgumentType]
        except ValueError as exc:
            message = str(exc).removeprefix("tool #0: ")
            raise RequestError(400, f"{param}: {message}", param=name_param if "'name'" in message else param) from None
        for spec in found:
            if not spec.name or len(spec.name) > 128 or not set(spec.name) <= _NAME_CHARS:
                raise RequestError(
                    400,
                    f"{param}: a tool name must be 1-128 letters, digits, '_', '-', '.' or ':'; got {spec.name!r}",
                    param=name_param,
                )
            if spec.name in seen:
                raise RequestError(400, f"{param}: the tool name {spec.name!r} is used twice", param=param)
            seen.add(spec.name)
            problem = _schema_problem(json.dumps(spec.input_schema, sort_keys=True))
            if problem is not None:
                raise RequestError(400, f"{param}: the parameters are not a valid JSON Schema: {problem}", param=param)
            specs.append(spec)
    return specs


def _schema_problem(schema: str) -> str | None:
    """What is wrong with a schema (JSON text), or None; cached (bounded in bytes), as clients send the same
    tools every time and checking against the meta-schema is the slowest part of reading a request."""
    known = _problems.get(schema)
    if known is not None:
        return known or None
    parameters = json.loads(schema)
    try:
        check_depth(parameters)
        problem = schema_problem(parameters)
    except (ValueError, RecursionError) as exc:
        problem = str(exc) or "it is nested too deeply"
    _problems.put(schema, problem or "")
    return problem


_problems: SizedCache[str, str] = SizedCache(32 * 1024 * 1024)
"""Schema text -> its problem ("" for none)."""


def choose_tools(
    choice: Any, tools: list[ToolSpec], *, param: str = "tool_choice"
) -> tuple[ToolChoice, list[ToolSpec]]:
    """A tool choice in OpenAI's forms (chat and Responses) -> the loop's choice, and the tools it may use.

    ``allowed_tools`` narrows the tools to the listed ones with its own ``mode``; every other form keeps the
    tools as they are. Only the shape is checked here: whether a named tool exists, or ``required`` has a tool
    to call, depends on the server's own tools too, and the loop decides it (`shim.tool_choice.TurnChoice`).

    Raises:
        RequestError: 400 for a form that is not a tool choice, or ``allowed_tools`` naming a tool not sent.
    """
    names = [t.name for t in tools]
    if choice is None:
        return "auto", tools
    if isinstance(choice, str):
        if choice in ("auto", "none", "required"):
            return choice, tools
        raise RequestError(
            400, f"'{param}' must be 'auto', 'none', 'required' or an object naming a tool; got {choice!r}", param=param
        )
    if not isinstance(choice, dict):
        raise RequestError(
            400,
            f"'{param}' must be 'auto', 'none', 'required' or an object; got {json.dumps(choice)[:80]}",
            param=param,
        )
    data: dict[str, Any] = choice  # pyright: ignore[reportUnknownVariableType]
    kind = data.get("type")
    if kind == "allowed_tools":
        allowed: Any = data.get("allowed_tools", data)  # chat nests it; Responses keeps it flat
        listed: Any = allowed.get("tools") if is_obj(allowed) else None
        mode: Any = allowed.get("mode", "auto") if is_obj(allowed) else None
        if not isinstance(listed, list) or mode not in ("auto", "required"):
            raise RequestError(
                400,
                f"'{param}' of type 'allowed_tools' needs 'mode' ('auto' or 'required') and a list of 'tools'",
                param=param,
            )
        wanted = {_tool_name(t) for t in listed}  # pyright: ignore[reportUnknownVariableType]
        unknown = sorted(str(n) for n in wanted - set(names))
        if unknown:
            raise RequestError(400, f"'{param}' allows tools that were not sent: {unknown}", param=param)
        kept = [t for t in tools if t.name in wanted]
        return mode, kept
    if kind == "custom":
        raise RequestError(400, f"'{param}': 'custom' tools are not supported; send function tools", param=param)
    name = _tool_name(data)
    if kind not in ("function", "tool", None) or name is None:
        raise RequestError(
            400,
            f"'{param}' must be {{'type': 'function', 'function': {{'name': ...}}}} or an 'allowed_tools' "
            f"object; got type {kind!r}",
            param=param,
        )
    return {"type": "function", "function": {"name": name}}, tools


def _tool_name(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    data: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
    function = data.get("function")
    name = function.get("name") if isinstance(function, dict) else data.get("name")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return name if isinstance(name, str) else None
