"""The ASGI application behind ``shim serve``: the surfaces, the guard, auth, CORS, metrics, and MCP tools for
the server's life.

```python
app = create_app({"qwen": "ollama:qwen2.5:7b"}, config="mcp.json", settings=ServerSettings(api_key="..."))
uvicorn.run(app, host="127.0.0.1", port=8080)
```

Routes: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /v1/models/{model}`` (OpenAI);
``POST /api/chat``, ``GET /api/tags``, ``POST /api/show``, ``GET /api/version`` (Ollama); ``GET /``,
``GET /health`` (no auth), ``GET /metrics`` (Prometheus).

Middleware, outermost first: `Metrics`, `Guard` (Host, Origin, content type, body deadline), CORS (when
``--cors``), auth (when ``--api-key``).

With ``--workers N`` every worker process builds its own app with `app_from_environment`, from the
settings the parent put in ``SHIM_SERVE_APP`` (`app_environment`).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import asdict, dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

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
from shim.errors import ConfigError
from shim.redact import register_secrets
from shim.server import anthropic_api, ollama_api, openai_api, responses_api
from shim.server.chat import LoopSettings
from shim.server.guard import Guard, GuardSettings, install_resource_log_limit
from shim.server.http import json_bytes
from shim.server.metrics import CountedTools, Metrics, health, metrics
from shim.server.models import ModelRegistry, ServerState
from shim.server.store import open_store
from shim.server.surfaces import RequestError, error_body, surface_of

__all__ = [
    "APP_ENV",
    "ServerSettings",
    "app_environment",
    "app_from_environment",
    "check_exposure",
    "create_app",
]

APP_ENV = "SHIM_SERVE_APP"
"""The environment variable that carries the app's settings (JSON) to worker processes."""

