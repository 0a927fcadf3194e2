"""The ASGI application behind ``shim serve``: both surfaces, auth, CORS, and MCP tools for the server's life.

```python
app = create_app({"qwen": "ollama:qwen2.5:7b"}, config="mcp.json", settings=ServerSettings(api_key="..."))
uvicorn.run(app, host="127.0.0.1", port=8080)
```

Routes: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /v1/models/{model}`` (OpenAI);
``POST /api/chat``, ``GET /api/tags``, ``POST /api/show``, ``GET /api/version`` (Ollama); ``GET /``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from shim.agent import ToolSource
from shim.backends.base import Backend
from shim.server import anthropic_api, ollama_api, openai_api, responses_api
from shim.server.chat import LoopSettings
from shim.server.http import json_bytes
from shim.server.models import ModelRegistry, ServerState

__all__ = ["ServerSettings", "create_app"]

logger = logging.getLogger("shim.server")


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    """Server-wide settings (the ``shim serve`` flags)."""

    api_key: str | None = None
    """When set, every request needs ``Authorization: Bearer <api_key>``."""
    cors_origins: Sequence[str] = ()
    """Browser origins allowed to call the server (``*`` for any); none by default."""
    max_body: int = 16 * 1024 * 1024
    """Largest request body in bytes (413 beyond)."""
    any_spec: bool = False
    """Let requests name any backend spec, not only the configured models (see `shim.server.models`)."""
    loop: LoopSettings = field(default_factory=LoopSettings)


def create_app(
    models: Mapping[str, str | Backend],
    *,
    config: str | PathLike[str] | None = None,
    tools: ToolSource | None = None,
    settings: ServerSettings | None = None,
) -> Starlette:
    """Build the app.

    Args:
        models: model name -> backend spec (or a `Backend`); see `shim.server.models`.
        config: an MCP config file; its servers start with the app (MCP-executing mode) and stop with it.
        tools: a tool source to run calls with instead of a config (an already-entered `ToolRouter`).
        settings: auth, CORS, limits and loop settings.

    Raises:
        ConfigError: no models, or a bad backend spec.
    """
    settings = settings or ServerSettings()
    state = ServerState(
        models=ModelRegistry(models, any_spec=settings.any_spec),
        tools=tools,
        loop=settings.loop,
        max_body=settings.max_body,
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncGenerator[None, None]:
        async with AsyncExitStack() as stack:
            if config is not None:
                from shim.routing import ToolRouter  # MCP is only needed in this mode

                router = await stack.enter_async_context(ToolRouter.from_config(str(Path(config))))
                for server, reason in router.failures.items():
                    logger.warning("MCP server %r is unavailable: %s", server, reason)
                state.tools = router
            stack.push_async_callback(state.models.aclose)
            yield

    routes = [
        Route("/v1/chat/completions", openai_api.chat_completions, methods=["POST"]),
        Route("/v1/models", openai_api.list_models, methods=["GET"]),
        Route("/v1/models/{model:path}", openai_api.retrieve_model, methods=["GET"]),
        Route("/v1/responses", responses_api.responses, methods=["POST"]),
        Route("/v1/messages", anthropic_api.messages, methods=["POST"]),
        Route("/v1/messages/count_tokens", anthropic_api.count_tokens, methods=["POST"]),
        Route("/api/chat", ollama_api.chat, methods=["POST"]),
        Route("/api/generate", ollama_api.generate, methods=["POST"]),
        Route("/api/ps", ollama_api.ps, methods=["GET"]),
        Route("/api/tags", ollama_api.tags, methods=["GET"]),
        Route("/api/show", ollama_api.show, methods=["POST"]),
        Route("/api/version", ollama_api.version, methods=["GET"]),
        Route("/", _root, methods=["GET", "HEAD"]),
    ]
    middleware = [Middleware(_Auth, api_key=settings.api_key)]
    if settings.cors_origins:
        # Outermost, so a browser's preflight (which carries no credentials) is answered before auth.
        middleware.insert(
            0,
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.cors_origins),
                allow_methods=["GET", "POST", "OPTIONS"],
                allow_headers=["*"],
            ),
        )
    app = Starlette(
        routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers={HTTPException: _http_error}
    )
    app.state.shim = state
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    """Unknown paths and wrong methods, in the error shape of the surface the client speaks."""
    assert isinstance(exc, HTTPException)
    message = f"{request.method} {request.url.path}: {exc.detail}"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)
    error = {"message": message, "type": "invalid_request_error", "param": None, "code": None}
    return JSONResponse({"error": error}, status_code=exc.status_code, headers=exc.headers)


async def _root(request: Request) -> Response:
    del request
    return PlainTextResponse("shim serve is running: OpenAI-compatible at /v1, Ollama-compatible at /api\n")


class _Auth:
    """Pure ASGI (not BaseHTTPMiddleware, which would hide client disconnects from the handlers)."""

    def __init__(self, app: ASGIApp, *, api_key: str | None) -> None:
        self.app = app
        self.key = api_key.encode() if api_key else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.key is None or scope["type"] != "http" or scope["method"] == "OPTIONS":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        given = headers.get(b"authorization", b"")
        scheme, _, token = given.partition(b" ")
        if scheme.lower() == b"bearer" and secrets.compare_digest(token.strip(), self.key):
            await self.app(scope, receive, send)
            return
        api_key = headers.get(b"x-api-key", b"")  # Anthropic's clients send the key this way
        if api_key and secrets.compare_digest(api_key.strip(), self.key):
            await self.app(scope, receive, send)
            return
        given = given or api_key
        message = (
            "invalid API key"
            if given
            else "this server needs an API key: send 'Authorization: Bearer <key>' (or 'x-api-key: <key>')"
        )
        path = str(scope["path"])
        if path.startswith("/api/"):
            body = json_bytes({"error": message})
        elif path.startswith("/v1/messages"):
            body = json_bytes({"type": "error", "error": {"type": "authentication_error", "message": message}})
        else:
            error = {"message": message, "type": "authentication_error", "param": None, "code": "invalid_api_key"}
            body = json_bytes({"error": error})
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b"Bearer"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
