"""Regressions of issue 16, each driven through the real ``openai`` client (or plain HTTP) over real HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from openai import AsyncOpenAI

from shim.backends import get_backend
from shim.server import create_app
from tests.server._helpers import TIME, WEATHER, Recording, call_block, replay, replay_file, serving

pytestmark = pytest.mark.anyio

QUESTION: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]


def client(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 4, 5, 7, 11])
async def test_parallel_tool_calls_false_never_leaks_the_closing_tag_into_the_text(
    tmp_path: Path, chunk_size: int
) -> None:
    turn = "Checking. " + call_block("get_weather", city="Paris") + "\n" + call_block("get_time", timezone="UTC")
    backend = get_backend(f"replay:{replay_file(tmp_path, turn)}", chunk_size=chunk_size)
    async with serving(create_app({"m": backend})) as url, client(url) as openai:
        with anyio.fail_after(10):
            stream = await openai.chat.completions.create(
                model="m", messages=QUESTION, tools=[WEATHER, TIME], parallel_tool_calls=False, stream=True
            )
            chunks = [c async for c in stream]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    calls = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or [] if t.id]
    assert text == "Checking." and [c.function.name for c in calls if c.function] == ["get_weather"]


async def test_tool_choice_none_never_returns_tool_calls_even_when_the_model_writes_one(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "I would look it up: " + call_block("get_weather", city="Paris")))
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            answer = await openai.chat.completions.create(
                model="m", messages=QUESTION, tools=[WEATHER], tool_choice="none"
            )
    choice = answer.choices[0]
    assert choice.message.tool_calls is None and choice.finish_reason == "stop"
    assert choice.message.content == "I would look it up:"
    assert len(model.prompts) == 1  # answered at once, no retry loop


async def test_a_call_to_another_tool_than_the_named_choice_is_never_handed_to_the_client(tmp_path: Path) -> None:
    turns = (call_block("get_time", timezone="UTC"), call_block("get_weather", city="Paris"))
    model = Recording(replay(tmp_path, *turns))
    named = {"type": "function", "function": {"name": "get_weather"}}
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            answer = await openai.chat.completions.create(
                model="m",
                messages=QUESTION,
                tools=[WEATHER, TIME],
                tool_choice=named,  # type: ignore[arg-type]
            )
    calls = answer.choices[0].message.tool_calls or []
    assert [c.function.name for c in calls if c.type == "function"] == ["get_weather"]
    assert "'get_time' was not run: this turn must call 'get_weather'" in model.prompts[1][-1].content


async def test_allowed_tools_narrows_the_tools_and_is_not_mistaken_for_a_tool_name(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, call_block("get_time", timezone="UTC")))
    choice = {
        "type": "allowed_tools",
        "allowed_tools": {"mode": "required", "tools": [{"type": "function", "function": {"name": "get_time"}}]},
    }
    body = {"model": "m", "messages": QUESTION, "tools": [WEATHER, TIME], "tool_choice": choice}
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(f"{url}/v1/chat/completions", json=body)
            unknown = await http.post(
                f"{url}/v1/chat/completions",
                json=body
                | {
                    "tool_choice": {
                        "type": "allowed_tools",
                        "allowed_tools": {
                            "mode": "auto",
                            "tools": [{"type": "function", "function": {"name": "nope"}}],
                        },
                    }
                },
            )
    assert response.status_code == 200, response.text
    assert response.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_time"
    system = model.prompts[0][0].content
    assert "get_time" in system and "get_weather" not in system
    assert unknown.status_code == 400 and "'nope'" in unknown.json()["error"]["message"]


async def test_custom_tools_get_a_clear_error_naming_the_tool(tmp_path: Path) -> None:
    custom = {"type": "custom", "custom": {"name": "grep", "description": "free text"}}
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(
                f"{url}/v1/chat/completions", json={"model": "m", "messages": QUESTION, "tools": [WEATHER, custom]}
            )
    error = response.json()["error"]
    assert response.status_code == 400 and error["param"] == "tools[1]" and "'custom' tools" in error["message"]


async def test_tool_history_without_tools_is_answered_in_one_turn(tmp_path: Path) -> None:
    again = "Paris again: " + call_block("get_weather", city="Paris")
    model = Recording(replay(tmp_path, again, again, again, again))
    history: list[Any] = [
        *QUESTION,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ]
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            answer = await openai.chat.completions.create(model="m", messages=history)
    choice = answer.choices[0]
    assert choice.message.tool_calls is None and choice.finish_reason == "stop"
    assert choice.message.content == "Paris again:" and len(model.prompts) == 1  # no loop of retries


async def test_prose_before_a_malformed_call_is_sent_once_and_the_retry_continues_it(tmp_path: Path) -> None:
    model = Recording(
        replay(
            tmp_path,
            "Let me check the weather. <function_call>{name: get_weather, arguments: {city: Par is}}</function_call>",
            "Let me check the weather. " + call_block("get_weather", city="Paris"),
        )
    )
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            stream = await openai.chat.completions.create(model="m", messages=QUESTION, tools=[WEATHER], stream=True)
            chunks = [c async for c in stream]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    calls = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or [] if t.id]
    assert text == "Let me check the weather." and len(calls) == 1


async def test_sampling_fields_reach_the_backend(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "ok"))
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            await openai.chat.completions.create(
                model="m",
                messages=QUESTION,
                top_p=0.9,
                frequency_penalty=0.5,
                presence_penalty=-0.5,
                seed=7,
                stop=["END", "STOP"],
            )
    options = model.options[0]
    assert options is not None
    assert (options.top_p, options.frequency_penalty, options.presence_penalty) == (0.9, 0.5, -0.5)
    assert (options.seed, options.stop) == (7, ("END", "STOP"))


async def test_the_ollama_backend_request_carries_the_sampling_fields() -> None:
    from shim.backends.base import GenerationOptions
    from shim.backends.ollama import OllamaBackend

    backend = OllamaBackend("qwen")
    options = GenerationOptions(top_p=0.8, frequency_penalty=0.1, presence_penalty=0.2, seed=1, stop=("x",))
    request = backend._request([], options, None)  # pyright: ignore[reportPrivateUsage]
    assert json.loads(json.dumps(request["options"])) == {
        "top_p": 0.8,
        "frequency_penalty": 0.1,
        "presence_penalty": 0.2,
        "seed": 1,
        "stop": ["x"],
    }
    await backend.aclose()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat/completions", {"messages": QUESTION}),
        ("/v1/responses", {"input": "Weather in Paris?"}),
        ("/v1/messages", {"messages": QUESTION, "max_tokens": 50}),
        ("/api/chat", {"messages": QUESTION, "stream": False}),
    ],
)
async def test_every_surface_takes_tools_in_any_dialect(tmp_path: Path, path: str, body: dict[str, Any]) -> None:
    gemini = {"functionDeclarations": [{"name": "get_weather", "parameters": WEATHER["function"]["parameters"]}]}
    anthropic = {"name": "get_time", "input_schema": TIME["function"]["parameters"]}
    model = Recording(replay(tmp_path, "Fine."))
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(f"{url}{path}", json={"model": "m", "tools": [gemini, anthropic], **body})
    assert response.status_code == 200, response.text
    system = model.prompts[0][0].content
    assert "get_weather" in system and "get_time" in system
