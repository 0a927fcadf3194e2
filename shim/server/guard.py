"""The first thing every request meets: refusals a browser-reachable local server needs, before any work.

A server on 127.0.0.1 that runs tools is reachable from every web page the user opens. Browsers send a
"simple" cross-site POST (``Content-Type: text/plain``) without asking first, and DNS rebinding points an
attacker's name at 127.0.0.1 so the page's requests count as same-origin. The guard refuses:

- a ``Host`` that is not this machine (DNS rebinding): allowed are ``localhost`` (and ``*.localhost``), IP
  literals (a rebinding attack needs a name, so an IP literal cannot be one), this machine's hostname, and
  the names given with ``--allowed-host`` (``*.example.com`` matches subdomains; ``*`` turns the check off);
  403. Ollama (``allowedHostsMiddleware``) and the MCP SDK (``TransportSecurityMiddleware``) do the same;
- an ``Origin`` that is neither this server's own nor one of ``--cors``; 403. Requests without ``Origin``
  (every non-browser client) are fine;
- a request body that is not JSON (``application/json`` or ``*/*+json``); 415. A body with no content
  type at all passes only without ``Origin`` (non-browser clients such as LiteLLM send none; browsers
  always send ``Origin`` with a POST). A cross-site page cannot send JSON without a CORS preflight, which
  the CORS rules then decide;
- a body that does not arrive within the request timeout; 408 (uvicorn times out nothing once the headers
  are in, so a client trickling its body would hold a connection and a task forever).

Errors come in the shape of the surface the path belongs to (`shim.server.http.surface_of`).
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shim.server.http import RequestError, send_error

__all__ = [
    "BODY_METHODS",
    "BodyTimeout",
    "Guard",
    "GuardSettings",
    "ResourceLogLimit",
    "host_allowed",
    "install_resource_log_limit",
    "json_media_type",
    "log_event",
    "origin_allowed",
]

logger = logging.getLogger("shim.server")

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


@dataclass(frozen=True, kw_only=True)
class GuardSettings:
    allowed_hosts: Sequence[str] = ()
    """Extra ``Host`` names to accept (``--allowed-host``); ``*`` accepts any."""
    cors_origins: Sequence[str] = ()
    """Browser origins allowed besides the server's own (``--cors``); ``*`` allows any."""
    request_timeout: float = 15.0
    """Seconds a client has to send its whole body, from the moment its headers arrived."""


class BodyTimeout(RequestError):
    """The client did not finish sending its body in time."""


class Guard:
    """Pure ASGI middleware (see the module docstring); outermost, so nothing runs for a refused request."""

    def __init__(self, app: ASGIApp, *, settings: GuardSettings) -> None:
        self.app = app
        self.settings = settings
        self.hostname = socket.gethostname().lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope["path"])
        headers = _headers(scope)
        problem = self._problem(str(scope["method"]), headers)
        if problem is not None:
            log_event(problem.code or "refused", f"refused a request: {problem.message}")
            await send_error(send, path, problem, [(b"connection", b"close")])
            return
        started = False
        body = _Deadline(receive, self.settings.request_timeout)

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if body.timed_out:  # the rest of the body may still come: this connection cannot be reused
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, body.receive, watched_send)
        except BodyTimeout as exc:  # raised where a handler read the body; answered here if it was not
            if not started:
                await send_error(send, path, exc, [(b"connection", b"close")])

    def _problem(self, method: str, headers: dict[bytes, bytes]) -> RequestError | None:
        host = headers.get(b"host", b"").decode("latin-1")
        if not host_allowed(host, self.settings.allowed_hosts, self.hostname):
            return RequestError(
                403,
                f"Host {host!r} is not this server's; start it with --allowed-host NAME to accept that name",
                kind="permission_error",
                code="host_not_allowed",
            )
        origin = headers.get(b"origin")
        if origin is not None and not origin_allowed(origin.decode("latin-1"), host, self.settings.cors_origins):
            return RequestError(
                403,
                f"cross-origin requests from {origin.decode('latin-1')!r} are not allowed; "
                "start the server with --cors ORIGIN to allow that page",
                kind="permission_error",
                code="origin_not_allowed",
            )
        has_body = method in BODY_METHODS or b"transfer-encoding" in headers or _length(headers) > 0
        given = headers.get(b"content-type")
        # No Content-Type at all is what some real clients send (LiteLLM's ollama provider); a browser always
        # sends Origin with a POST, and a page's body without a type (a Blob) must not slip past, so only a
        # request without Origin may leave the type out.
        untyped_ok = given is None and origin is None
        if has_body and _length(headers) != 0 and not untyped_ok and not json_media_type(given or b""):
            what = f"Content-Type {given.decode('latin-1')!r}" if given is not None else "no Content-Type"
            return RequestError(
                415,
                f"the request body must be JSON, sent with 'Content-Type: application/json' (got {what})",
                code="unsupported_media_type",
            )
        return None


def _headers(scope: Scope) -> dict[bytes, bytes]:
    found: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        found.setdefault(bytes(name).lower(), bytes(value))
    return found


