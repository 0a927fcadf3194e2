"""HTTP plumbing shared by both surfaces: request errors, bounded JSON bodies, and responses that stop
their work when the client goes away.

`Watched` is the piece that makes a disconnect cancel generation: it runs the response writer next to a
task that waits for ``http.disconnect`` and cancels the writer when it arrives. Starlette's own
`StreamingResponse` only notices on the next write under newer ASGI servers, and never for a response that
is still being computed (non-streaming requests), which would leave the engine generating for nobody.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import Any, Protocol, TypeGuard

import anyio
import anyio.lowlevel
from starlette.requests import ClientDisconnect, Request
from starlette.types import Message, Receive, Scope, Send

from shim.errors import BackendConnectionError, BackendError, BackendResponseError, ConfigError, ShimError
from shim.server.chat import Output

__all__ = [
    "Encoder",
    "RequestError",
    "Watched",
    "error_of",
    "is_obj",
    "json_bytes",
    "read_json",
    "send_json",
    "write_collected",
    "write_stream",
]

logger = logging.getLogger("shim.server")

Writer = Callable[[Send], Awaitable[None]]


class RequestError(Exception):
    """A request the server answers with an error status; each surface renders it in its own body shape."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        """OpenAI's ``error.type``."""
        self.param = param
        self.code = code


def error_of(exc: ShimError) -> RequestError:
    """The HTTP error for a failure of the engine or of an option, before any output was sent."""
    if isinstance(exc, ConfigError):  # a bad grammar or an option the engine does not take: the request's fault
        return RequestError(400, str(exc))
    if isinstance(exc, BackendConnectionError):
        return RequestError(503, f"the model engine could not be reached: {exc}", kind="server_error")
    if isinstance(exc, BackendResponseError) and exc.status_code is not None and 400 <= exc.status_code < 500:
        return RequestError(400, f"the model engine refused the request: {exc}", code="engine_refused")
    if isinstance(exc, BackendError):
        return RequestError(502, f"the model engine failed: {exc}", kind="server_error", code="engine_error")
    return RequestError(500, str(exc), kind="server_error")


async def read_json(request: Request, *, limit: int) -> Any:
    """The request body parsed as JSON, reading no more than ``limit`` bytes.

    Raises:
        RequestError: 413 for a larger body, 400 for one that is not JSON.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RequestError(413, _too_large(int(declared), limit), code="request_too_large")
    body = bytearray()
    try:
        async for piece in request.stream():
            body += piece
            if len(body) > limit:
                raise RequestError(413, _too_large(None, limit), code="request_too_large")
    except ClientDisconnect:
        raise RequestError(400, "the client closed the connection before sending the whole body") from None
    if not body.strip():
        raise RequestError(400, "the request body is empty; send a JSON object", code="invalid_json")
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(400, f"the request body is not valid JSON: {exc}", code="invalid_json") from None


def _too_large(size: int | None, limit: int) -> str:
    what = f"{size} bytes" if size is not None else "more than that"
    return f"the request body is {what}; this server takes at most {limit} bytes (raise it with --max-body)"


def is_obj(value: object) -> TypeGuard[dict[str, Any]]:
    """True for a JSON object (``isinstance`` alone narrows to ``dict[Unknown, Unknown]``)."""
    return isinstance(value, dict)


def json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def send_json(send: Send, status: int, data: Any, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json_bytes(data)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Watched:
    """An ASGI response whose writer is cancelled as soon as the client disconnects."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        self._complete = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def tracked(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                self._complete = True

        async with anyio.create_task_group() as tg:
            tg.start_soon(self._watch, receive, tg.cancel_scope)
            await self._writer(tracked)
            tg.cancel_scope.cancel()  # done: stop watching

    async def _watch(self, receive: Receive, scope: anyio.CancelScope) -> None:
        # The body was read already, so the next message is the disconnect (which uvicorn also reports once
        # the response is complete: that one is not the client leaving).
        while (await receive())["type"] != "http.disconnect":
            pass
        if not self._complete:
            logger.info("client disconnected; cancelling its generation")
            scope.cancel()


