"""Constrained calls on OpenAI-compatible engines, against stand-ins that read each engine's own fields."""

from __future__ import annotations

import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.openai_constrain import constraint_fields, split_spec_url
from shim.constrain.schema import build_constraint
from shim.errors import ConfigError
from shim.types import Message, ToolSpec

from ._fake_engines import UNCONSTRAINED, FakeEngine
from ._serving import serve

pytestmark = pytest.mark.anyio

TIME = ToolSpec(name="get_time", input_schema={"type": "object", "properties": {"tz": {"type": "string"}}})
ASK = [Message(role="user", content="What time is it?")]
CONSTRAINT = build_constraint([TIME], "function_call")


async def _run(engine: FakeEngine, spec_suffix: str = "") -> tuple[str, bool]:
    with serve(engine.app()) as url:
        backend = get_backend(f"openai:m@{url}/v1{spec_suffix}")
        try:
            result = await backend.stream(ASK, options=GenerationOptions(constraint=CONSTRAINT)).collect()
        finally:
            await backend.aclose()
    return result.text, result.constrained


@pytest.mark.parametrize(
    ("owned_by", "fields"), [("llamacpp", "llama-server"), ("vllm", "structural_tag"), ("sglang", "structural_tag")]
)
async def test_the_engine_is_recognised_from_its_model_listing_and_sent_its_own_fields(
    owned_by: str, fields: str
) -> None:
    engine = FakeEngine(owned_by=owned_by, understands=fields)
    text, constrained = await _run(engine)
    assert text.startswith("Let me check. <function_call>{")
    assert text != "Let me check. " + UNCONSTRAINED
    assert constrained
    body = engine.requests[0]
    if fields == "llama-server":
        assert body["grammar_lazy"] is True
        assert body["grammar_triggers"] == [{"type": 1, "value": "<function_call>"}]
        assert body["grammar"].startswith("root ::= shimcall\n")
    else:
        assert body["response_format"]["triggers"] == ["<function_call>"]
        assert body["response_format"]["structures"][0]["end"] == "</function_call>"


async def test_an_unrecognised_server_gets_no_constraint_under_auto() -> None:
    engine = FakeEngine(owned_by="openai", understands="")
    text, constrained = await _run(engine)
    assert text == "Let me check. " + UNCONSTRAINED
    assert not constrained
    assert "grammar" not in engine.requests[0] and "response_format" not in engine.requests[0]


async def test_the_spec_can_name_the_form_without_detection() -> None:
    engine = FakeEngine(owned_by="custom", understands="structural_tag")
    _, constrained = await _run(engine, "?constrain=xgrammar")
    assert constrained
    assert engine.requests[0]["response_format"]["type"] == "structural_tag"


async def test_constrain_off_in_the_spec_sends_nothing() -> None:
    engine = FakeEngine(owned_by="llamacpp", understands="llama-server")
    text, constrained = await _run(engine, "?constrain=off")
    assert text.endswith(UNCONSTRAINED) and not constrained
    assert "grammar" not in engine.requests[0]


async def test_a_server_that_refuses_the_fields_is_asked_again_without_them() -> None:
    engine = FakeEngine(owned_by="vllm", understands="")  # an old build: structural_tag is a 400
    text, constrained = await _run(engine)
    assert text.endswith(UNCONSTRAINED) and not constrained
    assert len(engine.requests) == 2
    assert "response_format" in engine.requests[0] and "response_format" not in engine.requests[1]


def test_a_forced_call_on_llama_server_is_a_whole_reply_grammar_not_a_lazy_one() -> None:
    forced = build_constraint([TIME], "function_call", mode="required")
    assert forced is not None
    fields = constraint_fields("llama-server", forced)
    assert set(fields) == {"grammar"}
    assert fields["grammar"].startswith("root ::= shimcall (shimgap shimcall)*")


def test_the_constrain_query_is_taken_off_the_url_and_other_parameters_stay() -> None:
    assert split_spec_url("http://h:8000/v1?constrain=llama-server") == ("http://h:8000/v1", "llama-server")
    assert split_spec_url("http://h/v1?api-version=2&constrain=off") == ("http://h/v1?api-version=2", "off")
    assert split_spec_url("http://h/v1") == ("http://h/v1", "auto")
    with pytest.raises(ConfigError, match="'grammar'"):
        split_spec_url("http://h/v1?constrain=grammar")
