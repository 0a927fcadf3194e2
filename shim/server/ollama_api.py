"""The Ollama-compatible surface: ``POST /api/chat``, ``GET /api/tags``, ``POST /api/show``, ``GET /api/version``.

``/api/chat`` streams NDJSON by default (``"stream": false`` for one object). Calls come back as
``message.tool_calls[{"function": {"name", "arguments": {...}}}]`` with arguments as an object, reasoning
as ``message.thinking``; the last line has ``"done": true`` and ``done_reason`` (``stop``, or ``length``).
Tool results come back as ``{"role": "tool", "tool_name": ..., "content": ...}``, matched to the calls by
name (Ollama's calls have no ids). Request ``options`` used: ``temperature``, ``num_predict``, ``stop``,
``seed``; others are ignored. ``format`` (structured output) is answered as `shim.constrain.structured`
describes (the response header ``x-shim-structured-output`` names the method used).
"""

from __future__ import annotations

import hashlib
import json
import time
from datetime import datetime, timezone
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.__about__ import __version__
from shim.backends.base import GenerationOptions
from shim.constrain.structured import parse_ollama_format, structured_header
from shim.server.chat import CallOut, ChatRequest, FinishOut, Output, ReasoningOut, TextOut, run_chat
from shim.server.http import RequestError, Watched, is_obj, json_bytes, read_json, write_collected, write_stream
from shim.server.models import ModelEntry, ServerState
from shim.server.openai_api import check_messages, parse_tools

__all__ = ["OLLAMA_VERSION", "chat", "show", "tags", "version"]

OLLAMA_VERSION = "0.12.0"
"""The Ollama version reported by ``/api/version``: clients check it before using tools (0.3+) and thinking."""


def ollama_error(error: RequestError) -> JSONResponse:
    return JSONResponse({"error": error.message}, status_code=error.status)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


async def chat(request: Request) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        body = await read_json(request, limit=state.max_body)
        chat_request, stream = parse_request(body)
        entry = state.models.get(chat_request.model)
    except RequestError as exc:
        return ollama_error(exc)
    outputs = run_chat(entry.backend, chat_request, tools=state.tools, settings=state.loop, rounds=state.rounds)
    encoder = _NDJSON(entry.name)
    headers = structured_header(entry.backend, chat_request, server_tools=state.tools is not None)  # format
    if stream:
        return Watched(partial(write_stream, outputs=outputs, encoder=encoder, headers=headers))
    return Watched(partial(write_collected, outputs=outputs, encoder=encoder, build=encoder.whole, headers=headers))


class _NDJSON:
    """One ``/api/chat`` response as Ollama writes it."""

    media_type = b"application/x-ndjson"

    def __init__(self, model: str) -> None:
        self.model = model
        self.started = time.perf_counter_ns()

    def _line(self, message: dict[str, Any]) -> bytes:
        data = {"model": self.model, "created_at": _now(), "message": {"role": "assistant", **message}, "done": False}
        return json_bytes(data) + b"\n"

    def begin(self) -> list[bytes]:
        return []

    def encode(self, output: Output) -> list[bytes]:
        match output:
            case TextOut():
                return [self._line({"content": output.text})]
            case ReasoningOut():
                return [self._line({"content": "", "thinking": output.text})]
            case CallOut():
                return [self._line({"content": "", "tool_calls": [_call(output)]})]
            case FinishOut():
                return [json_bytes(self._final(output, {"role": "assistant", "content": ""})) + b"\n"]

    def _final(self, finish: FinishOut, message: dict[str, Any]) -> dict[str, Any]:
        elapsed = time.perf_counter_ns() - self.started
        return {
            "model": self.model,
            "created_at": _now(),
            "message": message,
            "done": True,
            # Ollama has no "tool_calls" reason: a turn that calls tools ends with "stop".
            "done_reason": "length" if finish.reason == "length" else "stop",
            "total_duration": elapsed,
            "load_duration": 0,
            "prompt_eval_count": finish.prompt_tokens,
            "prompt_eval_duration": 0,
            "eval_count": finish.completion_tokens,
            "eval_duration": elapsed,
        }

    def end(self) -> list[bytes]:
        return []

    def stream_error(self, error: RequestError) -> bytes:
        return json_bytes({"error": error.message}) + b"\n"

    def error_body(self, error: RequestError) -> Any:
        return {"error": error.message}

    def whole(self, outputs: list[Output]) -> dict[str, Any]:
        """The ``"stream": false`` answer."""
        message: dict[str, Any] = {
            "role": "assistant",
            "content": "".join(o.text for o in outputs if isinstance(o, TextOut)),
        }
        thinking = "".join(o.text for o in outputs if isinstance(o, ReasoningOut))
        if thinking:
            message["thinking"] = thinking
        calls = [_call(o) for o in outputs if isinstance(o, CallOut)]
        if calls:
            message["tool_calls"] = calls
        finish = next(o for o in outputs if isinstance(o, FinishOut))
        return self._final(finish, message)


def _call(call: CallOut) -> dict[str, Any]:
    return {"id": call.id, "function": {"index": call.index, "name": call.name, "arguments": call.arguments}}


