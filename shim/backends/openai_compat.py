"""``openai:MODEL@URL``: any server speaking OpenAI's API (vLLM, LM Studio, llama.cpp's ``llama-server``,
llama-cpp-python's ``llama_cpp.server``, hosted endpoints), through the ``openai`` package's async client.

Two APIs: ``chat`` streams ``/v1/chat/completions`` (the server applies the model's chat template);
``completions`` streams the raw ``/v1/completions`` for servers without one, with the messages written
out as a plain transcript (``User: ...`` / ``Assistant:``) and a stop at the next ``User:`` line.

``?constrain=auto|llama-server|xgrammar|off`` after the URL says how calls are constrained (see
`shim.backends.openai_constrain`; ``auto`` asks the server what it is). ``?images=off`` says the model cannot
see: images then reach it as the placeholders in the text (`shim.backends.messages` says why sending them is
the default).

The API key is read from an environment variable (``OPENAI_API_KEY`` unless ``api_key_env`` names
another); local servers need none, so a placeholder is sent when it is unset.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncGenerator, Sequence
from typing import Any, Literal

from shim.backends.base import (
    BaseBackend,
    Completion,
    FinishReason,
    GenerationOptions,
    StreamItem,
    StructuredKind,
    Usage,
    import_sdk,
    sampling_fields,
    stop_sequences,
)
from shim.backends.messages import openai_messages
from shim.backends.model_info import ModelInfo
from shim.backends.openai_constrain import ConstrainSetting, constraint_fields, engine_from_models, split_spec_url
from shim.errors import BackendConnectionError, BackendResponseError, ConfigError
from shim.redact import redact
from shim.types import Message

__all__ = ["OpenAICompatBackend"]

_TRANSCRIPT_STOP = "\nUser:"


class OpenAICompatBackend(BaseBackend):
    """A model behind an OpenAI-compatible HTTP endpoint; see the module docstring."""

    structured_output: StructuredKind | None = "response_format"
    """How this engine produces a structured answer itself (`shim.constrain.structured`)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api: Literal["chat", "completions"] = "chat",
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 600.0,
        images: bool = True,
    ) -> None:
        """Configure the client; nothing is sent until the first stream.

        Args:
            model: The model name the server knows.
            base_url: The API root, usually ending in ``/v1``; ``OPENAI_BASE_URL`` when None.
            api: ``"chat"`` or ``"completions"`` (raw prompt).
            api_key_env: The environment variable holding the API key.
            timeout: Seconds to wait for the server (a large model's first token can take a while).
            images: Send images as ``image_url`` parts (the model can see); ``?images=off`` on the URL or
                False: only their placeholders.

        Raises:
            ConfigError: no URL was given and ``OPENAI_BASE_URL`` is unset.
            ImportError: the ``openai`` package is not installed.
        """
        url, sees = _take_images_flag(base_url or os.environ.get("OPENAI_BASE_URL") or "")
        url, constrain = split_spec_url(url)
        self._images = images and sees
        """The model takes images (`shim.backends.messages`)."""
        self._constrain: ConstrainSetting = constrain
        self._models: list[dict[str, Any]] | None = None  # GET /v1/models, once asked
        if not url:
            raise ConfigError(
                f"no URL for OpenAI-compatible model {model!r}: "
                f"write the spec as 'openai:{model}@http://HOST:PORT/v1' "
                "or set OPENAI_BASE_URL"
            )
        if "://" not in url:
            url = "http://" + url
        self._openai = _import_openai()
        self._model = model
        self._url = url.rstrip("/")
        self._api = api
        api_key = os.environ.get(api_key_env)
        self._secrets = (api_key,) if api_key else ()
        """Hidden from every message and name, with the URL's ``user:password@`` (`shim.redact`)."""
        self._client: Any = self._openai.AsyncOpenAI(
            base_url=self._url,
            api_key=api_key or "no-key-needed",
            timeout=timeout,
            max_retries=0,  # a retry would repeat a generation; the caller decides
        )

    @property
    def name(self) -> str:
        scheme = "openai" if self._api == "chat" else "openai-completions"
        return redact(f"{scheme}:{self._model}@{self._url}", self._secrets)

    def __repr__(self) -> str:
        return f"<OpenAICompatBackend {self.name}>"

    @property
    def can_constrain(self) -> bool:
        """Calls may be constrained (`shim.backends.openai_constrain`); with ``auto`` the server is asked
        what it is first, and one it does not recognise gets no constraint."""
        return self._constrain != "off"

    @property
    def description(self) -> str:
        return f"model {self._model!r} at {self._shown_url}"

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.close()

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        fields = await self._constraint_fields(options)
        sent = False
        try:
            async for item in self._attempt(messages, options, fields):
                sent = True
                yield item
        except BackendResponseError as exc:
            if not fields or sent or exc.status_code != 400:
                raise
            # An engine build that does not take these fields: ask again without, and do not send them again.
            self._constrain = "off"
            async for item in self._attempt(messages, options, {}):
                yield item

    async def _constraint_fields(self, options: GenerationOptions) -> dict[str, Any]:
        if options.constraint is None or options.grammar is not None or self._constrain == "off":
            return {}
        if self._constrain == "auto":
            owners = [str(entry.get("owned_by") or "") for entry in await self._listing()]
            self._constrain = engine_from_models(owners)
        return constraint_fields(self._constrain, options.constraint)

    async def model_info(self) -> ModelInfo:
        """The model's name, and the one the server loaded it from where ``/v1/models`` says (vLLM's ``root``,
        e.g. ``Qwen/Qwen2.5-7B-Instruct`` behind a served name ``qwen``); see `Backend.model_info`. The
        listing is the one constraint detection reads: the server is asked once."""
        entry = next((e for e in await self._listing() if e.get("id") == self._model), None)
        root = entry.get("root") if entry is not None else None
        return ModelInfo(name=root if isinstance(root, str) and root != self._model else self._model)

    async def _listing(self) -> list[dict[str, Any]]:
        """``GET /v1/models``'s entries, asked once (empty when the server has no listing)."""
        if self._models is None:
            try:
                page = await self._client.models.list()
                self._models = [model.model_dump() for model in page.data]
            except Exception:  # a server without a listing is simply not recognised
                self._models = []
        return self._models

    async def _attempt(
        self, messages: list[Message], options: GenerationOptions, constraint: dict[str, Any]
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        if options.tools:
            raise ConfigError("the OpenAI-compatible backend takes tools rendered into the prompt, not native tools")
        httpx: Any = importlib.import_module("httpx")
        params: dict[str, Any] = {"model": self._model, "stream": True, **sampling_fields(options)}
        extra_body = {**constraint, **options.extra}
        if options.grammar is not None:
            extra_body["grammar"] = options.grammar  # llama.cpp's servers read it; others reject or ignore it
        if extra_body:
            params["extra_body"] = extra_body
        finish: FinishReason = "stop"
        usage: Usage | None = None
        seen: list[str] = []
        try:
            if self._api == "chat":
                params["messages"] = openai_messages(messages, images=self._images)
                params["stream_options"] = {"include_usage": True}
                create = self._client.chat.completions.create
            else:
                params["prompt"] = _transcript(messages)
                create = self._client.completions.create
            own = (_TRANSCRIPT_STOP,) if self._api != "chat" else ()  # the transcript's next turn ends the reply
            if stop := stop_sequences(options, own=own):
                params["stop"] = list(stop)
            chunks = await create(**params)
            try:
                async for chunk in chunks:
                    if chunk.usage is not None:
                        usage = Usage(
                            prompt_tokens=chunk.usage.prompt_tokens,
                            completion_tokens=chunk.usage.completion_tokens,
                        )
                    for choice in chunk.choices:
                        text = choice.delta.content if self._api == "chat" else choice.text
                        if text:
                            seen.append(text)
                            yield text
                        if choice.finish_reason == "length":
                            finish = "length"
            finally:
                await chunks.close()  # closing the response stops generation on the server
        except self._openai.NotFoundError as exc:
            raise await self._unknown_model(exc) from None
        except self._openai.APIStatusError as exc:
            raise BackendResponseError(
                redact(
                    f"{self._url} answered {exc.status_code} for model {self._model!r}: {_error_text(exc)}",
                    self._secrets,
                ),
                status_code=exc.status_code,
            ) from None
        except self._openai.APIConnectionError as exc:
            if "connect" in type(exc.__cause__).__name__.lower() or isinstance(exc.__cause__, httpx.ConnectError):
                raise self._unreachable() from None
            raise BackendConnectionError(
                redact(f"the connection to {self._url} failed: {exc.__cause__ or exc}", self._secrets)
            ) from None
        except httpx.TransportError as exc:  # a drop mid-stream surfaces from httpx, not as an openai error
            raise BackendConnectionError(
                redact(f"the connection to {self._url} broke mid-stream: {exc}", self._secrets)
            ) from None
        constrained = bool(constraint) and (
            options.constraint is not None
            and (options.constraint.forced or options.constraint.trigger in "".join(seen))
        )
        yield Completion(finish_reason=finish, text="", usage=usage, constrained=constrained)

    def _unreachable(self) -> BackendConnectionError:
        return BackendConnectionError(
            f"cannot connect to an OpenAI-compatible server at {self._shown_url}; start one there, for example "
            "'python -m llama_cpp.server --model MODEL.gguf --port PORT', "
            "'llama-server -m MODEL.gguf --port PORT' "
            f"or 'vllm serve MODEL --port PORT', or fix the URL in the spec"
        )

    async def _unknown_model(self, exc: Any) -> BackendResponseError:
        try:
            page = await self._client.models.list()
            names = sorted(model.id for model in page.data)
        except Exception:  # the listing is a courtesy; the 404 is the error to report
            names = []
        known = f"; it serves {names!r}" if names else ""
        return BackendResponseError(
            redact(f"{self._url} has no model {self._model!r} ({_error_text(exc)}){known}", self._secrets),
            status_code=404,
        )

    @property
    def _shown_url(self) -> str:
        """The URL for messages: no ``user:password@``."""
        return redact(self._url, self._secrets)


def _take_images_flag(url: str) -> tuple[str, bool]:
    """Take ``images=on|off`` off a base URL's query; other query parameters stay.

    Raises:
        ConfigError: the value is neither ``on`` nor ``off``.
    """
    base, sep, query = url.partition("?")
    if not sep:
        return url, True
    kept: list[str] = []
    sees = True
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key != "images":
            kept.append(part)
        elif value in ("on", "off"):
            sees = value == "on"
        else:
            raise ConfigError(f"'images' after the URL must be 'on' or 'off'; got {value!r}")
    return (base + "?" + "&".join(kept)) if kept else base, sees


def _transcript(messages: Sequence[Message]) -> str:
    parts = [f"{m.role.capitalize()}: {m.content}" for m in messages]
    return "\n\n".join([*parts, "Assistant:"])


def _error_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        message = body.get("message") or body.get("error")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if isinstance(message, dict):
            message = message.get("message")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if message:
            return str(message)  # pyright: ignore[reportUnknownArgumentType]
    return str(getattr(exc, "message", exc))


def _import_openai() -> Any:
    return import_sdk("openai", backend="openai", package="the 'openai' package", extra="openai")
