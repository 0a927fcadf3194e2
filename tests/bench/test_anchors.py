"""The anchors: BFCL's prompt mode stops a reply once its verdict is decided; llama-cpp-python's handler keeps to
the answer's token budget."""

from __future__ import annotations

import importlib
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("bfcl_eval")
pytest.importorskip("llama_cpp")

from shim.backends import get_backend
from shim.backends.base import Completion, GenerationOptions, StreamItem
from shim.backends.scripted import ScriptedBackend
from shim.bench import bfcl
from shim.bench.anchors import bfcl_prompt, chatml_function_calling, no_call_decided
from shim.types import Message

DEMO = Path(__file__).resolve().parents[2] / "shim" / "demo" / "model" / "shim-tiny.gguf"

_decode: Any = importlib.import_module("bfcl_eval.model_handler.utils").default_decode_ast_prompting


@pytest.mark.parametrize(
    "reply",
    [
        "The area of a triangle is",
        "Sure, I can help with that.",
        "I'm sorry, but",
        "Step 1: find the base",
        "What is the weather?",
        "[calc_area(base=10, height=5)]\n\nThe area is",
        "To calculate the area",
        "```\nThe function is",
    ],
)
def test_a_reply_bfcl_can_never_decode_is_decided_once_two_operands_stand_in_a_row(reply: str) -> None:
    assert no_call_decided(reply)
    with pytest.raises(Exception):  # noqa: B017 - BFCL's decoder raises whatever ast raises
        _decode(reply + " and more text")


@pytest.mark.parametrize(
    "prefix",
    [
        "The area",  # the last name may still grow (into a keyword, for all the scan knows)
        "x i",  # "x if ..."
        "Here is",  # a keyword between the words
        "[get_weather(city='Paris, the capital')",  # words inside a string
        "f(a=1) # the call\n",  # words inside a comment
        "[f(a='x' 'y')",  # two strings: implicit concatenation
        "f(x=rb'",  # a prefix glued to its quote
        "```python\n[f(x=1)]\n```",
        "",
    ],
)
def test_text_that_may_still_become_calls_is_never_decided(prefix: str) -> None:
    assert not no_call_decided(prefix)


def test_no_prefix_of_an_answer_bfcl_decodes_is_ever_decided() -> None:
    answers: list[str] = []
    for category in ("simple_python", "multiple", "parallel", "live_simple"):
        for question in bfcl.load_questions(category, 25):
            calls = [
                f"{name}({', '.join(f'{k}={values[0]!r}' for k, values in args.items() if values and values[0] != '')})"
                for truth in question.answer or []
                for name, args in truth.items()
            ]
            answers += [f"[{', '.join(calls)}]", "```\n[\n    " + ",\n    ".join(calls) + "\n]\n```"]
    decoded = 0
    for answer in answers:
        try:
            _decode(answer)
        except Exception:  # a ground truth BFCL cannot decode as written says nothing here
            continue
        decoded += 1
        assert not any(no_call_decided(answer[:i]) for i in range(len(answer) + 1)), answer
    assert decoded >= 180


class _Prose(ScriptedBackend):
    """A model that talks on and on: more than any question's token budget."""

    def __init__(self) -> None:
        super().__init__(["The area of a triangle is half its base times its height. " * 40], chunk_size=3)


def test_bfcl_prompt_stops_a_prose_reply_early_with_the_verdict_the_whole_reply_gets() -> None:
    question = bfcl.load_questions("simple_python", 1)[0]
    backend = _Prose()
    attempt = anyio.run(lambda: bfcl_prompt(backend, question, max_tokens=160))
    assert attempt.finish == "decided"
    assert attempt.raw == "The area "  # decided once "area" is followed by anything
    assert attempt.calls is None and not attempt.malformed
    assert len(backend.requests) == 1


def test_bfcl_prompt_reads_a_call_list_to_its_end() -> None:
    question = bfcl.load_questions("simple_python", 1)[0]
    reply = "[calculate_triangle_area(base=10, height=5)]"
    attempt = anyio.run(lambda: bfcl_prompt(ScriptedBackend([reply]), question, max_tokens=160))
    assert attempt.raw == reply and attempt.finish == "stop"
    assert attempt.calls == [{"calculate_triangle_area": {"base": 10, "height": 5}}]


@pytest.mark.parametrize("max_tokens", [1, 4, 12])
def test_llama_cpp_python_s_handler_generates_no_more_than_the_answer_s_tokens(max_tokens: int) -> None:
    llm = anyio.run(get_backend(f"llama-cpp:{DEMO}", n_ctx=2048, n_threads=1).model)  # type: ignore[attr-defined]
    generated: list[int] = []
    create = llm.create_completion

    def counted(**kwargs: Any) -> Any:
        completion = create(**kwargs)
        generated.append(completion["usage"]["completion_tokens"])
        return completion

    llm.create_completion = counted
    try:
        for category in ("simple_python", "parallel", "irrelevance"):
            generated.clear()
            question = bfcl.load_questions(category, 1)[0]
            attempt = anyio.run(lambda q=question: chatml_function_calling(llm, q, max_tokens=max_tokens))
            assert sum(generated) <= max_tokens
            assert attempt.finish in {"length", "stop", "tool_calls"}
    finally:
        del llm.create_completion


class _Rendezvous(ScriptedBackend):
    """A model whose first answer waits until the other model has begun one: both are asked at once, or never."""

    def __init__(self, name: str, mine: anyio.Event, theirs: anyio.Event) -> None:
        super().__init__(["[f(x=1)]"], repeat=True, name=name)
        self._mine, self._theirs = mine, theirs

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        self._mine.set()
        await self._theirs.wait()
        async for item in super()._generate(messages, options):
            yield item


def test_two_models_are_asked_at_once_each_in_its_own_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shim.bench import models_track

    a, b = anyio.Event(), anyio.Event()
    backends = {"one": _Rendezvous("one", a, b), "two": _Rendezvous("two", b, a)}
    monkeypatch.setattr(models_track, "get_backend", lambda spec, **_: backends[spec])
    options = models_track.ModelsOptions(
        models=("one", "two"), configs=("bfcl-prompt",), categories=("simple_python",), limit=2, out=tmp_path, jobs=2
    )

    async def run() -> dict[str, Any]:
        with anyio.fail_after(60):  # only a bound on a deadlock: each answer is instant once both have begun
            return await models_track.run_models(options)

    track = anyio.run(run)
    assert {m: track["models"][m]["configs"]["bfcl-prompt"]["all"]["questions"] for m in ("one", "two")} == {
        "one": 2,
        "two": 2,
    }