def parse_request(body: Any) -> tuple[ChatRequest, bool]:
    """Check an ``/api/chat`` body and turn its messages into OpenAI-style ones.

    Raises:
        RequestError: 400 naming what is wrong.
    """
    if not isinstance(body, dict):
        raise RequestError(400, "the request body must be a JSON object")
    data: dict[str, Any] = body  # pyright: ignore[reportUnknownVariableType]
    try:  # structured output: shim.constrain.structured
        structured = parse_ollama_format(data.get("format"))
    except ValueError as exc:
        raise RequestError(400, str(exc)) from None
    tools = parse_tools(data.get("tools"))
    raw_messages = data.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise RequestError(400, "'messages' must be a non-empty list of messages")
    messages = check_messages([_message(n, m) for n, m in enumerate(raw_messages)], tools, "auto")  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    options: Any = data.get("options") or {}
    if not isinstance(options, dict):
        raise RequestError(400, "'options' must be an object")
    stream = data.get("stream", True)
    if not isinstance(stream, bool):
        raise RequestError(400, f"'stream' must be true or false; got {stream!r}")
    chat_request = ChatRequest(
        model=data.get("model"),  # checked by the registry, which lists the models
        messages=messages,
        tools=tools,
        options=_options(options),  # pyright: ignore[reportUnknownArgumentType]
        structured=structured,
    )
    return chat_request, stream


def _message(n: int, message: Any) -> dict[str, Any]:
    if not isinstance(message, dict):
        raise RequestError(400, f"messages[{n}] must be an object with a 'role'")
    m: dict[str, Any] = message  # pyright: ignore[reportUnknownVariableType]
    out: dict[str, Any] = {"role": m.get("role"), "content": m.get("content") or ""}
    images: Any = m.get("images")
    if isinstance(images, list) and images:
        parts: list[dict[str, Any]] = [{"type": "text", "text": out["content"]}]
        parts += [{"type": "image_url", "image_url": {"url": f"data:image/*;base64,{i}"}} for i in images]  # pyright: ignore[reportUnknownVariableType]
        out["content"] = parts
    calls: Any = m.get("tool_calls")
    if isinstance(calls, list) and calls:
        out["tool_calls"] = [_openai_call(n, c) for c in calls]  # pyright: ignore[reportUnknownVariableType]
    if m.get("role") == "tool":
        name = m.get("tool_name") or m.get("name")
        if name:
            out["name"] = name
        if m.get("tool_call_id"):
            out["tool_call_id"] = m["tool_call_id"]
    return out


def _openai_call(n: int, call: Any) -> dict[str, Any]:
    function = call.get("function") if is_obj(call) else None
    if not is_obj(function) or not isinstance(function.get("name"), str):
        shape = "{'function': {'name': ..., 'arguments': {...}}}"
        raise RequestError(400, f"messages[{n}].tool_calls: each call needs {shape}")
    arguments: Any = function.get("arguments") or {}
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    # No id: Ollama clients send none back, and tool results are then matched to calls by name.
    return {"type": "function", "function": {"name": function["name"], "arguments": text}}


def _options(options: dict[str, Any]) -> GenerationOptions:
    temperature = options.get("temperature")
    num_predict = options.get("num_predict")
    stop = options.get("stop")
    seed = options.get("seed")
    return GenerationOptions(
        temperature=float(temperature) if isinstance(temperature, int | float) else None,
        max_tokens=num_predict if isinstance(num_predict, int) and num_predict > 0 else None,
        stop=tuple(s for s in stop if isinstance(s, str)) if isinstance(stop, list) else (),  # pyright: ignore[reportUnknownVariableType]
        seed=seed if isinstance(seed, int) else None,
        grammar=options.get("grammar") if isinstance(options.get("grammar"), str) else None,
    )


async def tags(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    return JSONResponse({"models": [_tag(e) for e in state.models.entries()]})


def _details() -> dict[str, Any]:
    return {
        "parent_model": "",
        "format": "shim",
        "family": "shim",
        "families": ["shim"],
        "parameter_size": "",
        "quantization_level": "",
    }


def _tag(entry: ModelEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "model": entry.name,
        "modified_at": datetime.fromtimestamp(entry.created, timezone.utc).isoformat().replace("+00:00", "Z"),
        "size": 0,
        "digest": hashlib.sha256(entry.spec.encode()).hexdigest(),
        "details": _details(),
    }


async def show(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    try:
        body = await read_json(request, limit=state.max_body)
        name = (body.get("model") or body.get("name")) if is_obj(body) else None
        entry = state.models.get(name)
    except RequestError as exc:
        return ollama_error(exc)
    return JSONResponse(
        {
            "modelfile": f"# served by shim {__version__}: {entry.spec}\n",
            "parameters": "",
            "template": "",
            "details": _details(),
            "model_info": {"general.architecture": "shim", "shim.backend": entry.spec},
            # Tools work for every model here: that is what shim adds.
            "capabilities": ["completion", "tools", "thinking"],
            "modified_at": _now(),
        }
    )


async def version(request: Request) -> Response:
    del request
    return JSONResponse({"version": OLLAMA_VERSION})
