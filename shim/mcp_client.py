"""The one module that imports the MCP SDK: connect to a server, list its tools, run ``tools/call``.

SDK types (``mcp.types.Tool``, ``CallToolResult``) are converted to shim's `ToolSpec` and `ToolResult` here
and go no further; SDK exceptions become `ToolExecutionError` with a message a model can read.

Each `MCPConnection` owns its SDK client inside its own task (`MCPConnection.run`), because the client's
transport lives in cancel scopes that must be entered and left by one task; it also keeps a crash of one
server inside that task, so the other servers go on working.

Stdio servers run under shim's own transport (`stdio_transport`), not the SDK's ``stdio_client``, for three
reasons: the SDK's reader joins its growing buffer with each new chunk (a 50 MB result took over 80 s); it
has no bound on a message (``maxMessageBytes``, `MAX_MESSAGE_BYTES` by default: a larger response becomes an
error for its call, and the server is not left stuck); and it hands the server's stderr straight to the log,
where a server that prints its own ``env`` token would leak it (here each line goes through `redact` first).
Two calls in a row that time out restart the server, so one that no longer answers (stuck, or busy writing
a huge result) does not hold up every later call.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager, nullcontext, suppress
from typing import Any, TextIO

import anyio
import anyio.lowlevel
import httpx2
import mcp_types as types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import get_default_environment, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.dispatcher import ProgressFnT
from mcp.shared.message import SessionMessage
from mcp_types.jsonrpc import CONNECTION_CLOSED
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from shim.__about__ import __version__
from shim.config import ServerConfig
from shim.errors import ToolExecutionError
from shim.redact import install_log_redaction, redact, secrets_registered
from shim.types import ContentBlock, ToolCall, ToolResult, ToolSpec

__all__ = ["MAX_MESSAGE_BYTES", "Connect", "MCPConnection", "ProgressFn", "open_connection", "stdio_transport"]

logger = logging.getLogger(__name__)
logger.addHandler(logging.NullHandler())  # a library logs; the application decides what to show


class _QuietLineErrors(logging.Filter):
    """Drops the SDK's traceback for each stdout line that is not JSON-RPC: a server that prints junk would
    flood the terminal with hundreds of them without naming itself. `MCPConnection` says it once instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to parse JSONRPC message")


logging.getLogger("mcp.client.stdio").addFilter(_QuietLineErrors())
install_log_redaction("mcp.client.stdio", "mcp.client.session", "mcp.shared.jsonrpc_dispatcher")

ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
"""Receives ``notifications/progress`` of one call: progress, total, message."""

Connect = Callable[[], Any]
"""Makes what a connection talks to instead of the configured transport, once per (re)connection: an SDK
``Transport``, or an in-process server (``mcp.server.mcpserver.MCPServer``), which the SDK serves over memory
streams. The seam for tests (httpx's ``MockTransport``): the connection's logic runs against a server defined
inline, with no process to spawn and no clock to race."""

_SESSION_GONE = re.compile(r"session (terminated|not found|expired)|no valid session|unknown session", re.I)
"""How servers say they forgot an HTTP session: the SDK's 404 stand-in, the Python SDK, the TypeScript SDK."""

_PAGE_CAP = 100
"""Most ``tools/list`` pages read, so a server whose cursor never ends cannot hang shim."""

MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""The largest message a server may send unless its config says otherwise (``maxMessageBytes``)."""


@asynccontextmanager
async def open_connection(
    config: ServerConfig,
    *,
    ready_timeout: float = 30.0,
    errlog: TextIO | None = None,
    connect: Connect | None = None,
) -> AsyncGenerator[MCPConnection, None]:
    """One server, connected for the length of a block (a one-off listing or call; `ToolRouter` for the rest).

    Raises:
        TimeoutError: the server was not ready within ``ready_timeout`` seconds.
    """
    connection = MCPConnection(config, errlog=errlog, connect=connect)
    async with anyio.create_task_group() as tg:
        tg.start_soon(connection.run)
        try:
            with anyio.fail_after(ready_timeout):
                await connection.wait_ready()
            yield connection
        finally:
            connection.close()


class MCPConnection:
    """One configured MCP server, (re)connected on demand.

    Start `run` in a task group, then use `list_tools` and `call` from any task. A server that fails to start
    or crashes is restarted by the next call that needs it.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        on_tools_changed: Callable[[str], None] | None = None,
        errlog: TextIO | None = None,
        connect: Connect | None = None,
    ) -> None:
        """Args:
        config: the server's configuration (its name, policy, timeouts, and how to reach it).
        on_tools_changed: called with the server's name when it announces a change of its tools.
        errlog: where a stdio server's stderr goes (default: ``sys.stderr``).
        connect: what to talk to instead of the configured transport (`Connect`).
        """
        self.config = config
        self._connect = connect
        self.error: str | None = None
        """Why the server is not connected, when it is not."""
        self._on_tools_changed = on_tools_changed
        self._errlog = errlog
        self._client: Client | None = None
        self._ready = anyio.Event()
        self._wake = anyio.Event()
        self._closing = False
        self._sessions = 0
        self._junk_lines = 0
        self._timeouts = 0
        """Calls that timed out in a row (two restart the server)."""
        self.finished = anyio.Event()
        """Set when `run` has returned."""

    @property
    def name(self) -> str:
        return self.config.name

    async def run(self) -> None:
        """Own the SDK client until `close`; never raises (failures land in `error`)."""
        try:
            with secrets_registered(self.config.secrets):  # so logs and terminal output hide them too
                await self._run()
        finally:
            self.finished.set()

    async def _run(self) -> None:
        while not self._closing:
            wake = self._wake = anyio.Event()
            connected = False
            try:
                async with AsyncExitStack() as stack:
                    client = await stack.enter_async_context(await self._open(stack))
                    self._client, self.error, connected = client, None, True
                    self._sessions += 1
                    self._ready.set()
                    if self._sessions > 1:
                        self._tools_changed()  # a restarted server may offer other tools than before
                    async with anyio.create_task_group() as tg:
                        if self._modern(client):
                            tg.start_soon(self._listen, client)
                        await wake.wait()
                        tg.cancel_scope.cancel()
            except Exception as exc:  # boundary: whatever the server or transport did stays in this server
                self.error = _describe(exc)
                logger.warning("MCP server %r failed: %s", self.name, self._redact(self.error))
            finally:
                self._client = None
            if self._closing:
                break
            if connected and wake.is_set():
                continue  # a restart was asked for: reconnect before releasing the callers waiting on it
            self._ready.set()  # the attempt failed or the connection ended: callers see `error`
            await wake.wait()  # stay down until a call asks for a restart
        self._ready.set()

    @property
    def restarts(self) -> int:
        """How many times the server was connected again after its first session."""
        return max(self._sessions - 1, 0)

    @property
    def connected(self) -> bool:
        return self._client is not None

    async def wait_ready(self) -> None:
        """Return once the first connection attempt has succeeded or failed."""
        await self._ready.wait()

    def close(self) -> None:
        """Ask `run` to disconnect and return."""
        self._closing = True
        self._wake.set()

    async def list_tools(self) -> list[ToolSpec]:
        """Every tool the server offers, all pages read.

        Raises:
            ToolExecutionError: the server is down or the listing failed.
        """
        client = await self._connected()
        tools: list[ToolSpec] = []
        cursor: str | None = None
        try:
            for _ in range(_PAGE_CAP):
                page = await client.list_tools(cursor=cursor, cache_mode="refresh")
                tools.extend(_tool_spec(t) for t in page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
        except Exception as exc:  # boundary: a listing failure is reported per server
            raise ToolExecutionError(f"server {self.name!r} failed to list its tools: {_describe(exc)}") from exc
        return tools

    async def call(
        self,
        call: ToolCall,
        tool: str,
        *,
        timeout: float | None = None,
        on_progress: ProgressFn | None = None,
    ) -> ToolResult:
        """Run one real ``tools/call`` and convert what comes back.

        Cancelling the calling task sends ``notifications/cancelled`` to the server. An HTTP session the server
        has forgotten ("Session terminated") is reconnected and the call resent once.

        Args:
            call: the model's call (its id goes on the result; its name is the public one).
            tool: the tool's name on this server.
            timeout: seconds to wait for the answer; on expiry the request is cancelled.
            on_progress: receives the server's progress notifications for this call.

        Raises:
            ToolExecutionError: the call failed before the tool could answer (timeout, protocol error, crash,
                invalid result); the message is meant for the model.
        """
        for attempt in (1, 2):
            client = await self._connected()
            try:
                with anyio.fail_after(timeout) if timeout else nullcontext():
                    result = await client.call_tool(tool, call.arguments, progress_callback=_progress(on_progress))
            except TimeoutError:
                self._timeouts += 1
                if self._timeouts >= 2 and self._client is client:
                    # One timeout is a slow tool (its late answer is read and dropped); two in a row, a server that
                    # no longer answers (stuck, or still writing a huge result): restart it for the next call.
                    logger.warning("MCP server %r: calls keep timing out; restarting it", self.name)
                    self._timeouts = 0
                    self._request_restart()
                raise ToolExecutionError(
                    f"tool {call.name!r} did not answer within {timeout:g} s and was cancelled; "
                    "try a smaller request or try again later"
                ) from None
            except MCPError as exc:
                if attempt == 1 and self.config.transport != "stdio" and _SESSION_GONE.search(exc.message):
                    logger.info("MCP server %r dropped the HTTP session; reconnecting", self.name)
                    await self._restart(client)
                    continue
                if exc.code == CONNECTION_CLOSED:
                    if self._client is client:
                        self._request_restart()  # restart now, so the next call finds a live server
                    raise ToolExecutionError(
                        f"server {self.name!r} closed the connection during the call to {call.name!r} "
                        "(it may have crashed); it will be restarted for the next call"
                    ) from None
                raise ToolExecutionError(
                    f"server {self.name!r} rejected the call to {call.name!r}: {self._redact(exc.message)}"
                ) from None
            except (RuntimeError, ValidationError) as exc:
                # The SDK raises RuntimeError for structured content that breaks the tool's output schema.
                raise ToolExecutionError(
                    f"tool {call.name!r} returned an invalid result: {self._redact(_describe(exc).split(chr(10))[0])}"
                ) from None
            except Exception as exc:  # boundary: around each tool execution
                raise ToolExecutionError(
                    f"call to {call.name!r} on server {self.name!r} failed: {self._redact(_describe(exc))}"
                ) from None
            self._timeouts = 0
            return ToolResult(
                call_id=call.id,
                name=call.name,
                content=tuple(_content_block(b) for b in result.content),
                structured_content=result.structured_content,
                is_error=bool(result.is_error),
            )
        raise AssertionError("unreachable")  # pragma: no cover

    def _redact(self, text: str) -> str:
        return redact(text, self.config.secrets)

    async def _connected(self) -> Client:
        await self._ready.wait()
        if self._client is None and not self._closing:
            self._request_restart()
            await self._ready.wait()
        client = self._client
        if client is None:
            raise ToolExecutionError(f"server {self.name!r} is not available: {self._redact(self.error or 'closed')}")
        return client

    async def _restart(self, seen: Client | None) -> None:
        if self._client is not seen and self._client is not None:
            return  # another task restarted it already
        self._request_restart()
        await self._ready.wait()

    def _request_restart(self) -> None:
        # Callers that ask while a restart is pending share its Event, so none waits on a stale one.
        if self._ready.is_set():
            self._ready = anyio.Event()
        self._client = None
        self._wake.set()

    async def _open(self, stack: AsyncExitStack) -> Client:
        c = self.config
        common: dict[str, Any] = {
            "mode": c.protocol,
            "message_handler": self._on_message,
            "client_info": types.Implementation(name="shim", version=__version__),
            "cache": None,  # list_changed must always reach the server, never a cached listing
        }
        if self._connect is not None:
            return Client(self._connect(), **common)
        if c.transport == "stdio":
            assert c.command is not None
            if c.cwd is not None and not os.path.isdir(c.cwd):
                # Otherwise the spawn's FileNotFoundError reads as if the command were missing.
                raise ToolExecutionError(f"the working directory {c.cwd!r} (field 'cwd') does not exist")
            params = StdioServerParameters(command=c.command, args=list(c.args), env=c.env or None, cwd=c.cwd)
            if sys.platform == "win32":  # pragma: no cover - the SDK's transport knows Windows' Job Objects
                return Client(stdio_client(params, errlog=self._errlog or sys.stderr), **common)
            transport = stdio_transport(
                params,
                errlog=self._errlog or sys.stderr,
                redact_line=self._redact,
                max_message=c.max_message_bytes or MAX_MESSAGE_BYTES,
                name=c.name,
            )
            return Client(transport, **common)
        assert c.url is not None
        if c.transport == "sse":
            return Client(sse_client(c.url, headers=dict(c.headers)), **common)
        http = await stack.enter_async_context(
            httpx2.AsyncClient(headers=c.headers, timeout=httpx2.Timeout(30.0, read=300.0))
        )
        return Client(streamable_http_client(c.url, http_client=http), **common)

    def _modern(self, client: Client) -> bool:
        tools = client.server_capabilities.tools
        return client.protocol_version in MODERN_PROTOCOL_VERSIONS and bool(tools and tools.list_changed)

    async def _listen(self, client: Client) -> None:
        """2026-07-28 era: list changes arrive on a ``subscriptions/listen`` stream."""
        try:
            async with client.listen(tools_list_changed=True) as subscription:
                async for _event in subscription:
                    self._tools_changed()
        except Exception as exc:  # boundary: losing the subscription must not take the server down
            logger.info("MCP server %r: tool-change subscription ended: %s", self.name, _describe(exc))

    async def _on_message(self, message: types.ServerNotification | Exception) -> None:
        """2025-11-25 era: list changes arrive as ``notifications/tools/list_changed``; a line the transport
        could not read arrives as an exception."""
        if isinstance(message, types.ToolListChangedNotification):
            self._tools_changed()
        elif isinstance(message, Exception):
            self._junk_lines += 1
            if self._junk_lines == 1:  # one line per server, not one per junk line
                logger.warning(
                    "MCP server %r writes lines that are not JSON-RPC to its stdout, such as %s; shim ignores "
                    "them (a server must write its logs to stderr)",
                    self.name,
                    self._redact(_junk(message)),
                    extra={"notice": True},
                )
            else:
                logger.debug("MCP server %r: %d lines on stdout were not JSON-RPC", self.name, self._junk_lines)
        await anyio.lowlevel.checkpoint()

    def _tools_changed(self) -> None:
        if self._on_tools_changed is not None:
            self._on_tools_changed(self.name)


def _progress(on_progress: ProgressFn | None) -> ProgressFnT | None:
    if on_progress is None:
        return None

    async def forward(progress: float, total: float | None, message: str | None) -> None:
        await on_progress(progress, total, message)

    return forward


def _describe(exc: BaseException) -> str:
    inner: Any = getattr(exc, "exceptions", None)  # an ExceptionGroup from a transport's task group
    if inner:
        return _describe(inner[0])
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if isinstance(exc, MCPError):
        return f"{exc.message} (MCP error {exc.code})"
    return str(exc) or type(exc).__name__


def _junk(exc: Exception) -> str:
    """The line a transport could not read, shortened, as ``repr``."""
    if isinstance(exc, ValidationError) and exc.errors():
        line = exc.errors()[0].get("input")
        if isinstance(line, (str, bytes)):
            return repr(line[:80])
    return repr(str(exc).split("\n")[0][:80])


def _tool_spec(tool: types.Tool) -> ToolSpec:
    annotations: dict[str, Any] = {}
    if tool.annotations is not None:
        annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True)
    return ToolSpec(
        name=tool.name,
        description=tool.description or "",
        title=tool.title or (tool.annotations.title if tool.annotations else None),
        input_schema=dict(tool.input_schema),
        output_schema=dict(tool.output_schema) if tool.output_schema is not None else None,
        annotations=annotations,
    )


