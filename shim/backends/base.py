"""The seam between shim and a model engine: plain chat messages in, text chunks out, then a final record.

A backend is tiny. It turns `Message` objects and `GenerationOptions` into the engine's request, yields the
text as it arrives, and says at the end why generation stopped. Everything else (parsing calls out of the
text, routing them) happens downstream. SDK types and SDK errors stop at the backend module. What an engine
sends apart from the text (Ollama's ``thinking`` field, its native ``tool_calls``) comes as typed items, never
as text dressed up for the parser to take apart again.

```
backend.stream(messages, options=...)  ->  BackendStream
    async for item in stream: ...       str (text, never empty), Reasoning, NativeCall, in order
    stream.text                         the str items joined (for consumers that want only text)
    stream.result                       Completion(finish_reason, usage, tool_calls), once exhausted
```

Use the stream as an async context manager, or ``aclose()`` it, when you may stop early: closing it (or
cancelling the task that iterates it) stops generation in the engine and records ``"cancelled"``.

Backends subclass `BaseBackend`: it answers every capability the `Backend` protocol declares with the plain
default (no call constraint, no structured output of its own, tools in the prompt, no tokenizer), wraps the
backend's ``_generate`` in a `BackendStream`, and sits beside the helpers every engine module needs
(`import_sdk`, `sampling_fields`, `check_extras`).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, runtime_checkable

from shim.errors import BackendError, ConfigError, StreamInterruptedError
from shim.types import Message, ToolCall, ToolSpec

if TYPE_CHECKING:
    from shim.backends.model_info import ModelInfo
    from shim.constrain.schema import CallConstraint

__all__ = [
    "MAX_STOP",
    "Backend",
    "BackendStream",
    "BaseBackend",
    "Completion",
    "FinishReason",
    "GenerationOptions",
    "NativeCall",
    "Reasoning",
    "StreamItem",
    "StructuredKind",
    "ToolMode",
    "Usage",
    "check_extras",
    "import_sdk",
    "item_record",
    "merge_stop",
    "native_raw_parts",
    "sampling_fields",
    "stop_sequences",
]

StructuredKind: TypeAlias = Literal["grammar", "format", "response_format"]
"""How an engine produces a structured answer itself (`shim.constrain.structured`)."""

ToolMode: TypeAlias = Literal["native", "prompt"]
"""Where a turn's tools go: the engine's own ``tools`` request field, or rendered into the prompt."""


@dataclass(frozen=True, slots=True)
class Reasoning:
    """Reasoning the engine sent apart from the answer (Ollama's ``thinking``)."""

    text: str


@dataclass(frozen=True, slots=True)
class NativeCall:
    """A call the engine parsed itself (native tool calling)."""

    call: ToolCall
    raw: str
    """The call as the engine sent it, as JSON ``{"name": ..., "arguments": {...}}`` (see `native_raw_parts`)."""

    @classmethod
    def of(cls, call: ToolCall) -> NativeCall:
        """``call`` with its raw form."""
        return cls(call, "".join(native_raw_parts(call)))


def native_raw_parts(call: ToolCall) -> tuple[str, str, str]:
    """A native call's raw JSON in three parts: the head up to the arguments, the arguments, the closing brace.

    The agent streams a native call as start, chunk and end events carrying these three, so their ``raw``
    joins to `NativeCall.raw`.
    """
    head = '{"name": ' + json.dumps(call.name, ensure_ascii=False) + ', "arguments": '
    return head, json.dumps(call.arguments, ensure_ascii=False), "}"


StreamItem: TypeAlias = "str | Reasoning | NativeCall"
"""What a `BackendStream` yields: model text, the engine's reasoning, a call the engine parsed."""

FinishReason: TypeAlias = Literal["stop", "length", "cancelled"]
"""Why generation ended: the model stopped (end token or a stop sequence), it hit ``max_tokens`` or the
context size, or the consumer closed the stream."""


def item_record(item: StreamItem) -> str | dict[str, Any]:
    """``item`` as a ``.jsonl`` recording's ``"items"`` entry (what a trace records and the ``replay:`` backend
    reads back)."""
    if isinstance(item, str):
        return item
    if isinstance(item, Reasoning):
        return {"reasoning": item.text}
    return {"native_call": item.call.to_dict()}


@dataclass(frozen=True, kw_only=True)
class Usage:
    """Token counts of one generation, as the engine reports them (``None`` where it does not)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True, kw_only=True)
class GenerationOptions:
    """How to sample. ``None`` leaves the engine's (or the model's) default in place."""

    temperature: float | None = None
    top_p: float | None = None
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    max_tokens: int | None = None
    """Most tokens to generate; reaching it ends the stream with ``finish_reason="length"``."""
    stop: tuple[str, ...] = ()
    """Stop sequences; generation ends before the first one and it is not part of the text."""
    family_stop: tuple[str, ...] = ()
    """The model family's end-of-turn markers (`shim.profiles.ModelProfile.stop`): a safety net sent after
    ``stop`` and the engine's own, as far as `MAX_STOP` leaves room (`stop_sequences`)."""
    seed: int | None = None
    grammar: str | None = None
    """A llama.cpp GBNF grammar constraining the output. Embedded llama.cpp applies it; the OpenAI-compatible
    backend sends it as the request's ``grammar`` field (llama.cpp's servers read it); Ollama rejects it."""
    tools: tuple[ToolSpec, ...] = ()
    """Tools to offer through the engine's *native* tool calling (Ollama's ``native`` tool mode only).
    Calls come back as `NativeCall` items (and in `Completion.tool_calls`). In prompt mode tools are rendered
    into the messages instead and this is ignored."""
    constraint: CallConstraint | None = None
    """Constrain calls to the offered tools (`shim.constrain`): engines that can (see ``can_constrain``) make
    every call block the model opens a valid call; others ignore it. A ``grammar`` takes precedence."""
    extra: Mapping[str, Any] = field(default_factory=dict[str, Any])
    """Engine-specific parameters passed through as they are (for Ollama: ``think``, ``keep_alive`` and
    model ``options``; for llama.cpp: ``top_k``, ``repeat_penalty``...; for OpenAI: extra body fields)."""


