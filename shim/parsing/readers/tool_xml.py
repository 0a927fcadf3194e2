"""Tool-name XML, as Cline and Roo Code prompt for: ``<read_file><path>a.py</path></read_file>``.

The tag is the name of an offered tool and each child tag is one parameter. Untagged in spirit (any HTML
could look like it), so the evidence is strict: the opener is built only from offered tool names, only
whitespace may sit between the children, and a child must be a parameter the tool's schema declares (a tool
declaring none is called only as ``<TOOL></TOOL>``), once. Anything else goes back out as text, unchanged,
with no error; so does a block the stream ends inside. Values are text, typed by the schema (``true`` for a
boolean, ``["a"]`` or a Python literal ``['a']`` for an array); a ``<![CDATA[…]]>`` value is its content.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.shapes import ToolIndex
from shim.parsing.xml_values import typed_value

__all__ = ["ROWS", "ToolXml", "tool_name_pattern"]

_WS = regex.compile(r"[ \t\r\n]+")
_CHILD = regex.compile(r"<(?P<key>[A-Za-z_][\w.-]{0,63})[ \t]{0,8}>")
_CDATA = regex.compile(r"\A[ \t\r\n]*<!\[CDATA\[(?P<inner>.*)\]\]>[ \t\r\n]*\Z", regex.DOTALL)
_TAG_NAME = regex.compile(r"[A-Za-z_][\w.-]{0,127}")


def _closer(name: str) -> regex.Pattern[str]:
    return regex.compile(rf"<[ \t]{{0,8}}/[ \t]{{0,8}}{regex.escape(name)}[ \t]{{0,8}}>", regex.IGNORECASE)


class ToolXml:
    """The children of ``<TOOL>…</TOOL>``; the call is decided at the closing tag."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = ctx.tools.resolve(name)
        self.close = _closer(name)
        spec = ctx.tools.specs.get(self.name)
        props: Any = spec.input_schema.get("properties") if spec is not None else None
        self.params: set[str] = set(props) if isinstance(props, dict) else set()  # pyright: ignore[reportUnknownArgumentType]
        self.arguments: dict[str, Any] = {}
        self.key: str | None = None
        self.value_end: regex.Pattern[str] | None = None
        self.value: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx, n = self.ctx, len(text)
        while pos < n:
            if self.value_end is not None:  # inside a value: up to its closing tag
                found = self.value_end.search(text, pos, partial=not final)
                if found is None:
                    ctx.consume(text[pos:])
                    self.value.append(text[pos:])
                    return n, self
                ctx.consume(text[pos : found.start()])
                self.value.append(text[pos : found.start()])
                if found.partial:
                    return found.start(), MORE
                ctx.consume(found.group())
                self._end_value()
                pos = found.end()
                continue
            ws = _WS.match(text, pos)
            if ws is not None:
                ctx.consume(ws.group())
                pos = ws.end()
                continue
            close = self.close.match(text, pos, partial=not final)
            if close is not None and close.partial:
                return pos, MORE
            if close is not None:
                ctx.consume(close.group())
                ctx.end_call(self.name, self.arguments, streamed=False)
                return close.end(), None
            child = _CHILD.match(text, pos, partial=not final)
            if child is not None and child.partial:
                return pos, MORE
            if child is None or not self._accepts(child.group("key")):
                ctx.revert()  # not this tool's parameters: prose or markup that looks like it
                return pos, None
            ctx.consume(child.group())
            key = self.key = child.group("key")
            self.value_end = _closer(key)
            self.value = []
            pos = child.end()
        return pos, self

    def _accepts(self, key: str) -> bool:
        return key not in self.arguments and key in self.params

    def _end_value(self) -> None:
        assert self.key is not None
        raw = "".join(self.value)
        cdata = _CDATA.match(raw)
        if cdata is not None:
            raw = cdata.group("inner")
        else:  # the format puts a long value on its own lines: drop one newline on each side
            raw = raw[1:] if raw.startswith("\n") else raw
            raw = raw[:-1] if raw.endswith("\n") else raw
        self.arguments[self.key] = typed_value(self.ctx.tools, self.name, self.key, raw)
        self.key = None
        self.value_end = None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()  # no closing tag: not a call we can trust


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ToolXml:
    return ToolXml(ctx, block, match.group("name"))


def tool_name_pattern(tools: ToolIndex) -> str | None:
    """The offered names that can be written as a word (longest first, escaped), as one alternation."""
    names = sorted((n for n in tools.specs if _TAG_NAME.fullmatch(n)), key=len, reverse=True)
    return "|".join(regex.escape(n) for n in names) or None


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"<(?P<name>{names})[ \t]{{0,8}}>"


ROWS = [
    # <read_file><path>a.py</path></read_file>: only for offered tools, only their parameters as children.
    Dialect("tool_name_xml", r"<", None, kind="untagged", first="<", reader=_open, open_for_tools=_opener)
]