class Encoder(Protocol):
    """A surface's wire format for one response (SSE for OpenAI, NDJSON for Ollama)."""

    media_type: bytes

    def begin(self) -> list[bytes]:
        """What goes out right after the headers."""
        ...

    def encode(self, output: Output) -> list[bytes]: ...

    def end(self) -> list[bytes]:
        """What goes out after the `FinishOut` (``data: [DONE]``)."""
        ...

    def stream_error(self, error: RequestError) -> bytes:
        """The last line of a stream that failed after it began."""
        ...

    def error_body(self, error: RequestError) -> Any:
        """The JSON body of an error response (before anything was sent)."""
        ...


async def write_stream(
    send: Send, outputs: AsyncGenerator[Output, None], encoder: Encoder, headers: list[tuple[bytes, bytes]]
) -> None:
    """Stream ``outputs``; an error before the first output gets an error status, a later one an error line.

    The headers wait for the first output, so an engine that cannot be reached or refuses the request is a
    proper HTTP error (what clients expect from OpenAI), not a 200 with an error inside.

    Outputs produced while a write is under way go out together in the next write: each write is a syscall
    and often a packet, and one per 4-character chunk is most of the server's cost per response when an
    engine is fast. A slow engine (every real one) still gets one write per chunk, at once. ``outputs`` is
    iterated, and closed, in one task of its own: engines hold task-bound locks across a generation.
    """
    started = False
    writes, pending = anyio.create_memory_object_stream[bytes](max_buffer_size=256)
    failures: list[Exception] = []

    async def produce() -> None:
        async with writes, aclosing(outputs):
            try:
                begin = encoder.begin()
                async for output in outputs:
                    data = b"".join([*begin, *encoder.encode(output)])
                    try:
                        writes.send_nowait(data)
                    except anyio.WouldBlock:  # the client reads slowly: wait for room
                        await writes.send(data)
                    if begin:  # the first output: let the writer send it now, however fast the rest comes
                        begin = []
                        await anyio.lowlevel.checkpoint()
                await writes.send(b"".join(encoder.end()))
            except Exception as exc:  # reported by the writer, which knows whether the stream has begun
                failures.append(exc)

    try:
        async with anyio.create_task_group() as tg, pending:
            tg.start_soon(produce)
            async for data in pending:
                parts = [data]
                while True:
                    try:
                        parts.append(pending.receive_nowait())
                    except (anyio.WouldBlock, anyio.EndOfStream):
                        break
                if not started:
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 200,
                            "headers": [
                                (b"content-type", encoder.media_type),
                                (b"cache-control", b"no-cache"),
                                (b"x-accel-buffering", b"no"),  # proxies (nginx) must not hold the stream back
                                *headers,
                            ],
                        }
                    )
                    started = True
                await send({"type": "http.response.body", "body": b"".join(parts), "more_body": True})
        if failures:
            raise failures[0]
        if not started:
            raise RuntimeError("the response ended before its first output")
    except RequestError as exc:
        await _fail(send, encoder, exc, started)
        return
    except ShimError as exc:
        await _fail(send, encoder, error_of(exc), started)
        return
    except Exception as exc:  # the request boundary: a bug must reach the client as an error, not a hang
        logger.exception("request failed", exc_info=exc)
        await _fail(send, encoder, RequestError(500, f"shim serve failed: {exc!r}", kind="server_error"), started)
        return
    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _fail(send: Send, encoder: Encoder, error: RequestError, started: bool) -> None:
    if not started:
        await send_json(send, error.status, encoder.error_body(error))
        return
    logger.warning("stream ended with an error: %s", error.message)
    await send({"type": "http.response.body", "body": encoder.stream_error(error), "more_body": False})


async def write_collected(
    send: Send,
    outputs: AsyncGenerator[Output, None],
    encoder: Encoder,
    build: Callable[[list[Output]], Any],
    headers: list[tuple[bytes, bytes]],
) -> None:
    """Collect ``outputs`` and answer with one JSON body (``build``), or an error body."""
    try:
        async with aclosing(outputs):
            collected = [output async for output in outputs]
        data = build(collected)
    except RequestError as exc:
        await send_json(send, exc.status, encoder.error_body(exc))
        return
    except ShimError as exc:
        error = error_of(exc)
        await send_json(send, error.status, encoder.error_body(error))
        return
    except Exception as exc:  # the request boundary
        logger.exception("request failed")
        error = RequestError(500, f"shim serve failed: {exc!r}", kind="server_error")
        await send_json(send, error.status, encoder.error_body(error))
        return
    await send_json(send, 200, data, headers)
