"""The OpenAI-compatible surface driven by the real ``openai`` client (and LangChain) over real HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import openai as openai_module
import pytest
from openai import AsyncOpenAI

from shim.server import ServerSettings, create_app
from tests.server._helpers import TIME, WEATHER, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio


def client(url: str, **kwargs: Any) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0, **kwargs)


async def test_a_streamed_call_reassembles_from_fragments_and_the_result_goes_back_through_the_prompt(
    tmp_path: Path,
) -> None:
    model = Recording(
        replay(tmp_path, "Let me check. " + call_block("get_weather", city="Paris"), "It is sunny in Paris.")
    )
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
            stream = await openai.chat.completions.create(
                model="m", messages=messages, tools=[WEATHER], stream=True, stream_options={"include_usage": True}
            )
            chunks = [chunk async for chunk in stream]
            first = chunks[0].choices[0].delta
            assert (first.role, first.content) == ("assistant", "")
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            fragments = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or []]
            opening, rest = fragments[0], fragments[1:]
            assert (opening.index, opening.type, opening.function.name, opening.function.arguments) == (
                0,
                "function",
                "get_weather",
                "",
            )
            assert opening.id.startswith("call_") and all(f.id is None and f.index == 0 for f in rest)
            arguments = "".join(f.function.arguments for f in rest)
            assert json.loads(arguments) == {"city": "Paris"} and text == "Let me check."
            finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
            assert finishes == ["tool_calls"]
            assert chunks[-1].choices == [] and chunks[-1].usage is not None  # include_usage: the last chunk

            messages += [
                {
                    "role": "assistant",
                    "content": text,
                    "tool_calls": [
                        {
                            "id": opening.id,
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": arguments},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": opening.id, "content": "sunny, 24 C"},
            ]
            answer = await openai.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
    assert answer.choices[0].message.content == "It is sunny in Paris."
    assert answer.choices[0].finish_reason == "stop" and answer.choices[0].message.tool_calls is None
    second_prompt = model.prompts[1]
    assert "get_weather" in second_prompt[0].content  # the tools are in the system prompt again
    assert '<function_call>{"name": "get_weather"' in second_prompt[-2].content  # the call, as the model wrote it
    assert "<function_result" in second_prompt[-1].content and "sunny, 24 C" in second_prompt[-1].content


async def test_several_calls_in_one_turn_come_back_whole_without_streaming(tmp_path: Path) -> None:
    turn = call_block("get_weather", city="Paris") + "\n" + call_block("get_time", timezone="Europe/Paris")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, client(url) as openai:
        with anyio.fail_after(10):
            reply = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Weather and time in Paris?"}], tools=[WEATHER, TIME]
            )
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.content is None
    calls = choice.message.tool_calls or []
    assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_time", {"timezone": "Europe/Paris"}),
    ]
    assert len({c.id for c in calls}) == 2


async def test_parallel_tool_calls_false_returns_only_the_first_call(tmp_path: Path) -> None:
    turn = call_block("get_weather", city="Paris") + call_block("get_time", timezone="UTC")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, client(url) as openai:
        with anyio.fail_after(10):
            reply = await openai.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "?"}],
                tools=[WEATHER, TIME],
                parallel_tool_calls=False,
            )
    assert [c.function.name for c in reply.choices[0].message.tool_calls or []] == ["get_weather"]


async def test_reasoning_streams_as_reasoning_content_and_stays_out_of_content(tmp_path: Path) -> None:
    turn = "<think>The user wants weather; I have a tool.</think>Checking." + call_block("get_weather", city="Oslo")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, client(url) as openai:
        with anyio.fail_after(10):
            stream = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Oslo?"}], tools=[WEATHER], stream=True
            )
            deltas = [c.choices[0].delta async for c in stream if c.choices]
    reasoning = "".join((d.model_extra or {}).get("reasoning_content") or "" for d in deltas)
    content = "".join(d.content or "" for d in deltas)
    assert reasoning == "The user wants weather; I have a tool."
    assert content == "Checking."


async def test_a_malformed_call_goes_back_to_the_model_and_the_client_only_sees_the_retry(tmp_path: Path) -> None:
    model = Recording(
        replay(
            tmp_path,
            '<function_call>{"name": "get_weather", "arguments": {"city": Par(is)}}</function_call>',  # no JSON value
            call_block("get_weather", city="Paris"),
        )
    )
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            stream = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Paris?"}], tools=[WEATHER], stream=True
            )
            chunks = [c async for c in stream]
    fragments = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or []]
    assert [f.function.name for f in fragments if f.id] == ["get_weather"]
    assert json.loads("".join(f.function.arguments for f in fragments)) == {"city": "Paris"}
    assert "could not be used" in model.prompts[1][-1].content  # the model was told what was wrong


async def test_a_call_whose_arguments_miss_the_clients_schema_is_retried_before_the_client_sees_it(
    tmp_path: Path,
) -> None:
    model = Recording(
        replay(tmp_path, call_block("get_weather", town="Paris"), call_block("get_weather", city="Paris"))
    )
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            reply = await openai.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Paris?"}], tools=[WEATHER]
            )
    calls = reply.choices[0].message.tool_calls or []
    assert [json.loads(c.function.arguments) for c in calls] == [{"city": "Paris"}]
    assert "'city' is a required property" in model.prompts[1][-1].content


async def test_tool_choice_none_leaves_the_tools_out_and_a_named_choice_lists_only_that_tool(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "No tools needed.", call_block("get_time", timezone="UTC")))
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            question: Any = [{"role": "user", "content": "hi"}]
            await openai.chat.completions.create(
                model="m", messages=question, tools=[WEATHER, TIME], tool_choice="none"
            )
            forced = await openai.chat.completions.create(
                model="m",
                messages=question,
                tools=[WEATHER, TIME],
                tool_choice={"type": "function", "function": {"name": "get_time"}},
            )
    assert "get_weather" not in model.prompts[0][0].content and "get_time" not in model.prompts[0][0].content
    assert "get_time" in model.prompts[1][0].content and "get_weather" not in model.prompts[1][0].content
    assert forced.choices[0].message.tool_calls is not None


async def test_a_required_tool_choice_answered_in_text_is_retried_until_the_client_gets_a_call(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "Paris is lovely.", call_block("get_weather", city="Paris")))
    async with serving(create_app({"m": model})) as url, client(url) as openai:
        with anyio.fail_after(10):
            reply = await openai.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "Paris?"}],
                tools=[WEATHER, TIME],
                tool_choice="required",
            )
    calls = reply.choices[0].message.tool_calls or []
    assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [("get_weather", {"city": "Paris"})]
    assert reply.choices[0].finish_reason == "tool_calls"
    assert "You must call one of the tools now" in model.prompts[1][-1].content


async def test_several_models_are_served_at_once_each_by_its_own_backend(tmp_path: Path) -> None:
    for folder in ("a", "b"):  # one recording file per model
        (tmp_path / folder).mkdir()
    app = create_app({"first": replay(tmp_path / "a", "I am first."), "second": replay(tmp_path / "b", "I am second.")})
    async with serving(app) as url, client(url) as openai:
        with anyio.fail_after(10):
            models = [m.id async for m in openai.models.list()]
            one = await openai.models.retrieve("second")
            answers = [
                (await openai.chat.completions.create(model=name, messages=[{"role": "user", "content": "?"}]))
                .choices[0]
                .message.content
                for name in ("second", "first")
            ]
    assert models == ["first", "second"] and one.id == "second"
    assert answers == ["I am second.", "I am first."]


async def test_any_backend_spec_is_served_only_when_allowed(tmp_path: Path) -> None:
    recording = tmp_path / "reply.txt"
    recording.write_text("From a spec.", encoding="utf-8")
    question: Any = [{"role": "user", "content": "?"}]
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, client(url) as openai:
        with pytest.raises(openai_module.NotFoundError), anyio.fail_after(10):
            await openai.chat.completions.create(model=f"replay:{recording}", messages=question)
    async with serving(create_app({}, settings=ServerSettings(any_model=str(tmp_path)))) as url, client(url) as openai:
        with anyio.fail_after(10):
            reply = await openai.chat.completions.create(model=f"replay:{recording}", messages=question)
            models = [m.id async for m in openai.models.list()]
    assert reply.choices[0].message.content == "From a spec." and models == [f"replay:{recording}"]


async def test_the_embedded_llama_cpp_model_with_a_grammar_streams_a_call(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    from tests.helpers.tiny_gguf import build_tiny_gguf

    path = build_tiny_gguf(tmp_path / "tiny.gguf")
    grammar = 'root ::= "On it. <function_call>{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Tromsø\\"}}</function_call>"'
    async with serving(create_app({"tiny": f"llama-cpp:{path}"})) as url, client(url) as openai:
        with anyio.fail_after(60):
            stream = await openai.chat.completions.create(
                model="tiny",
                messages=[{"role": "user", "content": "Weather in Tromsø?"}],
                tools=[WEATHER],
                stream=True,
                stream_options={"include_usage": True},
                temperature=0,
                seed=1,
                max_tokens=200,
                extra_body={"grammar": grammar},
            )
            chunks = [c async for c in stream]
    fragments = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or []]
    assert fragments[0].function.name == "get_weather"
    assert json.loads("".join(f.function.arguments or "" for f in fragments)) == {"city": "Tromsø"}
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "On it."
    usage = chunks[-1].usage
    assert usage is not None and usage.prompt_tokens > 0 and usage.completion_tokens > 0


async def test_langchain_chat_openai_with_bound_tools_gets_tool_calls(tmp_path: Path) -> None:
    langchain_openai = pytest.importorskip("langchain_openai")
    turns = [call_block("get_weather", city="Lima"), call_block("get_weather", city="Quito")]
    async with serving(create_app({"m": replay(tmp_path, *turns)})) as url, httpx.AsyncClient() as http:
        chat = langchain_openai.ChatOpenAI(
            model="m", base_url=f"{url}/v1", api_key="unused", max_retries=0, http_async_client=http
        )
        bound = chat.bind_tools([WEATHER])
        with anyio.fail_after(10):
            whole = await bound.ainvoke("Weather in Lima?")
            streamed = None
            async for piece in bound.astream("Weather in Quito?"):
                streamed = piece if streamed is None else streamed + piece
    assert [(c["name"], c["args"]) for c in whole.tool_calls] == [("get_weather", {"city": "Lima"})]
    assert streamed is not None
    assert [(c["name"], c["args"]) for c in streamed.tool_calls] == [("get_weather", {"city": "Quito"})]


async def test_plain_http_gets_the_exact_chunk_sequence(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "Hi" + call_block("get_weather", city="Rome"))})) as url:
        body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "?"}], "tools": [WEATHER]}
        async with httpx.AsyncClient() as http:
            with anyio.fail_after(10):
                response = await http.post(f"{url}/v1/chat/completions", json=body)
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [line.removeprefix("data: ") for line in response.text.split("\n\n") if line]
    assert events[-1] == "[DONE]"
    deltas = [(json.loads(e)["choices"][0]["delta"], json.loads(e)["choices"][0]["finish_reason"]) for e in events[:-1]]
    assert deltas[0] == ({"role": "assistant", "content": ""}, None)
    assert deltas[1] == ({"content": "Hi"}, None)
    opening = deltas[2][0]["tool_calls"][0]
    assert opening == {
        "index": 0,
        "id": opening["id"],
        "type": "function",
        "function": {"name": "get_weather", "arguments": ""},
    }
    assert all(set(d["tool_calls"][0]) == {"index", "function"} for d, _ in deltas[3:-1])
    assert deltas[-1] == ({}, "tool_calls")
