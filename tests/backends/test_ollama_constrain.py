"""Constrained calls on Ollama: free text to the opener, the body under ``format``, free text after the closer.

The stand-in reads what Ollama reads: ``format`` (a JSON schema) and a last assistant message, which Ollama
continues rather than answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.constrain.schema import build_constraint
from shim.types import Message, ToolSpec

from ._fake_ollama import FakeModel, FakeOllama
from ._serving import serve

pytestmark = pytest.mark.anyio

ASK = [Message(role="user", content="What time is it?")]
TIME = ToolSpec(name="get_time", input_schema={"type": "object", "properties": {"timezone": {"type": "string"}}})
ADD = ToolSpec(name="add", input_schema={"type": "object", "properties": {"a": {"type": "integer"}}})
# The free phases: text, then an opener followed by a call the model would have botched (cut at the opener
# and regenerated under `format`); after the closer, a closing sentence.
FREE = ["Let me check. <function_call>{name: get_time, args", " That is all."]


@pytest.fixture
def fake() -> Iterator[tuple[FakeOllama, str]]:
    server = FakeOllama({"small:1b": FakeModel(chat="", capabilities=["completion"], script=list(FREE))})
    with serve(server.app) as url:
        yield server, url


async def _run(url: str, **constraint: Any) -> tuple[str, bool, int | None]:
    backend = get_backend(f"ollama:small:1b@{url}")
    options = GenerationOptions(constraint=build_constraint([TIME, ADD], "function_call", **constraint))
    with anyio.fail_after(10):
        result = await backend.stream(ASK, options=options).collect()
    await backend.aclose()
    assert result.usage is not None
    return result.text, result.constrained, result.usage.completion_tokens


async def test_the_call_body_is_generated_under_format_continuing_the_assistant_message(
    fake: tuple[FakeOllama, str],
) -> None:
    server, url = fake
    text, constrained, _ = await _run(url)
    assert text == (
        'Let me check. <function_call>{"name": "get_time", "arguments": {"timezone": "UTC"}}</function_call>'
        " That is all."
    )
    assert constrained
    bodies = [body for path, body in server.requests if path == "/api/chat"]
    assert len(bodies) == 3
    assert "format" not in bodies[0] and bodies[0]["messages"][-1]["role"] == "user"
    body = bodies[1]
    assert body["messages"][-1] == {"role": "assistant", "content": "Let me check. <function_call>"}
    assert [v["properties"]["name"]["const"] for v in body["format"]["oneOf"]] == ["get_time", "add"]
    assert bodies[2]["messages"][-1]["content"].endswith("</function_call>")
    assert "format" not in bodies[2]


async def test_a_forced_call_starts_at_the_opener_and_ends_after_the_closer(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    text, constrained, _ = await _run(url, mode="named", named="add")
    assert text == '<function_call>{"name": "add", "arguments": {"a": "UTC"}}</function_call>'
    assert constrained
    bodies = [body for path, body in server.requests if path == "/api/chat"]
    assert len(bodies) == 1
    assert bodies[0]["messages"][-1] == {"role": "assistant", "content": "<function_call>"}
    assert json.dumps(bodies[0]["format"]).count('"const"') == 1


async def test_text_without_an_opener_is_one_free_phase(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    server.models["small:1b"].script = ["The time is not something I can know."]
    text, constrained, _ = await _run(url)
    assert text == "The time is not something I can know."
    assert not constrained
    assert len(server.requests) == 1
