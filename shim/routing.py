"""Route the model's tool calls to MCP servers and turn every outcome into a `ToolResult` the model can read.

Before a call reaches a server it is looked up (unknown name -> an error listing the valid names), its
arguments are checked against the tool's ``inputSchema`` (invalid -> an error saying what is wrong, so the
model can retry), and an approval policy is asked. Nothing a model or a server does makes `ToolRouter.call`
raise; only cancellation of the caller propagates (and reaches the server as ``notifications/cancelled``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, TextIO

import anyio
import anyio.abc
import anyio.lowlevel

from shim.config import Approval, McpConfig, ServerConfig, load_config
from shim.errors import ToolExecutionError
from shim.mcp_client import Connect, MCPConnection
from shim.redact import redact
from shim.types import ToolCall, ToolResult, ToolSpec
from shim.validation import SchemaCheck, arguments_message, schema_check, unknown_tool_message

__all__ = ["Approver", "BaseToolSource", "CallProgress", "ToolRouter", "ToolSource", "call_in_order", "public_names"]

logger = logging.getLogger(__name__)
audit_logger = logging.getLogger("shim.audit")
"""One INFO record per call: id, tool, server, arguments, duration, outcome (server secrets redacted)."""
for _logger in (logger, audit_logger):
    _logger.addHandler(logging.NullHandler())  # a library logs; the application decides what to show

Approver = Callable[[ToolCall, ToolSpec], Awaitable[bool]]
"""Asked before a tool whose policy is ``ask`` runs; ``True`` lets the call through."""
CallProgress = Callable[[ToolCall, float, float | None, str | None], Awaitable[None]]
"""Receives progress notifications: the call, progress, total, message."""

_MAX_NAME = 64
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def public_names(tools: Sequence[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Give each ``(server, tool)`` a name matching ``[a-zA-Z0-9_-]{1,64}``, unique across all servers.

    A name that is unique (after replacing unsafe characters such as ``.`` with ``_``) is kept; names shared
    by several servers become ``server__tool``; a name still too long or still taken is cut and given a
    short hash of the original. The returned mapping (public name -> ``(server, tool)``) is the way back.
    """
    counts = Counter(_safe(tool) for _, tool in tools)
    out: dict[str, tuple[str, str]] = {}
    for server, tool in tools:
        base = _safe(tool)
        name = base if counts[base] == 1 else f"{_safe(server)}__{base}"
        key = f"{server}/{tool}"
        if len(name) > _MAX_NAME:
            name = _hashed(name, key)
        if name in out:
            name = _hashed(name, key)
        out[name] = (server, tool)
    return out


def _safe(name: str) -> str:
    return _UNSAFE.sub("_", name) or "tool"


def _hashed(name: str, key: str) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    return f"{name[: _MAX_NAME - 9]}_{digest}"


@dataclass(frozen=True)
class _Entry:
    server: str
    tool: str
    """The name on the server."""
    spec: ToolSpec
    """As offered to the model (public name)."""
    validator: SchemaCheck | None


class ToolSource(Protocol):
    """Where the agent's calls go: `ToolRouter` is one; tests and the server bring their own (`BaseToolSource`
    gives the members a source without servers or secrets needs)."""

    @property
    def secrets(self) -> tuple[str, ...]:
        """Strings the trace must never show (server env and header values)."""
        ...

    def server_of(self, name: str) -> str | None:
        """The server behind a tool name, for `ToolResultEvent.server`; None when there is none."""
        ...

    async def list_tools(self) -> list[ToolSpec]: ...

    async def call(self, call: ToolCall) -> ToolResult:
        """Run one call; a failure comes back as an error result, never raised."""
        ...

    async def call_many(self, calls: Sequence[ToolCall]) -> list[ToolResult]:
        """Run the calls of one turn concurrently; results come back in call order."""
        ...


