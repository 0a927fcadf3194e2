"""Ollama's ``POST /api/chat`` and ``POST /api/generate`` requests as models, reduced to a `ChatRequest`.

Messages come back as ``{"role": "tool", "tool_name": ..., "content": ...}`` for results (matched to calls
by name: Ollama's calls have no ids) and ``images`` as base64 lists. ``options`` that every engine
understands (``temperature``, ``top_p``, ``frequency_penalty``, ``presence_penalty``, ``num_predict``,
``stop``, ``seed``) become the request's sampling options; ``think``, ``keep_alive`` and the other model
options are passed to Ollama backends as they are (and the llama.cpp sampling ones to llama.cpp).
``think: false`` hides reasoning from the answer on every backend. ``format`` (structured output) is
handed on as the request's ``response_format``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import Field

from shim.backends.base import Backend, GenerationOptions
from shim.constrain.structured import parse_ollama_format
from shim.server.chat import ChatRequest
from shim.server.http import RequestError
from shim.server.wire import Wire, image_data_url, structured
from shim.server.wire.openai_chat import MAX_INT, check_messages
from shim.server.wire.tools import parse_tools

__all__ = ["GenerateRequest", "OllamaChatRequest", "OllamaExtras", "chat_request", "engine_options", "generate_request"]

Think = bool | Literal["low", "medium", "high"]
KeepAlive = str | int | float


class OllamaFunction(Wire):
    name: str
    arguments: dict[str, Any] | str | None = None


class OllamaCall(Wire):
    function: OllamaFunction


class OllamaMessage(Wire):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    images: list[str] | None = None
    tool_calls: list[OllamaCall] | None = None
    tool_name: str | None = None
    name: str | None = None
    tool_call_id: str | None = None
    thinking: str | None = None


class Options(Wire):
    """Model options; the typed ones are checked, the rest go to Ollama engines as they are."""

    temperature: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] | None = None
    top_p: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    frequency_penalty: Annotated[float, Field(ge=-100, le=100, allow_inf_nan=False)] | None = None
    presence_penalty: Annotated[float, Field(ge=-100, le=100, allow_inf_nan=False)] | None = None
    num_predict: Annotated[int, Field(ge=-2, le=MAX_INT)] | None = None
    stop: list[str] | None = None
    seed: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] | None = None


class _Common(Wire):
    model: Any = None
    stream: bool | None = None
    format: str | dict[str, Any] | None = None
    options: Options | None = None
    think: Think | None = None
    keep_alive: KeepAlive | None = None


class OllamaChatRequest(_Common):
    messages: Annotated[list[OllamaMessage], Field(min_length=1)]
    tools: list[dict[str, Any]] | None = None


class GenerateRequest(_Common):
    prompt: str = ""
    system: str | None = None
    suffix: str | None = None
    template: str | None = None
    raw: bool | None = None
    images: list[str] | None = None
    context: list[int] | None = None


class OllamaExtras:
    """What an Ollama request asks of the engine beyond the common options (known once the model is)."""

    def __init__(self, body: _Common) -> None:
        self.think = body.think
        self.keep_alive = body.keep_alive
        self.model_options = dict(body.options.model_extra or {}) if body.options is not None else {}

    @property
    def hide_thinking(self) -> bool:
        return self.think is False


def chat_request(body: OllamaChatRequest) -> tuple[ChatRequest, bool, OllamaExtras]:
    """The request the loop runs, ``stream`` (Ollama streams by default), and the engine extras.

    Raises:
        RequestError: 400 naming what is wrong.
    """
    tools = parse_tools(body.tools)
    messages = check_messages([_message(n, m) for n, m in enumerate(body.messages)])
    chat = ChatRequest(
        model=body.model,
        messages=messages,
        tools=tools,
        options=_options(body.options),
        structured=structured(parse_ollama_format, body.format, "format"),
    )
    return chat, body.stream is not False, OllamaExtras(body)


def generate_request(body: GenerateRequest) -> tuple[ChatRequest, bool, OllamaExtras]:
    """``/api/generate`` as a one-turn chat: ``system`` then ``prompt``.

    Raises:
        RequestError: 400 for what cannot be honoured (``raw``, ``suffix``, ``template``, ``context``), saying
            why, and for ``images`` that are not base64.
    """
    if body.raw:
        raise RequestError(
            400, "'raw' prompts are not supported: the engines here take chat messages; leave 'raw' out", param="raw"
        )
    for field in ("suffix", "template"):
        if getattr(body, field):
            raise RequestError(400, f"'{field}' is not supported by shim serve; leave it out", param=field)
    if body.context:
        raise RequestError(
            400, "'context' is not supported: send the conversation to /api/chat instead", param="context"
        )
    messages: list[dict[str, Any]] = [{"role": "system", "content": body.system}] if body.system else []
    messages.append({"role": "user", "content": _with_images(body.prompt, body.images or [], "images")})
    chat = ChatRequest(
        model=body.model,
        messages=check_messages(messages),
        options=_options(body.options),
        structured=structured(parse_ollama_format, body.format, "format"),
    )
    return chat, body.stream is not False, OllamaExtras(body)


def engine_options(options: GenerationOptions, extras: OllamaExtras, backend: Backend) -> GenerationOptions:
    """``options`` with the extras the serving engine takes (`Backend.extra_keys`): Ollama's own fields, and its
    model ``options`` whole where the engine takes them so, else one by one (llama.cpp's sampling parameters)."""
    keys = backend.extra_keys
    extra: dict[str, Any] = {}
    if extras.think is not None and "think" in keys:
        extra["think"] = extras.think
    if extras.keep_alive is not None and "keep_alive" in keys:
        extra["keep_alive"] = extras.keep_alive
    if extras.model_options and "options" in keys:
        extra["options"] = extras.model_options
    elif extras.model_options:
        extra |= {k: v for k, v in extras.model_options.items() if k in keys}
    return replace(options, extra={**options.extra, **extra}) if extra else options


def _options(options: Options | None) -> GenerationOptions:
    if options is None:
        return GenerationOptions()
    return GenerationOptions(
        temperature=options.temperature,
        top_p=options.top_p,
        frequency_penalty=options.frequency_penalty,
        presence_penalty=options.presence_penalty,
        max_tokens=options.num_predict if options.num_predict is not None and options.num_predict > 0 else None,
        stop=tuple(s for s in options.stop or () if s),
        seed=options.seed,
    )


def _with_images(text: str, images: list[str], where: str) -> str | list[dict[str, Any]]:
    """A message's text with its base64 ``images`` as ``image_url`` parts (the same on ``/api/chat`` and
    ``/api/generate``); the text alone when there are none."""
    if not images:
        return text
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for m, image in enumerate(images):  # Ollama's images carry no type: the bytes tell it
        url = image_data_url(image, None, f"{where}[{m}]")
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


def _message(n: int, message: OllamaMessage) -> dict[str, Any]:
    content = _with_images(message.content or "", message.images or [], f"messages[{n}].images")
    out: dict[str, Any] = {"role": message.role, "content": content}
    if message.tool_calls:
        out["tool_calls"] = [_openai_call(c) for c in message.tool_calls]
    if message.role == "tool":
        name = message.tool_name or message.name
        if name:
            out["name"] = name
        if message.tool_call_id:
            out["tool_call_id"] = message.tool_call_id
    return out


def _openai_call(call: OllamaCall) -> dict[str, Any]:
    arguments = call.function.arguments or {}
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    # No id: Ollama clients send none back, and tool results are then matched to calls by name.
    return {"type": "function", "function": {"name": call.function.name, "arguments": text}}
