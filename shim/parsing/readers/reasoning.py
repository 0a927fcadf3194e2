"""Reasoning blocks (``<think>``, ``<thinking>``, ``<reasoning>``): all inside is reasoning; calls there are drafts."""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.tagged_json import tag

__all__ = ["ROWS", "ReasoningBody"]


class ReasoningBody:
    """Everything up to ``closer`` is reasoning (or, with ``visible``, text: a message's content), streamed."""

    def __init__(self, ctx: Context, closer: regex.Pattern[str] | None, *, visible: bool = False) -> None:
        self.ctx = ctx
        self.closer = closer
        self.emit = ctx.text if visible else ctx.reasoning

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = self.closer.search(text, pos, partial=not final) if self.closer is not None else None
        if found is None or (found.partial and found.start() >= len(text)):
            self.emit(text[pos:], text[pos:])
            return len(text), self
        self.emit(text[pos : found.start()], text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        self.emit("", found.group())
        return found.end(), None

    def finish(self, truncated: bool) -> None:
        self.emit("", self.ctx.take_raw())


def open_reasoning(ctx: Context, block: Block, match: regex.Match[str]) -> ReasoningBody:
    """The opener goes out as the raw of the reasoning it starts."""
    ctx.reasoning("", ctx.take_raw())
    assert block.dialect is not None
    return ReasoningBody(ctx, block.dialect.compiled_close())


ROWS = [
    Dialect("think", *tag("think"), kind="reasoning", reader=open_reasoning),
    Dialect("thinking", *tag("thinking"), kind="reasoning", reader=open_reasoning),
    Dialect("reasoning", *tag("reasoning"), kind="reasoning", reader=open_reasoning),
]
