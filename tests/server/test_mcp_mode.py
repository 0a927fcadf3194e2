"""MCP-executing mode: the server runs MCP tools itself (mcp-server-time as a real process, the lab server in process),
merges them with the client's tools, and streams one answer with one end."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_servers import SHARED_ROUTER, lab, lab_in_process, time_server
from ollama import AsyncClient
from openai import AsyncOpenAI, BadRequestError

from shim.agent import BaseToolSource
from shim.config import parse_config
from shim.routing import ToolRouter
from shim.server import create_app
from shim.types import ToolCall, ToolResult, ToolSpec
from tests.server._helpers import WEATHER, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def router() -> AsyncIterator[ToolRouter]:
    servers = {"time": time_server(args=["--local-timezone", "UTC"]), "lab": lab()}
    connect = {"lab": lab_in_process()}  # the server's logic is under test; mcp-server-time stays a real process
    async with ToolRouter(parse_config({"mcpServers": servers}).servers, connect=connect, **SHARED_ROUTER) as router:
        assert not router.failures, router.failures
        yield router


def client(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0)


async def test_mcp_calls_run_on_the_server_and_the_client_sees_one_answer_with_one_end(
    router: ToolRouter, tmp_path: Path
) -> None:
    model = Recording(
        replay(tmp_path, "Checking. " + call_block("get_current_time", timezone="UTC"), "It is a fine hour in UTC.")
    )
    async with serving(create_app({"m": model}, tools=router)) as url, client(url) as openai:
        with anyio.fail_after(20):
            stream = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "What time is it?"}], stream=True
            )
            chunks = [c async for c in stream]
    assert not any(c.choices[0].delta.tool_calls for c in chunks)
    assert [c.choices[0].finish_reason for c in chunks if c.choices[0].finish_reason] == ["stop"]
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == "Checking.\n\nIt is a fine hour in UTC."
    assert '"timezone": "UTC"' in model.prompts[1][-1].content  # the server fed the real result to the model


async def test_client_tools_merge_with_mcp_tools_and_only_calls_to_client_tools_come_back(
    router: ToolRouter, tmp_path: Path
) -> None:
    model = Recording(
        replay(
            tmp_path,
            call_block("add", a=2, b=3),
            "The sum is 5; now the weather. " + call_block("get_weather", city="Lisbon"),
            "Five, and sunny in Lisbon.",
        )
    )
    async with serving(create_app({"m": model}, tools=router)) as url, client(url) as openai:
        with anyio.fail_after(20):
            messages: list[Any] = [{"role": "user", "content": "Add 2 and 3, then the weather in Lisbon."}]
            first = await openai.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
            calls = first.choices[0].message.tool_calls or []
            assert first.choices[0].finish_reason == "tool_calls"
            assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [
                ("get_weather", {"city": "Lisbon"})
            ]
            messages += [
                first.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": calls[0].id, "content": "sunny"},
            ]
            final = await openai.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
    assert final.choices[0].message.content == "Five, and sunny in Lisbon."
    system = model.prompts[0][0].content
    assert "get_weather" in system and "add" in system and "get_current_time" in system
    # The follow-up shows the model the round the client never saw: the add call and its result.
    history = "\n".join(m.content for m in model.prompts[2])
    assert '"name": "add"' in history and 'name="add">\n5\n</function_result>' in history, history


@pytest.mark.parametrize(
    ("choice", "tools"),
    [
        ({"type": "function", "function": {"name": "get_current_time"}}, [WEATHER]),
        ("required", None),
    ],
    ids=["named-server-tool", "required-with-only-server-tools"],
)
async def test_a_tool_choice_that_only_the_server_s_own_tools_meet_is_honoured_not_refused(
    router: ToolRouter, tmp_path: Path, choice: Any, tools: list[Any] | None
) -> None:
    """Issue 23 item 2: the wire used to check the choice against the client's tools alone (400)."""
    model = Recording(replay(tmp_path, call_block("get_current_time", timezone="UTC"), "It is a fine hour in UTC."))
    extra: dict[str, Any] = {"tools": tools} if tools else {}
    async with serving(create_app({"m": model}, tools=router)) as url, client(url) as openai:
        with anyio.fail_after(20):
            reply = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "What time is it?"}], tool_choice=choice, **extra
            )
    assert reply.choices[0].message.content == "It is a fine hour in UTC."
    assert reply.choices[0].finish_reason == "stop"
    assert '"timezone": "UTC"' in model.prompts[1][-1].content  # the server ran the forced call


async def test_a_tool_choice_naming_a_tool_no_one_offers_is_a_400_naming_it(router: ToolRouter, tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "never asked"))
    async with serving(create_app({"m": model}, tools=router)) as url, client(url) as openai:
        with anyio.fail_after(20), pytest.raises(BadRequestError) as refused:
            await openai.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "?"}],
                tools=[WEATHER],
                tool_choice={"type": "function", "function": {"name": "get_the_moon"}},
            )
    assert "'get_the_moon'" in str(refused.value) and "get_current_time" in str(refused.value)
    assert model.prompts == []  # decided before the model was asked


async def test_the_config_file_starts_mcp_servers_and_ollama_clients_see_done_only_at_the_end(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": lab()}}), encoding="utf-8")
    backend = replay(tmp_path, call_block("add", a=20, b=22), "The sum is 42.")
    async with serving(create_app({"m": backend}, config=config)) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(30):
            parts = [
                p
                async for p in await ollama.chat(
                    model="m", messages=[{"role": "user", "content": "20+22?"}], stream=True
                )
            ]
    assert [p.done for p in parts] == [False] * (len(parts) - 1) + [True]
    assert "".join(p.message.content or "" for p in parts) == "The sum is 42."
    assert not any(p.message.tool_calls for p in parts)


class Noticing(BaseToolSource):
    """The router, noticing the MCP server's first progress notification (the call is running there)."""

    def __init__(self, router: ToolRouter) -> None:
        self.router = router
        self.running = anyio.Event()

    async def list_tools(self) -> list[ToolSpec]:
        return await self.router.list_tools()

    async def call(self, call: ToolCall) -> ToolResult:
        async def progress(_: ToolCall, done: float, total: float | None, message: str | None) -> None:
            self.running.set()

        return await self.router.call(call, on_progress=progress)


async def test_a_client_that_disconnects_during_an_mcp_call_cancels_the_call_on_the_mcp_server(
    router: ToolRouter, tmp_path: Path
) -> None:
    tools = Noticing(router)
    backend = replay(tmp_path, "Working on it. " + call_block("slow", token="server-cancel"), "never")
    async with serving(create_app({"m": backend}, tools=tools)) as url, client(url) as openai:
        with anyio.fail_after(20):
            stream = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Do the slow thing."}], stream=True
            )
            async for chunk in stream:
                if chunk.choices[0].delta.content:
                    break
            await tools.running.wait()
            await stream.close()
            confirmation = await router.call(
                ToolCall(id="call_" + "2" * 24, name="wait_for_cancellation", arguments={"token": "server-cancel"})
            )
    assert "was cancelled" in confirmation.render()
