"""Pythonic call lists, as Llama 3.2 and Llama 4 write them: ``[get_weather(city='Lima', unit='celsius'), …]``.

Untagged, so they count only at the start of a message and only when every call names an offered tool.
The list is scanned incrementally for its closing bracket, then read with Python's own `ast` (literal
values only, never evaluated code); see `shim.parsing.pythonic`.
"""

from __future__ import annotations

import regex

from shim.parsing.pythonic import PYTHONIC_START, PythonicScanner, parse_pythonic
from shim.parsing.readers.base import Block, Context, Dialect, Next
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.untagged import UntaggedJson

__all__ = ["ROWS", "PythonicList"]


class PythonicList:
    def __init__(self, ctx: Context, block: Block, opener: str) -> None:
        self.ctx = ctx
        self.block = block
        block.next_body = lambda: UntaggedJson(ctx, block)
        self.scanner = PythonicScanner()
        self.scanner.feed(opener, 0)  # the opener `[name(` was consumed by the core
        self.body = [opener]

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        new = self.scanner.feed(text, pos)
        if new > pos:
            self.ctx.consume(text[pos:new])
            self.body.append(text[pos:new])
        if not self.scanner.done:
            return new, self
        calls = parse_pythonic("".join(self.body))
        if not calls or not all(self.ctx.tools.is_known(name) for name, _ in calls):
            self.ctx.revert()
            return new, None
        for name, arguments in calls:
            self.ctx.end_call(name, arguments, streamed=False)
        return new, AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicList:
    return PythonicList(ctx, block, match.group())


ROWS = [Dialect("pythonic", PYTHONIC_START.pattern, None, kind="untagged", reader=_open)]
