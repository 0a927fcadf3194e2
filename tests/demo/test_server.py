"""The demo MCP server over a real stdio connection (``python -m shim.demo.server`` via `MCPConnection`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from shim.demo import server_config
from shim.mcp_client import MCPConnection, open_connection
from shim.types import ToolCall

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def demo_server(now: str | None = "2026-05-04T12:30:00Z") -> AsyncIterator[MCPConnection]:
    async with open_connection(server_config(now=now), ready_timeout=20) as connection:
        yield connection


async def call(connection: MCPConnection, name: str, **arguments: Any) -> tuple[str, bool]:
    with anyio.fail_after(10):
        tool_call = ToolCall(id="call_0123456789abcdef01234567", name=name, arguments=arguments)
        result = await connection.call(tool_call, name)
    return result.render(), result.is_error


async def test_lists_five_tools_with_simple_schemas_and_safety_hints() -> None:
    async with demo_server() as connection:
        tools = {t.name: t for t in await connection.list_tools()}
    assert sorted(tools) == ["calculate", "convert_units", "get_time", "kv_get", "kv_set"]
    assert tools["convert_units"].input_schema["required"] == ["value", "from_unit", "to_unit"]
    assert tools["get_time"].input_schema["properties"]["timezone"]["default"] == "UTC"
    assert tools["calculate"].annotations == {"readOnlyHint": True}
    assert tools["kv_set"].annotations.get("destructiveHint") is False


async def test_every_tool_answers_over_stdio_with_a_frozen_clock() -> None:
    async with demo_server() as connection:
        assert await call(connection, "calculate", expression="(2 + 3) * 4") == ("20", False)
        assert await call(connection, "calculate", expression="17 / 4") == ("4.25", False)
        assert await call(connection, "get_time", timezone="Asia/Seoul") == ("2026-05-04 21:30", False)
        assert await call(connection, "get_time") == ("2026-05-04 12:30", False)
        assert await call(connection, "convert_units", value=10, from_unit="mi", to_unit="km") == ("16.09 km", False)
        assert await call(connection, "convert_units", value=30, from_unit="C", to_unit="F") == ("86 F", False)


async def test_the_store_keeps_values_between_calls_for_the_life_of_the_server() -> None:
    async with demo_server() as connection:
        assert await call(connection, "kv_set", key="color", value="blue") == ("color = blue", False)
        assert await call(connection, "kv_get", key="color") == ("blue", False)
        text, error = await call(connection, "kv_get", key="size")
    assert error and "nothing is stored under 'size'" in text


async def test_bad_arguments_come_back_as_error_results_the_model_can_read() -> None:
    async with demo_server() as connection:
        text, error = await call(connection, "calculate", expression="__import__('os')")
        assert error and "only numbers" in text
        text, error = await call(connection, "convert_units", value=1, from_unit="kg", to_unit="km")
        assert error and "cannot convert mass (kg) to length (km)" in text
        text, error = await call(connection, "get_time", timezone="Mars/Olympus")
        assert error and "unknown time zone 'Mars/Olympus'" in text
        text, error = await call(connection, "calculate", expression="1 / 0")
    assert error and "division by zero" in text


async def test_without_a_frozen_clock_get_time_reads_the_real_one() -> None:
    async with demo_server(now=None) as connection:
        text, error = await call(connection, "get_time", timezone="UTC")
    assert not error and text[:4].isdigit() and len(text) == len("2026-05-04 12:30")
