"""MCPConnection against real servers: server-everything (npm) over stdio and Streamable HTTP, mcp-server-time
(PyPI), and the paged lab server."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp_servers import (
    LAB_SERVER,
    STARTUP_GUARD,
    everything,
    everything_http,
    everything_sse,
    free_port,
    lab,
    lab_http,
    noisy,
    paged,
    time_server,
)

from shim.config import parse_config
from shim.errors import ToolExecutionError
from shim.mcp_client import MCPConnection, open_connection
from shim.types import ToolCall

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def connect(entry: dict[str, Any]) -> AsyncIterator[MCPConnection]:
    (server,) = parse_config({"mcpServers": {"s": entry}}).servers
    async with open_connection(server, ready_timeout=STARTUP_GUARD) as connection:
        yield connection


def call(tool: str, /, **arguments: Any) -> ToolCall:
    return ToolCall(id="call_0123456789abcdef01234567", name=tool, arguments=arguments)


async def test_lists_server_everything_tools_as_toolspecs_with_camelcase_annotations() -> None:
    async with connect(everything()) as connection:
        with anyio.fail_after(10):
            tools = {t.name: t for t in await connection.list_tools()}
    assert {"echo", "get-sum", "get-tiny-image", "get-structured-content"} <= set(tools)
    echo = tools["echo"]
    assert echo.input_schema["properties"]["message"]["type"] == "string"
    assert echo.annotations["readOnlyHint"] is True
    assert tools["get-structured-content"].output_schema is not None


async def test_calls_a_tool_and_returns_its_text_with_the_call_id() -> None:
    async with connect(everything()) as connection:
        with anyio.fail_after(10):
            result = await connection.call(call("echo", message="hi"), "echo")
    assert result.call_id == "call_0123456789abcdef01234567"
    assert not result.is_error
    assert result.render() == "Echo: hi"


async def test_keeps_every_content_block_including_images_links_and_embedded_resources() -> None:
    async with connect(everything()) as connection:
        with anyio.fail_after(10):
            image = await connection.call(call("get-tiny-image"), "get-tiny-image")
            links = await connection.call(call("get-resource-links", count=2), "get-resource-links")
            embedded = await connection.call(call("get-resource-reference"), "get-resource-reference")
    assert [b.kind for b in image.content] == ["text", "image", "text"]
    assert image.content[1].mime_type == "image/png" and image.content[1].data
    assert "[image: image/png" in image.render()
    assert [b.kind for b in links.content] == ["text", "resource_link", "resource_link"]
    assert "demo://resource/dynamic/" in (links.content[1].uri or "")
    resource = next(b for b in embedded.content if b.kind == "resource")
    assert resource.uri and resource.text
    assert resource.uri in embedded.render()


async def test_returns_structured_content_alongside_text() -> None:
    async with connect(everything()) as connection:
        with anyio.fail_after(10):
            result = await connection.call(call("get-structured-content", location="Chicago"), "get-structured-content")
    assert result.structured_content == {"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}


async def test_reads_every_page_of_a_paginated_tool_list() -> None:
    async with connect(paged()) as connection:
        with anyio.fail_after(10):
            names = [t.name for t in await connection.list_tools()]
    assert names == [f"page_tool_{i}" for i in range(7)] + ["bad_output"]


async def test_lists_and_calls_mcp_server_time_from_pypi() -> None:
    async with connect(time_server()) as connection:
        with anyio.fail_after(10):
            names = {t.name for t in await connection.list_tools()}
            result = await connection.call(call("get_current_time", timezone="Etc/UTC"), "get_current_time")
    assert names == {"get_current_time", "convert_time"}
    assert not result.is_error
    assert '"timezone": "Etc/UTC"' in result.render()


async def test_talks_to_server_everything_over_streamable_http() -> None:
    port = free_port()
    async with everything_http(port), connect({"type": "http", "url": f"http://127.0.0.1:{port}/mcp"}) as c:
        with anyio.fail_after(10):
            names = {t.name for t in await c.list_tools()}
            result = await c.call(call("get-sum", a=2, b=3), "get-sum")
    assert "get-sum" in names
    assert "5" in result.render()


async def test_talks_to_server_everything_over_the_old_http_sse_transport() -> None:
    port = free_port()
    async with everything_sse(port), connect({"type": "sse", "url": f"http://127.0.0.1:{port}/sse"}) as c:
        with anyio.fail_after(10):
            assert "echo" in {t.name for t in await c.list_tools()}
            result = await c.call(call("echo", message="over sse"), "echo")
    assert result.render() == "Echo: over sse"


async def test_sends_configured_http_headers_with_variables_expanded() -> None:
    port = free_port()
    entry = {
        "url": f"http://127.0.0.1:{port}/mcp",
        "headers": {"Authorization": "Bearer ${SHIM_TEST_TOKEN:-fallback-token}"},
        "protocol": "legacy",
    }
    async with lab_http(port), connect(entry) as connection:
        with anyio.fail_after(10):
            result = await connection.call(call("show_header", name="Authorization"), "show_header")
    assert result.render() == "Bearer fallback-token"


async def test_a_protocol_error_from_the_server_becomes_a_tool_execution_error() -> None:
    async with connect(paged()) as connection:
        with anyio.fail_after(10), pytest.raises(ToolExecutionError) as info:
            await connection.call(call("protocol_error"), "protocol_error")
    assert str(info.value) == "server 's' rejected the call to 'protocol_error': protocol error on purpose"


async def test_reconnects_and_retries_once_when_the_http_session_expired(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    first_server = AsyncExitStack()
    await first_server.enter_async_context(lab_http(port))
    # Sessions belong to the handshake era; the 2026-07-28 era over HTTP has none.
    async with connect({"type": "streamable-http", "url": url, "protocol": "legacy"}) as connection:
        with anyio.fail_after(10):
            first = await connection.call(call("echo", message="one"), "echo")
        assert first.render() == "lab echo: one"
        await first_server.aclose()
        # A new server on the same port has never heard of the session: it answers 404 "Session terminated".
        async with lab_http(port):
            with caplog.at_level(logging.INFO, logger="shim.mcp_client"), anyio.fail_after(20):
                result = await connection.call(call("echo", message="two"), "echo")
    assert not result.is_error, result.render()
    assert result.render() == "lab echo: two"
    assert "dropped the HTTP session; reconnecting" in caplog.text


async def test_a_server_that_cannot_start_reports_why() -> None:
    async with connect({"command": "shim-no-such-command"}) as connection:
        assert not connection.connected
        assert connection.error is not None and "shim-no-such-command" in connection.error
        with anyio.fail_after(10), pytest.raises(ToolExecutionError, match="'s' is not available"):
            await connection.call(call("x"), "x")


async def test_a_server_printing_junk_on_stdout_is_named_once_and_still_works(caplog: pytest.LogCaptureFixture) -> None:
    entry = noisy(env={"NOISY_SAY": "token tok-noisy-123456", "LAB_SECRET": "tok-noisy-123456"})
    with caplog.at_level(logging.DEBUG):
        async with connect(entry) as connection:
            assert connection.connected, connection.error
            with anyio.fail_after(20):
                for _ in range(3):
                    result = await connection.call(call("add", a=2, b=3), "add")
                    assert result.render() == "5"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in warnings] == ["shim.mcp_client"], caplog.text
    assert "MCP server 's' writes lines that are not JSON-RPC to its stdout" in warnings[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)  # no traceback per junk line
    assert "tok-noisy-123456" not in caplog.text


async def test_a_missing_working_directory_is_named_not_reported_as_a_missing_command(tmp_path: Any) -> None:
    async with connect(lab(cwd=str(tmp_path / "gone"))) as connection:
        assert not connection.connected
        assert connection.error is not None
        assert "working directory" in connection.error and "gone" in connection.error
        assert "command not found" not in connection.error


async def test_a_connection_given_an_in_process_server_lists_and_calls_it_without_starting_a_process() -> None:
    from mcp.server.mcpserver import MCPServer

    inline = MCPServer("inline")

    @inline.tool()
    def shout(text: str) -> str:
        """Upper-case the text."""
        return text.upper()

    (server,) = parse_config({"mcpServers": {"inline": {"command": "shim-test-never-started"}}}).servers
    async with open_connection(server, ready_timeout=10, connect=lambda: inline) as connection:
        with anyio.fail_after(10):
            tools = await connection.list_tools()
            result = await connection.call(call("shout", text="hi"), "shout")
    assert [t.name for t in tools] == ["shout"]
    assert result.render() == "HI" and result.call_id == "call_0123456789abcdef01234567"


async def test_a_result_over_the_servers_message_limit_fails_its_call_and_the_next_call_works() -> None:
    async with connect(lab(maxMessageBytes=1_000_000)) as connection:
        with anyio.fail_after(30):
            with pytest.raises(ToolExecutionError, match="maxMessageBytes"):
                await connection.call(call("huge", size=3_000_000), "huge")
            after = await connection.call(call("echo", message="still here"), "echo")
    assert after.render() == "lab echo: still here"


async def test_a_thirty_megabyte_result_is_read_in_linear_time() -> None:
    # The SDK's reader joined its growing buffer with every 64 KB chunk: 50 MB took over 80 s, and every later
    # call waited behind it. Read once, it takes about as long as the server needs to write it.
    size = 15_000_000  # the lab server sends it twice (text and structured content): a 30 MB message
    async with connect(lab()) as connection:
        with anyio.fail_after(300):  # a hang guard: the quadratic reader took minutes at this size
            result = await connection.call(call("huge", size=size), "huge")
            after = await connection.call(call("echo", message="next"), "echo")
    assert len(result.content[0].text or "") == size and after.render() == "lab echo: next"


async def test_a_servers_stderr_goes_to_the_log_with_its_secrets_hidden() -> None:
    token = "lab-token-9f8e7d6c5b4a"
    # The server prints its own environment token on stderr before it starts, as a careless server does.
    script = (
        "import os, runpy, sys; print('starting with token', os.environ['LAB_TOKEN'], file=sys.stderr, flush=True); "
        f"sys.argv = [{str(LAB_SERVER)!r}]; runpy.run_path({str(LAB_SERVER)!r}, run_name='__main__')"
    )
    entry = {"command": sys.executable, "args": ["-c", script], "env": {"LAB_TOKEN": token}}
    (server,) = parse_config({"mcpServers": {"s": entry}}).servers
    errlog = io.StringIO()
    async with open_connection(server, ready_timeout=20, errlog=errlog) as connection:
        with anyio.fail_after(10):
            await connection.call(call("echo", message="hi"), "echo")
    written = errlog.getvalue()
    assert "starting with token [REDACTED]" in written
    assert token not in written


async def test_two_calls_in_a_row_that_time_out_restart_the_server_so_later_calls_work() -> None:
    async with connect(lab()) as connection:
        with anyio.fail_after(30):
            for token in ("first", "second"):
                with pytest.raises(ToolExecutionError, match="did not answer"):
                    await connection.call(call("slow", token=token), "slow", timeout=0.5)
            after = await connection.call(call("echo", message="fresh"), "echo")
    assert after.render() == "lab echo: fresh"
    assert connection.restarts >= 1
