"""``tool_choice`` required or named, through the openai client: on the embedded engine a grammar forces a call
that validates, for tools the shipped demo model has never seen; on an engine that cannot constrain, a model
that keeps answering in text gets one attempt's text back, never every attempt's joined; the header
``x-shim-call-constraint`` says which of the two it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from openai import AsyncOpenAI

from shim.demo import model_path
from shim.server import create_app
from tests.server._helpers import WEATHER, replay, serving

pytestmark = pytest.mark.anyio


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


# Ten tools the demo model was not trained on: enums, integer bounds, nested objects, arrays, booleans.
UNSEEN = [
    (
        "Store a reading of 42 from the north sensor.",
        _tool(
            "store_reading",
            "Store a sensor reading.",
            {
                "sensor": {"type": "string", "enum": ["north", "south"]},
                "value": {"type": "integer", "minimum": 0, "maximum": 100},
            },
            ["sensor", "value"],
        ),
    ),
    (
        "Book 2 seats in economy.",
        _tool(
            "book_seats",
            "Book seats on the next flight.",
            {
                "seats": {"type": "integer", "minimum": 1, "maximum": 9},
                "cabin": {"type": "string", "enum": ["economy", "business", "first"]},
            },
            ["seats", "cabin"],
        ),
    ),
    (
        "Ship the parcel to Lyon, France.",
        _tool(
            "ship_parcel",
            "Ship a parcel to an address.",
            {
                "address": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "maxLength": 40},
                        "country": {"type": "string", "maxLength": 40},
                    },
                    "required": ["city", "country"],
                    "additionalProperties": False,
                },
                "express": {"type": "boolean"},
            },
            ["address", "express"],
        ),
    ),
    (
        "Tag the photo with beach and sunset.",
        _tool(
            "tag_photo",
            "Add tags to a photo.",
            {"tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 3}},
            ["tags"],
        ),
    ),
    (
        "Set the thermostat to 21 degrees in heat mode.",
        _tool(
            "set_thermostat",
            "Set the thermostat.",
            {
                "degrees": {"type": "integer", "minimum": 10, "maximum": 30},
                "mode": {"type": "string", "enum": ["heat", "cool", "off"]},
            },
            ["degrees", "mode"],
        ),
    ),
    (
        "Rate the movie 4 stars.",
        _tool(
            "rate_movie",
            "Rate a movie.",
            {"stars": {"type": "integer", "minimum": 1, "maximum": 5}, "public": {"type": "boolean"}},
            ["stars"],
        ),
    ),
    (
        "Schedule a meeting with Ann and Bo at 9.",
        _tool(
            "schedule_meeting",
            "Schedule a meeting.",
            {
                "people": {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 4},
                "hour": {"type": "integer", "minimum": 0, "maximum": 23},
            },
            ["people", "hour"],
        ),
    ),
    (
        "Order a large pizza with mushrooms.",
        _tool(
            "order_pizza",
            "Order a pizza.",
            {
                "size": {"type": "string", "enum": ["small", "medium", "large"]},
                "toppings": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["cheese", "mushrooms", "ham", "olives"]},
                    "maxItems": 4,
                },
            },
            ["size", "toppings"],
        ),
    ),
    (
        "Move the robot 3 steps left.",
        _tool(
            "move_robot",
            "Move the robot.",
            {
                "move": {
                    "type": "object",
                    "properties": {
                        "direction": {"type": "string", "enum": ["left", "right", "up", "down"]},
                        "steps": {"type": "integer", "minimum": 1, "maximum": 10},
                    },
                    "required": ["direction", "steps"],
                    "additionalProperties": False,
                }
            },
            ["move"],
        ),
    ),
    (
        "Set the log level of the api service to warning.",
        _tool(
            "set_log_level",
            "Set a service's log level.",
            {
                "service": {"type": "string", "enum": ["api", "worker", "db"]},
                "level": {"type": "string", "enum": ["debug", "info", "warning", "error"]},
            },
            ["service", "level"],
        ),
    ),
]


def client_of(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)


async def test_a_forced_choice_on_the_embedded_engine_returns_a_valid_call_for_every_unseen_tool() -> None:
    async with serving(create_app({"demo": f"llama-cpp:{model_path()}"})) as url, client_of(url) as client:
        for n, (request, tool) in enumerate(UNSEEN):
            name = tool["function"]["name"]
            choice: Any = "required" if n % 2 else {"type": "function", "function": {"name": name}}
            with anyio.fail_after(60):
                raw = await client.chat.completions.with_raw_response.create(
                    model="demo",
                    messages=[{"role": "user", "content": request}],
                    tools=[tool],
                    tool_choice=choice,
                    max_tokens=200,
                    seed=n,
                )
            assert raw.headers["x-shim-call-constraint"] == "grammar"
            reply = raw.parse().choices[0]
            assert reply.finish_reason == "tool_calls", (name, reply.message.content)
            calls = reply.message.tool_calls or []
            assert calls and all(c.type == "function" and c.function.name == name for c in calls)
            for call in calls:
                arguments = json.loads(call.function.arguments)
                errors = list(Draft202012Validator(tool["function"]["parameters"]).iter_errors(arguments))
                assert not errors, (name, arguments, errors[0].message)


async def test_a_forced_choice_the_model_keeps_answering_in_text_returns_one_attempts_text(tmp_path: Path) -> None:
    """An engine that cannot constrain: the model is reminded twice, and the client gets the last attempt's text
    (with ``x-shim-call-constraint: none``), not the three attempts run together."""
    model = replay(tmp_path, *["It is sunny.", "Still sunny.", "Sunny, really."] * 2)  # two requests' turns
    async with serving(create_app({"m": model})) as url, client_of(url) as client:
        with anyio.fail_after(10):
            raw = await client.chat.completions.with_raw_response.create(
                model="m",
                messages=[{"role": "user", "content": "Weather in Paris?"}],
                tools=[WEATHER],  # type: ignore[list-item]
                tool_choice="required",
            )
            streamed = await client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "Weather in Paris?"}],
                tools=[WEATHER],  # type: ignore[list-item]
                tool_choice="required",
                stream=True,
            )
            text = "".join([c.choices[0].delta.content or "" async for c in streamed if c.choices])
    assert raw.headers["x-shim-call-constraint"] == "none"
    reply = raw.parse().choices[0]
    assert reply.finish_reason == "stop" and reply.message.content == "Sunny, really."
    assert text == "Sunny, really."
