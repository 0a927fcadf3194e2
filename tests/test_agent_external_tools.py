"""The agent loop handing calls to external tools (the caller's own, as `shim serve`'s clients have) back
to the caller instead of running them, alongside a source whose tools it runs itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from shim.agent import Agent, AgentEnd, ToolResultEvent
from shim.backends import get_backend
from shim.types import ContentBlock, ToolCall, ToolResult, ToolSpec

pytestmark = pytest.mark.anyio

WEATHER = ToolSpec(name="get_weather", input_schema={"type": "object", "properties": {"city": {"type": "string"}}})


class Adder:
    """A tool source with one tool, ``add``, that it runs itself."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []

    async def list_tools(self) -> list[ToolSpec]:
        return [ToolSpec(name="add"), ToolSpec(name="get_weather", description="the source's, hidden")]

    async def call(self, call: ToolCall) -> ToolResult:
        self.calls.append(call)
        total = sum(call.arguments.values())
        return ToolResult(call_id=call.id, name=call.name, content=(ContentBlock(kind="text", text=str(total)),))


def block(name: str, **arguments: Any) -> str:
    return f"<function_call>{json.dumps({'name': name, 'arguments': arguments})}</function_call>"


def replay(tmp_path: Path, *turns: str) -> Any:
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps({"response": t}) + "\n" for t in turns), encoding="utf-8")
    return get_backend(f"replay:{path}")


async def test_a_call_to_an_external_tool_ends_the_loop_with_the_call_after_the_sources_calls_ran(
    tmp_path: Path,
) -> None:
    source = Adder()
    backend = replay(tmp_path, block("add", a=1, b=2) + block("get_weather", city="Riga"), "unused")
    agent = Agent(backend, source, external_tools=[WEATHER])
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Add, then the weather.")]
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.reason == "tool_calls"
    assert [(c.name, c.arguments) for c in end.calls] == [("get_weather", {"city": "Riga"})]
    assert [c.name for c in source.calls] == ["add"]  # the source's call ran; the external one did not
    assert [e.result.render() for e in events if isinstance(e, ToolResultEvent)] == ["3"]
    assert [m["role"] for m in agent.messages] == ["user", "assistant", "tool"]
    assert end.to_dict()["calls"] == [c.to_dict() for c in end.calls]


async def test_the_callers_results_continue_the_loop(tmp_path: Path) -> None:
    backend = replay(tmp_path, block("get_weather", city="Riga"), "Cold in Riga.")
    agent = Agent(backend, None, external_tools=[WEATHER])
    with anyio.fail_after(10):
        first = [e async for e in agent.stream("Weather in Riga?")][-1]
        assert isinstance(first, AgentEnd) and first.reason == "tool_calls"
        result = {"role": "tool", "tool_call_id": first.calls[0].id, "content": "-3 C"}
        second = [e async for e in agent.stream([result])][-1]
    assert second == AgentEnd(reason="answer", text="Cold in Riga.")


class SystemPrompts:
    """A backend wrapper that keeps the system prompt of every turn."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.name = backend.name
        self.seen: list[str] = []

    def stream(self, messages: Any, *, options: Any = None) -> Any:
        self.seen.append(messages[0].content)
        return self.backend.stream(messages, options=options)

    async def aclose(self) -> None:
        await self.backend.aclose()


async def test_a_forced_tool_choice_applies_to_the_first_turn_only(tmp_path: Path) -> None:
    backend = SystemPrompts(replay(tmp_path, block("add", a=2, b=2), "Four."))
    agent = Agent(backend, Adder(), external_tools=[WEATHER], tool_choice="add")
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("2+2?")][-1]
    assert end == AgentEnd(reason="answer", text="Four.")
    assert "get_weather" not in backend.seen[0] and "get_weather" in backend.seen[1]


async def test_an_external_call_whose_arguments_miss_the_schema_goes_back_to_the_model(tmp_path: Path) -> None:
    strict = ToolSpec(
        name="get_weather",
        input_schema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    )
    backend = SystemPrompts(replay(tmp_path, block("get_weather", town="Riga"), block("get_weather", city="Riga")))
    agent = Agent(backend, None, external_tools=[strict])
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Weather in Riga?")]
    end = events[-1]
    assert isinstance(end, AgentEnd) and [c.arguments for c in end.calls] == [{"city": "Riga"}]
    refused = next(e for e in events if isinstance(e, ToolResultEvent))
    assert refused.result.is_error and "'city' is a required property" in refused.result.render()
