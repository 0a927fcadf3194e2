"""A call written as a command line ``TOOL:NAME`` or ``TOOL:NAME:ARGUMENT``, with a multi-line value on the lines
after it for a tool that takes a second parameter.

    TOOL:LIST_FILES
    TOOL:READ_FILE:notes.txt
    TOOL:WRITE_FILE:newfile.txt
    line one
    line two

A harness's prompt (PRTS_Terminal's folder tool: ``TOOL:KIND[:arg]``, the file's content on the following lines)
asks for this. The argument is the rest of the line after the second colon (a path or URL may hold colons too);
the lines after the command are one more value. Written without names, the values are the tool's declared
parameters in its schema's order (`shim.parsing.shapes.positional_arguments`: the argument the first, the lines
the second), typed by the schema. The lines after it belong to the call only where the command gave its argument
and the tool declares a second parameter; they run to the output's end or to the next command line (each command
line is another call). Otherwise the line break after the command, and what follows, stay text.

The evidence is strict: the word ``TOOL`` (any case), a colon and an offered tool's name with no blank between,
opening the message or an unindented line; then either the line's end (blanks may trail) or a colon and a
non-blank character. ``TOOL: NAME`` with key lines or a JSON object after it is another notation's
(`shim.parsing.readers.kv_lines`, `shim.parsing.readers.request_key`, ahead of this row). A command naming a tool
that was not offered, the form inside a sentence, in inline code or a code fence, or after words presenting an
example (the core's prose rules) is text, unchanged. A command whose values the tool cannot take (an argument for a
tool without parameters, a required parameter left out) is an error event holding the line.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import MORE, Block, Context, Next, keep_line_break, message_and_line_rows, next_line
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, positional_arguments
from shim.parsing.xml_values import typed_value

__all__ = ["ROWS", "ToolColonCommand"]

_MAX_ARG = 4000
_EXAMPLE = "TOOL:NAME:ARGUMENT alone on its line (the tool's first parameter), a second value on the lines after it"
_HEADER_LINE = regex.compile(r"(?i:tool):(?P<name>[^\s:]{1,100})(?::\S.*|[ \t]*)")
"""A whole line that is a command of its own (``TOOL:NAME[:ARG]``): it ends the lines of the call before it."""


class ToolColonCommand:
    """The rest of the command line, then (for a tool of a second parameter) the lines after it, each decided once
    it is whole, so the call is the same whatever the chunking."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)
        self.argument: str | None = None
        """The value after the second colon; None until the command line is read, "" when it has none."""
        self.lines: list[str] | None = None
        """The lines after the command, where the call takes them."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.argument is None:
            return self._command(text, pos, final)
        assert self.lines is not None
        while True:
            # `pos` is at the line break before the next line: it is read with that line.
            got = next_line(text, pos, final)
            if got is MORE:
                return pos, MORE
            if got is None:
                return self._end(pos)
            stop, line, last = got
            if self._is_command(line):
                return self._end(pos)
            self.ctx.consume(text[pos:stop])
            self.lines.append(line)
            pos = stop
            if last:
                return self._end(pos)

    def _command(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        """The rest of the command line after the name: nothing but blanks, or ``:`` and the argument."""
        end = text.find("\n", pos, pos + _MAX_ARG + 2)
        if end < 0 and not final and len(text) - pos <= _MAX_ARG + 1:
            return pos, MORE
        stop = len(text) if end < 0 else end
        rest = text[pos:stop].rstrip("\r")
        if rest.startswith(":") and rest[1:2].strip() and len(rest) <= _MAX_ARG + 1:
            self.argument = rest[1:].rstrip(" \t")
        elif not rest.strip(" \t"):
            self.argument = ""
        else:  # `TOOL:NAMEX`, `TOOL:NAME - what it does`, `TOOL:NAME: …`: no command
            self.ctx.revert()
            return pos, None
        if end >= 0 and stop > pos and text[stop - 1] == "\r":
            stop -= 1
        self.ctx.consume(text[pos:stop])
        if self.argument and self._takes_lines():
            self.lines = []
            return self.feed(text, stop, final)
        self._call([self.argument] if self.argument else [])
        return stop, None  # the line break after the command stays text

    def _takes_lines(self) -> bool:
        return len(self.ctx.tools.properties(self.name) or {}) >= 2

    def _is_command(self, line: str) -> bool:
        found = _HEADER_LINE.fullmatch(line)
        return found is not None and self.ctx.tools.resolve(found.group("name")) in self.ctx.tools.specs

    def _end(self, pos: int) -> tuple[int, Next]:
        assert self.argument is not None and self.lines is not None
        body = "\n".join(self.lines).strip("\r\n")
        self._call([self.argument, body] if body.strip() else [self.argument])
        return pos, None  # the line break before what follows stays text

    def _call(self, values: list[str]) -> None:
        arguments = positional_arguments(self.ctx.tools, self.name, values)
        if arguments is None:
            self.ctx.fail_call(f"{self.name!r} takes no values written as {':'.join([self.name, *values])!r}")
            return
        typed = {key: typed_value(self.ctx.tools, self.name, key, value) for key, value in arguments.items()}
        self.ctx.end_call(self.name, typed, streamed=False)

    def finish(self, truncated: bool) -> None:
        if self.argument is None and truncated:
            self.ctx.revert()
        elif self.argument is None:
            self.feed("", 0, True)  # the output ends right after the name: a command without an argument
        elif truncated and self.lines is not None:
            self.ctx.fail_call(CUT_OFF)
        elif self.lines is not None:
            self._end(0)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ToolColonCommand:
    del block
    keep_line_break(ctx)  # the line break before the command stays text
    return ToolColonCommand(ctx, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        # What follows the name (the line's end, or `:` and the argument) is the reader's to decide: a lookahead
        # cannot tell the text's end from a chunk's.
        return None if names is None else rf"{prefix}(?i:tool):(?P<name>{names})"

    return build


ROWS = message_and_line_rows(
    "tool_colon_command",
    _opener,
    reader=_open,
    open=r"[Tt]",
    first="Tt",
    after="_after",
    indent="",
    example=_EXAMPLE,
)
"""``TOOL:NAME[:ARGUMENT]`` opening the message or an unindented line (offered tools only)."""
