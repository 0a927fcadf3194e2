"""A call written as a command line: an offered tool's name, then ``KEY=VALUE`` pairs, alone on its line.

    web_fetch url="https://www.iana.org/help/example-domains"
    search query='cats' limit=5

Some local instruct models answer a tool prompt this way (odysseus's issue on "bare command-style" calls).
Plain words, so the evidence is strict, as for `pythonic_calls`: the name is an offered tool's, at the
message's start or an unindented line's; at least one pair follows; every key is a parameter the tool
declares, once; a value is quoted (``"…"`` or ``'…'``, backslash escapes of the quote allowed) or one bare
word; and nothing but blanks follows the last pair on its line. Values are typed by the schema. Anything
else (a sentence naming the tool, an undeclared key, a pair inside prose) is text, unchanged, with no error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from shim.parsing.readers.base import (
    MORE,
    NAME_START,
    Block,
    Context,
    Next,
    keep_line_break,
    message_and_line_rows,
)
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex
from shim.parsing.xml_values import typed_value

__all__ = ["ROWS", "CommandLine"]

_PAIR = regex.compile(
    r"""[ \t]{1,8}(?P<key>[A-Za-z_][\w\-]{0,63})="""
    r"""(?:"(?P<dq>(?:[^"\\\n]|\\.){0,4000})"|'(?P<sq>(?:[^'\\\n]|\\.){0,4000})'"""
    r"""|(?P<bare>[^\s"'=]{1,4000}))(?=[ \t\r\n]|$)"""
)
_LINE_END = regex.compile(r"[ \t]*(?:\r?\n|$)")
_ESCAPE = regex.compile(r"\\(.)")


class CommandLine:
    """The pairs after the name, decided at the end of the line."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)
        spec = ctx.tools.specs.get(self.name)
        props: Any = spec.input_schema.get("properties") if spec is not None else None
        self.params: set[str] = set(props) if isinstance(props, dict) else set()  # pyright: ignore[reportUnknownArgumentType]
        self.arguments: dict[str, Any] = {}

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        while True:
            pair = _PAIR.match(text, pos, partial=not final)
            if pair is not None and (pair.partial or (pair.end() >= len(text) and not final)):
                return pos, MORE  # a value may still grow
            if pair is None:
                break
            key = pair.group("key")
            if key not in self.params or key in self.arguments:
                self.ctx.revert()
                return pos, None
            raw = next(v for v in (pair.group("dq"), pair.group("sq"), pair.group("bare")) if v is not None)
            raw = raw if pair.group("bare") is not None else _ESCAPE.sub(r"\1", raw)
            self.arguments[key] = typed_value(self.ctx.tools, self.name, key, raw)
            self.ctx.consume(pair.group())
            pos = pair.end()
        end = _LINE_END.match(text, pos, partial=not final)
        if end is not None and (end.partial or (end.end() >= len(text) and not final)):
            return pos, MORE
        if end is None or not self.arguments:
            self.ctx.revert()
            return pos, None
        self.ctx.end_call(self.name, self.arguments, streamed=False)
        return pos, None  # the line's end stays text

    def finish(self, truncated: bool) -> None:
        if truncated or not self.arguments:
            self.ctx.revert()
        else:
            self.feed("", 0, True)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> CommandLine:
    del block
    keep_line_break(ctx)  # the line break before the call stays text
    return CommandLine(ctx, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return None if names is None else rf"{prefix}(?P<name>{names})(?=[ \t]{{1,8}}[A-Za-z_][\w\-]{{0,63}}=)"

    return build


ROWS = message_and_line_rows(
    "command_line", _opener, reader=_open, open="name", first=NAME_START, after="_after", indent=""
)
