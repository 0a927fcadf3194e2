# llama-cpp-python and bfcl-eval are untyped: their results are unknown types to strict pyright.
# pyright: reportUnknownVariableType=false, reportUnknownMemberType=false, reportUnknownArgumentType=false
"""The anchors of the ``models`` track: other ways to get tool calls from the same model, same questions.

Each anchor is rebuilt from its source so that shim is compared with what a user would otherwise get:

- `bfcl_prompt`: BFCL's own prompt mode, as its prompting handlers run it: BFCL's default system prompt
  (``bfcl_eval.model_handler.utils.system_prompt_pre_processing_chat_model``, which formats
  ``constants.default_prompts``), the model's chat template, and BFCL's decoder
  (``default_decode_ast_prompting``: ``[func(arg=val)]`` read with Python's ``ast``). It works with any backend.
- `chatml_function_calling`: llama-cpp-python's ``chatml-function-calling`` chat handler
  (``llama_cpp.llama_chat_format.chatml_function_calling``), called on the same loaded model: its own ChatML
  prompt listing the functions, and a grammar that makes the reply begin with either ``functions.NAME:`` or
  ``message:``. Embedded llama.cpp models only. The handler's own completions ask for no token limit (a model
  that repeats calls or never ends its message runs to the end of the context: eight minutes on one question
  here); each is capped at what is left of the answer's ``max_tokens`` (`_Budget`), the bound every
  configuration gets.
- `llama_generic`: llama.cpp's generic tool mode for templates without tool support (``common/chat.cpp``,
  ``common_chat_params_init_generic`` and ``common_chat_parse_generic``; minja's tool polyfill for the
  listing): the system prompt asks for JSON with ``tool_calls`` or ``response``, the tools are listed as
  JSON with minja's example call, and the whole reply is constrained to ``{"tool_calls": [...]}`` or
  ``{"response": "..."}`` (``parallel_tool_calls`` on, so each call carries an ``id``, as there). The grammar
  comes from llama-cpp-python's port of llama.cpp's JSON-schema converter. Embedded llama.cpp models only.

All run at temperature 0. Each returns an `Attempt`: the raw output, the decoded calls (BFCL's
``[{name: {arg: value}}]``) or None when nothing could be decoded, and whether a call was tried and could
not be read (malformed).
"""

from __future__ import annotations

import copy
import importlib
import io
import json
import keyword
import re
import time
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from shim.backends.base import Backend, GenerationOptions
from shim.bench.bfcl import Question, openai_tools
from shim.constrain.gbnf import schema_grammar
from shim.types import Message

__all__ = [
    "ANCHORS",
    "GENERIC_EXAMPLE",
    "GENERIC_SYSTEM",
    "Attempt",
    "bfcl_prompt",
    "chatml_function_calling",
    "embedded",
    "generic_schema",
    "llama_generic",
    "no_call_decided",
    "reply_tokens",
]


@dataclass(frozen=True, kw_only=True)
class Attempt:
    """One model output on one question."""

    raw: str
    calls: list[dict[str, Any]] | None
    """BFCL's decoded form, or None when the output could not be decoded as calls."""
    malformed: bool = False
    """The output tried to call a tool and could not be read."""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0
    finish: str = ""
    detail: str = ""


def _messages(raw: Sequence[dict[str, Any]]) -> list[Message]:
    return [Message(role=m["role"], content=str(m["content"])) for m in raw]


async def _generate(backend: Backend, messages: list[Message], options: GenerationOptions) -> tuple[str, Any]:
    async with backend.stream(messages, options=options) as stream:
        parts = [item async for item in stream if isinstance(item, str)]
    return "".join(parts), stream.result


def no_call_decided(text: str) -> bool:
    """Whether BFCL's decoder must fail on ``text`` followed by anything at all.

    The decoder wraps the reply in ``[...]`` and parses it as one Python expression. Two operands in a row
    (a name that is not a keyword, a number, a string: ``The area``, ``Step 1``, ``I'm``) are a syntax error
    no continuation can repair, except two strings (implicit concatenation); so are ``?`` and ``$`` outside
    a string. Names inside strings and comments are not tokens; the scan stops at anything else Python's
    tokenizer cannot read. A name that ends the text may still grow into a keyword (``x i`` -> ``x if``).
    """
    body = text.lstrip("`\n ")  # the decoder strips both ends; what ends the text shows a name is complete
    if not body:
        return False
    wrapped = body if body.startswith("[") else "[" + body
    lines = wrapped.splitlines() or [""]
    end = (len(lines), len(lines[-1]))
    previous: tokenize.TokenInfo | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(wrapped).readline):
            if token.type in _SKIPPED:
                continue
            if token.type == tokenize.ERRORTOKEN:
                if token.string in ("?", "$"):
                    return True
                # An open quote starts a string (it may close later): after an operand, still two in a row.
                return token.string in ("'", '"') and _operand(previous) and not _prefix(previous, token)
            if _operand(previous) and _operand(token) and previous is not None:
                both_strings = previous.type == token.type == tokenize.STRING
                growing = token.type == tokenize.NAME and token.end >= end
                if not both_strings and not growing:
                    return True
            previous = token
    except (tokenize.TokenError, SyntaxError):  # an open bracket or string at the end: nothing decided yet
        return False
    return False


