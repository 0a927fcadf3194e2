"""OpenAI Chat Completions request (``POST /v1/chat/completions``) as a model, and its reduction to a `ChatRequest`.

Used: ``model``, ``messages``, ``stream``, ``stream_options.include_usage``, ``tools`` (any dialect),
``tool_choice`` (modes, a named function, ``allowed_tools``), ``parallel_tool_calls``, ``temperature``,
``top_p``, ``frequency_penalty``, ``presence_penalty``, ``max_tokens`` / ``max_completion_tokens``,
``stop``, ``seed``, ``grammar`` (llama.cpp's GBNF) and ``response_format`` (``json_object`` /
``json_schema``: `shim.constrain.structured`). Refused with 400, because ignoring them would give a
wrong answer: ``n`` other than 1, ``logprobs``, audio output, the
legacy ``functions`` / ``function_call``. Every other field is accepted and named in the response header
``x-shim-ignored-params``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from shim import types
from shim.backends.base import GenerationOptions
from shim.constrain.structured import parse_response_format
from shim.prompting import chat_messages
from shim.server.chat import ChatRequest
from shim.server.http import RequestError, is_obj
from shim.server.wire import ToolChoiceIn, Wire, check_image_url, structured
from shim.server.wire.tools import choose_tools, parse_tools

__all__ = ["ChatCompletionRequest", "check_messages", "to_chat"]

MAX_INT = 2**31 - 1
Temperature = Annotated[float, Field(ge=0, le=2, allow_inf_nan=False)]
Penalty = Annotated[float, Field(ge=-2, le=2, allow_inf_nan=False)]
Tokens = Annotated[int, Field(ge=1, le=MAX_INT)]


class FunctionCall(Wire):
    name: str
    arguments: str | dict[str, Any] = "{}"


class ToolCallIn(Wire):
    id: str | None = None
    type: Literal["function"] = "function"
    function: FunctionCall


class ChatMessage(Wire):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[dict[str, Any] | str] | None = None
    name: str | None = None
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = None


class StreamOptions(Wire):
    include_usage: bool | None = None


class ChatCompletionRequest(Wire):
    model: Any = None
    """Checked by the model registry, which lists the models when it is wrong."""
    messages: Annotated[list[ChatMessage], Field(min_length=1)]
    stream: bool | None = None
    stream_options: StreamOptions | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: ToolChoiceIn = None
    parallel_tool_calls: bool | None = None
    temperature: Temperature | None = None
    top_p: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    frequency_penalty: Penalty | None = None
    presence_penalty: Penalty | None = None
    max_tokens: Tokens | None = None
    max_completion_tokens: Tokens | None = None
    stop: str | list[str] | None = None
    seed: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] | None = None
    grammar: str | None = None
    n: Annotated[int, Field(ge=1, le=MAX_INT)] | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = None
    response_format: dict[str, Any] | None = None
    modalities: list[str] | None = None
    audio: dict[str, Any] | None = None
    functions: Any = None
    function_call: Any = None

    @field_validator("stop")
    @classmethod
    def _stops(cls, value: str | list[str] | None) -> str | list[str] | None:
        if isinstance(value, list) and any(not s for s in value):
            raise ValueError("stop sequences must not be empty")
        return value


_USED = frozenset(ChatCompletionRequest.model_fields) - {
    "n",
    "logprobs",
    "top_logprobs",
    "modalities",
    "audio",
    "functions",
    "function_call",
}


def to_chat(body: ChatCompletionRequest) -> tuple[ChatRequest, bool, bool, list[str]]:
    """The request the loop runs, ``stream``, ``include_usage``, and the fields ignored.

    Raises:
        RequestError: 400 for a field that is valid JSON but cannot be honoured.
    """
    _refuse_unsupported(body)
    tools = parse_tools(body.tools)
    tool_choice, tools = choose_tools(body.tool_choice, tools)
    _check_images(body.messages)
    messages = check_messages([m.model_dump(exclude_none=True) for m in body.messages])
    options = GenerationOptions(
        temperature=body.temperature,
        top_p=body.top_p,
        frequency_penalty=body.frequency_penalty,
        presence_penalty=body.presence_penalty,
        max_tokens=body.max_completion_tokens or body.max_tokens,
        stop=(body.stop,) if isinstance(body.stop, str) else tuple(body.stop or ()),
        seed=body.seed,
        grammar=body.grammar,
    )
    chat = ChatRequest(
        model=body.model,
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        parallel_tool_calls=body.parallel_tool_calls is not False,
        options=options,
        structured=structured(parse_response_format, body.response_format, "response_format"),
    )
    include_usage = body.stream_options is not None and body.stream_options.include_usage is True
    ignored = sorted(k for k in body.model_fields_set | set(body.model_extra or {}) if k not in _USED)
    return chat, body.stream is True, include_usage, ignored


def _refuse_unsupported(body: ChatCompletionRequest) -> None:
    if body.n not in (None, 1):
        raise RequestError(400, "only n=1 is supported (one choice per request)", param="n", code="unsupported")
    if body.logprobs or body.top_logprobs:
        raise RequestError(400, "logprobs are not supported by shim serve", param="logprobs", code="unsupported")
    if body.audio is not None or "audio" in (body.modalities or []):
        raise RequestError(400, "audio output is not supported", param="audio", code="unsupported")
    if body.functions is not None or body.function_call is not None:
        raise RequestError(
            400,
            "the legacy 'functions' / 'function_call' fields are not supported; send 'tools' / 'tool_choice'",
            param="functions",
            code="unsupported",
        )


def _check_images(messages: list[ChatMessage]) -> None:
    """Every ``image_url`` part holds a usable URL (a malformed ``data:`` URL is a 400 naming its field)."""
    for n, message in enumerate(messages):
        for m, part in enumerate(message.content if isinstance(message.content, list) else []):
            if isinstance(part, dict) and part.get("type") == "image_url":
                image = part.get("image_url")
                where = f"messages[{n}].content[{m}].image_url"
                if is_obj(image):
                    check_image_url(image.get("url"), f"{where}.url")
                else:
                    check_image_url(image, where)


def check_messages(messages: list[dict[str, Any]]) -> list[types.ChatMessage]:
    """Every message read into the typed conversation the loop runs on (`shim.prompting.chat_messages`, the one
    reader: the loop takes these as they are). Only the messages: the tools and the tool choice are the loop's
    to check, against the server's tools too.

    Raises:
        RequestError: 400 saying which message is wrong.
    """
    if not messages:
        raise RequestError(400, "'messages' must be a non-empty list of messages", param="messages")
    _check_result_ids(messages)
    try:
        return chat_messages(messages)
    except (ValueError, TypeError, RecursionError) as exc:
        raise RequestError(400, f"the messages cannot be used: {exc}", param="messages") from None


def _check_result_ids(messages: list[dict[str, Any]]) -> None:
    """Every tool result that names a call id answers a call made earlier in the conversation, as OpenAI and
    Anthropic require: a result for no call would reach the model as an answer to nothing.

    Raises:
        RequestError: 400 naming the result's id.
    """
    calls: set[str] = set()
    anonymous = False  # a call without an id (Ollama's have none): its result cannot be matched by id
    for message in messages:
        for call in message.get("tool_calls") or ():
            if is_obj(call) and isinstance(call.get("id"), str):
                calls.add(call["id"])
            else:
                anonymous = True
        result_id = message.get("tool_call_id")
        if message.get("role") == "tool" and isinstance(result_id, str) and result_id not in calls and not anonymous:
            raise RequestError(
                400,
                f"the tool result for call id {result_id!r} answers no call: no earlier assistant message has a "
                "tool call with that id",
                param="messages",
            )
