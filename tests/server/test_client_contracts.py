"""Contracts a client relies on, each through the real client that sends the request: what a vendor refuses is
refused here too, what one surface accepts its sibling accepts, and a header never says a field was ignored
when it was honoured."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import anyio
import httpx
import openai
import pytest
from ollama import AsyncClient
from openai import AsyncOpenAI

from shim.server import create_app
from tests.server._helpers import WEATHER, Recording, replay, serving

pytestmark = pytest.mark.anyio

# A 1x1 PNG.
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()


def openai_client(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)


async def test_chat_does_not_name_response_format_as_ignored_while_honouring_it(tmp_path: Path) -> None:
    model = replay(tmp_path, '{"city": "Paris"}')
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    response_format: Any = {"type": "json_schema", "json_schema": {"name": "place", "schema": schema}}
    async with serving(create_app({"m": model})) as url, openai_client(url) as client:
        with anyio.fail_after(10):
            raw = await client.chat.completions.with_raw_response.create(
                model="m",
                messages=[{"role": "user", "content": "Where?"}],
                response_format=response_format,
                user="someone",
            )
    assert raw.headers["x-shim-structured-output"] == "prompt"
    assert raw.headers["x-shim-ignored-params"] == "user"  # response_format was used, so it is not listed
    assert raw.parse().choices[0].message.content == '{"city": "Paris"}'


async def test_a_chat_tool_result_whose_id_matches_no_call_is_refused_as_openai_refuses_it(tmp_path: Path) -> None:
    messages: Any = [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_2", "content": "sunny"},
    ]
    async with serving(create_app({"m": replay(tmp_path, "unused")})) as url, openai_client(url) as client:
        with anyio.fail_after(10), pytest.raises(openai.BadRequestError) as refused:
            await client.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
    assert "'call_2'" in str(refused.value) and "answers no call" in str(refused.value)


async def test_a_responses_function_output_whose_call_id_matches_no_call_is_refused(tmp_path: Path) -> None:
    items: Any = [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_9", "output": "sunny"},
    ]
    tool: Any = {"type": "function", **WEATHER["function"]}
    async with serving(create_app({"m": replay(tmp_path, "unused")})) as url, openai_client(url) as client:
        with anyio.fail_after(10), pytest.raises(openai.BadRequestError) as refused:
            await client.responses.create(model="m", input=items, tools=[tool])
    assert "'call_9'" in str(refused.value)


async def test_ollama_generate_takes_images_as_chat_does(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "A single pixel."))
    async with serving(create_app({"m": model})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            reply = await ollama.generate(model="m", prompt="What is this?", images=[PIXEL])
    assert reply.response == "A single pixel."
    prompt = model.prompts[0][-1]
    assert "What is this?" in prompt.content and "[image: image/png" in prompt.content  # text-only: a placeholder


async def test_ollama_generate_refuses_images_that_are_not_base64(tmp_path: Path) -> None:
    # Sent raw: the ollama client reads a string that is not base64 as a file path, and fails before sending.
    body = {"model": "m", "prompt": "What is this?", "images": ["not base64!"], "stream": False}
    async with serving(create_app({"m": replay(tmp_path, "unused")})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(10):
            refused = await http.post("/api/generate", json=body)
    assert refused.status_code == 400 and "images[0]" in refused.json()["error"]


async def test_an_ollama_tool_result_with_an_id_still_answers_a_call_that_had_none(tmp_path: Path) -> None:
    """Ollama's calls carry no id, so a result a client labels with one anyway (sent raw: the ollama client drops
    the field) is matched by name, not refused."""
    model = Recording(replay(tmp_path, "Sunny."))
    messages: Any = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {}}}]},
        {"role": "tool", "tool_name": "get_weather", "tool_call_id": "call_7", "content": "sunny"},
    ]
    body = {"model": "m", "messages": messages, "tools": [WEATHER], "stream": False}
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(10):
            reply = await http.post("/api/chat", json=body)
    assert reply.status_code == 200, reply.text
    assert reply.json()["message"]["content"] == "Sunny."
