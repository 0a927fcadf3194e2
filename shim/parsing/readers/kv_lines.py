"""A tool named on a line of its own (``TOOL: NAME`` or ``[NAME]``), then its arguments as ``KEY: value`` lines.

    TOOL: write_file
    PATH: script.py
    CONTENT: print("hello")

Orket's legacy notation (McElyea/Orket, ``ToolParser``'s fallback, and its shorthand with the name in square
brackets): the header names the tool, each line after it gives one argument, its key in any case (``PATH`` for the
declared ``path``). A value is the rest of its line; lines after it that are no key line of the tool go on the
value (a file's content over several lines), and a value opened with ``\"\"\"`` runs to the line that closes the
quotes, blank lines included (the quotes and the layout line break inside each are not the value's). The call ends
at a blank line, at the next header (each header is another call) or at the output's end; the line break before
what follows stays text. Values are typed by the schema (`shim.parsing.xml_values.typed_value`).

The evidence is strict: the header opens the message or a line, its name is an offered tool's, the line right
after it is a key line, and every key line's key is a parameter that tool declares, once. A header in a sentence,
of a tool that was not offered, with no key line after it or with a key the tool does not declare first, is text;
so is one shown in prose (a code fence, words presenting an example: the core's prose rules). ``TOOL: NAME`` with a
JSON object on the next line is langroid's form (`shim.parsing.readers.request_key`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Next, keep_line_break, message_and_line_rows, next_line
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex
from shim.parsing.xml_values import typed_value

__all__ = ["ENVELOPE_ROWS", "ROWS"]

_KEY_LINE = regex.compile(r"[ \t]{0,8}(?P<key>[A-Za-z_][\w\-]{0,63})[ \t]{0,4}:(?:[ \t]{1,8}|(?=\r?\n|\Z))")
_QUOTES = '"""'
_HEADER = r"(?:(?i:tool)[ \t]{{0,4}}:[ \t]{{0,4}}(?P<name>{names})|\[[ \t]{{0,4}}(?P<bracketed>{names})[ \t]{{0,4}}\])"
"""``TOOL: NAME`` or ``[NAME]`` (``{names}``: the offered names)."""
_ARGS_WORDS = r"args|arguments|parameters|params|input|tool_args|tool_input|action_input"
_ARGS_LINE = regex.compile(rf"[ \t]{{0,8}}(?i:{_ARGS_WORDS})[ \t]{{0,4}}:[ \t]*\Z")
"""A line that only says the arguments follow (``args:``, a YAML envelope's key over the indented key lines):
markup of the call, before its first key line."""
_ENVELOPE = r"(?i:name|tool_name|function|function_name)[ \t]{{0,4}}:[ \t]{{0,4}}(?P<named>{names})"
"""A YAML call envelope's name key (``name: NAME``), a header only with the arguments line right after it."""


