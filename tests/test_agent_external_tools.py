"""The agent loop handing calls to external tools (the caller's own, as `shim serve`'s clients have) back
to the caller instead of running them, alongside a source whose tools it runs itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from shim.agent import Agent, AgentEnd, BaseToolSource, ToolResultEvent
from shim.backends.base import BaseBackend
from shim.backends.scripted import ScriptedBackend
from shim.types import ContentBlock, ToolCall, ToolResult, ToolSpec

pytestmark = pytest.mark.anyio

WEATHER = ToolSpec(name="get_weather", input_schema={"type": "object", "properties": {"city": {"type": "string"}}})


class Adder(BaseToolSource):
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
    del tmp_path  # a script needs no file
    return ScriptedBackend(turns)


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


class SystemPrompts(BaseBackend):
    """A backend wrapper that keeps the system prompt of every turn."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.seen: list[str] = []

    @property
    def name(self) -> str:
        return self.backend.name

    def stream(self, messages: Any, *, options: Any = None) -> Any:
        self.seen.append(messages[0].content)
        return self.backend.stream(messages, options=options)

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def model_info(self) -> None:
        return None  # a fake says nothing about a model: the profile comes from its name


async def test_a_forced_tool_choice_holds_until_a_call_meets_it_then_lets_the_model_answer(tmp_path: Path) -> None:
    backend = SystemPrompts(replay(tmp_path, block("add", a=2, b=2), "Four."))
    agent = Agent(backend, Adder(), external_tools=[WEATHER], tool_choice="add")
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("2+2?")][-1]
    assert end == AgentEnd(reason="answer", text="Four.")
    assert "get_weather" not in backend.seen[0] and "get_weather" in backend.seen[1]


async def test_a_text_answer_to_a_required_tool_choice_is_sent_back_with_a_reminder(tmp_path: Path) -> None:
    source = Adder()
    backend = SystemPrompts(replay(tmp_path, "It is 4.", block("add", a=2, b=2), "Four."))
    agent = Agent(backend, source, tool_choice="required")
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("2+2?")][-1]
    assert end == AgentEnd(reason="answer", text="Four.")
    assert [c.arguments for c in source.calls] == [{"a": 2, "b": 2}]
    reminder = agent.messages[2]
    assert reminder["role"] == "user" and "You must call one of the tools now" in reminder["content"]
    # The retry is still forced; the turn after the call is not.
    assert "you must call at least one tool" in backend.seen[1] and "you must call" not in backend.seen[2]


async def test_a_call_to_another_tool_than_the_named_choice_is_refused_not_run(tmp_path: Path) -> None:
    source = Adder()
    backend = replay(tmp_path, block("add", a=1, b=1), block("get_weather", city="Riga"))
    agent = Agent(backend, source, external_tools=[WEATHER], tool_choice="get_weather")
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Weather in Riga?")]
    assert source.calls == []
    refused = next(e for e in events if isinstance(e, ToolResultEvent))
    assert refused.result.is_error
    assert "'add' was not run: this turn must call 'get_weather'" in refused.result.render()
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.reason == "tool_calls"
    assert [(c.name, c.arguments) for c in end.calls] == [("get_weather", {"city": "Riga"})]


async def test_a_model_that_never_meets_a_forced_choice_keeps_its_text_answer_with_the_reason(
    tmp_path: Path,
) -> None:
    backend = replay(tmp_path, "No.", "Still no.", "Never.")
    agent = Agent(backend, Adder(), tool_choice="required", max_retries=2)
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("2+2?")][-1]
    assert isinstance(end, AgentEnd) and end.reason == "answer" and end.text == "Never."
    assert "tool_choice 'required' asked for a call" in end.detail
    assert [m["role"] for m in agent.messages] == ["user", "assistant", "user", "assistant", "user", "assistant"]


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
