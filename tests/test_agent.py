"""The agent loop end to end with real parts: recorded model output (the replay backend) or the embedded
llama.cpp runtime steered by a grammar, against real MCP servers (mcp-server-time from PyPI,
server-everything from npm, and the lab server written with the SDK)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_servers import SHARED_ROUTER, everything, lab, lab_in_process, time_server

from shim.agent import Agent, AgentEnd, BaseToolSource, ToolResultEvent, TurnEnd
from shim.backends import get_backend
from shim.backends.base import GenerationOptions
from shim.backends.scripted import ScriptedBackend
from shim.config import parse_config
from shim.events import ParseIssue, TextDelta, ToolCallEnd
from shim.routing import ToolRouter
from shim.types import ChatMessage, ToolCall, ToolSpec
from tests.server._helpers import Recording

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def router() -> AsyncIterator[ToolRouter]:
    servers = {"time": time_server(args=["--local-timezone", "UTC"]), "everything": everything(), "lab": lab()}
    connect = {"lab": lab_in_process()}  # the loop is under test: the lab server runs in this process
    async with ToolRouter(parse_config({"mcpServers": servers}).servers, connect=connect, **SHARED_ROUTER) as router:
        assert not router.failures, router.failures
        yield router


def replay(tmp_path: Path, *turns: str | dict[str, Any]) -> Any:
    """A scripted model serving these turns in order (4-character chunks, as a stream would); no file, so
    ``tmp_path`` is not needed."""
    del tmp_path
    return ScriptedBackend(turns, chunk_size=4)


def call_block(name: str, **arguments: Any) -> str:
    return f"<function_call>{json.dumps({'name': name, 'arguments': arguments})}</function_call>"


def trace_records(path: Path, kind: str) -> list[dict[str, Any]]:
    return [r for line in path.read_text().splitlines() if (r := json.loads(line))["type"] == kind]


async def collect(agent: Agent, prompt: str) -> list[Any]:
    with anyio.fail_after(30):
        return [event async for event in agent.stream(prompt)]


async def test_a_recorded_call_runs_on_the_time_server_and_its_result_reaches_the_next_prompt(
    router: ToolRouter, tmp_path: Path
) -> None:
    backend = replay(
        tmp_path, "Checking. " + call_block("get_current_time", timezone="Asia/Tokyo"), "It is late in Tokyo."
    )
    agent = Agent(backend, router, trace=tmp_path / "trace.jsonl")
    events = await collect(agent, "What time is it in Tokyo?")

    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert (result.call.name, result.server, result.result.is_error) == ("get_current_time", "time", False)
    assert '"timezone": "Asia/Tokyo"' in result.result.render()
    second_prompt = trace_records(tmp_path / "trace.jsonl", "prompt")[1]["messages"]
    assert "<function_result" in second_prompt[-1]["content"] and "Asia/Tokyo" in second_prompt[-1]["content"]
    assert events[-1] == AgentEnd(reason="answer", text="It is late in Tokyo.")
    assert [m["role"] for m in agent.messages] == ["user", "assistant", "tool", "assistant"]


async def test_a_screenshot_tools_image_reaches_the_next_prompt_and_the_conversation_stays_typed(
    router: ToolRouter, tmp_path: Path
) -> None:
    model = Recording(replay(tmp_path, call_block("get-tiny-image"), "It is the MCP logo."))
    agent = Agent(model, router, trace=tmp_path / "trace.jsonl")
    events = await collect(agent, "Show me the logo.")

    assert events[-1] == AgentEnd(reason="answer", text="It is the MCP logo.")
    image = next(b for b in next(e for e in events if isinstance(e, ToolResultEvent)).result.content if b.image())
    result_turn = model.prompts[1][-1]
    assert result_turn.images == (image.image(),) and "from tool 'get-tiny-image'" in result_turn.content
    assert [type(m) for m in agent.conversation] == [ChatMessage] * 4
    assert agent.conversation[1].tool_calls[0].arguments == {}  # the call as an object, not JSON text
    exported = agent.messages  # OpenAI-style, plain JSON; the image as a data: URL part
    assert json.loads(json.dumps(exported)) == exported
    assert {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image.data}"}} in exported[2]["content"]
    prompt_record = trace_records(tmp_path / "trace.jsonl", "prompt")[1]["messages"][-1]
    assert prompt_record["images"] == [{"mime_type": "image/png", "bytes": len(image.data or "") * 3 // 4}]


async def test_a_malformed_call_goes_back_to_the_model_and_its_retry_runs(router: ToolRouter, tmp_path: Path) -> None:
    backend = replay(
        tmp_path,
        # the string never closed: no call can be made of it (bare words alone would be read, and are)
        '<function_call>{"name": "everything__echo", "arguments": {"message": "hello there}}</function_call>',
        call_block("everything__echo", message="hello there"),
        "The server said hello back.",
    )
    agent = Agent(backend, router, trace=tmp_path / "trace.jsonl")
    events = await collect(agent, "Echo 'hello there'.")

    assert any(isinstance(e, ParseIssue) for e in events)
    retry_prompt = trace_records(tmp_path / "trace.jsonl", "prompt")[1]["messages"][-1]["content"]
    assert "could not be used" in retry_prompt and "ends inside a string" in retry_prompt
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert result.server == "everything" and "hello there" in result.result.render()
    assert events[-1].reason == "answer"


async def test_an_unknown_tool_and_invalid_arguments_come_back_as_errors_then_the_model_corrects(
    router: ToolRouter, tmp_path: Path
) -> None:
    backend = replay(
        tmp_path,
        call_block("get_the_time", timezone="UTC"),
        call_block("get_current_time", tz="UTC"),
        call_block("get_current_time", timezone="UTC"),
        "Done.",
    )
    agent = Agent(backend, router)
    results = [e for e in await collect(agent, "time?") if isinstance(e, ToolResultEvent)]

    assert [r.result.is_error for r in results] == [True, True, False]
    assert (
        "Unknown tool 'get_the_time'" in results[0].result.render() and "get_current_time" in results[0].result.render()
    )
    assert "timezone" in results[1].result.render()  # says which argument is missing


async def test_a_denied_approval_is_an_error_result_and_the_tool_does_not_run(tmp_path: Path) -> None:
    asked: list[str] = []

    async def deny(call: ToolCall, spec: ToolSpec) -> bool:
        asked.append(call.name)
        return False

    servers = parse_config({"mcpServers": {"lab": lab()}}).servers
    async with ToolRouter(servers, approver=deny, connect={"lab": lab_in_process()}) as router:
        backend = replay(tmp_path, call_block("delete_everything"), "I was not allowed to.")
        events = await collect(Agent(backend, router), "Delete everything.")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert asked == ["delete_everything"]
    assert result.result.is_error and "deleted" not in result.result.render()
    assert events[-1].reason == "answer"


async def test_a_tool_error_is_shown_to_the_model_which_then_retries(router: ToolRouter, tmp_path: Path) -> None:
    backend = replay(tmp_path, call_block("fail", reason="disk full"), call_block("add", a=2, b=40), "It is 42.")
    results = [e for e in await collect(Agent(backend, router), "Add.") if isinstance(e, ToolResultEvent)]
    assert results[0].result.is_error and "disk full" in results[0].result.render()
    assert not results[1].result.is_error and results[1].result.render() == "42"


async def test_the_turn_limit_stops_a_model_that_keeps_calling(router: ToolRouter, tmp_path: Path) -> None:
    backend = replay(tmp_path, *[call_block("add", a=i, b=1) for i in range(5)])
    events = await collect(Agent(backend, router, max_turns=3), "Count.")
    assert sum(isinstance(e, ToolResultEvent) for e in events) == 3
    assert events[-1].reason == "max_turns"


async def test_the_same_call_repeated_many_times_is_stopped(router: ToolRouter, tmp_path: Path) -> None:
    backend = replay(tmp_path, *[call_block("add", a=1, b=1)] * 6)
    events = await collect(Agent(backend, router, max_repeats=2), "Add.")
    assert sum(isinstance(e, ToolResultEvent) for e in events) == 2
    assert events[-1].reason == "repeated_call"


async def test_several_calls_of_one_turn_run_concurrently_and_results_keep_call_order(
    router: ToolRouter, tmp_path: Path
) -> None:
    # wait_for_signal only answers once `signal` ran: it can only finish if both calls run at once.
    turn = call_block("wait_for_signal", token="t1") + call_block("signal", token="t1")
    events = await collect(Agent(backend := replay(tmp_path, turn, "Both done."), router), "Go.")
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert [r.call.name for r in results] == ["wait_for_signal", "signal"]
    assert all(not r.result.is_error for r in results)
    await backend.aclose()


async def test_one_call_per_turn_stops_generation_after_the_first_block(router: ToolRouter, tmp_path: Path) -> None:
    turn = call_block("add", a=1, b=2) + " and also " + call_block("add", a=3, b=4)
    events = await collect(Agent(replay(tmp_path, turn, "3."), router, one_call_per_turn=True), "Add.")
    assert [e.call.arguments for e in events if isinstance(e, ToolResultEvent)] == [{"a": 1, "b": 2}]
    assert not any(isinstance(e, TextDelta) and "also" in e.text for e in events)


async def test_a_call_cut_by_the_token_limit_is_not_run_and_the_model_is_told(
    router: ToolRouter, tmp_path: Path
) -> None:
    cut = {"response": '<function_call>{"name": "add", "arguments": {"a": 1, "b": 2}', "finish_reason": "length"}
    agent = Agent(replay(tmp_path, cut, call_block("add", a=1, b=2), "3."), router, trace=tmp_path / "t.jsonl")
    events = await collect(agent, "Add.")
    issue = next(e for e in events if isinstance(e, ParseIssue))
    assert "token limit" in issue.message
    assert next(e for e in events if isinstance(e, TurnEnd)).finish_reason == "length"
    assert [e.call.arguments for e in events if isinstance(e, ToolResultEvent)] == [{"a": 1, "b": 2}]  # only the retry
    assert "token limit" in trace_records(tmp_path / "t.jsonl", "prompt")[1]["messages"][-1]["content"]


async def test_cancelling_mid_call_stops_the_tool_on_the_server_and_keeps_the_conversation(
    router: ToolRouter, tmp_path: Path
) -> None:
    running = anyio.Event()

    class Watched(BaseToolSource):
        """The router, noticing the server's first progress notification (the call is running there)."""

        async def list_tools(self) -> list[ToolSpec]:
            return await router.list_tools()

        async def call(self, call: ToolCall) -> Any:
            async def progress(_: ToolCall, done: float, total: float | None, message: str | None) -> None:
                running.set()

            return await router.call(call, on_progress=progress)

    agent = Agent(replay(tmp_path, call_block("slow", token="cancel-me"), "never"), Watched())

    async def consume() -> None:
        async for _ in agent.stream("Do the slow thing."):
            pass

    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:  # Ctrl-C in the CLI cancels exactly like this
            tg.start_soon(consume)
            await running.wait()
            tg.cancel_scope.cancel()
        confirmation = await router.call(
            ToolCall(id="call_" + "1" * 24, name="wait_for_cancellation", arguments={"token": "cancel-me"})
        )
    assert "was cancelled" in confirmation.render()
    assert [m["role"] for m in agent.messages] == ["user", "assistant"]  # the turn with the call is kept
    assert agent.messages[1]["tool_calls"][0]["function"]["name"] == "slow"


