"""HTTP plumbing shared by every surface: request errors (in each surface's shape, `shim.server.surfaces`),
bounded JSON bodies, and responses that stop their work when the client goes away.

`read_json` bounds what a body may cost: its size (``--max-request-bytes``), its nesting depth
(`MAX_DEPTH`, counted on the bytes before any parser recurses), its message count (``--max-messages``,
which bounds the per-message work each surface does next). A large body is decoded on a worker thread;
json's C decoder holds the GIL while it runs, so other clients may still pause for the decode itself
(~30 ms per MB), and it is the byte limit that caps that pause.

`Watched` is the piece that makes a disconnect cancel generation: it runs the response writer next to a
task that waits for ``http.disconnect`` and cancels the writer when it arrives. Starlette's own
`StreamingResponse` only notices on the next write under newer ASGI servers, and never for a response that
is still being computed (non-streaming requests), which would leave the engine generating for nobody.
`respond` is every surface's reply to a chat request: `write_stream` in the surface's frames, or `write_collected`
into one body, under a `Watched`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import aclosing
from functools import partial
from typing import Any, Protocol, TypeGuard

import anyio
import anyio.lowlevel
import anyio.to_thread
from starlette.requests import ClientDisconnect, Request
from starlette.types import Message, Receive, Scope, Send

from shim.errors import BackendConnectionError, BackendError, BackendResponseError, ConfigError, ShimError
from shim.notices import collect_notices
from shim.redact import StreamRedactor, redact, redact_data
from shim.server import metrics
from shim.server.chat import CallOut, FinishOut, Output, ReasoningOut, TextOut, off_loop
from shim.server.surfaces import RequestError, Surface, error_body, surface_of
from shim.validation import nesting_depth

__all__ = [
    "MAX_DEPTH",
    "Encoder",
    "RequestError",
    "Surface",
    "Watched",
    "error_body",
    "error_of",
    "is_obj",
    "json_bytes",
    "names_header",
    "nesting_depth",
    "off_loop",
    "read_json",
    "redacted",
    "respond",
    "send_error",
    "send_json",
    "surface_of",
    "write_collected",
    "write_stream",
]

logger = logging.getLogger("shim.server")

Writer = Callable[[Send], Awaitable[None]]

MAX_DEPTH = 128
"""Deepest nesting of arrays and objects a request body may have (real requests stay under ~20)."""
THREAD_THRESHOLD = 256 * 1024
"""Bodies larger than this are decoded on a worker thread, not on the event loop."""
MAX_STREAM_BUFFER = 1024 * 1024
"""Bytes of encoded output one stream may hold that its client has not taken yet (more: the engine waits)."""
CHECKPOINT_EVERY = 64
"""Outputs produced between two yields to the event loop, whether or not the engine ever waits."""
MESSAGE_KEYS = ("messages", "input")
"""Top-level fields holding a request's conversation (chat surfaces; the Responses API's ``input``)."""


async def send_error(
    send: Send, path: str, error: RequestError, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer with ``error`` in the shape of the surface ``path`` belongs to (for ASGI middleware)."""
    await send_json(send, error.status, error_body(surface_of(path), error), headers)


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


async def read_json(request: Request, *, limit: int | None = None, max_messages: int | None = None) -> Any:
    """The request body parsed as JSON, reading no more than ``limit`` bytes.

    Limits not given come from the server's settings (``request.app.state.shim``) when there are any.

    Raises:
        RequestError: 413 for a larger body or more messages than allowed, 400 for one that is not JSON or
            is nested deeper than `MAX_DEPTH`, 408 (from the guard) for a body that does not arrive in time.
    """
    state = getattr(request.app.state, "shim", None) if "app" in request.scope else None
    if limit is None:
        limit = int(getattr(state, "max_body", 16 * 1024 * 1024))
    if max_messages is None:
        max_messages = getattr(state, "max_messages", None)
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
    if len(body) > THREAD_THRESHOLD:  # decoding megabytes takes a while: not on the loop every client shares
        return await anyio.to_thread.run_sync(_decode, bytes(body), max_messages)
    return _decode(bytes(body), max_messages)


def _decode(body: bytes, max_messages: int | None) -> Any:
    if nesting_depth(body) > MAX_DEPTH:  # before json.loads, which would recurse that deep
        raise RequestError(400, _too_deep(), code="invalid_json")
    try:
        data = json.loads(body)
    except RecursionError:  # unreachable after the check above; kept so no body can ever become a 500
        raise RequestError(400, _too_deep(), code="invalid_json") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(400, f"the request body is not valid JSON: {exc}", code="invalid_json") from None
    if max_messages is not None and is_obj(data):
        for key in MESSAGE_KEYS:
            items = data.get(key)
            if isinstance(items, list) and len(items) > max_messages:  # pyright: ignore[reportUnknownArgumentType]
                raise RequestError(
                    413,
                    f"{key!r} holds {len(items)} items; this server takes at most {max_messages} "  # pyright: ignore[reportUnknownArgumentType]
                    "(raise it with --max-messages)",
                    param=key,
                    code="request_too_large",
                )
    return data


def _too_deep() -> str:
    return f"the request body nests arrays/objects more than {MAX_DEPTH} levels deep; flatten it"


def _too_large(size: int | None, limit: int) -> str:
    what = f"{size} bytes" if size is not None else "more than that"
    return f"the request body is {what}; this server takes at most {limit} bytes (raise it with --max-request-bytes)"


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


