"""A low-level MCP server for shim's tests: ``tools/list`` in pages, a result that breaks its schema, and a
JSON-RPC error answering ``tools/call``."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp import MCPError
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

_TOOLS = [
    types.Tool(
        name=f"page_tool_{i}", input_schema={"type": "object"}, annotations=types.ToolAnnotations(read_only_hint=True)
    )
    for i in range(7)
]
_TOOLS.append(
    types.Tool(
        name="bad_output",
        input_schema={"type": "object"},
        output_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        annotations=types.ToolAnnotations(read_only_hint=True),
    )
)
_PAGE = 3


async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    start = int(params.cursor) if params and params.cursor else 0
    end = start + _PAGE
    return types.ListToolsResult(tools=_TOOLS[start:end], next_cursor=str(end) if end < len(_TOOLS) else None)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "protocol_error":  # a JSON-RPC error response, not an isError result
        raise MCPError(code=types.INVALID_PARAMS, message="protocol error on purpose")
    if params.name == "bad_output":
        return types.CallToolResult(
            content=[types.TextContent(text='{"n": "not a number"}')], structured_content={"n": "not a number"}
        )
    return types.CallToolResult(content=[types.TextContent(text=f"{params.name} ran")])


server = Server("paged", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
