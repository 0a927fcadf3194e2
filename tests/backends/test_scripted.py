"""The scripted backend: one reply per request, in order, as text, items or replay records; stops honoured; every
request kept for the test to look at."""

from __future__ import annotations

import anyio
import pytest

from shim.backends.base import GenerationOptions, NativeCall, Reasoning
from shim.backends.scripted import ScriptedBackend
from shim.errors import BackendError, ConfigError
from shim.types import Message, ToolCall

pytestmark = pytest.mark.anyio

ASK = [Message(role="user", content="hi")]


async def test_replies_come_in_order_in_chunks_and_each_request_is_kept() -> None:
    backend = ScriptedBackend(["Hello there.", "Bye."], chunk_size=5)
    with anyio.fail_after(5):
        first = [item async for item in backend.stream(ASK, options=GenerationOptions(temperature=0.1))]
        second = await backend.stream(ASK).collect()
    assert first == ["Hello", " ther", "e."]
    assert second.text == "Bye." and second.finish_reason == "stop"
    assert [r.messages for r in backend.requests] == [tuple(ASK), tuple(ASK)]
    assert backend.requests[0].options.temperature == 0.1 and backend.turns_served == 2


async def test_typed_items_and_replay_records_stream_as_given() -> None:
    call = ToolCall(id="call_000000000000000000000001", name="f", arguments={"x": 1})
    backend = ScriptedBackend(
        [[Reasoning("thinking"), "ok", NativeCall.of(call)], {"response": "cut short", "finish_reason": "length"}]
    )
    with anyio.fail_after(5):
        items = [item async for item in backend.stream(ASK)]
        cut = await backend.stream(ASK).collect()
    assert items[:2] == [Reasoning("thinking"), "ok"] and isinstance(items[2], NativeCall)
    assert items[2].call == call
    assert cut.finish_reason == "length"


async def test_a_stop_sequence_ends_the_text_before_it() -> None:
    backend = ScriptedBackend(["one two<|end|> three"], chunk_size=3)
    with anyio.fail_after(5):
        result = await backend.stream(ASK, options=GenerationOptions(family_stop=("<|end|>",))).collect()
    assert result.text == "one two" and result.finish_reason == "stop"


async def test_a_request_past_the_script_is_a_backend_error_naming_the_count() -> None:
    backend = ScriptedBackend(["only"])
    with anyio.fail_after(5):
        await backend.stream(ASK).collect()
        with pytest.raises(BackendError, match="has 1 recorded replies and all were served"):
            await backend.stream(ASK).collect()


def test_a_reply_in_no_known_form_is_a_config_error_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"reply #1: needs 'response'"):
        ScriptedBackend(["fine", {"text": "no"}])
    with pytest.raises(ConfigError, match="no replies"):
        ScriptedBackend([])