_SKIPPED = (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def _operand(token: tokenize.TokenInfo | None) -> bool:
    if token is None:
        return False
    if token.type == tokenize.NAME:
        return not keyword.iskeyword(token.string)
    return token.type in (tokenize.NUMBER, tokenize.STRING)


def _prefix(name: tokenize.TokenInfo | None, quote: tokenize.TokenInfo) -> bool:
    """``f'``, ``rb"``...: a string prefix glued to the quote it opens."""
    return name is not None and name.end == quote.start and name.string.lower() in _STRING_PREFIXES


_STRING_PREFIXES = {"r", "u", "b", "f", "br", "rb", "fr", "rf"}


async def _generate_until_decided(
    backend: Backend, messages: list[Message], options: GenerationOptions
) -> tuple[str, Any, bool]:
    """`_generate`, stopped as soon as `no_call_decided`: the text, the engine's result (None when stopped)
    and whether it was stopped."""
    parts: list[str] = []
    async with backend.stream(messages, options=options) as stream:
        async for item in stream:
            if isinstance(item, str):
                parts.append(item)
                if no_call_decided("".join(parts)):
                    return "".join(parts), None, True
    return "".join(parts), stream.result, False


_CALL_START = re.compile(r"^\s*[`\s]*\[?\s*[A-Za-z_][\w.]*\s*\(")


async def bfcl_prompt(backend: Backend, question: Question, *, max_tokens: int) -> Attempt:
    """BFCL's prompt mode (see the module docstring)."""
    handler_utils: Any = importlib.import_module("bfcl_eval.model_handler.utils")
    raw_messages = handler_utils.system_prompt_pre_processing_chat_model(
        copy.deepcopy(question.messages), question.functions, question.id
    )
    start = time.perf_counter()
    text, result, decided = await _generate_until_decided(
        backend, _messages(raw_messages), GenerationOptions(temperature=0.0, max_tokens=max_tokens)
    )
    seconds = time.perf_counter() - start
    usage = result.usage if result is not None else None
    try:
        calls: list[dict[str, Any]] | None = handler_utils.default_decode_ast_prompting(text)
        malformed = False
    except Exception as exc:  # BFCL's decoder raises anything ast raises; BFCL counts it as "no call"
        calls, malformed = None, bool(_CALL_START.match(text))
        detail = f"{type(exc).__name__}: {exc}"
    else:
        detail = ""
    return Attempt(
        raw=text,
        calls=calls,
        malformed=malformed,
        prompt_tokens=usage.prompt_tokens if usage else None,
        completion_tokens=usage.completion_tokens if usage else await reply_tokens(backend, text),
        seconds=seconds,
        finish="decided" if decided else result.finish_reason if result is not None else "",
        detail=detail,
    )


def embedded(backend: Backend) -> bool:
    """Whether ``backend`` is a model loaded in this process (llama.cpp), which the llama.cpp-only anchors need."""
    return backend.name.startswith("llama-cpp:")


async def reply_tokens(backend: Backend, text: str) -> int | None:
    """Tokens of a reply stopped early (the engine sent no count), for an embedded model; else None."""
    if not embedded(backend):
        return None
    return _count(await backend.model(), text)  # type: ignore[attr-defined]


def _count(llm: Any, text: str) -> int:
    return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)) if text else 0


async def chatml_function_calling(llm: Any, question: Question, *, max_tokens: int) -> Attempt:
    """llama-cpp-python's ``chatml-function-calling`` handler on the loaded ``llama_cpp.Llama`` ``llm``."""
    chat_format: Any = importlib.import_module("llama_cpp.llama_chat_format")
    tools = openai_tools(question)

    budget = _Budget(llm, max_tokens)

    def run() -> Any:
        return chat_format.chatml_function_calling(
            llama=budget,
            messages=copy.deepcopy(question.messages),
            tools=tools,
            tool_choice="auto",
            temperature=0.0,
            max_tokens=max_tokens,
        )

    start = time.perf_counter()
    try:
        response = await anyio.to_thread.run_sync(run)
    except _Spent:  # cut in the middle of its calls, as llama-generic's partial JSON is
        return Attempt(
            raw="".join(budget.texts),
            calls=None,
            malformed=True,
            completion_tokens=max_tokens,
            seconds=time.perf_counter() - start,
            finish="length",
            detail=f"the handler's calls ran past max_tokens ({max_tokens})",
        )
    except Exception as exc:  # the handler raises when a call it generated does not parse (json, grammar)
        return Attempt(
            raw="",
            calls=None,
            malformed=True,
            seconds=time.perf_counter() - start,
            detail=f"{type(exc).__name__}: {exc}",
        )
    seconds = time.perf_counter() - start
    message = response["choices"][0]["message"]
    usage = response.get("usage") or {}
    tool_calls = message.get("tool_calls") or []
    raw = message.get("content") or json.dumps(tool_calls, ensure_ascii=False)
    completion = usage.get("completion_tokens")
    if tool_calls:  # the handler reports the last call's tokens only: count every call's text
        completion = sum(_count(llm, c["function"]["arguments"]) for c in tool_calls)
    try:
        calls = [{c["function"]["name"]: json.loads(c["function"]["arguments"])} for c in tool_calls]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return Attempt(raw=raw, calls=None, malformed=True, seconds=seconds, detail=str(exc))
    return Attempt(
        raw=raw,
        calls=calls,
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=completion,
        seconds=seconds,
        finish=str(response["choices"][0].get("finish_reason", "")),
    )


