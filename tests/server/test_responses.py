"""The OpenAI Responses surface driven by the real ``openai`` SDK (``responses.create``) and the OpenAI Agents
SDK with its default API, over real HTTP; every event and response is checked against the SDK's own types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import openai
import pytest
from openai import AsyncOpenAI
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

from shim.server import create_app
from tests.server._helpers import Crashing, Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Current weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
EVENTS: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)


def client(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)


async def test_a_function_call_comes_back_as_an_item_and_its_output_item_reaches_the_model(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "Checking. " + call_block("get_weather", city="Paris"), "Sunny in Paris."))
    async with serving(create_app({"m": model})) as url, client(url) as oa:
        with anyio.fail_after(10):
            first = await oa.responses.create(
                model="m", input="Weather in Paris?", instructions="Be brief.", tools=[WEATHER], store=False
            )
            message, call = first.output
            assert message.type == "message" and first.output_text == "Checking."
            assert call.type == "function_call" and json.loads(call.arguments) == {"city": "Paris"}
            follow_up: list[Any] = [
                {"role": "user", "content": "Weather in Paris?"},
                *[item.model_dump(exclude_none=True) for item in first.output],
                {"type": "function_call_output", "call_id": call.call_id, "output": "sunny, 24 C"},
            ]
            answer = await oa.responses.create(model="m", input=follow_up, tools=[WEATHER], store=False)
    assert answer.status == "completed" and answer.output_text == "Sunny in Paris."
    assert model.prompts[0][0].content.startswith("Be brief.")
    assert '<function_call>{"name": "get_weather"' in model.prompts[1][-2].content
    assert "sunny, 24 C" in model.prompts[1][-1].content


async def test_a_stream_has_the_responses_events_in_order_and_each_validates(tmp_path: Path) -> None:
    turn = "<think>It is a city.</think>Checking. " + call_block("get_weather", city="Oslo")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, client(url) as oa:
        with anyio.fail_after(10):
            stream = await oa.responses.create(model="m", input="Oslo?", tools=[WEATHER], stream=True)
            events = [event async for event in stream]
    kinds = [e.type for e in events]
    assert kinds[:2] == ["response.created", "response.in_progress"] and kinds[-1] == "response.completed"
    for expected in (
        "response.output_item.added",
        "response.output_text.delta",
        "response.reasoning_text.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
    ):
        assert expected in kinds
    assert [e.sequence_number for e in events] == list(range(len(events)))
    for event in events:  # the SDK parsed them leniently; its types must accept them strictly too
        EVENTS.validate_python(event.model_dump())
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    arguments = "".join(e.delta for e in events if e.type == "response.function_call_arguments.delta")
    assert text == "Checking." and json.loads(arguments) == {"city": "Oslo"}
    final = events[-1]
    assert final.type == "response.completed"
    assert [item.type for item in final.response.output] == ["reasoning", "message", "function_call"]


async def test_the_plain_response_body_validates_and_max_output_tokens_reaching_its_end_is_incomplete(
    tmp_path: Path,
) -> None:
    model = Recording(replay(tmp_path, "A long answer that goes on"))
    body = {"model": "m", "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]}
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(f"{url}/v1/responses", json=body | {"max_output_tokens": 3})
    parsed = Response.model_validate(response.json())
    assert model.options[0] is not None and model.options[0].max_tokens == 3
    assert parsed.status in ("completed", "incomplete") and parsed.output_text


async def test_previous_response_id_is_refused_saying_the_server_keeps_no_state(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, client(url) as oa:
        with pytest.raises(openai.BadRequestError) as caught, anyio.fail_after(10):
            await oa.responses.create(model="m", input="more", previous_response_id="resp_123")
    error: Any = caught.value.body
    assert error["param"] == "previous_response_id" and "keeps no state" in error["message"]


async def test_the_openai_agents_sdk_runs_a_tool_through_the_responses_api(tmp_path: Path) -> None:
    agents = pytest.importorskip("agents")
    agents.set_tracing_disabled(True)
    seen: list[str] = []

    @agents.function_tool
    def get_weather(city: str) -> str:
        """Current weather in a city."""
        seen.append(city)
        return f"sunny in {city}"

    model = Recording(replay(tmp_path, call_block("get_weather", city="Lima"), "It is sunny in Lima."))
    async with serving(create_app({"m": model})) as url, client(url) as oa:
        agent = agents.Agent(
            name="weather",
            instructions="Answer with the tool.",
            tools=[get_weather],
            model=agents.OpenAIResponsesModel(model="m", openai_client=oa),
        )
        with anyio.fail_after(20):
            result = await agents.Runner.run(agent, "Weather in Lima?")
    assert seen == ["Lima"] and result.final_output == "It is sunny in Lima."
    assert "sunny in Lima" in model.prompts[1][-1].content


async def test_an_engine_failure_mid_stream_ends_with_an_error_event_the_sdk_knows(tmp_path: Path) -> None:
    async with serving(create_app({"m": Crashing(before="Hello there, ")})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.post(f"{url}/v1/responses", json={"model": "m", "input": "x", "stream": True})
    last = response.text.strip().split("\n\n")[-1]
    event = EVENTS.validate_python(json.loads(last.split("\n")[1].removeprefix("data: ")))
    assert event.type == "error" and event.message
