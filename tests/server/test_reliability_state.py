"""MCP-executing mode's saved tool rounds survive a Redis restart, and a round that cannot be restored is
reported in ``x-shim-state``, never dropped in silence (issue 25, item 11). A real ``redis-server``, restarted
under the running app."""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from shim.server import ServerSettings, create_app
from tests.server._helpers import WEATHER, Recording, call_block, replay, serving
from tests.server.test_workers import Adder

pytestmark = pytest.mark.anyio


class RedisServer:
    """A real redis-server on a free port that keeps its data across restarts (an append-only file)."""

    def __init__(self, binary: str, directory: Path) -> None:
        self.binary = binary
        self.directory = directory
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        arguments = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        arguments += ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
        process = subprocess.Popen(
            [self.binary, *arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert process.stdout is not None
        for line in process.stdout:  # ends when redis-server exits; it says when it is ready
            if "Ready to accept connections" in line:
                break
        else:
            pytest.fail(f"redis-server exited with {process.wait(timeout=10)} before it was ready")
        self.process = process

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); the Redis store is untested here")
    server = RedisServer(binary, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def _first_then_follow_up(tmp_path: Path, redis: RedisServer, between: Any) -> tuple[httpx.Response, str]:
    """A request whose tool round the server runs itself, ``between()``, then its follow-up on the same app;
    the follow-up's response and the prompt the model saw for it."""
    model = Recording(
        replay(
            tmp_path,
            call_block("add", a=2, b=3),
            "Now the weather. " + call_block("get_weather", city="Oslo"),
            "Five, and cold in Oslo.",
        )
    )
    app = create_app({"m": model}, tools=Adder(), settings=ServerSettings(state=redis.url))
    messages: list[Any] = [{"role": "user", "content": "Add 2 and 3, then the weather in Oslo."}]
    async with serving(app) as url, httpx.AsyncClient(timeout=30) as http:
        with anyio.fail_after(30):
            body = {"model": "m", "messages": messages, "tools": [WEATHER]}
            first = (await http.post(f"{url}/v1/chat/completions", json=body)).json()
            message = first["choices"][0]["message"]
            messages += [message, {"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "content": "cold"}]
            between()
            follow_up = await http.post(f"{url}/v1/chat/completions", json={**body, "messages": messages})
    return follow_up, "\n".join(str(m.content) for m in model.prompts[-1])


async def test_the_saved_round_is_restored_after_redis_restarts_under_the_running_server(
    tmp_path: Path, redis: RedisServer
) -> None:
    def restart() -> None:
        redis.stop()  # every pooled connection of the app is now stale
        redis.start()

    follow_up, history = await _first_then_follow_up(tmp_path, redis, restart)
    assert follow_up.status_code == 200 and "x-shim-state" not in follow_up.headers
    assert 'name="add">\n5\n</function_result>' in history, history


async def test_a_round_that_cannot_be_restored_is_reported_in_a_header(tmp_path: Path, redis: RedisServer) -> None:
    follow_up, history = await _first_then_follow_up(tmp_path, redis, redis.stop)
    assert follow_up.status_code == 200  # the answer still comes, and says what it lacks
    assert follow_up.headers["x-shim-state"].startswith("not-restored")
    assert 'name="add">' not in history