async def call_in_order(
    call: Callable[[ToolCall], Awaitable[ToolResult]], calls: Sequence[ToolCall]
) -> list[ToolResult]:
    """``call`` for each of ``calls`` concurrently (the calls of one turn); the results in call order."""
    results: list[ToolResult | None] = [None] * len(calls)

    async def run(index: int, one: ToolCall) -> None:
        results[index] = await call(one)

    async with anyio.create_task_group() as tg:
        for index, one in enumerate(calls):
            tg.start_soon(run, index, one)
    return [r for r in results if r is not None]


class BaseToolSource:
    """Defaults for a `ToolSource` with no servers behind it: no secrets, no server names, concurrent
    `call_many` over its ``call``."""

    @property
    def secrets(self) -> tuple[str, ...]:
        return ()

    def server_of(self, name: str) -> str | None:
        del name
        return None

    async def call(self, call: ToolCall) -> ToolResult:
        raise NotImplementedError

    async def call_many(self, calls: Sequence[ToolCall]) -> list[ToolResult]:
        return await call_in_order(self.call, calls)


class ToolRouter:
    """Several MCP servers behind one list of tools.

    Use it as an async context manager: entering starts every server concurrently; a server that fails is
    recorded in `failures` and the others work. Example::

        async with ToolRouter.from_config("mcp.json") as router:
            tools = await router.list_tools()
            result = await router.call(ToolCall(id="call_1", name="get_current_time", arguments={...}))
            print(result.render())
    """

    def __init__(
        self,
        servers: Sequence[ServerConfig],
        *,
        approver: Approver | None = None,
        timeout: float | None = 60.0,
        startup_timeout: float = 30.0,
        on_tools_changed: Callable[[list[ToolSpec]], Awaitable[None]] | None = None,
        errlog: TextIO | None = None,
        connect: Mapping[str, Connect] | None = None,
    ) -> None:
        """Args:
        servers: the servers to start.
        approver: asked before tools whose policy is ``ask``; without one such calls are refused.
        timeout: default per-call timeout in seconds (a server's ``timeout`` setting wins).
        startup_timeout: how long a server may take to connect and list its tools.
        on_tools_changed: called with the new tool list after a server announced a change.
        errlog: where stdio servers' stderr goes (default: ``sys.stderr``).
        connect: server name -> what to talk to instead of its configured transport (`shim.mcp_client.Connect`:
            an in-process server, for tests).
        """
        self.failures: dict[str, str] = {}
        """Servers that could not start or list their tools, with the reason."""
        self._connections = {
            s.name: MCPConnection(
                s, on_tools_changed=self._tools_changed, errlog=errlog, connect=(connect or {}).get(s.name)
            )
            for s in servers
        }
        self._approver = approver
        self._timeout = timeout
        self._startup_timeout = startup_timeout
        self._shutdown_timeout = 5.0
        self._on_tools_changed = on_tools_changed
        self._server_tools: dict[str, list[ToolSpec]] = {}
        self._entries: dict[str, _Entry] = {}
        self._secrets = tuple(secret for s in servers for secret in s.secrets)
        self._stack: AsyncExitStack | None = None
        self._tg: anyio.abc.TaskGroup | None = None

    @classmethod
    def from_config(cls, config: McpConfig | str | os.PathLike[str] | None = None, **kwargs: Any) -> ToolRouter:
        """Build a router from a loaded config, a config file, or the default config location.

        Raises:
            ConfigError: the file is missing or invalid.
        """
        loaded = config if isinstance(config, McpConfig) else load_config(config)
        return cls(loaded.servers, **kwargs)

    async def __aenter__(self) -> ToolRouter:
        async with AsyncExitStack() as stack:
            self._tg = await stack.enter_async_context(anyio.create_task_group())
            for connection in self._connections.values():
                self._tg.start_soon(connection.run)
            async with anyio.create_task_group() as starting:
                for name in self._connections:
                    starting.start_soon(self._refresh, name, True)
            self._stack = stack.pop_all()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._tg is not None:
            self._tg.start_soon(self._shutdown, self._tg.cancel_scope)
        if self._stack is not None:
            await self._stack.aclose()

    async def _shutdown(self, scope: anyio.CancelScope) -> None:
        """Let every server close gracefully (stdin closed, HTTP session deleted), then force what is left."""
        for connection in self._connections.values():
            connection.close()
        with anyio.move_on_after(self._shutdown_timeout):
            for connection in self._connections.values():
                await connection.finished.wait()
        scope.cancel()

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values from the servers' ``env`` and ``headers`` that logs and traces must never show."""
        return self._secrets

    @property
    def tools(self) -> list[ToolSpec]:
        """The tools of every working server, under their public names."""
        return [entry.spec for entry in self._entries.values()]

    async def list_tools(self) -> list[ToolSpec]:
        """The current tools (see `tools`); async so callers need not change if listing becomes lazy."""
        await anyio.lowlevel.checkpoint()
        return self.tools

    def server_of(self, name: str) -> str | None:
        """The server behind a public tool name."""
        entry = self._entries.get(name)
        return entry.server if entry else None

    def origin(self, name: str) -> tuple[str, str] | None:
        """``(server, the tool's name on that server)`` for a public tool name."""
        entry = self._entries.get(name)
        return (entry.server, entry.tool) if entry else None

    def approval_of(self, name: str) -> Approval | None:
        """The approval mode that applies to a public tool name."""
        entry = self._entries.get(name)
        if entry is None:
            return None
        return self._connections[entry.server].config.approval_for(entry.tool, entry.spec.annotations)

    async def call_many(
        self, calls: Sequence[ToolCall], *, on_progress: CallProgress | None = None
    ) -> list[ToolResult]:
        """Run the calls of one turn concurrently; results come back in call order."""
        return await call_in_order(partial(self.call, on_progress=on_progress), calls)

    async def call(self, call: ToolCall, *, on_progress: CallProgress | None = None) -> ToolResult:
        """Run one call; every failure comes back as an error result (``is_error=True``), never raised."""
        started = anyio.current_time()
        server: str | None = None
        try:
            entry = self._lookup(call)
            if isinstance(entry, ToolResult):
                result = entry
            else:
                server = entry.server
                result = await self._run(call, entry, on_progress)
        except Exception as exc:  # boundary: a bug here must not cost the turn its other calls
            logger.exception("tool call %r failed inside shim", call.name)
            result = ToolResult.error(call, f"shim failed to run {call.name!r}: {exc}")
        self._audit(call, server, result, anyio.current_time() - started)
        return result

    def _lookup(self, call: ToolCall) -> _Entry | ToolResult:
        name = call.name
        entry = self._entries.get(name)
        if entry is not None:
            return entry
        # Models often use the server's own name where shim renamed the tool (dots, collisions).
        matches = [
            e
            for e in self._entries.values()
            if name in (e.tool, f"{e.server}.{e.tool}", f"{_safe(e.server)}__{_safe(e.tool)}")
        ]
        if len(matches) == 1:
            return matches[0]
        return ToolResult.error(call, unknown_tool_message(name, self._entries))

    async def _run(self, call: ToolCall, entry: _Entry, on_progress: CallProgress | None) -> ToolResult:
        connection = self._connections[entry.server]
        # The arguments are checked before the user is asked: a user must never approve a call that is then
        # refused for its arguments (the model fixes them first, and the user is asked about the fixed call).
        problem = _check_arguments(entry, call.arguments)
        refusal = self._policy_refusal(call, entry, connection.config)
        if refusal or problem:
            return ToolResult.error(call, refusal or problem or "")
        if not await self._approved(call, entry, connection.config):
            return ToolResult.error(call, f"The user declined the call to {call.name!r}.")
        timeout = connection.config.timeout or self._timeout
        progress = partial(on_progress, call) if on_progress else None
        try:
            return await connection.call(call, entry.tool, timeout=timeout, on_progress=progress)
        except ToolExecutionError as exc:
            return ToolResult.error(call, str(exc))

    def _policy_refusal(self, call: ToolCall, entry: _Entry, config: ServerConfig) -> str | None:
        """Why the configuration refuses the call without asking anyone (``deny``, or nobody to ask), or None."""
        mode = config.approval_for(entry.tool, entry.spec.annotations)
        if mode == "deny":
            return f"Tool {call.name!r} is not allowed by this configuration; do not call it again."
        if mode == "ask" and self._approver is None:
            return (
                f"Tool {call.name!r} needs the user's approval and none can be asked here; "
                f'set "approval": "allow" for server {entry.server!r} to let it run.'
            )
        return None

    async def _approved(self, call: ToolCall, entry: _Entry, config: ServerConfig) -> bool:
        """Whether the call may run: ``allow``, or the user approved it (asked only for ``ask``)."""
        if config.approval_for(entry.tool, entry.spec.annotations) != "ask":
            return True
        assert self._approver is not None  # _policy_refusal refused it otherwise
        return await self._approver(call, entry.spec)

    def _tools_changed(self, server: str) -> None:
        if self._tg is not None:
            self._tg.start_soon(self._refresh, server, False)

    async def _refresh(self, server: str, starting: bool) -> None:
        connection = self._connections[server]
        try:
            with anyio.fail_after(self._startup_timeout):
                await connection.wait_ready()
                if starting and not connection.connected:
                    raise ToolExecutionError(f"server {server!r} did not start: {connection.error}")
                tools = await connection.list_tools()
        except TimeoutError:
            self._fail(server, f"server {server!r} did not start within {self._startup_timeout:g} s")
            if starting and self._tg is not None:
                self._tg.start_soon(self._late_start, server)
            return
        except ToolExecutionError as exc:
            self._fail(server, str(exc))
            return
        self.failures.pop(server, None)
        self._server_tools[server] = [t for t in tools if connection.config.offers(t.name)]
        self._rebuild()
        if not starting and self._on_tools_changed is not None:
            await self._on_tools_changed(self.tools)

    async def _late_start(self, server: str) -> None:
        """A server slower than ``startup_timeout`` still joins (announced via ``on_tools_changed``)."""
        connection = self._connections[server]
        await connection.wait_ready()
        if connection.connected:
            await self._refresh(server, False)

    def _fail(self, server: str, message: str) -> None:
        self.failures[server] = self._redact(message)
        logger.warning("%s", self.failures[server])

    def _rebuild(self) -> None:
        specs = {(server, t.name): t for server in self._connections for t in self._server_tools.get(server, [])}
        entries: dict[str, _Entry] = {}
        for public, (server, tool) in public_names(list(specs)).items():
            spec = specs[server, tool]
            entries[public] = _Entry(server, tool, replace(spec, name=public), _validator(spec))
        self._entries = entries

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets)

    def _audit(self, call: ToolCall, server: str | None, result: ToolResult, seconds: float) -> None:
        if not result.is_error:
            outcome = "ok"
        else:
            first = result.content[0].text if result.content and result.content[0].text else ""
            outcome = f"error: {self._redact(first)[:300]}"
        # Redact before cutting, so a secret at the cut cannot leak its first half.
        arguments = self._redact(json.dumps(call.arguments, ensure_ascii=False, default=str))[:2000]
        audit_logger.info(
            f"tool call id={call.id} tool={call.name!r} server={server!r} arguments={arguments} "
            f"duration_ms={seconds * 1000:.0f} outcome={outcome}"
        )


def _validator(spec: ToolSpec) -> SchemaCheck | None:
    check = schema_check(spec.input_schema)
    if check.problem is not None:
        logger.warning(
            "tool %r has an invalid inputSchema; its arguments are not checked: %s", spec.name, check.problem
        )
        return None
    return check


def _check_arguments(entry: _Entry, arguments: dict[str, Any]) -> str | None:
    if entry.validator is None:
        return None
    violations = entry.validator.violations(arguments)
    return arguments_message(entry.spec.name, entry.spec.input_schema, violations) if violations else None