MAX_STOP = 4
"""Most stop sequences sent to an engine: OpenAI's documented limit (``stop``: "up to 4 sequences"), which
OpenAI-compatible hosts such as Groq repeat. llama-server, vLLM and Ollama document no limit; the smallest
documented one is kept for every engine so a profile never makes a request one of them refuses."""


def merge_stop(required: Sequence[str], fallback: Sequence[str], *, limit: int = MAX_STOP) -> tuple[str, ...]:
    """``required`` stop sequences, then ``fallback`` ones, without repeats, at most ``limit`` of them.

    The required ones are never dropped for a fallback: more of them than the limit go out as they are (the
    engine says what it allows)."""
    merged = list(dict.fromkeys(s for s in required if s))
    if len(merged) >= limit:
        return tuple(merged)
    merged += [s for s in dict.fromkeys(fallback) if s and s not in merged]
    return tuple(merged[:limit])


def stop_sequences(options: GenerationOptions, *, own: Sequence[str] = ()) -> tuple[str, ...]:
    """The stop sequences an engine is sent, capped once, here: the request's, then the backend's ``own`` (a
    transcript's next ``User:`` line), both never dropped, then the family's (``family_stop``) where room is
    left."""
    return merge_stop([*options.stop, *own], options.family_stop)


@dataclass(frozen=True, kw_only=True)
class Completion:
    """The final record of one generation."""

    finish_reason: FinishReason
    text: str
    """All the text chunks joined."""
    usage: Usage | None = None
    """Token counts where the engine reports them."""
    tool_calls: tuple[ToolCall, ...] = ()
    """Calls the engine parsed itself (native tool calling), as its `NativeCall` items brought them; empty in
    prompt mode, where calls are text. `BackendStream` fills it in."""
    constrained: bool = False
    """Calls in this text were generated under a grammar or schema (`GenerationOptions.constraint`)."""


