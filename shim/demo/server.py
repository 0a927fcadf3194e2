"""The demo MCP server: `shim.demo.tools` served over stdio with the MCP SDK.

Run it with ``python -m shim.demo.server``. Set ``SHIM_DEMO_NOW`` (an ISO 8601 instant) to freeze the clock
of ``get_time``, so a demo or a test gets the same answer every time. The key-value store lives as long as
the process.

Descriptions are short on purpose: the tiny demo model reads them in every prompt, one token per character.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from shim.demo.tools import UNITS, DemoToolError, DemoTools

__all__ = ["build_server", "main"]

_READ_ONLY = ToolAnnotations(read_only_hint=True)
# Overwriting a demo key is harmless; saying so lets the agent run it without asking for approval.
_HARMLESS_WRITE = ToolAnnotations(destructive_hint=False, idempotent_hint=True)
_UNITS = " ".join(UNITS)


def build_server(tools: DemoTools | None = None) -> MCPServer:
    """An MCP server offering ``tools`` (a fresh `DemoTools` by default) as five tools."""
    state = tools or DemoTools()
    server = MCPServer("shim-demo")

    def run(method: str, *args: object) -> str:
        try:
            return getattr(state, method)(*args)
        except DemoToolError as exc:  # becomes an isError result the model reads and can act on
            raise ToolError(str(exc)) from None

    @server.tool(annotations=_READ_ONLY, structured_output=False)
    def calculate(expression: Annotated[str, Field(description="e.g. (2 + 3) * 4")]) -> str:
        """Evaluate arithmetic: + - * / % ** and parentheses."""
        return run("calculate", expression)

    @server.tool(annotations=_READ_ONLY, structured_output=False)
    def get_time(timezone: Annotated[str, Field(description="IANA zone, e.g. Asia/Seoul")] = "UTC") -> str:
        """The current date and time in a time zone."""
        return run("get_time", timezone)

    @server.tool(annotations=_READ_ONLY, structured_output=False)
    def convert_units(
        value: float,
        from_unit: Annotated[str, Field(description=_UNITS)],
        to_unit: str,
    ) -> str:
        """Convert a length, mass, volume or temperature."""
        return run("convert_units", value, from_unit, to_unit)

    @server.tool(annotations=_HARMLESS_WRITE, structured_output=False)
    def kv_set(key: str, value: str) -> str:
        """Store a value under a key."""
        return run("kv_set", key, value)

    @server.tool(annotations=_READ_ONLY, structured_output=False)
    def kv_get(key: str) -> str:
        """Read the value stored under a key."""
        return run("kv_get", key)

    return server


def main() -> None:
    """Serve the demo tools over stdio until the client hangs up."""
    build_server().run()


if __name__ == "__main__":
    main()