class KvLines:
    """The key lines after the header, one line at a time: each is decided once it is whole (its line break seen,
    or the output's end), so the call is the same whatever the chunking."""

    def __init__(self, ctx: Context, name: str, header: regex.Pattern[str]) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)
        self.header = header
        """Another call's header at a line's start: it ends this call."""
        props = ctx.tools.properties(self.name) or {}
        self.keys = {str(key).casefold(): str(key) for key in props}
        self.pairs: dict[str, list[str]] = {}
        self.last: str | None = None
        self.quoted = False
        """The last value opened with ``\"\"\"`` and its closing quotes have not come yet."""
        self.opened = False
        """An arguments line (``args:``) was read."""
        self.indent: int | None = None
        """Under an arguments line, the first key line's indent: a line indented less ends the call (YAML)."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        while True:
            # `pos` is at the line break before the next line (the header's, then each line's): read with that line.
            got = next_line(text, pos, final)
            if got is MORE:
                return pos, MORE
            if got is None:
                return self._end(pos)
            stop, line, last = got
            if not self._take(line):
                return self._end(pos)
            self.ctx.consume(text[pos:stop])
            pos = stop
            if last:
                return self._end(pos)

    def _take(self, line: str) -> bool:
        """Read one line into the call; False: it is not the call's (a blank line, another header, a first line that
        is no key line of the tool, a key given twice)."""
        if self.quoted:
            self._extend(line)
            return True
        if not line.strip() or self.header.match(line):
            return False
        indent = len(line) - len(line.lstrip(" \t"))
        if self.indent is not None and indent < self.indent:
            return False  # back out of the envelope's indented arguments: text again
        found = _KEY_LINE.match(line)
        key = self.keys.get(found.group("key").casefold()) if found is not None else None
        if key is None and not self.pairs and not self.opened and _ARGS_LINE.match(line):
            self.opened = True  # `args:` over the key lines: the envelope's markup
            return True
        if found is None or key is None:
            if self.last is None:
                return False
            self._extend(line)
            return True
        if key in self.pairs:  # a key given twice: no call of this notation, all of it text
            self.pairs.clear()
            return False
        self.last = key
        if self.opened and self.indent is None and indent:
            self.indent = indent
        value = line[found.end() :]
        self.pairs[key] = [value]
        self.quoted = value.strip().startswith(_QUOTES) and not _closes(value.strip()[3:])
        if value.strip().startswith(_QUOTES) and not self.quoted:
            self.last = None  # `KEY: """…"""` on one line: the value is whole
        return True

    def _extend(self, line: str) -> None:
        assert self.last is not None
        self.pairs[self.last].append(line)
        if self.quoted and line.rstrip().endswith(_QUOTES):
            self.quoted = False
            self.last = None  # the quotes closed the value: a line after it is no more of it

    def _end(self, pos: int) -> tuple[int, Next]:
        if not self.pairs or self.quoted:
            self.ctx.revert()
            return pos, None
        arguments: dict[str, Any] = {
            key: typed_value(self.ctx.tools, self.name, key, _value(lines)) for key, lines in self.pairs.items()
        }
        self.ctx.end_call(self.name, arguments, streamed=False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        if truncated or not self.pairs or self.quoted:
            self.ctx.revert()
        else:
            self._end(0)


def _closes(rest: str) -> bool:
    return rest.rstrip().endswith(_QUOTES)


def _value(lines: list[str]) -> str:
    """A value from its lines: blanks at its ends taken off; ``\"\"\"`` around it and the layout line break inside
    each taken off too."""
    value = "\n".join(lines).strip()
    if len(value) >= 6 and value.startswith(_QUOTES) and value.endswith(_QUOTES):
        value = value[3:-3]
        value = value[1:] if value.startswith("\n") else value
        value = value[:-1] if value.endswith("\n") else value
    return value


def _keys(tools: ToolIndex) -> str | None:
    keys = {str(key) for name in tools.specs for key in tools.properties(name) or {}}
    return "|".join(regex.escape(key) for key in sorted(keys, key=len, reverse=True)) or None


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> KvLines:
    del block
    if match.group().startswith(("\r", "\n")):
        keep_line_break(ctx, "\r\n")  # the line break before the header stays text
    names = tool_name_pattern(ctx.tools) or r"(?!)"
    header = regex.compile(r"[ \t]{0,8}" + _HEADER.format(names=names) + r"[ \t]*\Z")
    found = match.groupdict()
    return KvLines(ctx, found.get("name") or found.get("bracketed") or found["named"], header)


def _lines(tools: ToolIndex) -> tuple[str, str] | None:
    """The lookaheads of a key line of an offered tool's parameter, and of an arguments line before one."""
    keys = _keys(tools)
    if keys is None:
        return None
    key_line = rf"\r?\n[ \t]{{0,8}}(?i:{keys})[ \t]{{0,4}}:"
    return key_line, rf"\r?\n[ \t]{{0,8}}(?i:{_ARGS_WORDS})[ \t]{{0,4}}:[ \t]*(?={key_line})"


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names, lines = tool_name_pattern(tools), _lines(tools)
        if names is None or lines is None:
            return None
        key_line, args_line = lines
        return rf"{prefix}{_HEADER.format(names=names)}[ \t]{{0,8}}(?=(?:{args_line})?{key_line})"

    return build


def _envelope(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names, lines = tool_name_pattern(tools), _lines(tools)
        if names is None or lines is None:
            return None
        return rf"{prefix}{_ENVELOPE.format(names=names)}[ \t]{{0,8}}(?={lines[1]})"

    return build


ROWS = message_and_line_rows("kv_lines", _opener, reader=_open, open=r"[Tt\[]", first="Tt[", after="_after")
"""``TOOL: NAME`` or ``[NAME]`` opening the message or a line, then the tool's ``KEY: value`` lines (an ``args:``
line before them, as YAML writes them, is markup)."""
ENVELOPE_ROWS = message_and_line_rows("kv_envelope", _envelope, reader=_open, open=r"[NnTtFf]", first="NnTtFf")
"""A YAML call envelope, unfenced: ``name: NAME`` (``tool_name:``, ``function:``), ``args:``, then the key lines.
Ahead of Continue's ``TOOL_NAME: NAME`` line (`shim.parsing.readers.tool_fence`), which the same words open."""