class BackendStream(AsyncIterator[StreamItem]):
    """The items of one generation (text chunks, `Reasoning`, `NativeCall`), then `result`.

    Wraps the backend's async generator, which yields items and, last, one `Completion` whose ``text`` and
    ``tool_calls`` this class fills in. Connection failures after some output arrived become
    `StreamInterruptedError` carrying the text.
    """

    def __init__(self, source: AsyncGenerator[StreamItem | Completion, None], *, description: str) -> None:
        """Wrap ``source``; ``description`` (e.g. ``"ollama model 'qwen2.5:7b'"``) is used in errors."""
        self._source = source
        self._description = description
        self._parts: list[str] = []
        self._calls: list[ToolCall] = []
        self._received = False
        self._result: Completion | None = None

    @property
    def text(self) -> str:
        """The text received so far (the ``str`` items only)."""
        return "".join(self._parts)

    @property
    def result(self) -> Completion | None:
        """The final record once the stream is exhausted or closed; ``None`` before that or after an error."""
        return self._result

    def __aiter__(self) -> BackendStream:
        return self

    async def __anext__(self) -> StreamItem:
        if self._result is not None:
            raise StopAsyncIteration
        while True:
            try:
                item = await self._source.__anext__()
            except StopAsyncIteration:
                raise BackendError(f"{self._description} ended without a final record (a backend bug)") from None
            except BackendError as exc:
                if not self._received:
                    raise
                raise StreamInterruptedError(
                    f"{self._description} failed after {len(self.text)} characters of output: {exc}",
                    text=self.text,
                ) from exc
            if isinstance(item, Completion):
                self._result = self._final(item.finish_reason, item.usage, constrained=item.constrained)
                await self._source.aclose()
                raise StopAsyncIteration
            if isinstance(item, str):
                if not item:
                    continue  # an empty piece says nothing
                self._parts.append(item)
            elif isinstance(item, NativeCall):
                self._calls.append(item.call)
            elif not item.text:
                continue
            self._received = True
            return item

    def _final(self, finish: FinishReason, usage: Usage | None = None, *, constrained: bool = False) -> Completion:
        return Completion(
            finish_reason=finish, text=self.text, usage=usage, tool_calls=tuple(self._calls), constrained=constrained
        )

    async def aclose(self) -> None:
        """Stop generation in the engine; `result` records ``"cancelled"`` unless the stream had ended."""
        await self._source.aclose()
        if self._result is None:
            self._result = self._final("cancelled")

    async def collect(self) -> Completion:
        """Read the rest of the stream and return the final record."""
        async for _ in self:
            pass
        assert self._result is not None  # __anext__ only stops after setting it
        return self._result

    async def __aenter__(self) -> BackendStream:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


@runtime_checkable
class Backend(Protocol):
    """A model engine that streams text for plain chat messages, and says what else it can do."""

    @property
    def name(self) -> str:
        """The spec this backend was made from, e.g. ``"ollama:qwen2.5:7b"`` (for logs and messages)."""
        ...

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        """Start generating a reply to ``messages``; nothing is sent until the stream is first iterated.

        Errors are raised while iterating, not by this call.

        Raises:
            BackendConnectionError: the engine cannot be reached.
            BackendResponseError: it refused the request (unknown model, bad option...).
            StreamInterruptedError: the connection dropped after some text arrived (``.text`` keeps it).
        """
        ...

    async def aclose(self) -> None:
        """Release connections (models loaded in-process stay cached for the process)."""
        ...

    @property
    def can_constrain(self) -> bool:
        """The engine can make every call the model opens a valid call (`GenerationOptions.constraint`)."""
        ...

    @property
    def structured_output(self) -> StructuredKind | None:
        """How the engine produces a structured answer itself; None: shim asks for it in the prompt."""
        ...

    @property
    def extra_keys(self) -> frozenset[str]:
        """The `GenerationOptions.extra` keys the engine takes (a surface passes a client's engine options on
        only where they are named here)."""
        ...

    async def resolve_tool_mode(self) -> ToolMode:
        """Whether a turn's tools go to the engine natively or are rendered into the prompt.

        Raises:
            BackendConnectionError: the engine had to be asked and cannot be reached.
            BackendResponseError: the model is unknown.
        """
        ...

    async def count_tokens(self, messages: Sequence[Message]) -> int | None:
        """The prompt's length in the model's own tokens; None where the backend has no tokenizer."""
        ...

    async def model_info(self) -> ModelInfo | None:
        """What the engine says about its model (family, chat template...), for `shim.profiles.detect`; None
        when it says nothing. Asked once per backend and cached by it.

        Raises:
            BackendError: the engine cannot be reached, or does not know the model.
        """
        ...


