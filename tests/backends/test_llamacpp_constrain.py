"""Constrained calls on embedded llama.cpp, measured on a tiny random-weight model that knows nothing.

Without a constraint such a model writes noise; with one, every call it writes names an offered tool and
validates against that tool's schema. The same seeds are sampled both ways for the comparison.

What such a model writes depends on the machine's float arithmetic, so these tests assert only what the
grammar guarantees: the shape of the text (free text, opener, one valid call body, closer) wherever the
characters land, never which characters the model picks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from shim.backends import GenerationOptions
from shim.backends.base import Completion
from shim.backends.llamacpp import LlamaCppBackend
from shim.backends.llamacpp_grammar import CallWatch
from shim.constrain.schema import CallConstraint, build_constraint, call_schema
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


@dataclass
class Shape:
    """A constrained text read the way the grammar wrote it: free text, then ``opener body closer`` calls."""

    free: list[str]
    """The text outside calls: before the first opener, between calls, after the last closer."""
    calls: list[dict[str, Any]]
    """Every complete call body, in order."""
    cut: bool
    """The text ended inside a call (after its opener, before its closer)."""


def _shape(text: str, opener: str, closer: str) -> Shape:
    """Split ``text`` at each opener in free text; what follows must be whitespace, one JSON object, whitespace,
    then the closer (the grammar's ``shimgap shimbody shimgap closer``), or the end of the text.

    The body is read as JSON rather than searched for the closer, because the closer's characters may occur
    inside the body (an argument key ``"b"`` when the closer is ``b``).
    """
    decoder = json.JSONDecoder()
    shape = Shape(free=[], calls=[], cut=False)
    at = 0
    while (found := text.find(opener, at)) >= 0:
        shape.free.append(text[at:found])
        body_at = _skip_gap(text, found + len(opener))
        if body_at == len(text):
            shape.cut = True
            return shape
        assert text[body_at] == "{", f"a call body starts with '{{': {text[found:]!r}"
        try:
            body, body_end = decoder.raw_decode(text, body_at)
        except json.JSONDecodeError:
            shape.cut = True  # a valid prefix that max_tokens cut; the caller checks finish_reason
            return shape
        shape.calls.append(body)
        closer_at = _skip_gap(text, body_end)
        rest = text[closer_at:]
        if len(rest) < len(closer) and closer.startswith(rest):  # none or part of the closer: max_tokens cut it
            shape.cut = True
            return shape
        assert text.startswith(closer, closer_at), f"the closer follows the body: {text[found:]!r}"
        at = closer_at + len(closer)
    shape.free.append(text[at:])
    return shape


def _skip_gap(text: str, at: int) -> int:
    """The index after the whitespace the grammar allows around a body (its gaps, and the JSON's own)."""
    while at < len(text) and text[at] in " \t\n":
        at += 1
    return at


def _assert_valid_calls(shape: Shape, result: Completion) -> None:
    """Every complete call matches an offered tool's schema; only a call max_tokens cut may be incomplete."""
    validator = Draft202012Validator(call_schema(TOOLS))
    for body in shape.calls:
        assert validator.is_valid(body), body
    if shape.cut:
        assert result.finish_reason == "length"


async def _run(path: Path, constraint: CallConstraint | None, seed: int, max_tokens: int = 160) -> Completion:
    options = GenerationOptions(constraint=constraint, seed=seed, temperature=1.0, max_tokens=max_tokens)
    with anyio.fail_after(120):  # a hang guard: a few hundred tokens take well under a second
        return await LlamaCppBackend(path).stream(ASK, options=options).collect()


async def _generate(
    path: Path, constraint: CallConstraint | None, seed: int, max_tokens: int = 160
) -> tuple[str, bool]:
    result = await _run(path, constraint, seed, max_tokens)
    return result.text, result.constrained


async def test_with_tool_choice_required_every_call_of_the_random_model_is_valid_and_without_none_is(
    tiny_gguf: Path,
) -> None:
    constraint = build_constraint(TOOLS, "function_call", mode="required")
    with_constraint = [await _run(tiny_gguf, constraint, seed) for seed in SEEDS]
    without = [await _generate(tiny_gguf, None, seed) for seed in SEEDS]
    for result in with_constraint:
        assert result.constrained
        # Forced: nothing but calls from the first token, with only whitespace between them.
        shape = _shape(result.text, "<function_call>", "</function_call>")
        assert shape.free[0] == "" and all(not gap.strip() for gap in shape.free)
        assert shape.calls or shape.cut
        _assert_valid_calls(shape, result)
        assert _valid_calls(result.text, TOOLS)[0] == len(shape.calls)  # and the parser reads each one
    # A model that knows nothing never writes a whole valid call unconstrained (nor claims a constraint).
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
LAZY_SEEDS = range(32)


async def test_the_grammar_switches_on_at_the_opener_and_off_after_the_closer(tiny_gguf: Path) -> None:
    constraint = build_constraint(TOOLS, LETTER)
    assert constraint is not None and not constraint.forced
    engaged = went_on = 0
    for seed in LAZY_SEEDS:
        result = await _run(tiny_gguf, constraint, seed, max_tokens=240)
        # On at the opener: every "a" in free text starts one valid call body, which the closer "b" ends
        # (the body's own "a"s and "b"s, in names and keys, do not count). Off after it: free text goes on,
        # and a later "a" starts another call. A grammar left on would allow nothing but the end there.
        shape = _shape(result.text, "a", "b")
        _assert_valid_calls(shape, result)
        assert result.constrained == bool(shape.calls or shape.cut)
        engaged += result.constrained
        went_on += any(shape.free[1:])
    # The random model writes "a" in about one sample in three, and usually goes on after a call; over 32
    # seeds, missing both would take odds of about one in a million, on any CPU. Without them the test shows
    # nothing, so it says so.
    assert engaged >= 1 and went_on >= 1, (engaged, went_on)


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
