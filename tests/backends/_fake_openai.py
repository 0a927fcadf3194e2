"""A server speaking OpenAI's chat-completions wire format, for the faults llama_cpp.server cannot show.

llama_cpp.server serves any model name it is asked for and never drops a connection, so the unknown-model
answer (vLLM's 404 body, verbatim) and a connection dropped mid-stream come from here. Everything else in
the OpenAI-compatible backend's tests runs against the real llama_cpp.server.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MODELS = ("Qwen/Qwen2.5-7B-Instruct", "dropping-model", "overloaded-model", "assistant")
ROOTS = {"assistant": "Qwen/Qwen3-8B"}
"""What vLLM lists as ``root`` (the model it loaded) for a model served under another name (``--served-model-name``)."""
listings: list[str] = []
"""One entry per ``GET /v1/models`` request, for tests that count them."""
completions: list[dict[str, Any]] = []
"""The body of every ``POST /v1/completions`` request, for tests that check what the backend sent."""


class _ConnectionDrop(Exception):
    """Raised inside the response body: uvicorn then closes the connection mid-body."""


async def _chat(request: Request) -> Response:
    body: dict[str, Any] = await request.json()
    model = body.get("model")
    if model not in MODELS:
        # vLLM's answer for a model it does not serve.
        return JSONResponse(
            {
                "object": "error",
                "message": f"The model `{model}` does not exist.",
                "type": "NotFoundError",
                "param": None,
                "code": 404,
            },
            status_code=404,
        )
    if model == "overloaded-model":
        # An engine behind a proxy that echoes the request's key in its error text (seen with gateway 503s).
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        return JSONResponse({"error": {"message": f"upstream busy; key {key} is rate-limited"}}, status_code=503)
    return StreamingResponse(_dropping_stream(str(model)), media_type="text/event-stream")


async def _dropping_stream(model: str) -> AsyncIterator[bytes]:
    for piece in ("<function_call>", '{"name": "get_'):
        chunk = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1736846400,
            "model": model,
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
        }
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    raise _ConnectionDrop(model)


async def _completion(request: Request) -> Response:
    """The raw completions API (``openai-completions:``): records the body, answers one streamed chunk."""
    body: dict[str, Any] = await request.json()
    completions.append(body)
    chunk = {
        "id": "cmpl-1",
        "object": "text_completion",
        "created": 1736846400,
        "model": body.get("model"),
        "choices": [{"index": 0, "text": "Done.", "finish_reason": "stop", "logprobs": None}],
    }

    async def events() -> AsyncIterator[bytes]:
        yield f"data: {json.dumps(chunk)}\n\n".encode()
        yield b"data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream")


async def _models(request: Request) -> Response:
    listings.append(request.url.path)
    return JSONResponse(
        {
            "object": "list",
            "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "vllm", "root": ROOTS.get(m, m)} for m in MODELS
            ],
        }
    )


app = Starlette(
    routes=[
        Route("/v1/chat/completions", _chat, methods=["POST"]),
        Route("/v1/completions", _completion, methods=["POST"]),
        Route("/v1/models", _models, methods=["GET"]),
    ]
)
