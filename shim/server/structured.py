"""Structured output run through the chat loop: the answer held back, read leniently, checked against the schema,
and sent back to the model with the problem until it passes (`shim.constrain.structured` says what the format is
and how each engine produces it)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from typing import Any

from shim.backends.base import Backend, GenerationOptions
from shim.constrain.gbnf import schema_grammar
from shim.constrain.structured import (
    ANY_JSON_GBNF,
    HEADER,
    MAX_RETRIES,
    StructuredMethod,
    StructuredOutput,
    calls_possible,
    structured_method,
)
from shim.notices import notice
from shim.parsing import lenient_json
from shim.prompting import assistant_message, user_message
from shim.server.exchange import CallOut, ChatRequest, FinishOut, Output, TextOut
from shim.types import ChatMessage, ContentBlock

__all__ = ["read_answer", "structured_chat"]


async def structured_chat(
    backend: Backend,
    request: ChatRequest,
    run: Callable[[ChatRequest], AsyncIterator[Output]],
    *,
    server_tools: bool,
) -> AsyncIterator[Output]:
    """Run ``request`` (through ``run``, the plain chat loop) so that its answer is the structured output.

    Calls pass through as they come (the answer comes in a later request). Text is held back, checked, and
    retried up to `MAX_RETRIES` times; the client receives the JSON (the last answer as it is, if none
    passes). Token counts add up over the retries.
    """
    structured = request.structured
    assert structured is not None
    method = structured_method(backend, structured, calls_possible=calls_possible(request, server_tools))
    notice(HEADER, method)  # the response's x-shim-structured-output: this choice, before any output
    messages = list(request.messages)
    if method == "prompt":
        messages = _with_instruction(messages, structured.instruction())
    options = _engine_options(request.options, structured, method)
    prompt_tokens = completion_tokens = 0
    for attempt in range(MAX_RETRIES + 1):
        text: list[str] = []
        finish: FinishOut | None = None
        called = False
        async for output in run(replace(request, structured=None, messages=messages, options=options)):
            if isinstance(output, TextOut):
                text.append(output.text)
            elif isinstance(output, FinishOut):
                finish = output
            else:
                called = called or isinstance(output, CallOut)
                yield output
        assert finish is not None  # the loop always ends with one
        prompt_tokens += finish.prompt_tokens
        completion_tokens += finish.completion_tokens
        answer = "".join(text)
        value, problem = (None, None) if called else read_answer(structured, answer)
        if problem is None or attempt == MAX_RETRIES or finish.reason == "length":
            if not called and answer:
                yield TextOut(text=json.dumps(value, ensure_ascii=False) if problem is None else answer)
            yield replace(finish, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
            return
        messages = [
            *messages,
            assistant_message(answer),
            user_message(f"That answer cannot be used ({problem}). {structured.instruction()}"),
        ]


def _engine_options(options: GenerationOptions, structured: StructuredOutput, method: StructuredMethod) -> Any:
    if method == "grammar" and options.grammar is None:
        grammar = schema_grammar(structured.schema) if structured.schema is not None else None
        return replace(options, grammar=grammar or ANY_JSON_GBNF)
    if method == "format":
        return replace(options, extra={**options.extra, "format": structured.schema or "json"})
    if method == "response_format":
        raw = structured.raw
        response_format = dict(raw) if isinstance(raw, Mapping) else {}
        return replace(options, extra={**options.extra, "response_format": response_format})
    return options


def _with_instruction(messages: list[ChatMessage], instruction: str) -> list[ChatMessage]:
    """The instruction after a plain-text system message, or in one of its own before the conversation."""
    first = messages[0] if messages else None
    if first is not None and first.role == "system" and all(block.kind == "text" for block in first.content):
        text = f"{first.text()}\n\n{instruction}"
        return [replace(first, content=(ContentBlock(kind="text", text=text),)), *messages[1:]]
    return [ChatMessage(role="system", content=(ContentBlock(kind="text", text=instruction),)), *messages]


def read_answer(structured: StructuredOutput, text: str) -> tuple[Any, str | None]:
    """The answer's JSON value, read leniently and checked: ``(value, None)``, or ``(None, what is wrong)``."""
    if lenient_json.nesting_depth(text) > lenient_json.MAX_DEPTH:
        return None, f"the answer nests arrays/objects more than {lenient_json.MAX_DEPTH} levels deep"
    value = _first_json(text.strip())
    return (None, "the answer is not JSON") if value is _MISSING else structured.check(value)


_MISSING = object()


def _first_json(text: str) -> Any:
    """The whole text as JSON, else the first value that starts at a ``{`` or ``[`` (inside code fences or prose),
    read by the parser's lenient JSON (`shim.parsing.lenient_json`: single quotes, trailing commas, comments); or
    `_MISSING`."""
    try:
        return lenient_json.loads(text)
    except lenient_json.LenientJSONError:
        pass
    for start in (i for i, c in enumerate(text) if c in "{["):
        found = lenient_json.value_at(text, start)
        if found is not None:
            return found[0]
    return _MISSING