async def test_a_trace_file_replays_the_same_run(router: ToolRouter, tmp_path: Path) -> None:
    first = Agent(
        replay(tmp_path, call_block("add", a=20, b=22), "The sum is 42."), router, trace=tmp_path / "run.jsonl"
    )
    original = await collect(first, "Add 20 and 22.")
    again = Agent(get_backend(f"replay:{tmp_path / 'run.jsonl'}"), router)
    replayed = await collect(again, "Add 20 and 22.")

    def outline(events: list[Any]) -> list[Any]:
        return [
            (type(e).__name__, getattr(e, "name", None), getattr(e, "arguments", None))
            for e in events
            if isinstance(e, (ToolCallEnd, ToolResultEvent, AgentEnd))
        ] + [events[-1].text]

    assert outline(replayed) == outline(original)


async def test_secrets_never_reach_the_trace(tmp_path: Path) -> None:
    servers = parse_config({"mcpServers": {"lab": lab(env={"LAB_SECRET": "hunter2-secret-value"})}}).servers
    async with ToolRouter(servers, connect={"lab": lab_in_process(secret="hunter2-secret-value")}) as router:
        agent = Agent(replay(tmp_path, call_block("get_secret"), "ok"), router, trace=tmp_path / "t.jsonl")
        await collect(agent, "Tell me the secret. My key is sk-abcdefghijklmnop1234.")
    text = (tmp_path / "t.jsonl").read_text()
    assert "hunter2-secret-value" not in text and "sk-abcdefghijklmnop1234" not in text
    assert "[REDACTED]" in text


async def test_the_embedded_llama_cpp_model_steered_by_a_grammar_calls_the_time_server(
    router: ToolRouter, tmp_path: Path
) -> None:
    pytest.importorskip("llama_cpp")
    from tests.helpers.tiny_gguf import build_tiny_gguf

    model = build_tiny_gguf(tmp_path / "tiny.gguf")
    grammars = {
        1: 'root ::= "<function_call>{\\"name\\": \\"get_current_time\\", \\"arguments\\": {\\"timezone\\": \\"UTC\\"}}</function_call>"',
        2: 'root ::= "The time server answered."',
    }

    def options(turn: int) -> GenerationOptions:
        return GenerationOptions(grammar=grammars[min(turn, 2)], temperature=0.0, seed=1, max_tokens=200)

    agent = Agent(get_backend(f"llama-cpp:{model}", n_ctx=8192), router, options=options)
    with anyio.fail_after(120):
        events = [e async for e in agent.stream("What time is it?")]
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert result.server == "time" and '"timezone": "UTC"' in result.result.render()
    assert events[-1] == AgentEnd(reason="answer", text="The time server answered.")
