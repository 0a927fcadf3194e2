"""Helpers for the server tests: the app served by uvicorn on 127.0.0.1 in the test's own event loop,
recorded model turns, and two small fake backends that plug into the real `Backend` seam.

The server runs in the test's loop (not a thread) so a test can share objects with it: an MCP router it
also calls, or an `anyio.Event` a fake backend sets when its generation is closed.
"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette

from shim.backends.base import Backend, BackendStream, BaseBackend, Completion, GenerationOptions
from shim.backends.model_info import ModelInfo
from shim.backends.scripted import ScriptedBackend
from shim.errors import BackendError
from shim.server.transport import uvicorn_config
from shim.types import Message

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Current time in a timezone.",
        "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
    },
}


def call_block(name: str, **arguments: Any) -> str:
    return f"<function_call>{json.dumps({'name': name, 'arguments': arguments})}</function_call>"


def replay_file(tmp_path: Path, *turns: str, name: str = "turns.jsonl") -> Path:
    """A replay recording serving these model turns in order."""
    path = tmp_path / name
    path.write_text("".join(json.dumps({"response": t}) + "\n" for t in turns), encoding="utf-8")
    return path


def replay(tmp_path: Path, *turns: str) -> Backend:
    """A scripted model serving these turns in order, in 4-character chunks (no file: ``tmp_path`` is kept so
    every test calls it alike; `replay_file` writes one where a spec string is needed)."""
    del tmp_path
    return ScriptedBackend(turns, chunk_size=4)


@asynccontextmanager
async def serving(app: Starlette) -> AsyncIterator[str]:
    """Serve ``app`` on a free loopback port until the block ends; yields ``http://127.0.0.1:PORT``.

    The socket listens before uvicorn starts, so clients may connect at once (the kernel queues them until
    the app's startup, MCP servers included, is done): no readiness polling.
    """
    config = uvicorn.Config(
        app, log_level="warning", log_config=None, lifespan="on", ws="none", timeout_graceful_shutdown=5
    )
    async with _listening(config) as url:
        yield url


@asynccontextmanager
async def _listening(config: uvicorn.Config) -> AsyncIterator[str]:
    """Run a uvicorn server of ``config`` on a loopback socket that listens before it starts."""
    # IPPROTO_TCP: asyncio turns Nagle off only for sockets that say they are TCP (else +40 ms per response).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(config)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve, [sock])
            try:
                yield f"http://127.0.0.1:{sock.getsockname()[1]}"
            finally:
                server.should_exit = True
    finally:
        sock.close()


class Recording(BaseBackend):
    """Wraps a backend and keeps every prompt it was sent (to check what the model saw)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.prompts: list[list[Message]] = []
        self.options: list[GenerationOptions | None] = []

    @property
    def name(self) -> str:
        return self.backend.name

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        self.prompts.append(list(messages))
        self.options.append(options)
        return self.backend.stream(messages, options=options)

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def model_info(self) -> ModelInfo | None:
        return await self.backend.model_info()


class Endless(BaseBackend):
    """A model that never stops talking; ``closed`` is set once its generation was stopped."""

    name = "endless"

    def __init__(self) -> None:
        self.started = anyio.Event()
        self.closed = anyio.Event()

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        return BackendStream(self._generate(), description="endless test model")

    async def _generate(self) -> AsyncGenerator[str | Completion, None]:
        self.started.set()
        try:
            while True:
                await anyio.lowlevel.checkpoint()
                yield "more words "
        finally:
            self.closed.set()

    async def aclose(self) -> None:
        pass

    async def model_info(self) -> None:
        return None  # a fake says nothing about a model: the profile comes from its name


class Crashing(BaseBackend):
    """A model whose engine fails after ``before`` (an error before any text when empty)."""

    name = "crashing"

    def __init__(self, before: str = "") -> None:
        self.before = before

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        return BackendStream(self._generate(), description="crashing test model")

    async def _generate(self) -> AsyncGenerator[str | Completion, None]:
        for i in range(0, len(self.before), 4):
            yield self.before[i : i + 4]
        raise BackendError("the engine crashed (on purpose)")

    async def aclose(self) -> None:
        pass

    async def model_info(self) -> None:
        return None  # a fake says nothing about a model: the profile comes from its name


@asynccontextmanager
async def serving_transport(app: Starlette, **config: Any) -> AsyncIterator[str]:
    """Like `serving`, under the transport ``shim serve`` runs (`shim.server.transport.uvicorn_config`), with
    ``config`` as its keywords (timeouts, the connection cap)."""
    async with _listening(uvicorn_config(app, log_level="warning", **config)) as url:
        yield url
