"""Boundary tokens a model leaks into its text (MiniMax-M3's ``]<]minimax[>[`` before every tag of a call): taken
out before the text is read, put back into the raw of the events, so the stream stays lossless.

Such a token is the model's own token structure, never text and never part of a value: with it between every tag
(``]<]minimax[>[<invoke name="read_file">]<]minimax[>[<path>a.rs]<]minimax[>[</path>``) no reader would find
the call, and a value would end with it. The form, ``]<]WORD[>[``, appears in no prose, so it is taken out
everywhere, whatever the family. A token split across chunks is held back until it is whole (or is not one).

Incremental like the other pieces of the parser: `strip` each chunk before it is read, `restore` the events
read from it.
"""

from __future__ import annotations

import dataclasses

import regex

from shim.events import Event, TextDelta

__all__ = ["BoundaryTokens"]

_TOKEN = regex.compile(r"\]<\][A-Za-z][\w.\-]{0,31}\[>\[")
_START = "]<]"
_TAIL = 40
"""Longer than any token: how far from a chunk's end a token may begin."""


class BoundaryTokens:
    """Takes boundary tokens out of the text and gives them back in the raw of the events read from it."""

    def __init__(self) -> None:
        self._hold = ""  # the chunk's end, when it may begin a token
        self._passed = 0  # characters of stripped text passed on so far
        self._covered = 0  # characters of stripped text the restored events' raw covers so far
        self._tokens: list[tuple[int, str]] = []  # tokens taken out, at their offset in the stripped text

    def strip(self, chunk: str, *, final: bool) -> str:
        """``chunk`` without its boundary tokens (the end of it held back when it may begin one)."""
        text, self._hold = self._hold + chunk, ""
        if _START not in text and (final or "]" not in text[-_TAIL:]):
            self._passed += len(text)
            return text
        pieces: list[str] = []
        pos = 0
        for found in _TOKEN.finditer(text):
            pieces.append(text[pos : found.start()])
            self._passed += found.start() - pos
            self._tokens.append((self._passed, found.group()))
            pos = found.end()
        if not final:
            partial = _TOKEN.search(text, max(pos, len(text) - _TAIL), partial=True)
            if partial is not None and partial.partial:
                self._hold = text[partial.start() :]
                text = text[: partial.start()]
        pieces.append(text[pos:])
        self._passed += len(text) - pos
        return "".join(pieces)

    def restore(self, events: list[Event], *, final: bool = False) -> list[Event]:
        """``events`` (read from the stripped text, in order) with each token put back into the raw of the first
        event whose raw reaches its place; at the end of the stream, any left go out as raw of empty text."""
        if not self._tokens:
            self._covered += sum(len(e.raw) for e in events)
            return events
        out: list[Event] = []
        for event in events:
            start, end = self._covered, self._covered + len(event.raw)
            self._covered = end
            if not self._tokens or self._tokens[0][0] > end:
                out.append(event)
                continue
            raw, last = [], 0
            while self._tokens and self._tokens[0][0] <= end:
                at, token = self._tokens.pop(0)
                cut = max(at - start, 0)
                raw += [event.raw[last:cut], token]
                last = cut
            raw.append(event.raw[last:])
            out.append(dataclasses.replace(event, raw="".join(raw)))
        if final and self._tokens:
            out.append(TextDelta(text="", raw="".join(token for _, token in self._tokens)))
            self._tokens.clear()
        return out
