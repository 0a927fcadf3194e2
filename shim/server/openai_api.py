"""The OpenAI-compatible surface: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /v1/models/{id}``.

Request fields:

- used: ``model``, ``messages``, ``stream``, ``stream_options.include_usage``, ``tools``, ``tool_choice``,
  ``parallel_tool_calls``, ``temperature``, ``max_tokens`` / ``max_completion_tokens``, ``stop``, ``seed``,
  ``grammar`` (llama.cpp's GBNF, an extension honoured by llama.cpp backends), and ``response_format``
  (``json_object`` / ``json_schema``: see `shim.constrain.structured`; the response header
  ``x-shim-structured-output`` names the method used);
- refused with 400, because ignoring them would give a wrong answer: ``n`` other than 1, ``logprobs``,
  audio output, the legacy ``functions`` / ``function_call``;
- ignored (every other field, e.g. ``top_p``, ``user``, ``metadata``): named in the response header
  ``x-shim-ignored-params``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache, partial
from typing import Any

from jsonschema import SchemaError
from jsonschema.validators import validator_for
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.backends.base import GenerationOptions
from shim.constrain.structured import parse_response_format, structured_header
from shim.prompting import normalize_tool_choice, render_messages
from shim.server.chat import ChatRequest, Output, run_chat
from shim.server.http import RequestError, Watched, is_obj, read_json, write_collected, write_stream
from shim.server.models import ServerState
from shim.server.sse import DONE, ChunkEncoder, completion_body, error_body, sse
from shim.types import ToolSpec

__all__ = ["chat_completions", "check_messages", "list_models", "parse_tools", "retrieve_model"]

_USED = frozenset(
    {
        "model",
        "messages",
        "stream",
        "stream_options",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "temperature",
        "max_tokens",
        "max_completion_tokens",
        "stop",
        "seed",
        "grammar",
        "response_format",
    }
)
_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.:\-]{1,128}$")


def openai_error(error: RequestError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=error.status)


async def chat_completions(request: Request) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        body = await read_json(request, limit=state.max_body)
        chat, stream, include_usage, ignored = parse_request(body)
        entry = state.models.get(chat.model)
    except RequestError as exc:
        return openai_error(exc)
    headers = [(b"x-shim-ignored-params", ",".join(ignored).encode())] if ignored else []
    headers += structured_header(entry.backend, chat, server_tools=state.tools is not None)  # response_format
    outputs = run_chat(entry.backend, chat, tools=state.tools, settings=state.loop, rounds=state.rounds)
    encoder = _SSE(ChunkEncoder(entry.name, include_usage=include_usage))
    if stream:
        return Watched(partial(write_stream, outputs=outputs, encoder=encoder, headers=headers))
    build = partial(_completion, entry.name)
    return Watched(partial(write_collected, outputs=outputs, encoder=encoder, build=build, headers=headers))


def _completion(model: str, outputs: list[Output]) -> dict[str, Any]:
    return completion_body(model, outputs)


class _SSE:
    """`ChunkEncoder` as the `Encoder` the writers take."""

    media_type = b"text/event-stream; charset=utf-8"

    def __init__(self, chunks: ChunkEncoder) -> None:
        self.chunks = chunks

    def begin(self) -> list[bytes]:
        return [sse(self.chunks.first())]

    def encode(self, output: Output) -> list[bytes]:
        return [sse(chunk) for chunk in self.chunks.encode(output)]

    def end(self) -> list[bytes]:
        return [DONE]

    def stream_error(self, error: RequestError) -> bytes:
        return sse(error_body(error))

    def error_body(self, error: RequestError) -> Any:
        return error_body(error)


def parse_request(body: Any) -> tuple[ChatRequest, bool, bool, list[str]]:
    """Check a chat-completions body; return the request, ``stream``, ``include_usage`` and ignored fields.

    Raises:
        RequestError: 400, naming the field and what is wrong with it.
    """
    if not isinstance(body, dict):
        raise RequestError(400, "the request body must be a JSON object", code="invalid_json")
    data: dict[str, Any] = body  # pyright: ignore[reportUnknownVariableType]
    _refuse_unsupported(data)
    tools = parse_tools(data.get("tools"))
    tool_choice = data.get("tool_choice", "auto")
    try:
        normalize_tool_choice(tool_choice, [t.name for t in tools])
    except ValueError as exc:
        raise RequestError(400, str(exc), param="tool_choice") from None
    if tool_choice == "required" and not tools:
        raise RequestError(400, "tool_choice 'required' needs 'tools'", param="tool_choice")
    messages = check_messages(data.get("messages"), tools, tool_choice)
    stream = _typed(data, "stream", bool, False)
    stream_options = _typed(data, "stream_options", dict, {})
    include_usage = stream_options.get("include_usage") is True
    parallel = _typed(data, "parallel_tool_calls", bool, True)
    max_tokens = data.get("max_completion_tokens", data.get("max_tokens"))
    stop = data.get("stop")
    options = GenerationOptions(
        temperature=_number(data, "temperature", 0, 2),
        max_tokens=_positive_int(max_tokens, "max_tokens"),
        stop=_stop(stop),
        seed=_int_or_none(data, "seed"),
        grammar=_typed(data, "grammar", str, None),
    )
    try:  # structured output: shim.constrain.structured
        structured = parse_response_format(data.get("response_format"))
    except ValueError as exc:
        raise RequestError(400, str(exc), param="response_format") from None
    chat = ChatRequest(
        model=data.get("model"),  # checked by the registry, which lists the models
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        parallel_tool_calls=parallel,
        options=options,
        structured=structured,
    )
    ignored = sorted(k for k in data if k not in _USED)
    return chat, stream, include_usage, ignored


def _refuse_unsupported(data: dict[str, Any]) -> None:
    if data.get("n") not in (None, 1):
        raise RequestError(400, "only n=1 is supported (one choice per request)", param="n", code="unsupported")
    if data.get("logprobs") or data.get("top_logprobs"):
        raise RequestError(400, "logprobs are not supported by shim serve", param="logprobs", code="unsupported")
    if data.get("audio") is not None or "audio" in (data.get("modalities") or []):
        raise RequestError(400, "audio output is not supported", param="audio", code="unsupported")
    if "functions" in data or "function_call" in data:
        raise RequestError(
            400,
            "the legacy 'functions' / 'function_call' fields are not supported; send 'tools' / 'tool_choice'",
            param="functions",
            code="unsupported",
        )


def parse_tools(value: Any, *, where: str = "tools") -> list[ToolSpec]:
    """Check OpenAI-style tools (``{"type": "function", "function": {name, description, parameters}}``).

    Raises:
        RequestError: 400 naming the tool and the field at fault.
    """
    if value is None:
        return []
    if not isinstance(value, list):
        raise RequestError(400, f"'{where}' must be a list of tools", param=where)
    specs: list[ToolSpec] = []
    seen: set[str] = set()
    tools: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
    for n, tool in enumerate(tools):
        param = f"{where}[{n}]"
        function = tool.get("function") if is_obj(tool) else None
        if not is_obj(function) or not is_obj(tool) or tool.get("type", "function") != "function":
            raise RequestError(400, f"{param} must be {{'type': 'function', 'function': {{'name': ...}}}}", param=param)
        name = function.get("name")
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            raise RequestError(
                400,
                f"{param}.function.name must be 1-128 letters, digits, '_', '-', '.' or ':'; got {name!r}",
                param=f"{param}.function.name",
            )
        if name in seen:
            raise RequestError(400, f"{param}: the tool name {name!r} is used twice", param=f"{param}.function.name")
        seen.add(name)
        parameters = function.get("parameters", {"type": "object", "properties": {}})
        if not is_obj(parameters):
            raise RequestError(400, f"{param}.function.parameters must be a JSON Schema object", param=param)
        problem = _schema_problem(json.dumps(parameters, sort_keys=True))
        if problem is not None:
            raise RequestError(400, f"{param}.function.parameters is not a valid JSON Schema: {problem}", param=param)
        specs.append(ToolSpec.from_any(function))
    return specs


@lru_cache(maxsize=1024)
def _schema_problem(schema: str) -> str | None:
    """What is wrong with a schema (JSON text), or None; cached, as clients send the same tools every time
    and checking against the meta-schema is the slowest part of reading a request."""
    parameters = json.loads(schema)
    try:
        validator_for(parameters).check_schema(parameters)
    except SchemaError as exc:
        return exc.message
    return None


def check_messages(value: Any, tools: list[ToolSpec], tool_choice: Any) -> list[dict[str, Any]]:
    """Check that the messages can be rendered for the model (the same rendering the loop will do).

    Raises:
        RequestError: 400 saying which message is wrong.
    """
    if not isinstance(value, list) or not value:
        raise RequestError(400, "'messages' must be a non-empty list of messages", param="messages")
    messages: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
    for n, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):  # pyright: ignore[reportUnknownMemberType]
            raise RequestError(400, f"messages[{n}] must be an object with a 'role'", param=f"messages[{n}]")
    try:
        render_messages(messages, tools, tool_choice=tool_choice if tools else "none")
    except ValueError as exc:
        raise RequestError(400, f"the messages cannot be used: {exc}", param="messages") from None
    return messages


def _typed(data: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, kind):
        raise RequestError(400, f"'{key}' must be a {kind.__name__}; got {value!r}", param=key)
    return value


def _number(data: dict[str, Any], key: str, low: float, high: float) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise RequestError(400, f"'{key}' must be a number from {low} to {high}; got {value!r}", param=key)
    return float(value)


def _positive_int(value: Any, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RequestError(400, f"'{key}' must be a whole number of at least 1; got {value!r}", param=key)
    return value


def _int_or_none(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(400, f"'{key}' must be a whole number; got {value!r}", param=key)
    return value


def _stop(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    items: list[Any] = value if isinstance(value, list) else [None]  # pyright: ignore[reportUnknownVariableType]
    if all(isinstance(s, str) for s in items):
        return tuple(items)
    raise RequestError(400, f"'stop' must be a string or a list of strings; got {value!r}", param="stop")


async def list_models(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    return JSONResponse({"object": "list", "data": [_model(e.name, e.created) for e in state.models.entries()]})


async def retrieve_model(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    try:
        entry = state.models.get(request.path_params["model"])
    except RequestError as exc:
        return openai_error(exc)
    return JSONResponse(_model(entry.name, entry.created))


def _model(name: str, created: int) -> dict[str, Any]:
    return {"id": name, "object": "model", "created": created, "owned_by": "shim"}
