"""The OpenAI-compatible surface: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /v1/models/{id}``.

The request fields are declared in `shim.server.wire.openai_chat` (which says which are used, refused and
ignored); ignored ones are named in the response header ``x-shim-ignored-params``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.server.chat import ChatRequest, Output
from shim.server.http import RequestError, Watched, names_header, respond
from shim.server.models import ServerState
from shim.server.sse import DONE, ChunkEncoder, completion_body, error_body, sse
from shim.server.wire import validate
from shim.server.wire.openai_chat import ChatCompletionRequest, to_chat

__all__ = ["chat_completions", "list_models", "openai_error", "parse_request", "retrieve_model"]


def openai_error(error: RequestError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=error.status)


async def chat_completions(request: Request) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        chat, stream, include_usage, ignored = await state.read(request, parse_request)
        entry = state.models.get(chat.model)
    except RequestError as exc:
        return openai_error(exc)
    outputs = await state.outputs(entry, chat)
    encoder = _SSE(ChunkEncoder(entry.name, include_usage=include_usage))
    headers = names_header(b"x-shim-ignored-params", ignored)
    return respond(outputs, encoder, stream=stream, build=partial(_completion, entry.name), headers=headers)


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
    return to_chat(validate(ChatCompletionRequest, body))


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
