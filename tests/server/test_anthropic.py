"""The Anthropic Messages surface driven by the real ``anthropic`` SDK over real HTTP; every event and message
is checked against the SDK's own types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import anyio
import httpx
import pytest
from anthropic import AsyncAnthropic, beta_async_tool
from anthropic.types import Message, RawMessageStreamEvent
from pydantic import BaseModel, TypeAdapter

from shim.server import ServerSettings, create_app
from tests.server._helpers import Crashing, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio

WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
EVENTS: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)


def client(url: str, **kwargs: Any) -> AsyncAnthropic:
    return AsyncAnthropic(base_url=url, api_key=kwargs.pop("api_key", "unused"), max_retries=0, **kwargs)


async def test_a_tool_use_answer_comes_back_whole_and_the_tool_result_follow_up_reaches_the_model(
    tmp_path: Path,
) -> None:
    model = Recording(replay(tmp_path, "Let me check. " + call_block("get_weather", city="Paris"), "Sunny in Paris."))
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            question: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
            first = await claude.messages.create(model="m", max_tokens=200, messages=question, tools=[WEATHER])
            assert first.stop_reason == "tool_use"
            text, use = first.content
            assert text.type == "text" and text.text == "Let me check."
            assert use.type == "tool_use" and use.id.startswith("toolu_") and use.input == {"city": "Paris"}
            follow_up: list[Any] = [
                *question,
                {"role": "assistant", "content": [b.model_dump() for b in first.content]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny, 24 C"}]},
            ]
            answer = await claude.messages.create(model="m", max_tokens=200, messages=follow_up, tools=[WEATHER])
    assert answer.stop_reason == "end_turn" and answer.content[0].type == "text"
    assert answer.content[0].text == "Sunny in Paris."
    prompt = model.prompts[1]
    assert '<function_call>{"name": "get_weather"' in prompt[-2].content  # the call, as the model wrote it
    assert "<function_result" in prompt[-1].content and "sunny, 24 C" in prompt[-1].content
    assert model.options[0] is not None and model.options[0].max_tokens == 200


async def test_messages_stream_yields_anthropic_events_in_order_and_the_sdk_assembles_the_message(
    tmp_path: Path,
) -> None:
    turn = "<think>Paris is a city.</think>Checking. " + call_block("get_weather", city="Paris")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, client(url) as claude:
        with anyio.fail_after(10):
            async with claude.messages.stream(
                model="m", max_tokens=200, messages=[{"role": "user", "content": "Paris?"}], tools=[WEATHER]
            ) as stream:
                events = [event async for event in stream]
                final = await stream.get_final_message()
    kinds = [e.type for e in events if e.type in _RAW]
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    blocks = [e.content_block.type for e in events if e.type == "content_block_start"]
    assert blocks == ["thinking", "text", "tool_use"]
    deltas = {e.delta.type for e in events if e.type == "content_block_delta"}
    assert deltas == {"thinking_delta", "text_delta", "input_json_delta"}
    assert [b.type for b in final.content] == ["thinking", "text", "tool_use"]
    tool_use = final.content[2]
    assert tool_use.type == "tool_use" and tool_use.input == {"city": "Paris"}
    assert final.stop_reason == "tool_use"


_RAW = {
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
}


async def test_every_raw_event_and_message_validates_against_the_sdk_types(tmp_path: Path) -> None:
    turn = "<think>hm</think>Hi. " + call_block("get_weather", city="Oslo")
    body = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "x"}], "tools": [WEATHER]}
    async with serving(create_app({"m": replay(tmp_path, turn, "Plain.")})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            streamed = await http.post(f"{url}/v1/messages", json={**body, "stream": True})
            whole = await http.post(f"{url}/v1/messages", json=body)
    names, events = [], []
    for block in streamed.text.strip().split("\n\n"):
        event_line, data_line = block.split("\n")
        names.append(event_line.removeprefix("event: "))
        data = json.loads(data_line.removeprefix("data: "))
        # ping is in Anthropic's stream but not in the SDK's union of raw events (the SDK skips it)
        events.append(data if data == {"type": "ping"} else EVENTS.validate_python(data))
    assert names == [e["type"] if isinstance(e, dict) else e.type for e in events]  # event name = data type
    assert names[:2] == ["message_start", "ping"] and names[-1] == "message_stop"
    message = Message.model_validate(whole.json())
    assert message.stop_reason == "end_turn" and message.content[0].type == "text"


async def test_tool_choice_and_stop_sequences_reach_the_loop(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, call_block("get_weather", city="Rome")))
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            message = await claude.messages.create(
                model="m",
                max_tokens=64,
                messages=[{"role": "user", "content": "Rome?"}],
                tools=[WEATHER],
                tool_choice={"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True},
                stop_sequences=["END"],
                extra_body={"temperature": 0.2},  # this SDK version no longer takes it as an argument
            )
    assert message.stop_reason == "tool_use" and [b.type for b in message.content] == ["tool_use"]
    options = model.options[0]
    assert options is not None and options.stop == ("END",) and options.temperature == 0.2
    assert "get_weather" in model.prompts[0][0].content


async def test_images_reach_a_text_model_as_a_placeholder(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "A cat."))
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            await claude.messages.create(
                model="m",
                max_tokens=20,
                messages=[{"role": "user", "content": [image, {"type": "text", "text": "What is it?"}]}],
            )
    assert "[image: image/png" in model.prompts[0][-1].content


async def test_errors_have_anthropics_shape_and_the_sdk_raises_its_own_exceptions(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "a")}, settings=ServerSettings(api_key="sekrit"))
    async with serving(app) as url:
        async with client(url, api_key="wrong") as claude:
            with pytest.raises(anthropic.AuthenticationError), anyio.fail_after(10):
                await claude.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}])
        async with client(url, api_key="sekrit") as claude:
            with pytest.raises(anthropic.NotFoundError) as missing, anyio.fail_after(10):
                await claude.messages.create(model="nope", max_tokens=5, messages=[{"role": "user", "content": "x"}])
            with pytest.raises(anthropic.BadRequestError) as bad, anyio.fail_after(10):
                await claude.messages.create(
                    model="m",
                    max_tokens=5,
                    messages=[{"role": "user", "content": "x"}],
                    tool_choice={"type": "tool", "name": "absent"},
                    tools=[WEATHER],
                )
    assert missing.value.body == {"type": "error", "error": {"type": "not_found_error", "message": _message(missing)}}
    assert "'absent'" in _message(bad)


def _message(caught: pytest.ExceptionInfo[anthropic.APIStatusError]) -> str:
    body: Any = caught.value.body
    return str(body["error"]["message"])


async def test_count_tokens_answers_an_estimate_labelled_as_one(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, client(url) as claude:
        with anyio.fail_after(10):
            short = await claude.messages.with_raw_response.count_tokens(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
            long = await claude.messages.count_tokens(
                model="m", messages=[{"role": "user", "content": "hi " * 400}], tools=[WEATHER]
            )
            counted = await short.parse()
    assert short.headers["x-shim-token-count"] == "estimate"
    assert 0 < counted.input_tokens < long.input_tokens


async def test_an_engine_failure_mid_stream_ends_with_an_anthropic_error_event(tmp_path: Path) -> None:
    body = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "x"}], "stream": True}
    async with serving(create_app({"m": Crashing(before="Hello there, ")})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(f"{url}/v1/messages", json=body)
    last = response.text.strip().split("\n\n")[-1]
    assert last.startswith("event: error\ndata: ")
    error = json.loads(last.split("\n")[1].removeprefix("data: "))
    assert error["type"] == "error" and error["error"]["type"] == "api_error" and error["error"]["message"]


async def test_the_sdk_tool_runner_goes_on_without_a_thread_and_the_model_sees_the_whole_conversation(
    tmp_path: Path,
) -> None:
    """The SDK's tool runner asks for a server-held ``thread`` by default and would then send only the tool
    result; this server keeps no state, says so in Anthropic's terms, and the runner sends everything."""

    @beta_async_tool
    async def get_weather(city: str) -> str:
        """Current weather in a city."""
        return f"sunny in {city}, 24 C"

    model = Recording(replay(tmp_path, "Let me check. " + call_block("get_weather", city="Paris"), "Sunny, 24 C."))
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            runner = claude.beta.messages.tool_runner(
                model="m",
                max_tokens=200,
                messages=[{"role": "user", "content": "Weather in Paris?"}],
                tools=[get_weather],
            )
            final = await runner.until_done()
    assert final.content[0].type == "text" and final.content[0].text == "Sunny, 24 C."
    second = "\n".join(m.content for m in model.prompts[1])
    assert "Weather in Paris?" in second and "sunny in Paris, 24 C" in second  # the question and the result