def _content_block(block: types.ContentBlock) -> ContentBlock:
    match block:
        case types.TextContent():
            return ContentBlock(kind="text", text=block.text)
        case types.ImageContent():
            return ContentBlock(kind="image", data=block.data, mime_type=block.mime_type)
        case types.AudioContent():
            return ContentBlock(kind="audio", data=block.data, mime_type=block.mime_type)
        case types.ResourceLink():
            return ContentBlock(
                kind="resource_link",
                uri=str(block.uri),
                name=block.name,
                description=block.description,
                mime_type=block.mime_type,
            )
        case types.EmbeddedResource():
            res = block.resource
            if isinstance(res, types.TextResourceContents):
                return ContentBlock(kind="resource", uri=str(res.uri), text=res.text, mime_type=res.mime_type)
            return ContentBlock(kind="resource", uri=str(res.uri), data=res.blob, mime_type=res.mime_type)
    raise ToolExecutionError(f"unsupported content block {type(block).__name__!r}")  # pragma: no cover


class _TooLarge:
    """A message over the size limit, of which only the ends were kept (to find its request id)."""

    def __init__(self, size: int, head: bytes, tail: bytes) -> None:
        self.size = size
        self.head = head
        self.tail = tail


class _Lines:
    """Splits a byte stream into lines in linear time (each chunk is scanned once; a line is joined once),
    keeping no more than ``limit`` bytes of one line."""

    _ENDS = 512

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pieces: list[bytes] = []
        self._size = 0
        self._head = b""
        self._tail = b""
        self._over = False

    def feed(self, chunk: bytes) -> list[bytes | _TooLarge]:
        lines: list[bytes | _TooLarge] = []
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            self._add(chunk[start:end])
            lines.append(self._take())
            start = end + 1
        if start < len(chunk):
            self._add(chunk[start:])
        return lines

    def _add(self, piece: bytes) -> None:
        self._size += len(piece)
        if self._over:
            self._tail = (self._tail + piece[-self._ENDS :])[-self._ENDS :]
            return
        self._pieces.append(piece)
        if self._size > self.limit:
            self._over = True
            self._head = b"".join(p[: self._ENDS] for p in self._pieces[:8])[: self._ENDS]
            self._tail = b"".join(p[-self._ENDS :] for p in self._pieces[-2:])[-self._ENDS :]
            self._pieces = []

    def _take(self) -> bytes | _TooLarge:
        line: bytes | _TooLarge = (
            _TooLarge(self._size, self._head, self._tail) if self._over else b"".join(self._pieces)
        )
        self._pieces, self._size, self._over, self._head, self._tail = [], 0, False, b"", b""
        return line


