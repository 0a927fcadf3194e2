"""The HTTP server under the app: uvicorn, made to hold up against clients that stall or swarm.

What uvicorn leaves open, and what is added here:

- A connection that never finishes its request line and headers is never timed out (its keep-alive timer
  only runs between requests, and any byte cancels it). `GuardedH11Protocol` closes a connection whose
  headers are not complete ``request_timeout`` seconds after it opened, or after the previous response.
  The body's deadline is the guard's (`shim.server.guard`), since uvicorn hands the body to the app.
- ``limit_concurrency`` answers 503 but still accepts every connection, so stalled sockets use up file
  descriptors until ``accept()`` fails, the loop spins and logs a traceback per attempt. Connections above
  ``max_connections`` (by default below the descriptor limit, `default_max_connections`) are closed at once.

- A client that stops reading a response fills the socket's buffer, and uvicorn then waits for room forever,
  holding the request, its generation upstream and everything buffered. A connection whose writes stay
  paused for ``write_timeout`` seconds is aborted: the app sees the disconnect, and `shim.server.http.Watched`
  cancels the generation.

Each kind of event is logged once a minute with a count, never one traceback per connection.
"""

from __future__ import annotations

import asyncio
import resource
import socket
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from shim.server.guard import log_event

__all__ = [
    "GuardedH11Protocol",
    "ShimConfig",
    "default_max_connections",
    "serve_socket",
    "uvicorn_config",
]

_RESERVED_FDS = 64
"""Descriptors kept free for everything that is not a client: models, MCP servers' pipes, logs, the store."""


def default_max_connections() -> int:
    """The most client connections to hold open: the descriptor limit less what the rest of the server needs."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 10_000
    return max(16, soft - _RESERVED_FDS)


class ShimConfig(uvicorn.Config):
    """`uvicorn.Config` plus the limits `GuardedH11Protocol` reads (it pickles into worker processes)."""

    request_timeout: float = 15.0
    max_connections: int = 1024
    write_timeout: float = 30.0


def _cancelled(timer: asyncio.TimerHandle | None) -> None:
    """Cancel ``timer``, if there is one; None, for the field that held it."""
    if timer is not None:
        timer.cancel()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a connection cap (see the module docstring)."""

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self._timeout = getattr(config, "request_timeout", 15.0)
        self._cap = getattr(config, "max_connections", 1024)
        self._write_timeout = getattr(config, "write_timeout", 30.0)
        self._header_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self._cap:
            log_event(
                "connection_cap",
                f"refused a connection: {self._cap} are open already (--max-connections; "
                "the file-descriptor limit is `ulimit -n`)",
            )
            transport.abort()
            return
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._waiting_for_headers():
            if self._header_timer is None:  # bytes of a next request on a kept-alive connection
                self._start_header_timer()
        else:
            self._stop_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._stop_header_timer()  # uvicorn's keep-alive timer takes over until the next request's bytes

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_write_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:
            self._write_timer = self.loop.call_later(self._write_timeout, self._write_timed_out)

    def resume_writing(self) -> None:
        self._stop_write_timer()
        super().resume_writing()

    def _stop_write_timer(self) -> None:
        self._write_timer = _cancelled(self._write_timer)

    def _write_timed_out(self) -> None:
        self._write_timer = None
        if self.transport.is_closing() and self.transport.get_write_buffer_size() == 0:
            return
        log_event(
            "write_timeout",
            f"closed a connection whose client read nothing for {self._write_timeout:g} s (--write-timeout); "
            "its generation was cancelled",
        )
        self.transport.abort()  # close() would wait for the buffer to drain, which it never will

    def _waiting_for_headers(self) -> bool:
        cycle: Any = self.cycle  # None until the first request's headers arrive (uvicorn's annotation says otherwise)
        return cycle is None or bool(cycle.response_complete)

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self._timeout, self._headers_timed_out)

    def _stop_header_timer(self) -> None:
        self._header_timer = _cancelled(self._header_timer)

    def _headers_timed_out(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._waiting_for_headers():
            return
        log_event(
            "header_timeout",
            f"closed a connection whose request headers did not arrive within {self._timeout:g} s (--request-timeout)",
        )
        self.transport.close()


def uvicorn_config(
    app: Any,
    *,
    request_timeout: float = 15.0,
    max_connections: int | None = None,
    write_timeout: float = 30.0,
    log_level: str = "info",
    workers: int = 1,
    factory: bool = False,
) -> ShimConfig:
    """The uvicorn configuration ``shim serve`` runs with (``app`` may be an import string for workers)."""
    config = ShimConfig(
        app,
        http=GuardedH11Protocol,
        log_level=log_level,
        log_config=None,
        ws="none",
        lifespan="on",
        timeout_graceful_shutdown=5,
        timeout_keep_alive=5,
        workers=workers,
        factory=factory,
        backlog=128,
        # uvicorn's supervisor kills a worker that does not answer its ping within this many seconds, and a
        # worker answers only once it has imported the app: 5 s (the default) kills them on a busy machine.
        timeout_worker_healthcheck=60,
    )
    config.request_timeout = request_timeout
    config.max_connections = max_connections or default_max_connections()
    config.write_timeout = write_timeout
    return config


def serve_socket(config: ShimConfig, sock: socket.socket) -> None:
    """Run until interrupted on an already-bound socket: in this process, or in ``config.workers`` processes."""
    if config.workers > 1:
        _supervisor(config, sock).run()
    else:
        uvicorn.Server(config).run(sockets=[sock])


_CHECK_SLICE = 1
"""How long (seconds) one wait for a worker's answer to a health ping lasts before signals and its exit are looked
at."""


def _supervisor(config: ShimConfig, sock: socket.socket) -> Any:
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        """uvicorn's supervisor, whose health checks give way to a signal and notice a worker that has exited.

        uvicorn pings each worker and waits up to ``timeout_worker_healthcheck`` for the answer (60 s here, so a
        slow start on a busy machine is not taken for a hang). A worker that dies before it answers (Ctrl-C
        reaches the whole process group while the workers still import) never answers, and its pipe never
        closes (the supervisor holds both ends): stopping ``shim serve --workers N`` then took a minute.
        """

        def keep_subprocess_alive(self) -> None:
            patience = self.config.timeout_worker_healthcheck
            for process in self.processes:
                if not _answered(process, patience, self.signal_queue, self.should_exit.is_set):
                    return  # a signal came: the run loop handles it now
            # Each worker has answered, exited, or had its whole patience: uvicorn's own check needs no more.
            self.config.timeout_worker_healthcheck = _CHECK_SLICE
            try:
                super().keep_subprocess_alive()
            finally:
                self.config.timeout_worker_healthcheck = patience

    return Supervisor(config, sockets=[sock])


def _answered(process: Any, patience: float, signals: list[int], exiting: Callable[[], bool]) -> bool:
    """Wait, in slices, until a worker answers a health ping, has exited, or has had ``patience`` seconds (True),
    or until a signal is queued or the supervisor is exiting (False)."""
    deadline = time.monotonic() + patience
    while not signals and not exiting():
        if process.process.exitcode is not None or process.ping(_CHECK_SLICE) or time.monotonic() >= deadline:
            return True
    return False