def _length(headers: dict[bytes, bytes]) -> int:
    """The declared body length; -1 when none or unreadable (a chunked body, which is checked as a body)."""
    value = headers.get(b"content-length", b"").strip()
    return int(value) if value.isdigit() else -1


def json_media_type(value: bytes) -> bool:
    """``application/json`` or a ``+json`` type, parameters (``charset``) allowed."""
    media = value.split(b";", 1)[0].strip().lower()
    kind, sep, sub = media.partition(b"/")
    return bool(sep) and kind == b"application" and (sub == b"json" or sub.endswith(b"+json"))


def _split_host(host: str) -> str:
    """``name[:port]`` / ``[v6]:port`` -> the name, lowercased, without a trailing dot.

    A port that is not all digits leaves the value whole, so ``127.0.0.1:80.evil.example`` is not taken for
    ``127.0.0.1`` (it then matches no allowed name)."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        port = host[end + 1 :] if end >= 0 else ""
        if end < 0 or (port and not (port.startswith(":") and port[1:].isdigit() and port[1:].isascii())):
            return host
        return host[1:end]
    if host.count(":") == 1:
        name, port = host.split(":", 1)
        if port and not (port.isdigit() and port.isascii()):
            return host
        host = name
    return host.rstrip(".")


def host_allowed(host: str, allowed: Sequence[str], hostname: str = "") -> bool:
    """Whether a ``Host`` header names this server (see the module docstring)."""
    if "*" in allowed or not host:  # no Host: HTTP/1.0 tools; browsers always send one
        return True
    name = _split_host(host)
    if name == "localhost" or name.endswith(".localhost") or (hostname and name == hostname):
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    for entry in allowed:
        entry = entry.strip().lower().rstrip(".")
        if entry.startswith("*.") and name.endswith(entry[1:]):
            return True
        if name == _split_host(entry):
            return True
    return False


def origin_allowed(origin: str, host: str, cors: Sequence[str]) -> bool:
    """Whether a browser page at ``origin`` may call the server: its own origin, or one given with --cors."""
    if "*" in cors or origin in cors or origin.rstrip("/") in cors:
        return True
    scheme, sep, rest = origin.partition("://")
    # Same origin: the page was served by this very host:port (the Host header passed the check above).
    return bool(sep) and scheme in ("http", "https") and rest.rstrip("/").lower() == host.strip().lower()


class _Deadline:
    """``receive`` that raises `BodyTimeout` if the body is not complete ``timeout`` seconds from now."""

    def __init__(self, receive: Receive, timeout: float) -> None:
        self._receive = receive
        self._timeout = timeout
        self._ends = time.monotonic() + timeout
        self._done = False
        self.timed_out = False

    async def receive(self) -> Message:
        if self._done:
            return await self._receive()
        with anyio.move_on_after(max(0.0, self._ends - time.monotonic())):
            message = await self._receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                self._done = True
            return message
        self.timed_out = True
        message = f"the request body did not arrive within {self._timeout:g} s (--request-timeout)"
        log_event("body_timeout", f"timed out a request body: {message}")
        raise BodyTimeout(408, message, code="request_timeout")


_last_logged: dict[str, float] = {}
_counts: dict[str, int] = {}


def log_event(kind: str, message: str, every: float = 60.0) -> None:
    """One log line per kind of event per minute, with how many were not logged, never a line per request."""
    with _lock:
        line = _count_event(kind, message, every)
    if line is not None:
        logger.warning("%s", line, extra={"shim_event": True})


def _count_event(kind: str, message: str, every: float) -> str | None:
    now = time.monotonic()
    _counts[kind] = _counts.get(kind, 0) + 1
    last = _last_logged.get(kind)
    if last is not None and now - last < every:
        return
    more = _counts[kind] - 1
    _counts[kind] = 0
    _last_logged[kind] = now
    return message + (f" (and {more} more like it in the last minute)" if more else "")


_lock = threading.Lock()
_RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
_RESOURCE_LOGGERS = ("asyncio", "uvicorn", "uvicorn.error", "shim", "shim.server")


class ResourceLogLimit(logging.Filter):
    """Turns the tracebacks logged when the process runs out of file descriptors (or socket buffers) into one
    line per event class per minute (`log_event`): at the limit, every accept and every connection upstream
    fails, and a traceback each would bury the log (2,139 in 20 s)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "shim_event", False):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        while exc is not None and not (isinstance(exc, OSError) and exc.errno in _RESOURCE_ERRNOS):
            exc = exc.__cause__ or exc.__context__
        if exc is None:
            return True
        assert isinstance(exc, OSError)
        kind = f"{record.name}:{type(exc).__name__}:{exc.errno}"
        first = record.getMessage().split("\n", 1)[0]  # asyncio appends the socket's repr on a line of its own
        log_event(kind, f"{first}: {exc.strerror or exc} (file descriptors: see `ulimit -n`)")
        return False


_RESOURCE_FILTER = ResourceLogLimit()


def install_resource_log_limit() -> None:
    """Put `ResourceLogLimit` on the loggers that report failed accepts and requests (idempotent)."""
    for name in _RESOURCE_LOGGERS:
        named = logging.getLogger(name)
        if _RESOURCE_FILTER not in named.filters:
            named.addFilter(_RESOURCE_FILTER)