async def test_a_thread_is_refused_with_anthropics_own_error_code(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "unused")})) as url, client(url) as claude:
        with anyio.fail_after(10), pytest.raises(anthropic.BadRequestError) as refused:
            await claude.beta.messages.create(
                model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}], thread={"type": "create"}
            )
    body: Any = refused.value.body
    assert body["error"]["details"] == {"error_code": "thread_unsupported_request", "unsupported": ["thread"]}
    assert "keeps no state" in body["error"]["message"]


class Place(BaseModel):
    city: str
    country: str


async def test_output_config_format_is_honoured_as_messages_parse_sends_it(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "Paris, in France.", '{"city": "Paris", "country": "France"}'))
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            parsed = await claude.messages.parse(
                model="m", max_tokens=100, messages=[{"role": "user", "content": "Where?"}], output_format=Place
            )
    assert parsed.parsed_output == Place(city="Paris", country="France")  # the prose answer went back to the model
    assert '"country"' in model.prompts[0][0].content  # the schema was asked for


async def test_system_messages_inside_messages_join_the_system_prompt_in_order(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "Bonjour."))
    messages: Any = [
        {"role": "user", "content": "Hello."},
        {"role": "system", "content": "Answer in French."},
        {"role": "system", "content": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}]},
    ]
    async with serving(create_app({"m": model})) as url, client(url) as claude:
        with anyio.fail_after(10):
            answer = await claude.messages.create(model="m", max_tokens=50, system="You are kind.", messages=messages)
            counted = await claude.messages.count_tokens(model="m", system="You are kind.", messages=messages)
    assert answer.content[0].type == "text" and answer.content[0].text == "Bonjour."
    system, user = model.prompts[0]
    assert system.role == "system" and user.role == "user" and user.content == "Hello."
    assert system.content.index("You are kind.") < system.content.index("Answer in French.")
    assert system.content.index("Answer in French.") < system.content.index("Be brief.")
    assert counted.input_tokens > 0


async def test_a_tool_result_for_no_tool_use_is_refused_as_anthropic_refuses_it(tmp_path: Path) -> None:
    messages: Any = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "sunny"}]},
    ]
    async with serving(create_app({"m": replay(tmp_path, "unused")})) as url, client(url) as claude:
        with anyio.fail_after(10), pytest.raises(anthropic.BadRequestError) as refused:
            await claude.messages.create(model="m", max_tokens=50, messages=messages, tools=[WEATHER])
    assert "'toolu_2' answers no tool_use block" in _message(refused)


async def test_count_tokens_with_a_tool_choice_naming_no_tool_sent_is_a_400_not_a_500(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, client(url) as claude:
        with pytest.raises(anthropic.BadRequestError) as bad, anyio.fail_after(10):
            await claude.messages.count_tokens(
                model="m",
                messages=[{"role": "user", "content": "x"}],
                tool_choice={"type": "tool", "name": "absent"},
                tools=[WEATHER],
            )
    assert "'absent'" in _message(bad)
