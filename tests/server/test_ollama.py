"""The Ollama-compatible surface driven by the real ``ollama`` client over real HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from ollama import AsyncClient

from shim.server import create_app
from tests.server._helpers import WEATHER, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio


async def test_chat_with_tools_returns_calls_with_object_arguments_and_takes_results_by_tool_name(
    tmp_path: Path,
) -> None:
    model = Recording(replay(tmp_path, call_block("get_weather", city="Bergen"), "Rainy, as usual in Bergen."))
    async with serving(create_app({"m": model})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            messages: list[Any] = [{"role": "user", "content": "Weather in Bergen?"}]
            first = await ollama.chat(model="m", messages=messages, tools=[WEATHER])
            calls = first.message.tool_calls or []
            assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [
                ("get_weather", {"city": "Bergen"})
            ]
            assert first.done and first.done_reason == "stop"
            messages += [first.message, {"role": "tool", "tool_name": "get_weather", "content": "rain, 9 C"}]
            second = await ollama.chat(model="m", messages=messages, tools=[WEATHER])
    assert second.message.content == "Rainy, as usual in Bergen." and not second.message.tool_calls
    result_turn = model.prompts[1][-1].content
    assert '<function_result name="get_weather"' in result_turn and "rain, 9 C" in result_turn


async def test_streaming_chat_sends_text_thinking_and_calls_then_done_exactly_once(tmp_path: Path) -> None:
    turn = "<think>A tool will know.</think>Looking it up. " + call_block("get_weather", city="Turku")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            parts = [
                part
                async for part in await ollama.chat(
                    model="m", messages=[{"role": "user", "content": "?"}], tools=[WEATHER], stream=True
                )
            ]
    assert [p.done for p in parts].count(True) == 1 and parts[-1].done
    assert "".join(p.message.thinking or "" for p in parts) == "A tool will know."
    assert "".join(p.message.content or "" for p in parts) == "Looking it up."
    calls = [c for p in parts for c in p.message.tool_calls or []]
    assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [("get_weather", {"city": "Turku"})]


async def test_tags_show_and_version_describe_the_models_with_the_tools_capability(tmp_path: Path) -> None:
    async with serving(create_app({"qwen": replay(tmp_path, "a")})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            tags = await ollama.list()
            shown = await ollama.show("qwen")
            shown_latest = await ollama.show("qwen:latest")
            version = await ollama._request_raw("GET", "/api/version")  # the client has no wrapper for it
    assert [m.model for m in tags.models] == ["qwen"]
    assert "tools" in (shown.capabilities or []) and shown_latest.capabilities == shown.capabilities
    assert version.json()["version"]
