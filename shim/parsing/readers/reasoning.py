"""Reasoning blocks (``<think>``, ``<thinking>``, ``<reasoning>``, Command R's ``<|START_THINKING|>``): all inside is
reasoning; calls there are drafts.

A closer met in text, with no block open (``plan</think>{…}``: a template opened the block in the prompt, or the
model closed one it never opened), is the model's markup: it goes out invisible (`ORPHAN_CLOSERS`).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import open_markup
from shim.parsing.readers.tagged_json import tag

__all__ = ["ORPHAN_CLOSERS", "ROWS", "ReasoningBody"]


class ReasoningBody:
    """Everything up to ``closer`` is reasoning (or, with ``visible``, text: a message's content), streamed.

    With ``watch_calls`` (think blocks), a call opener inside the block holds the rest back: if the closer
    follows, all of it was reasoning (a drafted call); if the stream ends first, the block was never closed
    and the call was the model's own (``<think>plan<tool_call>…``), so the held text is read again as the
    message's.
    """

    def __init__(
        self, ctx: Context, closer: regex.Pattern[str] | None, *, visible: bool = False, watch_calls: bool = False
    ) -> None:
        self.ctx = ctx
        self.closer = closer
        self.emit = ctx.text if visible else ctx.reasoning
        self.watch_calls = watch_calls
        self.held: list[str] | None = None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.held is not None:
            return self._holding(text, pos, final)
        found = self.closer.search(text, pos, partial=not final) if self.closer is not None else None
        open_end = found is None or (found.partial and found.start() >= len(text))
        if self.watch_calls:
            end = len(text) if found is None else found.start()
            opener = self.ctx.markers.search_call_opener(text, pos, end, final or not open_end)
            if opener is not None:
                self.emit(text[pos : opener.start()], text[pos : opener.start()])
                if opener.partial:
                    return opener.start(), MORE
                self.held = []
                return self._holding(text, opener.start(), final)
        if found is None or open_end:
            self.emit(text[pos:], text[pos:])
            return len(text), self
        self.emit(text[pos : found.start()], text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        self.emit("", found.group())
        return found.end(), None

    def _holding(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        assert self.held is not None and self.closer is not None
        found = self.closer.search(text, pos, partial=not final)
        if found is None or (found.partial and found.start() >= len(text)):
            self.held.append(text[pos:])
            return len(text), self
        self.held.append(text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        held, self.held = "".join(self.held), None
        self.emit(held, held)
        self.emit("", found.group())
        return found.end(), None

    def finish(self, truncated: bool) -> None:
        self.emit("", self.ctx.take_raw())
        if self.held is not None:
            held, self.held = "".join(self.held), None
            self.ctx.reread(held)


def open_reasoning(ctx: Context, block: Block, match: regex.Match[str]) -> ReasoningBody:
    """The opener goes out as the raw of the reasoning it starts."""
    ctx.reasoning("", ctx.take_raw())
    assert block.dialect is not None
    return ReasoningBody(ctx, block.dialect.compiled_close(), watch_calls=True)


def _think_token(edge: str) -> str:
    words = "think|thinking|reasoning"
    return rf"<[|\uff5c](?:(?:{words})[:_ ](?:{edge})|(?:{edge})[:_ ](?:{words}))[|\uff5c]>"


ROWS = [
    # A mode after the word is still reasoning: K2-V3's `<ifm|think_fast>…</ifm|think_fast>`.
    Dialect("think", *tag(r"think(?:_[a-z]{1,12})?"), kind="reasoning", reader=open_reasoning),
    Dialect("thinking", *tag("thinking"), kind="reasoning", reader=open_reasoning),
    Dialect("reasoning", *tag("reasoning"), kind="reasoning", reader=open_reasoning),
    Dialect(
        "command_thinking", r"<\|START_THINKING\|>", r"<\|END_THINKING\|>", kind="reasoning", reader=open_reasoning
    ),
    # A special token of either bar style whose words say reasoning and start / end: Solar Open's
    # `<|think:start|>…<|think:end|>`, and the same words joined by `_` or in the other order.
    Dialect("think_token", _think_token("start|begin"), _think_token("end"), kind="reasoning", reader=open_reasoning),
]

ORPHAN_CLOSERS = [
    Dialect(f"orphan_{row.name}", row.close, None, kind="markup", first="<", reader=open_markup)
    for row in ROWS
    if row.close is not None
]
"""A reasoning closer in text, with no block open: markup (listed after every opener in the table)."""
