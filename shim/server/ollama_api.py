"""The Ollama-compatible surface: ``POST /api/chat``, ``POST /api/generate``, ``GET /api/tags``, ``GET /api/ps``,
``POST /api/show``, ``GET /api/version``.

``/api/chat`` and ``/api/generate`` stream NDJSON by default (``"stream": false`` for one object). Calls come
back as ``message.tool_calls[{"function": {"name", "arguments": {...}}}]`` with arguments as an object,
reasoning as ``message.thinking`` (``thinking`` on ``/api/generate``); the last line has ``"done": true`` and
``done_reason`` (``stop``, or ``length``). The request fields are declared in `shim.server.wire.ollama`.
``/api/show`` describes a model by its alias only: never the backend spec, an engine URL or a file path.
``format`` (structured output) is answered as `shim.constrain.structured` describes (the response header
``x-shim-structured-output`` names the method used).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.__about__ import __version__
from shim.server.chat import CallOut, ChatRequest, FinishOut, Output, ReasoningOut, TextOut
from shim.server.http import (
    RequestError,
    Watched,
    is_obj,
    json_bytes,
    read_json,
    respond,
)
from shim.server.models import ModelEntry, ServerState
from shim.server.surfaces import error_body as surface_error_body
from shim.server.wire import validate
from shim.server.wire.ollama import GenerateRequest, OllamaChatRequest, OllamaExtras, engine_options, generate_request
from shim.server.wire.ollama import chat_request as chat_request_of

__all__ = ["OLLAMA_VERSION", "chat", "generate", "ps", "show", "tags", "version"]

OLLAMA_VERSION = "0.12.0"
"""The Ollama version reported by ``/api/version``: clients check it before using tools (0.3+) and thinking."""


def ollama_error(error: RequestError) -> JSONResponse:
    return JSONResponse(surface_error_body("ollama", error), status_code=error.status)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


async def chat(request: Request) -> Response | Watched:
    return await _respond(request, generate=False)


async def generate(request: Request) -> Response | Watched:
    return await _respond(request, generate=True)


def _read_chat(body: Any) -> tuple[ChatRequest, bool, OllamaExtras]:
    return chat_request_of(validate(OllamaChatRequest, body))


def _read_generate(body: Any) -> tuple[ChatRequest, bool, OllamaExtras]:
    return generate_request(validate(GenerateRequest, body))


async def _respond(request: Request, *, generate: bool) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        chat_request, stream, extras = await state.read(request, _read_generate if generate else _read_chat)
        entry = state.models.get(chat_request.model)
    except RequestError as exc:
        return ollama_error(exc)
    chat_request = replace(chat_request, options=engine_options(chat_request.options, extras, entry.backend))
    outputs = await state.outputs(entry, chat_request)
    encoder = _NDJSON(entry.name, generate=generate, hide_thinking=extras.hide_thinking)
    return respond(outputs, encoder, stream=stream, build=encoder.whole, headers=[])


class _NDJSON:
    """One ``/api/chat`` or ``/api/generate`` response as Ollama writes it."""

    media_type = b"application/x-ndjson"

    def __init__(self, model: str, *, generate: bool = False, hide_thinking: bool = False) -> None:
        self.model = model
        self.generate = generate
        self.hide_thinking = hide_thinking
        self.started = time.perf_counter_ns()

    def _body(self, text: str, thinking: str | None, calls: list[dict[str, Any]]) -> dict[str, Any]:
        """The content part of a line: ``message`` for chat, ``response`` / ``thinking`` for generate."""
        if self.generate:
            return {"response": text} | ({"thinking": thinking} if thinking else {})
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if thinking:
            message["thinking"] = thinking
        if calls:
            message["tool_calls"] = calls
        return {"message": message}

    def _line(self, text: str, thinking: str | None = None, calls: list[dict[str, Any]] | None = None) -> bytes:
        data = {"model": self.model, "created_at": _now(), **self._body(text, thinking, calls or []), "done": False}
        return json_bytes(data) + b"\n"

    def begin(self) -> list[bytes]:
        return []

    def encode(self, output: Output) -> list[bytes]:
        match output:
            case TextOut():
                return [self._line(output.text)]
            case ReasoningOut():
                return [] if self.hide_thinking else [self._line("", thinking=output.text)]
            case CallOut():
                return [self._line("", calls=[_call(output)])]
            case FinishOut():
                return [json_bytes(self._final(output, "", None, [])) + b"\n"]

    def _final(self, finish: FinishOut, text: str, thinking: str | None, calls: list[dict[str, Any]]) -> dict[str, Any]:
        elapsed = time.perf_counter_ns() - self.started
        final: dict[str, Any] = {
            "model": self.model,
            "created_at": _now(),
            **self._body(text, thinking, calls),
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
        if self.generate:
            final["context"] = []
        return final

    def end(self) -> list[bytes]:
        return []

    def stream_error(self, error: RequestError) -> bytes:
        return json_bytes({"error": error.message}) + b"\n"

    def error_body(self, error: RequestError) -> Any:
        return {"error": error.message}

    def whole(self, outputs: list[Output]) -> dict[str, Any]:
        """The ``"stream": false`` answer."""
        text = "".join(o.text for o in outputs if isinstance(o, TextOut))
        thinking = "".join(o.text for o in outputs if isinstance(o, ReasoningOut))
        calls = [_call(o) for o in outputs if isinstance(o, CallOut)]
        finish = next(o for o in outputs if isinstance(o, FinishOut))
        return self._final(finish, text, None if self.hide_thinking else thinking or None, calls)


def _call(call: CallOut) -> dict[str, Any]:
    return {"id": call.id, "function": {"index": call.index, "name": call.name, "arguments": call.arguments}}


async def tags(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    return JSONResponse({"models": [_tag(e) for e in state.models.entries()]})


async def ps(request: Request) -> Response:
    """The models "loaded": every configured one is ready to answer (engines load on first use)."""
    state: ServerState = request.app.state.shim
    later = datetime.now(timezone.utc) + timedelta(hours=24)
    expires = later.isoformat().replace("+00:00", "Z")
    models = [
        {k: v for k, v in _tag(e).items() if k != "modified_at"} | {"expires_at": expires, "size_vram": 0}
        for e in state.models.entries()
    ]
    return JSONResponse({"models": models})


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
        # Of the alias, not the spec: a spec may hold an engine URL with credentials, or a file path.
        "digest": hashlib.sha256(entry.name.encode()).hexdigest(),
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
            # The alias only: the backend spec names engine URLs (maybe with credentials) and server file paths.
            "modelfile": f"# {entry.name}, served by shim {__version__}\n",
            "parameters": "",
            "template": "",
            "details": _details(),
            "model_info": {"general.architecture": "shim", "general.name": entry.name},
            # Tools work for every model here: that is what shim adds.
            "capabilities": ["completion", "tools", "thinking"],
            "modified_at": _now(),
        }
    )


async def version(request: Request) -> Response:
    del request
    return JSONResponse({"version": OLLAMA_VERSION})
