"""The shipped demo model, given tools it was never trained on and a forced tool choice.

Unconstrained, it calls the demo tools it knows (which are not offered here); under the grammar that the
agent switches on by default, every call it returns names an offered tool and validates against its schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from shim.agent import Agent
from shim.backends.base import GenerationOptions
from shim.backends.llamacpp import LlamaCppBackend
from shim.demo import model_path
from shim.trace import TraceWriter
from shim.types import ToolSpec

pytestmark = pytest.mark.anyio

UNSEEN = [
    ToolSpec(
        name="search_flights",
        description="Find flights between two airports on a date.",
        input_schema={
            "type": "object",
            "properties": {
                "origin": {"type": "string", "description": "IATA airport code"},
                "destination": {"type": "string"},
                "date": {"type": "string", "format": "date"},
                "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
            },
            "required": ["origin", "destination", "date"],
        },
    ),
    ToolSpec(
        name="send_email",
        description="Send an email.",
        input_schema={
            "type": "object",
            "properties": {"to": {"type": "string"}, "subject": {"type": "string"}, "urgent": {"type": "boolean"}},
            "required": ["to", "subject"],
        },
    ),
]
REQUESTS = ["Find me a flight from ICN to SFO on 2025-03-01.", "Email bob@example.com about lunch."]
OPTIONS = GenerationOptions(temperature=0.0, seed=0, max_tokens=200)


async def _calls(request: str, tool_choice: Any, constrain: str, trace: Path | None = None) -> list[Any]:
    agent = Agent(
        LlamaCppBackend(model_path()),
        external_tools=UNSEEN,
        tool_choice=tool_choice,
        constrain=constrain,  # type: ignore[arg-type]
        options=OPTIONS,
        max_turns=1,
        max_retries=0,
        trace=TraceWriter(trace) if trace else None,
    )
    with anyio.fail_after(120):
        result = await agent.run(request)
    assert result.messages[1]["role"] == "assistant"
    return result.messages[1].get("tool_calls") or []


@pytest.mark.parametrize("tool_choice", ["required", "send_email"])
@pytest.mark.parametrize("request_text", REQUESTS)
async def test_every_call_names_an_offered_tool_and_validates(tool_choice: str, request_text: str) -> None:
    calls = await _calls(request_text, tool_choice, "auto")
    assert calls
    schemas = {t.name: Draft202012Validator(t.input_schema) for t in UNSEEN}
    for call in calls:
        name = call["function"]["name"]
        assert name in schemas
        assert tool_choice == "required" or name == tool_choice
        assert schemas[name].is_valid(json.loads(call["function"]["arguments"]))


async def test_without_the_constraint_the_model_calls_the_tools_it_was_trained_on(tmp_path: Path) -> None:
    # For comparison: the same request, greedy, with the constraint off: it calls a demo tool (kv_get when
    # this was written), which is not offered here.
    trace = tmp_path / "trace.jsonl"
    calls = await _calls(REQUESTS[1], "required", "off", trace)
    assert calls
    assert not {c["function"]["name"] for c in calls} & {t.name for t in UNSEEN}
    assert '"constrained": false' in trace.read_text()


async def test_the_trace_records_that_the_call_was_generated_under_a_grammar(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    await _calls(REQUESTS[0], "required", "on", trace)
    responses = [json.loads(line) for line in trace.read_text().splitlines() if '"type": "response"' in line]
    assert [r["constrained"] for r in responses] == [True]
