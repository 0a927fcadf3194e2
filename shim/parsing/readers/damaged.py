"""Damaged JSON bodies of tagged calls: doubled braces, an object escaped as if inside a string, typographic quotes.

- ``<tool_call>{{"name": "f", "arguments": {{"k": 1}}}}</tool_call>``: a model copying a prompt template whose
  braces were escaped for ``str.format`` or Jinja; every ``{{`` / ``}}`` is one brace.
- ``<tool_call>{\\"name\\": \\"f\\"}</tool_call>``: the object written as the contents of a JSON string; it
  is read as such a string first (so ``\\\\\\"`` inside stays a quote in the value).
- ``<tool_call> {“name”: “f”, “arguments”: {…}} </tool_call>``: every quote typographic (Llama3-Groq-Tool-Use as
  an Ollama issue shows it, or a chat UI's paste): the body's first key opens with one, so each of that pair is a
  JSON quote (U+2018 and U+2019 likewise single quotes); a body opening with a straight quote keeps its typographic
  ones as the text of its values.

Each is recognised from the body's first characters (``{{``, ``{\\"``, ``{“``), read up to the block's closer
(or the next call marker, or the end of the stream) and decided whole: a call, or an error saying why.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Next
from shim.parsing.readers.block_end import Closed
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.shapes import CallShape, ShapeError, to_call
from shim.parsing.tags import MarkerMatch

__all__ = ["RepairedBody", "damaged_start", "repaired"]

_DAMAGED = regex.compile(r'\{(?:\{|\\"|[ \t\r\n]{0,8}[\u201c\u201d\u2018\u2019])')
_TYPOGRAPHIC = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}


def repaired(body: str) -> str:
    """The JSON a damaged body stands for (unchanged when it shows neither damage)."""
    text = body.strip()
    if text.startswith("{{"):
        return text.replace("{{", "{").replace("}}", "}")
    if text[:1] == "{" and text[1:].lstrip()[:1] in _TYPOGRAPHIC:  # every quote typographic: they are JSON's quotes
        quote = text[1:].lstrip()[0]
        pair = "\u201c\u201d" if quote in "\u201c\u201d" else "\u2018\u2019"
        return "".join(_TYPOGRAPHIC[c] if c in pair else c for c in text)
    if text.startswith('{\\"'):
        try:
            return json.loads(f'"{text}"', strict=False)
        except ValueError:
            return text.replace('\\"', '"')
    return text


def damaged_start(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """At a body's ``{``: a damaged body starts here (or may: `MORE`), else None."""
    found = _DAMAGED.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial:
        return pos, MORE
    return pos, RepairedBody(ctx, block)


class RepairedBody:
    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.name = block.name
        block.name = None
        self.body: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        found = ctx.markers.search_call_marker(text, pos, final)
        if found is None or (found.partial and found.start() >= len(text)):
            ctx.consume(text[pos:])
            self.body.append(text[pos:])
            return len(text), self
        ctx.consume(text[pos : found.start()])
        self.body.append(text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        self._decide()
        if isinstance(ctx.markers.match(text, found.start(), True, closes=True, opens=False), MarkerMatch):
            ctx.markup(found.group())
            return found.end(), Closed(ctx)
        return found.start(), None  # a new opener: the text scanner opens the next block

    def _decide(self) -> None:
        try:
            value: Any = lenient_json.loads(repaired("".join(self.body)))
            if self.name is None:
                shape = to_call(value, self.ctx.tools)
            elif isinstance(value, dict):
                shape = CallShape(self.name, value, canonical=True)  # pyright: ignore[reportUnknownArgumentType]
            else:
                raise ShapeError(f"the arguments of {self.name!r} must be a JSON object")
        except (lenient_json.LenientJSONError, ShapeError) as exc:
            self.ctx.fail_call(str(exc))
            return
        self.ctx.end_call(shape.name, shape.arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        else:
            self._decide()