_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')
_BODY_KEYS = re.compile(rb'"(?:result|error|params)"\s*:')


def _request_id(message: _TooLarge) -> int | str | None:
    """The id of a response too large to read, from its first or last bytes (an envelope puts ``id`` before
    ``result``, as Python servers write it, or after, as TypeScript servers do), or None."""
    body = _BODY_KEYS.search(message.head)
    found = _ID.search(message.head, 0, body.start() if body is not None else len(message.head))
    if found is None:
        at_end = [m for m in _ID.finditer(message.tail) if not message.tail[m.end() :].strip(b"} \t\r")]
        found = at_end[-1] if at_end else None
    if found is None:
        return None
    value = json.loads(found.group(1))
    return value if isinstance(value, (int, str)) else None


def _message(line: bytes | _TooLarge, limit: int) -> SessionMessage | Exception:
    if isinstance(line, _TooLarge):
        problem = f"the server sent a message of {line.size} bytes; the limit is {limit} (maxMessageBytes)"
        request = _request_id(line)
        if request is None:
            return ValueError(problem)
        error = types.ErrorData(code=types.INTERNAL_ERROR, message=problem)
        return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=request, error=error))
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:  # a line that is not JSON-RPC: the session reports it (`_on_message`)
        return exc


@asynccontextmanager
async def stdio_transport(
    server: StdioServerParameters,
    *,
    errlog: TextIO,
    redact_line: Callable[[str], str] = redact,
    max_message: int = MAX_MESSAGE_BYTES,
    name: str = "stdio",
) -> AsyncGenerator[tuple[Any, Any], None]:
    """Run a stdio MCP server and yield the SDK's ``(read, write)`` streams for it (see the module docstring).

    Args:
        server: the command, arguments, environment and working directory.
        errlog: where the server's stderr goes, each line through ``redact_line`` first.
        redact_line: hides the server's secrets in a line of its stderr.
        max_message: the largest message read; a larger one becomes an error response to its request.
        name: the server's name, for the log.
    """
    from mcp.os.posix.utilities import terminate_posix_process_tree

    process = await anyio.open_process(
        [server.command, *server.args],
        env=get_default_environment() | (server.env or {}),
        cwd=server.cwd,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: stopping it stops whatever it started
    )
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    assert process.stdout is not None and process.stdin is not None and process.stderr is not None
    stdout, stdin, stderr = process.stdout, process.stdin, process.stderr

    async def read_stdout() -> None:
        lines = _Lines(max_message)
        try:
            async with read_writer:
                async for chunk in stdout:
                    for line in lines.feed(chunk):
                        if isinstance(line, bytes) and not line.strip():
                            continue
                        if isinstance(line, _TooLarge):
                            logger.warning(
                                "MCP server %r sent a message of %d bytes, over its limit of %d (maxMessageBytes); "
                                "the call it answers fails",
                                name,
                                line.size,
                                max_message,
                            )
                        await read_writer.send(_message(line, max_message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError, OSError):
            pass  # the session or the server is gone; the read stream's end says so

    async def read_stderr() -> None:
        lines = _Lines(64 * 1024)
        try:
            async for chunk in stderr:
                for line in lines.feed(chunk):
                    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else "(a very long line)"
                    errlog.write(redact_line(text) + "\n")
                    errlog.flush()
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError, ValueError):
            pass  # the pipe closed, or errlog did (the server is stopping)

    async def write_stdin() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await stdin.send(data.encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # the session sees the connection end, not a request hanging forever

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_stdout)
        tg.start_soon(read_stderr)
        tg.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                read_stream.close()
                write_stream.close()
                with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await stdin.aclose()
                with anyio.move_on_after(2):  # the MCP spec's shutdown: close stdin, wait, then terminate
                    await process.wait()
                if process.returncode is None:
                    await terminate_posix_process_tree(process, 2.0)
                    with anyio.move_on_after(2):
                        await process.wait()
            tg.cancel_scope.cancel()
