"""A small MCP server for shim's tests: slow calls, cancellation, crashes, huge results, list changes.

Run as ``python lab_server.py`` (stdio) or ``python lab_server.py http PORT`` (Streamable HTTP). It speaks both protocol eras; the client picks one.
"""

from __future__ import annotations

import os

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

_READ_ONLY = ToolAnnotations(read_only_hint=True)


def _event(table: dict[str, anyio.Event], key: str) -> anyio.Event:
    return table.setdefault(key, anyio.Event())


def build(name: str = "lab", *, secret: str = "") -> MCPServer:
    """A fresh lab server (its own tools and state): run over stdio below, or connected in process by a test
    (`shim.mcp_client.Connect`)."""
    mcp = MCPServer(name)
    _cancelled: dict[str, anyio.Event] = {}
    _signals: dict[str, anyio.Event] = {}

    @mcp.tool(annotations=_READ_ONLY)
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @mcp.tool(annotations=_READ_ONLY)
    def echo(message: str) -> str:
        """Return the message unchanged."""
        return f"lab echo: {message}"

    @mcp.tool(name="search.docs", annotations=_READ_ONLY)
    def search_docs(query: str) -> str:
        """A tool whose name has a dot, which OpenAI-style clients refuse."""
        return f"no docs about {query}"

    @mcp.tool(annotations=_READ_ONLY)
    async def slow(token: str, ctx: Context) -> str:
        """Report progress, then wait until the client cancels the call (it never answers on its own)."""
        await ctx.report_progress(1, 2, "started")
        try:
            await anyio.sleep_forever()
        finally:
            _event(_cancelled, token).set()
        return "unreachable"

    @mcp.tool(annotations=_READ_ONLY)
    async def wait_for_cancellation(token: str) -> str:
        """Answer once the `slow` call with this token has been cancelled by the client."""
        await _event(_cancelled, token).wait()
        return f"the slow call {token!r} was cancelled"

    @mcp.tool(annotations=_READ_ONLY)
    async def wait_for_signal(token: str) -> str:
        """Answer once `signal` was called with the same token (only possible if calls run concurrently)."""
        await _event(_signals, token).wait()
        return f"got signal {token!r}"

    @mcp.tool(annotations=_READ_ONLY)
    def signal(token: str) -> str:
        """Release `wait_for_signal` callers waiting on this token."""
        _event(_signals, token).set()
        return f"sent signal {token!r}"

    @mcp.tool(annotations=_READ_ONLY)
    async def progress(steps: int, ctx: Context) -> str:
        """Send `steps` progress notifications, then answer."""
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step}")
        return "done"

    @mcp.tool(annotations=_READ_ONLY)
    def crash() -> str:
        """Kill the server process in the middle of the call (a test of the real process seam only)."""
        os._exit(3)

    @mcp.tool(annotations=_READ_ONLY)
    def huge(size: int) -> str:
        """Return `size` characters."""
        return "x" * size

    @mcp.tool(annotations=_READ_ONLY)
    def fail(reason: str) -> str:
        """Fail with a tool error (an `isError` result, not a protocol error)."""
        raise ToolError(f"failed on purpose: {reason}")

    @mcp.tool(annotations=_READ_ONLY)
    def get_secret() -> str:
        """Return the LAB_SECRET environment variable (to check it never reaches the logs)."""
        return secret

    @mcp.tool(annotations=_READ_ONLY)
    def show_header(name: str, ctx: Context) -> str:
        """Return one HTTP request header as the server received it (HTTP transports only)."""
        return (ctx.headers or {}).get(name.lower(), "(not sent)")

    @mcp.tool()
    def delete_everything() -> str:
        """A tool with no annotations: MCP assumes it may be destructive."""
        return "deleted"

    @mcp.tool(annotations=_READ_ONLY)
    async def add_tool(name: str, ctx: Context) -> str:
        """Register a new tool `name`, then announce the change on whichever protocol era is in use."""
        mcp.add_tool(lambda: f"{name} ran", name=name, description=f"added at run time: {name}")
        if ctx.protocol_version == "2026-07-28":
            await ctx.notify_tools_changed()
        else:
            await ctx.session.send_tool_list_changed()
        return f"added {name}"

    return mcp


if __name__ == "__main__":
    import sys
    import time
    from pathlib import Path

    if gate := os.environ.get("LAB_START_WHEN_EXISTS"):  # a slow start the test controls
        while not Path(gate).exists():
            time.sleep(0.05)

    mcp = build(os.environ.get("LAB_NAME", "lab"), secret=os.environ.get("LAB_SECRET", ""))
    if sys.argv[1:2] == ["http"]:  # lab_server.py http PORT: Streamable HTTP with sessions
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run()
