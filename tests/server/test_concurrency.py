"""Many clients at once, and clients that leave: each stream has its own parser and ids, and a client that
disconnects stops its generation and its tool calls."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import anyio
import httpx
import pytest
from openai import AsyncOpenAI

from shim.server import create_app
from tests.server._helpers import WEATHER, Endless, call_block, serving

pytestmark = pytest.mark.anyio


async def test_dozens_of_simultaneous_streams_each_get_their_own_intact_calls_and_ids(tmp_path: Path) -> None:
    recording = tmp_path / "reply.txt"  # a text recording answers every request the same way
    recording.write_text(
        "On it. " + call_block("get_weather", city="Nuuk") + call_block("get_weather", city="Reykjavík"),
        encoding="utf-8",
    )
    app = create_app({"m": f"replay:{recording}"})
    results: list[tuple[list[str], list[dict[str, str]], str]] = []

    async def one(openai: AsyncOpenAI) -> None:
        stream = await openai.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "?"}], tools=[WEATHER], stream=True
        )
        ids: list[str] = []
        arguments: dict[int, str] = {}
        text = ""
        async for chunk in stream:
            delta = chunk.choices[0].delta
            text += delta.content or ""
            for fragment in delta.tool_calls or []:
                if fragment.id:
                    ids.append(fragment.id)
                arguments[fragment.index] = arguments.get(fragment.index, "") + (fragment.function.arguments or "")
        results.append((ids, [json.loads(arguments[i]) for i in sorted(arguments)], text))

    async with serving(app) as url, AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as openai:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                for _ in range(40):
                    tg.start_soon(one, openai)

    assert len(results) == 40
    assert all(args == [{"city": "Nuuk"}, {"city": "Reykjavík"}] and text == "On it." for _, args, text in results)
    every_id = [i for ids, _, _ in results for i in ids]
    assert len(every_id) == 80 and len(set(every_id)) == 80


async def test_a_client_that_disconnects_mid_stream_stops_the_generation(tmp_path: Path) -> None:
    model = Endless()
    async with serving(create_app({"m": model})) as url, AsyncOpenAI(base_url=f"{url}/v1", api_key="x") as openai:
        with anyio.fail_after(10):
            stream = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "talk"}], stream=True
            )
            async for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    break
            await stream.close()
            await model.closed.wait()  # the engine's generator was closed: no more tokens for nobody


async def test_a_client_that_gives_up_on_a_non_streaming_request_stops_the_generation(tmp_path: Path) -> None:
    model = Endless()
    async with serving(create_app({"m": model})) as url:
        with anyio.fail_after(10):
            async with httpx.AsyncClient() as http, anyio.create_task_group() as tg:
                body = {"model": "m", "messages": [{"role": "user", "content": "talk"}]}
                tg.start_soon(partial(http.post, f"{url}/v1/chat/completions", json=body))
                await model.started.wait()
                tg.cancel_scope.cancel()  # the client gives up: its connection closes
            await model.closed.wait()
