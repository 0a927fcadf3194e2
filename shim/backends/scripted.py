"""A backend that answers from a script: one reply per request, in order. The fake engine of the tests and
benchmarks, plugged into the real seam (as httpx's ``MockTransport`` is), and the engine behind ``replay:``.

```python
backend = ScriptedBackend(["<function_call>{...}</function_call>", "It is 14:02 in Tokyo."])
agent = Agent(backend, router)
backend.requests[0].messages        # the prompt the first turn rendered
```

A reply is its text (streamed in ``chunk_size`` pieces), a list of stream items (strings, `Reasoning`,
`NativeCall`, streamed exactly as given), or a record as a replay file's line holds it
(``{"response": ...}``, ``{"chunks": [...]}``, ``{"items": [...]}``, with ``"finish_reason"``). Stop
sequences are honoured as an engine would: the text ends before the first one (items other than text pass).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

import anyio

from shim.backends.base import (
    BaseBackend,
    Completion,
    FinishReason,
    GenerationOptions,
    NativeCall,
    Reasoning,
    StreamItem,
    stop_sequences,
)
from shim.errors import BackendError, ConfigError
from shim.types import Message, ToolCall

__all__ = ["Reply", "ScriptedBackend", "ScriptedRequest", "Turn", "read_turn"]

Reply: TypeAlias = "str | Sequence[StreamItem] | Mapping[str, Any]"
"""One reply of a script: text, stream items, or a replay record (see the module docstring)."""


@dataclass(frozen=True)
class Turn:
    """One reply, ready to stream."""

    chunks: tuple[str, ...]
    finish_reason: FinishReason = "stop"
    items: tuple[StreamItem, ...] | None = None
    """The engine's typed items, streamed as they are (stop sequences apply to text only); None: ``chunks``."""


@dataclass(frozen=True)
class ScriptedRequest:
    """What one request asked: the rendered prompt and the options (for tests to look at)."""

    messages: tuple[Message, ...]
    options: GenerationOptions


class ScriptedBackend(BaseBackend):
    """Serves ``replies`` in order, one per request; see the module docstring."""

    def __init__(
        self,
        replies: Sequence[Reply | Turn],
        *,
        chunk_size: int | None = 4,
        repeat: bool = False,
        delay: float = 0.0,
        name: str = "scripted",
    ) -> None:
        """Args:
            replies: The replies, in the order requests get them.
            chunk_size: Characters per chunk of a text reply; None sends each reply whole.
            repeat: Serve the first reply to every request (a model that always says the same).
            delay: Seconds before each chunk, to imitate a model's pace.
            name: The backend's name in messages (``replay:PATH`` for a recording).

        Raises:
            ConfigError: a reply is in none of the forms, a bad ``chunk_size`` or ``delay``, or no replies.
        """
        if chunk_size is not None and chunk_size < 1:
            raise ConfigError(f"chunk_size must be at least 1 (or None for whole replies); got {chunk_size!r}")
        if delay < 0:
            raise ConfigError(f"delay must not be negative; got {delay!r}")
        self._turns = [
            r if isinstance(r, Turn) else read_turn(r, f"reply #{n}", chunk_size) for n, r in enumerate(replies)
        ]
        if not self._turns:
            raise ConfigError(f"{name} has no replies to serve")
        self._name = name
        self._repeat = repeat
        self._delay = delay
        self.requests: list[ScriptedRequest] = []
        """Every request so far, in order."""

    @property
    def name(self) -> str:
        return self._name

    @property
    def turns_served(self) -> int:
        """How many replies have been started so far."""
        return len(self.requests)

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        """Stream the next reply (the script answers whatever was asked)."""
        served = len(self.requests)
        if not self._repeat and served >= len(self._turns):
            raise BackendError(
                f"{self.description} has {len(self._turns)} recorded replies and all were served; "
                "add one per extra turn"
            )
        self.requests.append(ScriptedRequest(tuple(messages), options))
        turn = self._turns[0 if self._repeat else served]
        chunks, finish_reason = _apply_stop(turn, stop_sequences(options))
        items: Sequence[StreamItem] = chunks if turn.items is None else turn.items
        for chunk in items:
            if self._delay:
                await anyio.sleep(self._delay)
            yield chunk
        yield Completion(finish_reason=finish_reason, text="")


def read_turn(reply: Reply, where: str, chunk_size: int | None) -> Turn:
    """One reply in any of its forms as a `Turn`.

    Raises:
        ConfigError: it is in none of them (``where`` names it).
    """
    if isinstance(reply, str):
        return Turn(_split(reply, chunk_size))
    if not isinstance(reply, Mapping):
        return _items_turn(where, list(reply), "stop")
    data = reply
    finish = data.get("finish_reason", "stop")
    if finish not in ("stop", "length"):
        raise ConfigError(f"{where}: 'finish_reason' must be 'stop' or 'length'; got {finish!r}")
    if "items" in data:
        return _items_turn(where, data["items"], finish)
    chunks: Any = data.get("chunks")
    if isinstance(chunks, list) and all(isinstance(c, str) for c in chunks):  # pyright: ignore[reportUnknownVariableType]
        return Turn(tuple(str(c) for c in chunks if c), finish)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    response = data.get("response")
    if isinstance(response, str):
        return Turn(_split(response, chunk_size), finish)
    raise ConfigError(f"{where}: needs 'response' (a string) or 'chunks' (a list of strings), or 'items'")


def _items_turn(where: str, records: Any, finish: FinishReason) -> Turn:
    entries: list[Any] = cast("list[Any]", records) if isinstance(records, list) else [None]
    items: list[StreamItem] = []
    for entry in entries:
        if isinstance(entry, (str, Reasoning, NativeCall)):
            items.append(entry)
            continue
        record: dict[str, Any] = cast("dict[str, Any]", entry) if isinstance(entry, dict) else {}
        reasoning, call = record.get("reasoning"), record.get("native_call")
        if isinstance(reasoning, str):
            items.append(Reasoning(reasoning))
        elif isinstance(call, dict):
            fields = cast("dict[str, Any]", call)
            if not (isinstance(fields.get("id"), str) and isinstance(fields.get("name"), str)):
                raise ConfigError(f'{where}: a "native_call" needs "id" and "name" (strings) and "arguments"')
            if not isinstance(fields.get("arguments"), dict):
                raise ConfigError(f'{where}: a "native_call"\'s "arguments" must be an object')
            items.append(NativeCall.of(ToolCall(id=fields["id"], name=fields["name"], arguments=fields["arguments"])))
        else:
            raise ConfigError(f'{where}: "items" must be strings, {{"reasoning": ...}} or {{"native_call": ...}}')
    text = tuple(i for i in items if isinstance(i, str) and i)
    return Turn(text, finish, tuple(items))


def _split(text: str, chunk_size: int | None) -> tuple[str, ...]:
    if not text:
        return ()
    if chunk_size is None:
        return (text,)
    return tuple(text[i : i + chunk_size] for i in range(0, len(text), chunk_size))


def _apply_stop(turn: Turn, stop: Sequence[str]) -> tuple[tuple[str, ...], FinishReason]:
    """Cut the reply before the first stop sequence, keeping the chunk boundaries."""
    text = "".join(turn.chunks)
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    if cut < 0:
        return turn.chunks, turn.finish_reason
    kept: list[str] = []
    remaining = cut
    for chunk in turn.chunks:
        if remaining <= 0:
            break
        kept.append(chunk[:remaining])
        remaining -= len(chunk)
    return tuple(kept), "stop"
