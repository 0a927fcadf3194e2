"""Constrained calls on embedded llama.cpp, measured on a tiny random-weight model that knows nothing.

Without a constraint such a model writes noise; with one, every call it writes names an offered tool and
validates against that tool's schema. The same seeds are sampled both ways for the comparison.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from jsonschema import Draft202012Validator

from shim.backends import GenerationOptions
from shim.backends.llamacpp import LlamaCppBackend
from shim.backends.llamacpp_grammar import CallWatch
from shim.constrain.schema import CallConstraint, build_constraint
from shim.events import ParseIssue, ToolCallEnd, ToolCallStart
from shim.parsing.stream import StreamParser
from shim.prompting.dialects import PromptDialect
from shim.types import Message, ToolSpec

pytestmark = pytest.mark.anyio

TOOLS = [
    ToolSpec(
        name="get_time",
        input_schema={
            "type": "object",
            "properties": {"timezone": {"enum": ["Asia/Seoul", "Europe/Paris", "UTC"]}},
            "required": ["timezone"],
        },
    ),
    ToolSpec(
        name="add",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "exact": {"type": "boolean"}},
            "required": ["a", "b"],
        },
    ),
]
ASK = [Message(role="user", content="Call a tool.")]
SEEDS = range(6)


def _valid_calls(text: str, tools: list[ToolSpec]) -> tuple[int, int]:
    """(valid calls, calls or call attempts that were not valid) in ``text``."""
    parser = StreamParser(tools)
    events = parser.feed(text) + parser.close()
    schemas = {t.name: Draft202012Validator(t.input_schema) for t in tools}
    valid = invalid = 0
    for event in events:
        if isinstance(event, ToolCallEnd):
            ok = event.name in schemas and schemas[event.name].is_valid(event.arguments)
            valid, invalid = valid + ok, invalid + (not ok)
        elif isinstance(event, ParseIssue):
            invalid += 1
    return valid, invalid


async def _generate(
    path: Path, constraint: CallConstraint | None, seed: int, max_tokens: int = 160
) -> tuple[str, bool]:
    options = GenerationOptions(constraint=constraint, seed=seed, temperature=1.0, max_tokens=max_tokens)
    with anyio.fail_after(60):
        result = await LlamaCppBackend(path).stream(ASK, options=options).collect()
    return result.text, result.constrained


async def test_with_tool_choice_required_every_call_of_the_random_model_is_valid_and_without_none_is(
    tiny_gguf: Path,
) -> None:
    constraint = build_constraint(TOOLS, "function_call", mode="required")
    with_constraint = [await _generate(tiny_gguf, constraint, seed) for seed in SEEDS]
    without = [await _generate(tiny_gguf, None, seed) for seed in SEEDS]
    for text, constrained in with_constraint:
        assert constrained
        assert text.startswith("<function_call>")
        valid, invalid = _valid_calls(text, TOOLS)
        assert valid >= 1
        # Only a last call cut off by max_tokens may be incomplete; every complete one is valid.
        assert invalid == (0 if text.rstrip().endswith("</function_call>") else 1)
    assert sum(_valid_calls(text, TOOLS)[0] for text, _ in without) == 0
    assert not any(constrained for _, constrained in without)


async def test_a_named_tool_choice_makes_every_call_name_that_tool(tiny_gguf: Path) -> None:
    constraint = build_constraint(TOOLS, "tool_call", mode="named", named="add")
    for seed in SEEDS:
        text, _ = await _generate(tiny_gguf, constraint, seed, max_tokens=120)
        parser = StreamParser(TOOLS)
        names = [e.name for e in parser.feed(text) + parser.close() if isinstance(e, ToolCallStart)]
        assert names and set(names) == {"add"}


# The random model never writes "<function_call>" by chance; a dialect whose opener is one letter it writes
# often shows the lazy switch: free noise, then a valid call from the opener on, then free noise again.
LETTER = PromptDialect(name="letter", template="function_call.j2", call_open="a", call_close="b", result_tag="r")


async def test_the_grammar_switches_on_at_the_opener_and_off_after_the_closer(tiny_gguf: Path) -> None:
    constraint = build_constraint(TOOLS, LETTER)
    assert constraint is not None and not constraint.forced
    engaged = 0
    for seed in SEEDS:
        text, constrained = await _generate(tiny_gguf, constraint, seed, max_tokens=240)
        if "a" not in text:
            assert not constrained
            continue
        engaged += 1
        assert constrained
        call_start = text.index("a") + 1
        body_end = text.find("b", call_start)
        body = text[call_start:body_end].strip()
        assert body.startswith("{") and '"name"' in body
        valid, _ = _valid_calls(f"<function_call>{body}</function_call>", TOOLS)
        assert valid == 1 or body_end < 0  # a call still open when max_tokens ran out
    assert engaged >= 1


def test_a_token_that_runs_past_the_opener_is_cut_at_its_end() -> None:
    # "<|im_start|>" is one control token that contains the opener "a" followed by "rt|>", which no call can
    # start with. llama.cpp's own lazy sampler feeds the whole token to the grammar and aborts the process
    # (seen with this model); the watch cuts the token at the opener's end instead.
    watch = CallWatch(b"a", "b")
    assert watch.opener_end(b"<|im_start|>") == b"<|im_sta"


def test_an_opener_split_across_tokens_is_found_and_a_token_ending_with_it_is_kept_whole() -> None:
    watch = CallWatch(b"<function_call>", "</function_call>")
    assert watch.opener_end(b"Sure. <func") is None
    assert watch.opener_end(b"tion_") is None
    assert watch.opener_end(b"call>") is True


def test_the_call_ends_at_the_closer_after_a_whole_body_not_at_the_closer_inside_a_string() -> None:
    watch = CallWatch(b"<function_call>", "</function_call>")
    assert watch.opener_end(b"<function_call>") is True
    assert not watch.closed(b'{"name": "say", "arguments": {"text": "</function_call>')
    assert not watch.closed(b'"}}')
    assert watch.closed(b"</function_call>")


async def test_a_caller_s_own_grammar_wins_over_the_constraint(tiny_gguf: Path) -> None:
    constraint = build_constraint(TOOLS, "function_call", mode="required")
    options = GenerationOptions(constraint=constraint, grammar='root ::= "hello"', seed=0)
    result = await LlamaCppBackend(tiny_gguf).stream(ASK, options=options).collect()
    assert result.text == "hello"
    assert not result.constrained