logger = logging.getLogger("shim.server")


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    """Server-wide settings (the ``shim serve`` flags)."""

    api_key: str | None = None
    """When set, every request needs ``Authorization: Bearer <api_key>``."""
    cors_origins: Sequence[str] = ()
    """Browser origins allowed to call the server (``*`` for any); none by default."""
    allowed_hosts: Sequence[str] = ()
    """``Host`` names accepted besides this machine's own (``--allowed-host``; ``*`` for any)."""
    max_body: int = 16 * 1024 * 1024
    """Largest request body in bytes (413 beyond; ``--max-request-bytes``)."""
    max_messages: int = 10_000
    """Most messages a request may carry (413 beyond)."""
    request_timeout: float = 15.0
    """Seconds a client has to send its request body (its headers: `shim.server.transport`)."""
    any_model: str | None = None
    """A directory: let requests name backend specs for model files in it (see `shim.server.models`)."""
    max_loaded_models: int = 4
    """Most models opened on request (``any_model``) at once; the least recently used is closed."""
    state: str | None = None
    """Where MCP-executing mode keeps tool rounds: None (memory), ``sqlite:PATH`` or ``redis://...``."""
    loop: LoopSettings = field(default_factory=LoopSettings)
    profiles: Mapping[str, str] = field(default_factory=dict[str, str])
    """Model name (``*``: every model) -> profile name, overriding detection (``--profile [ALIAS=]NAME``)."""
    insecure: bool = False
    """Start even when any web page could run the server's tools (``--insecure``; see `check_exposure`)."""


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
        ConfigError: no models, a bad backend spec, a bad config file, a bad ``state`` or ``any_model``, or
            tools any web page could run (`check_exposure`).
    """
    settings = settings or ServerSettings()
    check_exposure(settings, runs_tools=config is not None or tools is not None)
    install_resource_log_limit()
    if settings.api_key:
        register_secrets([settings.api_key])  # the key never reaches a log, trace or error text
    mcp_config = None
    if config is not None:
        from shim.config import load_config

        mcp_config = load_config(Path(config))  # read now: a bad file is reported before the server starts
    state = ServerState(
        models=ModelRegistry(
            models, any_model=settings.any_model, max_loaded=settings.max_loaded_models, profiles=settings.profiles
        ),
        tools=CountedTools(tools) if tools is not None else None,
        loop=settings.loop,
        max_body=settings.max_body,
        max_messages=settings.max_messages,
        rounds=open_store(settings.state),
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncGenerator[None, None]:
        async with AsyncExitStack() as stack:
            if mcp_config is not None:
                from shim.routing import ToolRouter  # MCP is only needed in this mode

                router = await stack.enter_async_context(ToolRouter.from_config(mcp_config))
                for server, reason in router.failures.items():
                    logger.warning("MCP server %r is unavailable: %s", server, reason)
                state.tools = CountedTools(router)
            stack.push_async_callback(state.models.aclose)
            stack.push_async_callback(state.rounds.aclose)
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
        Route("/health", health, methods=["GET", "HEAD"]),
        Route("/metrics", metrics, methods=["GET"]),
    ]
    guard = GuardSettings(
        allowed_hosts=settings.allowed_hosts,
        cors_origins=settings.cors_origins,
        request_timeout=settings.request_timeout,
    )
    middleware = [Middleware(Metrics), Middleware(Guard, settings=guard), Middleware(_Auth, api_key=settings.api_key)]
    if settings.cors_origins:
        # Before auth, so a browser's preflight (which carries no credentials) is answered; after the guard,
        # which refused every origin not listed here.
        middleware.insert(
            2,
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


def check_exposure(settings: ServerSettings, *, runs_tools: bool) -> None:
    """Refuse settings under which any web page may run the server's tools and read the reply.

    ``--cors '*'`` lets every origin read the replies, and ``--allowed-host '*'`` lets a DNS-rebinding page
    call the server as if same-origin; without an API key such a page needs nothing else. Pass-through mode
    runs no tools, so only MCP-executing mode is refused (unless ``insecure``).

    Raises:
        ConfigError: such settings, naming the flags and what would make them safe.
    """
    if not runs_tools or settings.api_key or settings.insecure:
        return
    flags = [
        f
        for f, values in (("--cors '*'", settings.cors_origins), ("--allowed-host '*'", settings.allowed_hosts))
        if "*" in values
    ]
    if flags:
        raise ConfigError(
            f"{' and '.join(flags)} without --api-key would let any web page run this server's MCP tools and "
            "read their results; add --api-key KEY, name the origins and hosts instead of '*', or pass "
            "--insecure to start anyway"
        )


async def _http_error(request: Request, exc: Exception) -> Response:
    """Unknown paths and wrong methods, in the error shape of the surface the client speaks."""
    assert isinstance(exc, HTTPException)
    error = RequestError(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")
    body = error_body(surface_of(request.url.path), error)
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def _root(request: Request) -> Response:
    del request
    return PlainTextResponse(
        "shim serve is running: OpenAI-compatible at /v1 (chat/completions, responses), "
        "Anthropic-compatible at /v1/messages, Ollama-compatible at /api\n"
    )


class _Auth:
    """Pure ASGI (not BaseHTTPMiddleware, which would hide client disconnects from the handlers)."""

    def __init__(self, app: ASGIApp, *, api_key: str | None) -> None:
        self.app = app
        self.key = api_key.encode() if api_key else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.key is None or scope["type"] != "http" or scope["method"] == "OPTIONS" or scope["path"] == "/health":
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
        error = RequestError(401, message, kind="authentication_error", code="invalid_api_key")
        body = json_bytes(error_body(surface_of(str(scope["path"])), error))
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


def app_environment(
    models: Mapping[str, str], *, config: str | PathLike[str] | None, settings: ServerSettings, log_level: str = "info"
) -> str:
    """The value of `APP_ENV` from which `app_from_environment` builds the same app in another process."""
    data: dict[str, Any] = asdict(settings)
    data["loop"]["dialect"] = str(settings.loop.dialect) if settings.loop.dialect is not None else None
    data["profiles"] = dict(settings.profiles)
    data["cors_origins"], data["allowed_hosts"] = list(settings.cors_origins), list(settings.allowed_hosts)
    where = str(config) if config is not None else None
    return json.dumps({"models": dict(models), "config": where, "settings": data, "log_level": log_level})


def app_from_environment() -> Starlette:
    """The app factory each ``--workers`` process calls (``uvicorn ... --factory``).

    Raises:
        ConfigError: `APP_ENV` is missing or not what `app_environment` writes.
    """
    raw = os.environ.get(APP_ENV)
    if not raw:
        raise ConfigError(f"${APP_ENV} is not set; start workers with `shim serve --workers N`")
    data = json.loads(raw)
    logging.basicConfig(level=str(data["log_level"]).upper(), format="%(levelname)s %(name)s: %(message)s")
    values = dict(data["settings"])
    loop = LoopSettings(**values.pop("loop"))
    for name in ("cors_origins", "allowed_hosts"):
        values[name] = tuple(values[name])
    return create_app(data["models"], config=data["config"], settings=ServerSettings(loop=loop, **values))
