"""Plain value types shared along the pipeline (prompt -> backend -> parser -> router -> MCP).

They are shim's own: SDK types (``mcp.types.Tool``, ``ollama.ChatResponse``) are converted at their boundary
module and never travel further.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

__all__ = ["JsonObject", "JsonValue", "Message", "Role", "ToolCall", "ToolSpec"]

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = "dict[str, JsonValue]"
Role: TypeAlias = Literal["system", "user", "assistant"]


@dataclass(frozen=True, kw_only=True)
class Message:
    """A plain chat message as a model without native tool calling takes it (the prompt layer's output).

    Calls and results have already been rendered into ``content`` as text.
    """

    role: Role
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """A complete call the model made."""

    id: str
    """``call_`` + 24 lowercase hex digits; distinct from any JSON-RPC request id."""
    name: str
    arguments: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    """A tool definition as the model should see it, whatever form it arrived in."""

    name: str
    description: str = ""
    title: str | None = None
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    """JSON Schema of the arguments object (MCP's ``inputSchema``, OpenAI's ``parameters``)."""
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] = field(default_factory=dict[str, Any])
    """MCP hints such as ``readOnlyHint`` and ``destructiveHint``."""

    @classmethod
    def from_any(cls, tool: str | Mapping[str, Any] | ToolSpec) -> ToolSpec:
        """Accept a bare name, an MCP ``tools/list`` entry or an OpenAI ``{"type": "function", ...}`` tool.

        Raises:
            ValueError: the object has no usable ``name``.
        """
        if isinstance(tool, ToolSpec):
            return tool
        if isinstance(tool, str):
            return cls(name=tool)
        data: Mapping[str, Any] = tool
        if isinstance(data.get("function"), Mapping):  # OpenAI: {"type": "function", "function": {...}}
            fn: Mapping[str, Any] = data["function"]
            schema = fn.get("parameters")
            return cls(
                name=_require_name(fn),
                description=str(fn.get("description") or ""),
                input_schema=dict(schema) if isinstance(schema, Mapping) else _empty_schema(),
            )
        schema = data.get("inputSchema", data.get("input_schema", data.get("parameters")))
        output = data.get("outputSchema", data.get("output_schema"))
        annotations = data.get("annotations")
        title = data.get("title")
        return cls(
            name=_require_name(data),
            description=str(data.get("description") or ""),
            title=str(title) if title else None,
            input_schema=dict(schema) if isinstance(schema, Mapping) else _empty_schema(),
            output_schema=dict(output) if isinstance(output, Mapping) else None,
            annotations=dict(annotations) if isinstance(annotations, Mapping) else {},
        )


def _require_name(data: Mapping[str, Any]) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a tool definition needs a non-empty string 'name'; got keys {sorted(data)!r}")
    return name


def _empty_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {}}
