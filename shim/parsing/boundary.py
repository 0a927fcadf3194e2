"""Boundary tokens a model leaks into its text (MiniMax-M3's ``]<]minimax[>[`` before every tag of a call): taken
out before the text is read, put back into the raw of the events, so the stream stays lossless.

Such a token is the model's own token structure, never text and never part of a value: with it between every tag
(``]<]minimax[>[<invoke name="read_file">]<]minimax[>[<path>a.rs]<]minimax[>[</path>``) no reader would find
the call, and a value would end with it. The form, ``]<]WORD[>[``, appears in no prose, so it is taken out
everywhere, whatever the family. A token split across chunks is held back until it is whole (or is not one).

Incremental like the other pieces of the parser: `strip` each chunk before it is read, `restore` the events
read from it. Positions are the parser's: how much stripped text it was fed, and how much of it the raw of its
events covered, so a stream with no token (nearly every one) costs one membership test a chunk.
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
        self.hold = ""
        """The end of the last chunk, held back because it may begin a token."""
        self.tokens: list[tuple[int, str]] = []
        """Tokens taken out and not yet given back, at their offset in the stripped text."""

    def strip(self, chunk: str, *, fed: int, final: bool) -> str:
        """``chunk`` without its boundary tokens (the end of it held back when it may begin one); ``fed`` is how
        much stripped text the parser was given before it."""
        text, self.hold = self.hold + chunk, ""
        if _START not in text and (final or "]" not in text[-_TAIL:]):
            return text
        pieces: list[str] = []
        pos = 0
        for found in _TOKEN.finditer(text):
            pieces.append(text[pos : found.start()])
            fed += found.start() - pos
            self.tokens.append((fed, found.group()))
            pos = found.end()
        if not final:
            partial = _TOKEN.search(text, max(pos, len(text) - _TAIL), partial=True)
            if partial is not None and partial.partial:
                self.hold = text[partial.start() :]
                text = text[: partial.start()]
        pieces.append(text[pos:])
        return "".join(pieces)

    def restore(self, events: list[Event], *, covered: int, final: bool = False) -> list[Event]:
        """``events`` (read from the stripped text, in order, the raw of those before them covering ``covered``
        characters of it) with each token put back into the raw of the first event whose raw reaches its place;
        at the end of the stream, any left go out as raw of empty text."""
        out: list[Event] = []
        for event in events:
            start, end = covered, covered + len(event.raw)
            covered = end
            if not self.tokens or self.tokens[0][0] > end:
                out.append(event)
                continue
            raw: list[str] = []
            last = 0
            while self.tokens and self.tokens[0][0] <= end:
                at, token = self.tokens.pop(0)
                cut = max(at - start, 0)
                raw += [event.raw[last:cut], token]
                last = cut
            raw.append(event.raw[last:])
            out.append(dataclasses.replace(event, raw="".join(raw)))
        if final and self.tokens:
            out.append(TextDelta(text="", raw="".join(token for _, token in self.tokens)))
            self.tokens.clear()
        return out