def names_header(header: bytes, names: Sequence[str]) -> list[tuple[bytes, bytes]]:
    """``header`` listing ``names`` (what a request asked for and does not get: ignored fields, dropped tools), as
    far as they can be named in a header: each once, at most 32, none with CR, LF, NUL, a comma or over 64
    characters; no header when none is left."""
    shown = [n for n in dict.fromkeys(names) if n.isascii() and n.isprintable() and "," not in n and len(n) <= 64]
    return [(header, ",".join(shown[:32]).encode())] if shown else []


def respond(
    outputs: AsyncGenerator[Output, None],
    encoder: Encoder,
    *,
    stream: bool,
    build: Callable[[list[Output]], Any],
    headers: list[tuple[bytes, bytes]],
) -> Watched:
    """The response to one chat request, on any surface: ``outputs`` streamed in ``encoder``'s frames, or collected
    and ``build`` into one body; cancelled when the client leaves."""
    if stream:
        return Watched(partial(write_stream, outputs=outputs, encoder=encoder, headers=headers))
    return Watched(partial(write_collected, outputs=outputs, encoder=encoder, build=build, headers=headers))


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
    notes = collect_notices()  # set before the producer starts, so the engine's notices reach this list
    writes, pending = anyio.create_memory_object_stream[bytes](max_buffer_size=256)
    failures: list[Exception] = []
    room = _Room(MAX_STREAM_BUFFER)

    async def produce() -> None:
        produced = 0
        async with writes, aclosing(outputs):
            try:
                begin = encoder.begin()
                async for output in outputs:
                    if isinstance(output, CallOut):
                        metrics.count_tool_call("client")
                    data = b"".join([*begin, *encoder.encode(output)])
                    await room.take(len(data))  # the client reads slowly: stop reading the engine meanwhile
                    try:
                        writes.send_nowait(data)
                    except anyio.WouldBlock:  # the client reads slowly: wait for room
                        await writes.send(data)
                    produced += 1
                    if begin or produced % CHECKPOINT_EVERY == 0:
                        # The first output goes out now, however fast the rest comes; and an engine that never
                        # waits (a replay) must still let other clients, and a disconnect, be served.
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
                                *_notes_header(notes),
                            ],
                        }
                    )
                    started = True
                body = b"".join(parts)
                await send({"type": "http.response.body", "body": body, "more_body": True})
                room.give(len(body))
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


class _Room:
    """Bytes a stream may hold between its engine and its client; the producer waits while they are used up."""

    def __init__(self, size: int) -> None:
        self.free = self._size = size
        self._freed = anyio.Event()

    async def take(self, size: int) -> None:
        while self.free < size and self.free < self._size:  # one piece larger than all may pass alone
            await self._freed.wait()
        self.free -= size

    def give(self, size: int) -> None:
        self.free += size
        self._freed.set()
        self._freed = anyio.Event()


async def _fail(send: Send, encoder: Encoder, error: RequestError, started: bool) -> None:
    if not started:
        await send_json(send, error.status, encoder.error_body(error))
        return
    logger.warning("stream ended with an error: %s", error.message)
    metrics.count_stream_error()
    await send({"type": "http.response.body", "body": encoder.stream_error(error), "more_body": False})


async def write_collected(
    send: Send,
    outputs: AsyncGenerator[Output, None],
    encoder: Encoder,
    build: Callable[[list[Output]], Any],
    headers: list[tuple[bytes, bytes]],
) -> None:
    """Collect ``outputs`` and answer with one JSON body (``build``), or an error body."""
    notes = collect_notices()
    try:
        collected: list[Output] = []
        async with aclosing(outputs):
            async for output in outputs:
                collected.append(output)
                if len(collected) % CHECKPOINT_EVERY == 0:  # see write_stream: a disconnect must get through
                    await anyio.lowlevel.checkpoint()
        for output in collected:
            if isinstance(output, CallOut):
                metrics.count_tool_call("client")
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
    await send_json(send, 200, data, [*headers, *_notes_header(notes)])


def _notes_header(notes: dict[str, list[str]]) -> list[tuple[bytes, bytes]]:
    """The request's notices (`shim.notices`) as headers: ``x-shim-constrain``, ``x-shim-state``."""
    return [(name.encode("ascii"), "; ".join(texts).encode("ascii", "replace")) for name, texts in notes.items()]


async def redacted(outputs: AsyncGenerator[Output, None]) -> AsyncGenerator[Output, None]:
    """``outputs`` with every known secret hidden (`shim.redact`), for MCP-executing mode: a model may repeat
    a token from a tool result the server ran, and the client is not the one who configured that server.

    Text and reasoning stream through a `StreamRedactor` each (a secret split over chunks is still caught;
    text that could be a secret's start is held until it cannot); a call's arguments are redacted whole.
    """
    text, reasoning = StreamRedactor(), StreamRedactor()

    def flush() -> list[Output]:
        held: list[Output] = []
        if rest := text.flush():
            held.append(TextOut(text=rest))
        if rest := reasoning.flush():
            held.append(ReasoningOut(text=rest))
        return held

    async with aclosing(outputs):
        async for output in outputs:
            if isinstance(output, TextOut):
                if shown := text.feed(output.text):
                    yield TextOut(text=shown)
                continue
            if isinstance(output, ReasoningOut):
                if shown := reasoning.feed(output.text):
                    yield ReasoningOut(text=shown)
                continue
            for held in flush():
                yield held
            if isinstance(output, CallOut):
                arguments = redact(output.arguments_json)
                if arguments != output.arguments_json:
                    output = CallOut(
                        index=output.index,
                        id=output.id,
                        name=output.name,
                        fragments=(arguments,),
                        arguments=redact_data(output.arguments),
                    )
            yield output
            if isinstance(output, FinishOut):
                return
        for held in flush():
            yield held