class _Spent(Exception):
    """The answer's tokens are spent and the handler asked for more."""


class _Budget:
    """The loaded ``Llama`` as the handler sees it, each of its completions capped at what is left of the
    answer's ``max_tokens`` (the handler asks for ``max_tokens=None``: until the context is full)."""

    def __init__(self, llm: Any, max_tokens: int) -> None:
        self._llm = llm
        self.left = max_tokens
        self.texts: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llm, name)

    def create_completion(self, **kwargs: Any) -> Any:
        if self.left <= 0:
            raise _Spent
        asked = kwargs.get("max_tokens")
        kwargs["max_tokens"] = min(asked, self.left) if asked else self.left
        completion = self._llm.create_completion(**kwargs)
        self.left -= completion["usage"]["completion_tokens"]
        self.texts.append(completion["choices"][0]["text"])
        return completion


GENERIC_SYSTEM = (
    "Respond in JSON format, either with `tool_call` (a request to call tools) or with `response` reply to the "
    "user's request"
)
"""llama.cpp ``common_chat_params_init_generic``'s system addition."""

GENERIC_EXAMPLE = (
    '{\n  "tool_calls": [\n    {\n      "name": "tool_name",\n      "arguments": {\n        "arg1": "some_value"\n'
    '      },\n      "id": "call_1___"\n    }\n  ]\n}'
)
"""minja's example call for a template that cannot render calls (its ``tool_calls`` JSON polyfill)."""


def generic_schema(tools: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``common_chat_params_init_generic``'s schema, with parallel tool calls and ``tool_choice`` auto."""
    schemas: list[dict[str, Any]] = []
    for tool in tools:
        function = tool["function"]
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {
                "name": {"type": "string", "const": function["name"]},
                "arguments": function["parameters"],
                "id": {"type": "string", "minLength": 4},
            },
            "required": ["name", "arguments", "id"],
        }
        if "description" in function:
            schema["description"] = function["description"]
        schemas.append(schema)
    calls = {
        "type": "object",
        "properties": {
            "tool_calls": {
                "type": "array",
                "items": schemas[0] if len(schemas) == 1 else {"anyOf": schemas},
                "minItems": 1,
            }
        },
        "required": ["tool_calls"],
    }
    response = {"type": "object", "properties": {"response": {"type": "string"}}, "required": ["response"]}
    return {"anyOf": [calls, response]}


def _add_system(messages: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """minja's ``chat_template::add_system``."""
    if messages and messages[0]["role"] == "system":
        return [{"role": "system", "content": f"{messages[0]['content']}\n\n{text}"}, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


async def llama_generic(backend: Backend, question: Question, *, max_tokens: int) -> Attempt:
    """llama.cpp's generic tool mode (see the module docstring); ``backend`` must take a GBNF ``grammar``."""
    tools = openai_tools(question)
    grammar = schema_grammar(generic_schema(tools))
    messages = _add_system(copy.deepcopy(question.messages), GENERIC_SYSTEM)
    listing = (
        "You can call any of the following tools to satisfy the user's requests: "
        + json.dumps(tools, indent=2, ensure_ascii=False)
        + "\n\nExample tool call syntax:\n\n"
        + GENERIC_EXAMPLE
        + "\n\n"
    )
    messages = _add_system(messages, listing)
    start = time.perf_counter()
    if grammar is None:
        return Attempt(raw="", calls=None, malformed=True, detail="the schema does not convert to a grammar")
    text, result = await _generate(
        backend, _messages(messages), GenerationOptions(temperature=0.0, max_tokens=max_tokens, grammar=grammar)
    )
    seconds = time.perf_counter() - start
    usage = result.usage
    common: dict[str, Any] = {
        "raw": text,
        "prompt_tokens": usage.prompt_tokens if usage else None,
        "completion_tokens": usage.completion_tokens if usage else None,
        "seconds": seconds,
        "finish": result.finish_reason,
    }
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:  # cut at max_tokens: llama.cpp's parser calls it a partial message
        return Attempt(calls=None, malformed=True, detail=str(exc), **common)
    if isinstance(data, dict) and "tool_calls" in data:
        calls = [{c["name"]: c["arguments"]} for c in data["tool_calls"]]
        return Attempt(calls=calls, **common)
    return Attempt(calls=[], **common)


ANCHORS = ("bfcl-prompt", "chatml-function-calling", "llama-generic")
"""The anchors' configuration names, in report order."""
