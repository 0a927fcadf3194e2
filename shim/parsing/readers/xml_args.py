"""Calls whose arguments are XML-style pairs (GLM ``<arg_key>``/``<arg_value>``, ``<parameter name=…>`` of MiniMax).

`XmlPairs` reads one call: pairs until the call's end token, or until a wrapper's closer if that is missing.
A value's closer counts only where a tag (the next pair, the call's end, a wrapper's closer) or the output's end
follows it: one that text follows (``<parameter name="c">contains </parameter> in it</parameter>``, SGLang's
MiniMax M2 tests) is the value's own text. Values are raw text typed by the tool's schema: a parameter of type
string stays text, any other type is read as (lenient) JSON or a Python literal (``['a', 'b']``); without a
schema a value stays text, as these families' own parsers do. Arguments stream one pair at a time, as JSON
text that concatenates to the object.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Next, match_at
from shim.parsing.readers.block_end import AfterBody, Skip, damaged_closer
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.tags import PARTIAL
from shim.parsing.xml_values import typed_value, unlaid

__all__ = ["PairForm", "XmlPairs"]

_BLANKS = regex.compile(r"[ \t\r\n]*")
_TEXT_GOES_ON = regex.compile(r"[ \t]*[^\s<]")
"""Text on the same line right after a closer, no tag: the closer is part of the value."""


@dataclass(frozen=True)
class PairForm:
    key: regex.Pattern[str]
    """Opens a pair and names it (group ``key``; a group ``type`` gives the value's JSON type where the schema gives
    none); the value starts right after it."""
    value_end: regex.Pattern[str]
    """Where a value ends; only a match with the group ``close`` is consumed (others begin what follows). A match
    with the group ``outer`` (the wrapper's closer, ``</tool_call>``) that text follows on its line, no tag, is the
    value's own text, as a value's closer is: GLM's values are raw strings and may hold the markup."""
    call_end: regex.Pattern[str] | None
    """The call's own end token (``</invoke>``), consumed; None: the wrapper's closer ends the call."""
    expected: str
    """What may come next, for the error message."""
    trim: bool = False
    """A one-line value's spaces and tabs each side are padding, not data: the family's engines trim them (Ollama's
    MiniMax-M2 parser: ``<parameter name="city">  Paris  </parameter>`` is ``Paris``). A value over several lines
    keeps them (code's indentation), and so does a pair whose tag names its namespace (group ``ns``: ATEM's
    ``<atem:parameter>``, whose engines keep a value's spaces)."""


class XmlPairs:
    def __init__(self, ctx: Context, block: Block, name: str, form: PairForm) -> None:
        self.ctx = ctx
        self.block = block
        self.form = form
        ctx.start_call(name)
        self.name = ctx.tools.resolve(name)
        self.arguments: dict[str, Any] = {}
        self.key: str | None = None  # inside this pair's value
        self.attributes: dict[str, str] = {}
        """The current pair's other named groups of ``form.key`` (DSML's ``string="true"``)."""
        self.value: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx, form = self.ctx, self.form
        if self.key is not None:
            found = form.value_end.search(text, pos, partial=not final)
            if found is None or (found.partial and found.start() >= len(text)):
                ctx.consume(text[pos:])
                self.value.append(text[pos:])
                return len(text), self
            if not found.partial and found.groupdict().get("outer") is not None:
                goes_on = _TEXT_GOES_ON.match(text, found.end(), partial=not final)
                if goes_on is not None and goes_on.partial:
                    ctx.consume(text[pos : found.start()])
                    self.value.append(text[pos : found.start()])
                    return found.start(), MORE
                if goes_on is not None:  # `literal </tool_call> marker</arg_value>`: the closer is the value's
                    ctx.consume(text[pos : found.end()])
                    self.value.append(text[pos : found.end()])
                    return found.end(), self
            if not found.partial and found.group("close") is not None:
                after = _BLANKS.match(text, found.end())
                assert after is not None
                if after.end() >= len(text) and not final:
                    ctx.consume(text[pos : found.start()])
                    self.value.append(text[pos : found.start()])
                    return found.start(), MORE  # what follows the closer decides whose it is
                if after.end() < len(text) and text[after.end()] != "<":
                    # `…contains </parameter> in it</parameter>`: a closer that text follows is the value's own
                    ctx.consume(text[pos : found.end()])
                    self.value.append(text[pos : found.end()])
                    return found.end(), self
            ctx.consume(text[pos : found.start()])
            self.value.append(text[pos : found.start()])
            if found.partial:
                return found.start(), MORE
            self._end_pair()
            if found.group("close") is not None:
                ctx.consume(found.group())
                return found.end(), self
            return found.start(), self
        pos = ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        for pattern in (form.key, form.call_end):
            found = match_at(pattern, text, pos, final) if pattern is not None else None
            if found is MORE:
                return pos, MORE
            if found is not None:
                ctx.consume(found.group())
                if pattern is form.key:
                    self.key = html.unescape(found.group("key").strip())  # an attribute's value: `&quot;` is `"`
                    self.attributes = {k: v for k, v in found.groupdict().items() if k != "key" and v is not None}
                    self.value = []
                    return found.end(), self
                self._end_call()
                return found.end(), AfterBody(ctx, self.block)
        wrapper = ctx.markers.match(text, pos, final, opens=False, closes=True)
        if wrapper is PARTIAL:
            return pos, MORE
        if wrapper is not None:  # the wrapper closes with the call's own end left out
            self._end_call()
            return pos, AfterBody(ctx, self.block)
        damaged, partial = damaged_closer(self.block, text, pos, final)
        if partial:
            return pos, MORE
        if damaged is not None:  # the wrapper's closer cut at the end (`</tool_`) or misspelled: `AfterBody` reads it
            self._end_call()
            return pos, AfterBody(ctx, self.block)
        return pos, Skip(ctx, f"expected {form.expected}, found {text[pos]!r}")

    def _end_pair(self) -> None:
        assert self.key is not None
        declared = self.attributes.get("type")
        raw = unlaid("".join(self.value))
        if self.form.trim and not self.attributes.get("ns") and "\n" not in raw and raw.strip(" \t"):
            raw = raw.strip(" \t")
        value = typed_value(self.ctx.tools, self.name, self.key, raw, declared=declared)
        prefix = ", " if self.arguments else "{"
        self.arguments[self.key] = value
        pair = f"{json.dumps(self.key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        self.ctx.chunk(prefix + pair)
        self.key = None

    def _end_call(self) -> None:
        self.ctx.chunk("}" if self.arguments else "{}")
        self.ctx.end_call(self.name, self.arguments, streamed=True)

    def finish(self, truncated: bool) -> None:
        if truncated or self.key is not None:
            self.ctx.fail_call(CUT_OFF if truncated else "the call ends inside a parameter value")
            return
        self._end_call()
