"""``ollama:MODEL[@URL]``: a model served by Ollama, through the ``ollama`` package's async client.

The host is the one in the spec, else ``OLLAMA_HOST``, else ``http://127.0.0.1:11434``.

Tool mode, per backend: ``prompt`` (tools are rendered into the messages and calls come back as text, the
shim's own way), ``native`` (tools go in the request's ``tools`` field and Ollama parses the calls, which
come back in `Completion.tool_calls`), or ``auto``: native when ``/api/show`` lists the model's ``tools``
capability, prompt otherwise. Callers ask `OllamaBackend.resolve_tool_mode` before rendering the prompt.
If Ollama still answers 400 "does not support tools" in auto mode, the model is remembered as prompt-only
and the error says to render the tools into the prompt.

Thinking models: with ``think`` on, Ollama returns the reasoning apart from the answer; it is streamed
inside ``<think>...</think>`` so the parser sees it as reasoning, as it would in prompt-only text.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

from shim.backends.base import BackendStream, Completion, FinishReason, GenerationOptions, Usage
from shim.errors import BackendConnectionError, BackendResponseError, ConfigError
from shim.parsing.ids import IdGenerator
from shim.types import Message, ToolCall

__all__ = ["OllamaBackend", "ToolMode"]

ToolMode = Literal["auto", "native", "prompt"]

_DEFAULT_HOST = "http://127.0.0.1:11434"
_REQUEST_EXTRAS = frozenset({"think", "keep_alive", "options", "format"})
"""Keys of `GenerationOptions.extra` sent as request fields; ``options`` is merged with the model options."""


class OllamaBackend:
    """A model behind an Ollama server; see the module docstring."""

    def __init__(
        self,
        model: str,
        *,
        host: str | None = None,
        tool_mode: ToolMode = "auto",
        think: bool | Literal["low", "medium", "high"] | None = None,
        keep_alive: float | str | None = None,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> None:
        """Configure the client; nothing is sent until first use.

        Args:
            model: The model tag, e.g. ``"qwen2.5:7b"``.
            host: The server URL; ``OLLAMA_HOST`` or ``http://127.0.0.1:11434`` when None.
            tool_mode: ``"auto"``, ``"native"`` or ``"prompt"``; see the module docstring.
            think: Ollama's ``think`` request field, for reasoning models.
            keep_alive: How long Ollama keeps the model loaded after the request (``"5m"``, seconds, -1).
            options: Model options for every request (``num_ctx``, ``top_k``...); per-request sampling
                options from `GenerationOptions` take precedence.
            timeout: Seconds to wait for the server; none by default (a cold model can load for minutes).

        Raises:
            ConfigError: ``tool_mode`` is not one of the three.
            ImportError: the ``ollama`` package is not installed.
        """
        if tool_mode not in ("auto", "native", "prompt"):
            raise ConfigError(f"Ollama tool_mode must be 'auto', 'native' or 'prompt'; got {tool_mode!r}")
        self._ollama = _import_ollama()
        self._model = model
        self._url = _normalise_host(host or os.environ.get("OLLAMA_HOST") or _DEFAULT_HOST)
        self._tool_mode: ToolMode = tool_mode
        self._native: bool | None = None  # auto mode's answer, once known
        self._think = think
        self._keep_alive = keep_alive
        self._options = dict(options or {})
        self._client: Any = self._ollama.AsyncClient(host=self._url, timeout=timeout)
        self._ids = IdGenerator()

    @property
    def name(self) -> str:
        return f"ollama:{self._model}@{self._url}"

    @property
    def url(self) -> str:
        """The server URL in use."""
        return self._url

    async def resolve_tool_mode(self) -> Literal["native", "prompt"]:
        """Say whether tools should go to Ollama natively or be rendered into the prompt.

        In auto mode, asks ``/api/show`` once and remembers the answer.

        Raises:
            BackendConnectionError: the server cannot be reached.
            BackendResponseError: the model is unknown (the message lists the server's models).
        """
        if self._tool_mode != "auto":
            return self._tool_mode
        if self._native is None:
            try:
                shown = await self._client.show(self._model)
            except Exception as exc:
                raise await self._translate(exc) from None
            self._native = "tools" in (shown.capabilities or [])
        return "native" if self._native else "prompt"

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        """Stream a reply from ``/api/chat``; see `Backend.stream`."""
        return BackendStream(
            self._generate(list(messages), options or GenerationOptions()),
            description=f"Ollama model {self._model!r} at {self._url}",
        )

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.close()

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[str | Completion, None]:
        if options.grammar is not None:
            raise ConfigError("Ollama does not take GBNF grammars; use llama-cpp: or an openai: llama.cpp server")
        unknown = set(options.extra) - _REQUEST_EXTRAS
        if unknown:
            raise ConfigError(
                f"Ollama does not take the option(s) {sorted(unknown)!r}; it takes {sorted(_REQUEST_EXTRAS)!r}"
            )
        tools = (
            [_tool_dict(t) for t in options.tools]
            if options.tools and await self.resolve_tool_mode() == "native"
            else None
        )
        request = self._request(messages, options, tools)
        finish: FinishReason = "stop"
        usage: Usage | None = None
        calls: list[ToolCall] = []
        thinking = False
        try:
            parts = await self._client.chat(**request)
            try:
                async for part in parts:
                    message = part.message
                    if message.thinking:
                        yield message.thinking if thinking else "<think>" + message.thinking
                        thinking = True
                    if message.content:
                        yield "</think>" + message.content if thinking else message.content
                        thinking = False
                    for call in message.tool_calls or ():
                        calls.append(
                            ToolCall(
                                id=self._ids(),
                                name=call.function.name,
                                arguments=dict(call.function.arguments),
                            )
                        )
                    if part.done:
                        finish = "length" if part.done_reason == "length" else "stop"
                        usage = Usage(prompt_tokens=part.prompt_eval_count, completion_tokens=part.eval_count)
            finally:
                await parts.aclose()  # closing the response makes Ollama stop generating
        except Exception as exc:
            raise await self._translate(exc, tools_sent=tools is not None) from None
        if thinking:
            yield "</think>"
        yield Completion(finish_reason=finish, text="", usage=usage, tool_calls=tuple(calls))

    def _request(
        self, messages: list[Message], options: GenerationOptions, tools: list[dict[str, Any]] | None
    ) -> dict[str, Any]:
        model_options = {**self._options, **dict(options.extra.get("options") or {})}
        for key, value in (
            ("temperature", options.temperature),
            ("top_p", options.top_p),
            ("frequency_penalty", options.frequency_penalty),
            ("presence_penalty", options.presence_penalty),
            ("num_predict", options.max_tokens),
            ("seed", options.seed),
            ("stop", list(options.stop) or None),
        ):
            if value is not None:
                model_options[key] = value
        request: dict[str, Any] = {
            "model": self._model,
            "messages": [m.to_dict() for m in messages],
            "stream": True,
            "tools": tools,
            "options": model_options or None,
            "think": options.extra.get("think", self._think),
            "keep_alive": options.extra.get("keep_alive", self._keep_alive),
        }
        if "format" in options.extra:
            request["format"] = options.extra["format"]
        return request

    async def _translate(self, exc: Exception, *, tools_sent: bool = False) -> Exception:
        """Turn an ollama or httpx exception into shim's; others pass through unchanged."""
        httpx: Any = importlib.import_module("httpx")
        if isinstance(exc, (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout)):
            return BackendConnectionError(
                f"cannot connect to Ollama at {self._url}; start it with 'ollama serve' (install it from "
                "https://ollama.com/download), or point OLLAMA_HOST or the spec's '@URL' at a running server"
            )
        if isinstance(exc, httpx.TransportError):
            return BackendConnectionError(f"the connection to Ollama at {self._url} broke: {exc!r}")
        if not isinstance(exc, self._ollama.ResponseError):
            return exc
        response_error: Any = exc
        status: int = response_error.status_code
        error = str(response_error.error)
        if status == 404 and "not found" in error:
            return BackendResponseError(
                f"Ollama at {self._url} has no model {self._model!r}{await self._available()}; "
                f"download it with 'ollama pull {self._model}'",
                status_code=404,
            )
        if status == 400 and "does not support tools" in error and tools_sent:
            self._native = False
            return BackendResponseError(
                f"Ollama model {self._model!r} does not support native tool calling; "
                "render the tools into the "
                "prompt instead (resolve_tool_mode() now answers 'prompt'; or use tool_mode='prompt')",
                status_code=400,
            )
        where = f"answered {status}" if status > 0 else "reported an error mid-stream"
        return BackendResponseError(
            f"Ollama at {self._url} {where} for model {self._model!r}: {error}",
            status_code=status if status > 0 else None,
        )

    async def _available(self) -> str:
        try:
            listing = await self._client.list()
        except Exception:  # the list is a courtesy; the missing model is the error to report
            return ""
        names = sorted(str(m.model) for m in listing.models)
        return f" (it has {names!r})" if names else " (it has no models yet)"


def _tool_dict(tool: Any) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": tool.input_schema},
    }


def _normalise_host(host: str) -> str:
    """``host``, ``host:port`` or a URL -> a URL with scheme and port, the way Ollama reads OLLAMA_HOST."""
    if "://" not in host:
        host = "http://" + host
    parts = urlsplit(host)
    hostname = parts.hostname or "127.0.0.1"
    if hostname == "0.0.0.0":  # a bind address in OLLAMA_HOST; connect to this machine
        hostname = "127.0.0.1"
    if ":" in hostname:
        hostname = f"[{hostname}]"
    port = parts.port or (443 if parts.scheme == "https" else 11434)
    return f"{parts.scheme}://{hostname}:{port}{parts.path.rstrip('/')}"


def _import_ollama() -> Any:
    try:
        return importlib.import_module("ollama")
    except ImportError as exc:
        raise ImportError(
            f"the ollama backend needs the 'ollama' package ({exc}); install it with: pip install 'shim[ollama]'"
        ) from exc
