"""Trace files: every prompt, event and tool exchange of a run, one JSON object per line, secrets redacted.

Each line has a ``type``: ``prompt`` (the plain messages sent to the model), ``event`` (a parser event),
``response`` (the model's whole reply with its original chunk boundaries and finish reason),
``tool_result``, ``done``. The ``response`` lines are what the ``replay:`` backend serves, so a trace
reproduces a run (or a user's bug report) without the model: ``shim run -m replay:trace.jsonl ...``.

Redaction (`shim.redact`) works on the assembled text, not on each line alone: the pieces of text that
streamed events carry (``text``, ``raw``, ``arguments_chunk``) are held back until no secret can span the
end of a piece, so a secret the model writes four characters at a time never reaches the file, not even in
part. Held-back event lines are written at the next line of another type, or by `TraceWriter.flush`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import time
import weakref
from collections.abc import Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO, cast

from shim.redact import PiecesRedactor, redact_data

__all__ = ["EventRedactor", "TraceWriter"]


def _streamed(event: Mapping[str, Any]) -> dict[Hashable, str]:
    """The pieces of streamed text one event carries, keyed by the stream they belong to."""
    pieces: dict[Hashable, str] = {}
    if isinstance(raw := event.get("raw"), str):
        pieces["raw"] = raw  # the raw pieces of every parser event rebuild the model's output
    kind = event.get("type")
    if kind in ("text", "reasoning") and isinstance(text := event.get("text"), str):
        pieces[kind] = text
    if kind == "tool_call_chunk" and isinstance(chunk := event.get("arguments_chunk"), str):
        pieces[("arguments", event.get("id"))] = chunk
    return pieces


def _field(key: Hashable) -> str:
    return "raw" if key == "raw" else "text" if key in ("text", "reasoning") else "arguments_chunk"


class EventRedactor:
    """Event dicts (``to_dict()`` of parser and agent events) in, the same dicts out redacted, in order.

    ``feed(event, item)`` returns the ``(event, item)`` pairs that are safe to show now (``item`` rides along
    untouched, e.g. the trace line around the event); ``flush()`` returns the rest at the end of a turn.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets = tuple(secrets)
        self._pending: PiecesRedactor[tuple[Mapping[str, Any], Any]] = PiecesRedactor(self._secrets)

    def feed(self, event: Mapping[str, Any], item: Any = None) -> list[tuple[dict[str, Any], Any]]:
        pieces = _streamed(event)
        if not pieces:
            return [*self.flush(), (redact_data(event, self._secrets), item)]
        released: list[tuple[tuple[Mapping[str, Any], Any], dict[Hashable, str]]] = []
        for key in self._pending.streams:
            if key != "raw" and key not in pieces:
                # Text, reasoning and each call's arguments are separate texts: one ends when another starts
                # (the raw output they come from goes on).
                released += self._pending.end(key)
        return self._finish([*released, *self._pending.feed((event, item), pieces)])

    def flush(self) -> list[tuple[dict[str, Any], Any]]:
        return self._finish(self._pending.flush())

    def _finish(
        self, released: list[tuple[tuple[Mapping[str, Any], Any], dict[Hashable, str]]]
    ) -> list[tuple[dict[str, Any], Any]]:
        out: list[tuple[dict[str, Any], Any]] = []
        for (event, item), pieces in released:
            whole: dict[str, Any] = redact_data({k: v for k, v in event.items()}, self._secrets)
            whole.update({_field(key): piece for key, piece in pieces.items()})
            out.append((whole, item))
        return out


def _flush_at_exit(ref: weakref.ref[TraceWriter]) -> None:
    writer = ref()
    if writer is not None:
        with contextlib.suppress(Exception):  # the stream may be closed by now; exiting goes on regardless
            writer.flush()


class TraceWriter:
    """Append trace records to a JSONL file (opened per record: nothing stays open, a crash loses no line
    but the few event lines held back for redaction) or to a text stream the caller owns."""

    def __init__(self, target: str | Path | TextIO, *, secrets: Iterable[str] = ()) -> None:
        self._secrets = tuple(secrets)
        self._path = Path(target) if isinstance(target, (str, Path)) else None
        self._stream = None if isinstance(target, (str, Path)) else target
        self._events = EventRedactor(self._secrets)
        # A run that ends without a last line (Ctrl-C, a crash) still gets its held-back event lines written.
        atexit.register(_flush_at_exit, weakref.ref(self))

    def write(self, kind: str, **data: Any) -> None:
        record: dict[str, Any] = {"type": kind, "time": round(time.time(), 3), **data}
        event = data.get("event")
        if kind == "event" and isinstance(event, Mapping):
            released = self._events.feed(event, record)  # pyright: ignore[reportUnknownArgumentType]
            self._emit([{**line, "event": redacted} for redacted, line in released])
            return
        self.flush()
        if kind == "response" and isinstance(chunks := data.get("chunks"), list):
            record["chunks"] = self._chunks([str(c) for c in cast("list[Any]", chunks)])
        self._emit([redact_data(record, self._secrets)])

    def _chunks(self, chunks: list[str]) -> list[str]:
        """The chunks are pieces of one text: redact them assembled, keeping their boundaries for replay."""
        pending: PiecesRedactor[int] = PiecesRedactor(self._secrets)
        done: list[tuple[int, dict[Hashable, str]]] = []
        for index, chunk in enumerate(chunks):
            done += pending.feed(index, {0: chunk})
        return [pieces[0] for _, pieces in [*done, *pending.flush()]]

    def flush(self) -> None:
        """Write the event lines held back for redaction (the end of a turn does it too)."""
        self._emit([{**line, "event": redacted} for redacted, line in self._events.flush()])

    def _emit(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        text = "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in records)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as file:
                file.write(text)
        elif self._stream is not None:
            self._stream.write(text)
            self._stream.flush()
