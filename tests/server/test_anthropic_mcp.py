"""MCP-executing mode through the Anthropic and Responses surfaces: the server runs its MCP tools, hands back
only calls to the client's tools, and the follow-up restores the round the client never saw (the tool-use ids
the client echoes lead back to the saved round)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anthropic import AsyncAnthropic
from mcp_servers import SHARED_ROUTER, lab, lab_in_process
from openai import AsyncOpenAI

from shim.config import parse_config
from shim.routing import ToolRouter
from shim.server import create_app
from tests.server._helpers import Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def router() -> AsyncIterator[ToolRouter]:
    servers = parse_config({"mcpServers": {"lab": lab()}}).servers
    async with ToolRouter(servers, connect={"lab": lab_in_process()}, **SHARED_ROUTER) as router:
        assert not router.failures, router.failures
        yield router


def turns(tmp_path: Path) -> Recording:
    return Recording(
        replay(
            tmp_path,
            call_block("add", a=2, b=3),
            "Now the weather. " + call_block("get_weather", city="Lisbon"),
            "Five, and sunny in Lisbon.",
        )
    )


def saw_the_internal_round(model: Recording) -> bool:
    history = "\n".join(m.content for m in model.prompts[2])
    return '"name": "add"' in history and 'name="add">\n5\n</function_result>' in history


async def test_anthropic_clients_get_only_their_tool_use_and_the_follow_up_restores_the_mcp_round(
    router: ToolRouter, tmp_path: Path
) -> None:
    model = turns(tmp_path)
    tools: list[Any] = [{"name": "get_weather", "description": "Weather.", "input_schema": SCHEMA}]
    async with (
        serving(create_app({"m": model}, tools=router)) as url,
        AsyncAnthropic(base_url=url, api_key="x", max_retries=0) as claude,
    ):
        with anyio.fail_after(20):
            question: list[Any] = [{"role": "user", "content": "Add 2 and 3, then the weather in Lisbon."}]
            first = await claude.messages.create(model="m", max_tokens=100, messages=question, tools=tools)
            uses = [b for b in first.content if b.type == "tool_use"]
            assert [(b.name, b.input) for b in uses] == [("get_weather", {"city": "Lisbon"})]
            follow_up: list[Any] = [
                *question,
                {"role": "assistant", "content": [b.model_dump() for b in first.content]},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": uses[0].id, "content": "sunny"}],
                },
            ]
            final = await claude.messages.create(model="m", max_tokens=100, messages=follow_up, tools=tools)
    assert final.content[0].type == "text" and final.content[0].text == "Five, and sunny in Lisbon."
    assert saw_the_internal_round(model)


async def test_responses_clients_get_only_their_function_call_and_the_follow_up_restores_the_mcp_round(
    router: ToolRouter, tmp_path: Path
) -> None:
    model = turns(tmp_path)
    tools: list[Any] = [{"type": "function", "name": "get_weather", "parameters": SCHEMA}]
    async with (
        serving(create_app({"m": model}, tools=router)) as url,
        AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as oa,
    ):
        with anyio.fail_after(20):
            question: list[Any] = [{"role": "user", "content": "Add 2 and 3, then the weather in Lisbon."}]
            first = await oa.responses.create(model="m", input=question, tools=tools)
            calls = [item for item in first.output if item.type == "function_call"]
            assert [(c.name, json.loads(c.arguments)) for c in calls] == [("get_weather", {"city": "Lisbon"})]
            follow_up: list[Any] = [
                *question,
                *[item.model_dump(exclude_none=True) for item in first.output],
                {"type": "function_call_output", "call_id": calls[0].call_id, "output": "sunny"},
            ]
            final = await oa.responses.create(model="m", input=follow_up, tools=tools)
    assert final.output_text == "Five, and sunny in Lisbon."
    assert saw_the_internal_round(model)


async def test_an_anthropic_tool_choice_naming_a_server_tool_is_run_not_refused(
    router: ToolRouter, tmp_path: Path
) -> None:
    """Issue 23 item 2 on the Messages surface: ``{"type": "tool", "name": ...}`` may name the server's own tool."""
    model = Recording(replay(tmp_path, call_block("add", a=2, b=3), "The sum is 5."))
    async with (
        serving(create_app({"m": model}, tools=router)) as url,
        AsyncAnthropic(base_url=url, api_key="x", max_retries=0) as claude,
    ):
        with anyio.fail_after(20):
            reply = await claude.messages.create(
                model="m",
                max_tokens=100,
                messages=[{"role": "user", "content": "Add 2 and 3."}],
                tool_choice={"type": "tool", "name": "add"},
            )
    assert [b.text for b in reply.content if b.type == "text"] == ["The sum is 5."]
    assert reply.stop_reason == "end_turn"
    assert "<function_result" in model.prompts[1][-1].content  # the server ran the forced call


async def test_count_tokens_counts_the_prompt_the_loop_would_send_server_tools_and_a_choice_naming_one_included(
    router: ToolRouter, tmp_path: Path
) -> None:
    """count_tokens used to render the prompt itself, with the client's tools alone: a ``tool_choice`` naming
    the server's own tool was a 400 there while the same request ran; now the loop renders it, as it would run."""
    async with (
        serving(create_app({"m": replay(tmp_path, "unused")}, tools=router)) as url,
        AsyncAnthropic(base_url=url, api_key="x", max_retries=0) as claude,
    ):
        with anyio.fail_after(20):
            plain = await claude.messages.count_tokens(
                model="m", messages=[{"role": "user", "content": "Add 2 and 3."}]
            )
            forced = await claude.messages.count_tokens(
                model="m",
                messages=[{"role": "user", "content": "Add 2 and 3."}],
                tool_choice={"type": "tool", "name": "add"},
            )
    # The server's tools are in the prompt; a choice naming one lists that tool alone, so the count shrinks.
    assert plain.input_tokens > forced.input_tokens > 20
