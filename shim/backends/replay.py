"""``replay:PATH``: stream recorded model output, for tests, benchmarks and reproducing bug reports.

Two file forms:

- a text file (any suffix but ``.jsonl``): its whole content is the reply, on every turn;
- a ``.jsonl`` file: one JSON object per line, one per turn, served in order. Each has ``"response"`` (the
  text) or ``"chunks"`` (a list of strings, streamed exactly as split, to reproduce a chunking), and may have
  ``"finish_reason"`` (``"stop"`` or ``"length"``; default ``"stop"``). Blank lines and lines starting
  with ``#`` (comments saying where a recording came from) are skipped.

Deterministic: the same file and options stream the same chunks. Stop sequences in the options are
honoured as an engine would (the text ends before the first one).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import anyio

from shim.backends.base import (
    BaseBackend,
    Completion,
    FinishReason,
    GenerationOptions,
    NativeCall,
    Reasoning,
    StreamItem,
)
from shim.errors import BackendError, ConfigError
from shim.types import Message, ToolCall

__all__ = ["ReplayBackend", "item_record"]


@dataclass(frozen=True)
class _Turn:
    chunks: tuple[str, ...]
    finish_reason: FinishReason
    items: tuple[StreamItem, ...] | None = None
    """A recording with the engine's typed items: streamed as they are (stop sequences apply to text only)."""


def item_record(item: StreamItem) -> str | dict[str, Any]:
    """``item`` as a ``.jsonl`` recording's ``"items"`` entry (the inverse of the replay)."""
    if isinstance(item, str):
        return item
    if isinstance(item, Reasoning):
        return {"reasoning": item.text}
    return {"native_call": item.call.to_dict()}


class ReplayBackend(BaseBackend):
    """Serves recorded replies in order; see the module docstring for the file forms."""

    def __init__(self, path: str | Path, *, chunk_size: int | None = 4, delay: float = 0.0) -> None:
        """Read the recording.

        Args:
            path: A text or ``.jsonl`` file.
            chunk_size: Characters per chunk for ``"response"`` text; ``None`` sends each reply whole.
                Ignored for recordings given as ``"chunks"``.
            delay: Seconds to wait before each chunk, to imitate a model's pace.

        Raises:
            ConfigError: the file is missing, unreadable or not in one of the two forms.
        """
        if chunk_size is not None and chunk_size < 1:
            raise ConfigError(f"replay chunk_size must be at least 1 (or None for whole replies); got {chunk_size!r}")
        if delay < 0:
            raise ConfigError(f"replay delay must not be negative; got {delay!r}")
        self._path = Path(path)
        self._chunk_size = chunk_size
        self._delay = delay
        self._turns, self._repeat = _load(self._path, chunk_size)
        self._next_turn = 0

    @property
    def name(self) -> str:
        return f"replay:{self._path}"

    @property
    def turns_served(self) -> int:
        """How many replies have been started so far."""
        return self._next_turn

    @property
    def description(self) -> str:
        return f"replay {str(self._path)!r}"

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        """Stream the next recorded reply (``messages`` are not looked at)."""
        del messages  # a recording answers whatever was asked
        if self._repeat:
            turn = self._turns[0]
        elif self._next_turn < len(self._turns):
            turn = self._turns[self._next_turn]
        else:
            raise BackendError(
                f"replay file {str(self._path)!r} has {len(self._turns)} recorded replies "
                "and all were served; "
                "add a line per extra turn"
            )
        self._next_turn += 1
        chunks, finish_reason = _apply_stop(turn, options.stop)
        items: Sequence[StreamItem] = chunks if turn.items is None else turn.items
        for chunk in items:
            if self._delay:
                await anyio.sleep(self._delay)
            yield chunk
        yield Completion(finish_reason=finish_reason, text="")


def _load(path: Path, chunk_size: int | None) -> tuple[list[_Turn], bool]:
    try:
        content = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"replay file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read replay file {str(path)!r}: {exc}") from None
    if path.suffix != ".jsonl":
        return [_Turn(_split(content, chunk_size), "stop")], True
    turns: list[_Turn] = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _is_trace_record(line):
            continue  # a `--trace` file: only its "response" lines are model output
        turns.append(_parse_line(path, number, line, chunk_size))
    if not turns:
        raise ConfigError(f"replay file {str(path)!r} has no recorded replies; write one JSON object per line")
    return turns, False


def _is_trace_record(line: str) -> bool:
    try:
        record: Any = json.loads(line)
    except json.JSONDecodeError:
        return False
    if not isinstance(record, dict):
        return False
    kind: Any = cast("dict[str, Any]", record).get("type", "response")
    return kind != "response"


def _parse_line(path: Path, number: int, line: str, chunk_size: int | None) -> _Turn:
    where = f"replay file {str(path)!r}, line {number}"
    try:
        record: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where} is not JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise ConfigError(f'{where}: expected an object like {{"response": "..."}}')
    data: dict[str, Any] = record  # pyright: ignore[reportUnknownVariableType]
    finish = data.get("finish_reason", "stop")
    if finish not in ("stop", "length"):
        raise ConfigError(f"{where}: 'finish_reason' must be 'stop' or 'length'; got {finish!r}")
    if "items" in data:
        return _items_turn(where, data["items"], finish)
    chunks: Any = data.get("chunks")
    if isinstance(chunks, list) and all(isinstance(c, str) for c in chunks):  # pyright: ignore[reportUnknownVariableType]
        return _Turn(tuple(str(c) for c in chunks if c), finish)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    response = data.get("response")
    if isinstance(response, str):
        return _Turn(_split(response, chunk_size), finish)
    raise ConfigError(f"{where}: needs 'response' (a string) or 'chunks' (a list of strings)")


def _items_turn(where: str, records: Any, finish: FinishReason) -> _Turn:
    entries: list[Any] = cast("list[Any]", records) if isinstance(records, list) else [None]
    items: list[StreamItem] = []
    for entry in entries:
        if isinstance(entry, str):
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
    return _Turn(text, finish, tuple(items))


def _split(text: str, chunk_size: int | None) -> tuple[str, ...]:
    if not text:
        return ()
    if chunk_size is None:
        return (text,)
    return tuple(text[i : i + chunk_size] for i in range(0, len(text), chunk_size))


def _apply_stop(turn: _Turn, stop: Sequence[str]) -> tuple[tuple[str, ...], FinishReason]:
    """Cut the reply before the first stop sequence, keeping the recorded chunk boundaries."""
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
