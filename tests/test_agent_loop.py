"""The loop's one exit path, and the engine's typed stream items (reasoning, native calls) through the agent."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import anyio
import pytest

from shim.agent import Agent, AgentEnd, BaseToolSource
from shim.backends import get_backend
from shim.backends.base import BaseBackend, Completion, GenerationOptions, NativeCall, Reasoning, StreamItem
from shim.backends.scripted import ScriptedBackend
from shim.errors import BackendConnectionError
from shim.events import ReasoningDelta, StopReason, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.ids import IdGenerator
from shim.parsing.stream import StreamParser, ToolsArg
from shim.profiles import DEFAULT_PROFILE, ModelProfile
from shim.types import ContentBlock, Message, ToolCall, ToolResult, ToolSpec

pytestmark = pytest.mark.anyio

CALL = '<function_call>{"name": "echo", "arguments": {"x": 1}}</function_call>'


class Echo(BaseToolSource):
    def __init__(self, *, fail: bool = False) -> None:
        self.fail = fail

    async def list_tools(self) -> list[ToolSpec]:
        return [ToolSpec(name="echo")]

    async def call(self, call: ToolCall) -> ToolResult:
        if self.fail:
            return ToolResult.error(call, "it broke")
        return ToolResult(call_id=call.id, name=call.name, content=(ContentBlock(kind="text", text="ok"),))


class Drops(BaseBackend):
    """Sends some text, then loses the connection."""

    name = "drops"

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        yield "Hello"
        raise BackendConnectionError("the line went dead")


def replay(tmp_path: Path, *turns: dict[str, Any]) -> Any:
    del tmp_path  # a script needs no file
    return ScriptedBackend(turns)


def ending(tmp_path: Path, reason: StopReason) -> Agent:
    trace = tmp_path / "trace.jsonl"
    call = {"response": CALL}
    match reason:
        case "answer":
            return Agent(replay(tmp_path, {"response": "Hi."}), trace=trace)
        case "length":
            return Agent(replay(tmp_path, {"response": "Hi", "finish_reason": "length"}), trace=trace)
        case "tool_calls":
            return Agent(replay(tmp_path, call), external_tools=[{"name": "echo"}], trace=trace)
        case "max_turns":
            return Agent(replay(tmp_path, call), Echo(), max_turns=1, trace=trace)
        case "too_many_errors":
            return Agent(replay(tmp_path, call), Echo(fail=True), max_retries=0, trace=trace)
        case "repeated_call":
            return Agent(replay(tmp_path, call, call), Echo(), max_repeats=1, trace=trace)
        case "interrupted":
            return Agent(Drops(), trace=trace)


@pytest.mark.parametrize(
    "reason", ["answer", "length", "tool_calls", "max_turns", "too_many_errors", "repeated_call", "interrupted"]
)
async def test_every_way_the_loop_ends_leaves_exactly_one_done_line_in_the_trace(
    tmp_path: Path, reason: StopReason
) -> None:
    agent = ending(tmp_path, reason)
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Go.")]
    assert isinstance(events[-1], AgentEnd) and events[-1].reason == reason
    lines = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [line["reason"] for line in lines if line["type"] == "done"] == [reason]


NATIVE = ToolCall(id="call_1", name="echo", arguments={"x": "é"})
ITEMS = [{"reasoning": "The user "}, {"reasoning": "wants x."}, "Checking. ", {"native_call": NATIVE.to_dict()}]


async def test_the_engine_s_reasoning_and_native_calls_become_events_whose_raw_is_what_the_engine_sent(
    tmp_path: Path,
) -> None:
    agent = Agent(replay(tmp_path, {"items": ITEMS}, {"response": "Done."}), Echo())
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Go.")]
    reasoning = [e for e in events if isinstance(e, ReasoningDelta)]
    assert [(e.text, e.raw) for e in reasoning] == [("The user ", "The user "), ("wants x.", "wants x.")]
    call_events = [e for e in events if isinstance(e, ToolCallStart | ToolCallChunk | ToolCallEnd)]
    assert all(e.raw for e in call_events)
    assert "".join(e.raw for e in call_events) == NativeCall.of(NATIVE).raw
    assert json.loads("".join(e.raw for e in call_events)) == {"name": "echo", "arguments": {"x": "é"}}
    assert events[-1] == AgentEnd(reason="answer", text="Done.")


async def test_a_trace_with_reasoning_and_native_calls_replays_the_same_items(tmp_path: Path) -> None:
    first = replay(tmp_path, {"items": ITEMS, "finish_reason": "stop"}, {"response": "Done."})
    trace = tmp_path / "trace.jsonl"
    with anyio.fail_after(10):
        await Agent(first, Echo(), trace=trace).run("Go.")
        replayed = get_backend(f"replay:{trace}")
        stream = replayed.stream([])
        items = [item async for item in stream]
    assert items == [Reasoning("The user "), Reasoning("wants x."), "Checking. ", NativeCall.of(NATIVE)]
    assert stream.result is not None and stream.result.tool_calls == (NATIVE,)


async def test_a_call_repeated_verbatim_in_one_reply_is_dropped_and_ends_the_reply(tmp_path: Path) -> None:
    other = '<function_call>{"name": "echo", "arguments": {"x": 2}}</function_call>'
    reply = f"{CALL}\n{other}\n{CALL}\n{CALL}\n{CALL}"  # what SmolLM2 wrote under a forced grammar, shortened
    agent = Agent(replay(tmp_path, {"response": reply}), external_tools=[{"name": "echo"}])
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("Go.")]
    ends = [e for e in events if isinstance(e, ToolCallEnd)]
    assert [e.arguments for e in ends] == [{"x": 1}, {"x": 2}]
    assert isinstance(events[-1], AgentEnd) and [c.arguments for c in events[-1].calls] == [{"x": 1}, {"x": 2}]


@dataclass(frozen=True, kw_only=True)
class _Watched(ModelProfile):
    """The default profile, noting the thread each turn's parser is built on (the profile is the parser's seam)."""

    threads: list[int] = field(default_factory=list[int], compare=False)

    def parser(self, tools: ToolsArg = None, *, ids: IdGenerator | None = None) -> StreamParser:
        self.threads.append(threading.get_ident())
        return super().parser(tools, ids=ids)


async def test_the_loop_runs_its_heavy_steps_in_place_unless_it_is_given_an_offload() -> None:
    """The server decides what runs off its event loop (it passes `off_loop`); the CLI's agent hops no thread."""
    profile = _Watched(**{f.name: getattr(DEFAULT_PROFILE, f.name) for f in fields(DEFAULT_PROFILE)})
    in_place = Agent(ScriptedBackend([CALL, "done"]), Echo(), profile=profile)
    assert (await in_place.run([{"role": "user", "content": "go"}])).reason == "answer"
    assert profile.threads == [threading.get_ident()] * 2  # one parser a turn, on the loop's own thread

    handed: list[str] = []

    async def offload(work: Callable[[], Any]) -> Any:
        handed.append(getattr(work, "func", work).__name__)
        return await anyio.to_thread.run_sync(work)

    profile.threads.clear()
    offloaded = Agent(ScriptedBackend([CALL, "done"]), Echo(), profile=profile, offload=offload)
    assert (await offloaded.run([{"role": "user", "content": "go"}])).reason == "answer"
    assert len(profile.threads) == 2 and threading.get_ident() not in profile.threads
    # The messages it was given, then each turn's parser and prompt.
    assert handed == ["chat_messages", "parser", "_render", "parser", "_render"]