class BaseBackend:
    """What every backend shares: the plain answer to each capability `Backend` declares, and `stream`.

    A backend implements ``name`` and ``_generate`` (and ``aclose`` when it holds connections), and overrides
    a capability only where its engine has it.
    """

    structured_output: StructuredKind | None = None
    """How the engine produces a structured answer itself; None: shim asks for it in the prompt."""
    extra_keys: frozenset[str] = frozenset()
    """The `GenerationOptions.extra` keys the engine takes: none."""

    @property
    def name(self) -> str:
        """The spec this backend was made from (for logs and messages)."""
        raise NotImplementedError

    @property
    def description(self) -> str:
        """The backend in error messages (the stream's ``description``)."""
        return self.name

    @property
    def can_constrain(self) -> bool:
        """No: calls are read from free text."""
        return False

    async def resolve_tool_mode(self) -> ToolMode:
        """Tools are rendered into the prompt."""
        return "prompt"

    async def count_tokens(self, messages: Sequence[Message]) -> int | None:
        """No tokenizer: None."""
        del messages
        return None

    async def model_info(self) -> ModelInfo | None:
        """Nothing known about the model: None (see `Backend.model_info`)."""
        return None

    def stream(self, messages: Sequence[Message], *, options: GenerationOptions | None = None) -> BackendStream:
        """Start generating a reply to ``messages``; see `Backend.stream`."""
        source = self._generate(list(messages), options or GenerationOptions())
        return BackendStream(source, description=self.description)

    def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        """The engine's items, then one `Completion` (its ``text`` and ``tool_calls`` are filled in by the stream)."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Nothing to release."""


def sampling_fields(options: GenerationOptions, *, max_tokens: str = "max_tokens") -> dict[str, Any]:
    """The sampling options that are set, under the request field names OpenAI's API and Ollama share
    (``max_tokens`` is named by the caller: Ollama calls it ``num_predict``)."""
    fields = {
        "temperature": options.temperature,
        "top_p": options.top_p,
        "frequency_penalty": options.frequency_penalty,
        "presence_penalty": options.presence_penalty,
        max_tokens: options.max_tokens,
        "seed": options.seed,
    }
    return {key: value for key, value in fields.items() if value is not None}


def import_sdk(module: str, *, backend: str, package: str, extra: str, note: str = "") -> Any:
    """Import an engine's SDK when a backend is made, so shim runs without the SDKs it does not use.

    Raises:
        ImportError: it is not installed; the message names the extra that brings it.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"the {backend} backend needs {package} ({exc}); install it with: pip install 'shim[{extra}]'{note}"
        ) from exc


def check_extras(options: GenerationOptions, allowed: frozenset[str], *, engine: str) -> None:
    """Refuse `GenerationOptions.extra` keys the engine does not take, naming the ones it does.

    Raises:
        ConfigError: an unknown key.
    """
    unknown = set(options.extra) - allowed
    if unknown:
        raise ConfigError(f"{engine} does not take the option(s) {sorted(unknown)!r}; it takes {sorted(allowed)!r}")
