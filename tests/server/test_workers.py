"""Several workers and several hosts: the tool rounds MCP-executing mode ran itself reach the follow-up
request whichever app instance answers it (a shared SQLite file, a real Redis), and ``shim serve --workers``
serves as a real multi-process server."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from openai import AsyncOpenAI

from shim.agent import BaseToolSource
from shim.server import ServerSettings, create_app
from shim.server.store import SqliteRounds, open_store
from shim.types import ChatMessage, ContentBlock, ToolCall, ToolResult, ToolSpec
from tests.helpers.processes import STARTUP_GUARD, read_until, running
from tests.server._helpers import WEATHER, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio

SHIM = Path(sys.executable).parent / "shim"


class Adder(BaseToolSource):
    """A tool source the server runs itself: ``add(a, b)``."""

    async def list_tools(self) -> list[ToolSpec]:
        schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}
        return [ToolSpec(name="add", description="Add two numbers.", input_schema=schema)]

    async def call(self, call: ToolCall) -> ToolResult:
        total = call.arguments["a"] + call.arguments["b"]
        return ToolResult(call_id=call.id, name=call.name, content=(ContentBlock(kind="text", text=str(total)),))


async def _round_trip_across_two_apps(tmp_path: Path, state: str) -> str:
    """First request on one app instance, its follow-up on another sharing ``state``; what the model saw."""
    first_model = replay(
        tmp_path, call_block("add", a=2, b=3), "Now the weather. " + call_block("get_weather", city="Oslo")
    )
    second_model = Recording(replay(tmp_path, "Five, and cold in Oslo."))
    settings = ServerSettings(state=state)
    one = create_app({"m": first_model}, tools=Adder(), settings=settings)
    two = create_app({"m": second_model}, tools=Adder(), settings=settings)
    messages: list[Any] = [{"role": "user", "content": "Add 2 and 3, then the weather in Oslo."}]
    async with serving(one) as url_one, serving(two) as url_two:
        async with AsyncOpenAI(base_url=f"{url_one}/v1", api_key="x", max_retries=0) as openai:
            with anyio.fail_after(20):
                first = await openai.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
        calls = first.choices[0].message.tool_calls or []
        assert [c.function.name for c in calls] == ["get_weather"]
        messages += [
            first.choices[0].message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": calls[0].id, "content": "cold"},
        ]
        async with AsyncOpenAI(base_url=f"{url_two}/v1", api_key="x", max_retries=0) as openai:
            with anyio.fail_after(20):
                final = await openai.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
    assert final.choices[0].message.content == "Five, and cold in Oslo."
    return "\n".join(m.content for m in second_model.prompts[0])


async def test_a_follow_up_on_another_app_sharing_a_sqlite_file_sees_the_rounds_it_never_saw(tmp_path: Path) -> None:
    history = await _round_trip_across_two_apps(tmp_path, f"sqlite:{tmp_path / 'rounds.sqlite3'}")
    assert '"name": "add"' in history and 'name="add">\n5\n</function_result>' in history, history


async def test_without_a_shared_store_the_other_app_cannot_restore_the_rounds(tmp_path: Path) -> None:
    # The control for the test above: two in-memory stores share nothing.
    history = await _round_trip_across_two_apps(tmp_path, "memory")
    assert '"name": "add"' not in history


async def test_the_sqlite_store_keeps_only_the_newest_rounds(tmp_path: Path) -> None:
    store = SqliteRounds(tmp_path / "rounds.sqlite3", size=3)
    rounds = [{"role": "assistant", "content": "x"}, {"role": "tool", "content": "5"}]
    try:
        for i in range(5):
            await store.save([ToolCall(id=f"call_{i}", name="f", arguments={})], rounds)
        asked = [await store.restore([_answered(f"call_{i}")]) for i in range(5)]
    finally:
        await store.aclose()
    assert [len(a) for a in asked] == [1, 1, 2, 2, 2]  # the two oldest were forgotten


def _answered(call_id: str) -> ChatMessage:
    """The assistant message of a follow-up request, carrying the id of a call handed to the client."""
    return ChatMessage(role="assistant", tool_calls=(ToolCall(id=call_id, name="f", arguments={}),))


def test_a_state_url_that_names_no_store_is_a_config_error() -> None:
    from shim.errors import ConfigError

    with pytest.raises(ConfigError, match="redis://HOST:PORT/DB"):
        open_store("postgres://db/shim")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); the Redis store is untested here")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:  # ends when redis-server exits; it says when it is ready
            if "Ready to accept connections" in line:
                break
        else:
            pytest.fail(f"redis-server exited with {process.wait(timeout=10)} before it was ready")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


async def test_a_follow_up_on_another_host_sharing_redis_sees_the_rounds_it_never_saw(
    tmp_path: Path, redis_url: str
) -> None:
    history = await _round_trip_across_two_apps(tmp_path, redis_url)
    assert '"name": "add"' in history and 'name="add">\n5\n</function_result>' in history, history


async def test_serve_with_two_workers_answers_and_sums_its_metrics(tmp_path: Path) -> None:
    recording = tmp_path / "r.jsonl"
    recording.write_text(json.dumps({"response": "From a worker."}) + "\n", encoding="utf-8")
    env = {**os.environ, "SHIM_MODEL": "", "SHIM_CONFIG": "", "SHIM_API_KEY": ""}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    command = [
        str(SHIM),
        "serve",
        "--port",
        "0",
        "-m",
        f"rec=replay:{recording}",
        "--workers",
        "2",
        "--log-level",
        "warning",
    ]
    # Its own process group: teardown stops the workers too, whatever happens here.
    async with running(command, env=env) as process:
        printed = await read_until(process, "workers")
        found = re.search(r"OpenAI-compatible:\s+(\S+)/v1", printed)
        assert found is not None
        # The kernel queues requests until a worker has started, which takes a while on a busy machine.
        async with httpx.AsyncClient(base_url=found.group(1), timeout=STARTUP_GUARD) as http:
            health = await http.get("/health")
            body = {"model": "rec", "messages": [{"role": "user", "content": "hi"}]}
            answers = [await http.post("/v1/chat/completions", json=body) for _ in range(4)]
            metrics = (await http.get("/metrics")).text
    assert "2 workers; tool rounds kept in SQLite" in printed
    assert health.json() == {"status": "ok"}
    # Each worker has its own replay of the one recorded reply: at least one answer comes from each.
    assert any(
        a.status_code == 200 and a.json()["choices"][0]["message"]["content"] == "From a worker." for a in answers
    )
    served = sum(float(v) for v in re.findall(r'shim_requests_total\{[^}]*surface="openai"[^}]*\} (\S+)', metrics))
    assert served == 4  # summed over both workers
