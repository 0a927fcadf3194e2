"""Gemini CLI's call notation: ``[tool_call: read_file for absolute_path 'src/app.py']``.

Gemini CLI's system prompt (and its forks': Qwen Code, LLxprt Code, easy-llm-cli, Warpio) shows each example call
as one such line, and local models it drives copy the notation instead of calling: a tool's name, ``for``, then its
arguments as ``KEY VALUE`` pairs (``for pattern '**/*.md' in path "/docs"``, ``for file_path '/x' with offset 0
and limit 10``), or one value standing for the tool's only (required) parameter (``run_shell_command for 'npm
test'``). The line is read whole and decided whole: the name must be an offered tool's and every key one of its
declared parameters (the evidence an untagged form needs), else the line is text as written.

Leniencies: the bracket left out where the line begins (``✨ tool_call: search for query "weather" limit 3``: a
bullet or symbol before it), ``tool_call``/``tool call``/``toolcall`` in any case, values in single or double quotes
(backslash escapes inside) or bare (a JSON scalar where it is one, else the word), ``with``/``and``/``in``/commas
between pairs. Values stay as written here: the offered tool's schema types them once, for every family.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.readers.bracket_attrs import Bracketed, unquote
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS"]

_WORD = r"tool[ _]?call[ \t]{0,4}:[ \t]{0,8}(?P<name>[A-Za-z_][\w.\-]{0,63})[ \t]{1,4}for[ \t]{1,4}"
_MARK = "-*\u2022>\u2728\u2726\u2699\U0001f527\U0001f6e0"
"""A bullet or a tool symbol a client prints before the line (LLxprt Code's ``✨``), with an emoji variation."""
_BRACKET = rf"\[[ \t]{{0,4}}{_WORD}"
_FIRST_LINE = rf"[ \t]{{0,8}}(?:[{_MARK}]\ufe0f?[ \t]{{0,2}})?{_WORD}"
_LINE = rf"\n{_FIRST_LINE}"
"""The bracket left out: only where a line begins (its first character is the line break, so the text scanner
does not stop at every ``t``)."""

_VALUE = r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|[^\s\"',\]]+"
_QUOTED = regex.compile(r"[ \t]{0,4}(?P<value>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')")
_PAIR = regex.compile(
    rf"(?:[ \t]{{0,4}},[ \t]{{0,4}}|[ \t]{{1,4}})(?:(?:with|and|in)[ \t]{{1,4}})?"
    rf"(?P<key>[A-Za-z_][\w\-]{{0,63}})[ \t]{{0,4}}(?:[:=][ \t]{{0,4}})?(?P<value>{_VALUE})",
    regex.IGNORECASE,
)
_TAIL = regex.compile(r"[ \t.,]{0,8}")
_REST = regex.compile(r"[ \t.,;:]{0,8}(?P<nl>\r?\n)?")
"""After the bracket, the rest of its line: blank (a bracket followed by words is named in a sentence)."""
_PLACEHOLDER = regex.compile(r"[ \t]*(?:\.{2,}|\u2026|<[^<>]{1,40}>|\{[^{}]{1,40}\})[ \t]*")
"""A value only an instruction writes: ``...``, ``…``, ``<path>``, ``{pattern}``."""
_MAX_LINE = 16_384
"""A line longer than this is no call line: text, so a stray opener cannot hold the output back."""


def _arguments(tools: ToolIndex, name: str, body: str) -> dict[str, Any] | None:
    """The arguments of ``body`` (what follows ``for``); None: anything in it that is not a declared key's value."""
    props = tools.properties(name) or {}
    arguments: dict[str, Any] = {}
    pos = 0
    first = _QUOTED.match(body)
    if first is not None:  # one value for the tool's only (required) parameter, then maybe pairs
        value = str(unquote(first.group("value")))
        positional = None if _PLACEHOLDER.fullmatch(value) else one_parameter(tools, name, value)
        if positional is None:
            return None
        arguments.update(positional)
        pos = first.end()
    if first is None:
        body = " " + body  # the first pair follows `for` and its blank
    while (pair := _PAIR.match(body, pos)) is not None:
        key = pair.group("key")
        if key not in props or key in arguments:
            return None
        value = unquote(pair.group("value"))
        if isinstance(value, str) and _PLACEHOLDER.fullmatch(value):
            return None
        arguments[key] = value
        pos = pair.end()
    if not arguments or _TAIL.fullmatch(body, pos) is None:
        return None
    return arguments


class _CallLine(Bracketed):
    """What follows ``for``, up to the bracket's ``]`` outside quotes (or, with no bracket, the line's end), then
    decided whole. A bracket is one line: a line break before its ``]`` makes the whole of it text."""

    def __init__(self, ctx: Context, name: str, *, bracket: bool) -> None:
        super().__init__(ctx)
        self.name = name
        self.bracket = bracket
        self.prev = " "
        """The character read last: a quote opens a value only after a blank, a comma, ``:`` or ``=``."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = self._scan(text, pos)
        stop = len(text) if end is None else end
        piece = text[pos:stop]
        self.ctx.consume(piece)
        self.body.append(piece)
        self.size += len(piece)
        if end is None and not final and self.size <= _MAX_LINE:
            return len(text), self
        if self.bracket and (end is None or text[end] != "]"):
            self.ctx.revert()  # no `]` on its line: a bracket opened in prose, or cut off
            return stop, None
        if self.bracket:
            rest = _REST.match(text, stop + 1)
            assert rest is not None  # the pattern matches the empty string
            if rest.group("nl") is None and rest.end() == len(text) and not final:
                return stop, MORE  # the rest of the line decides: wait for it
            self.ctx.consume("]")
            if rest.group("nl") is None and rest.end() < len(text):  # words after the bracket on its line: it is
                self.ctx.revert()  # named in a sentence, not written
                return stop + 1, None
            stop += 1
        self._decide()
        return stop, None

    def finish(self, truncated: bool) -> None:
        if self.bracket or truncated:
            self.ctx.revert()
        else:
            self._decide()

    def _scan(self, text: str, pos: int) -> int | None:
        """Where the call ends in ``text`` from ``pos``: its ``]`` or a line break (None: not in ``text``)."""
        for index in range(pos, len(text)):
            char, prev = text[index], self.prev
            self.prev = char
            if char == "\n":
                return index
            if self._in_string(char):
                continue
            if char in "\"'" and prev in " \t,:=":
                self.quote = char
            elif char == "]" and self.bracket:
                return index
        return None

    def _decide(self) -> None:
        ctx = self.ctx
        name = ctx.tools.resolve(self.name)
        body = "".join(self.body)
        arguments = _arguments(ctx.tools, name, body) if ctx.tools.is_known(self.name) else None
        if arguments is None:
            ctx.revert()
            return
        ctx.end_call(name, arguments, streamed=False)


def _open_bracket(ctx: Context, block: Block, match: regex.Match[str]) -> _CallLine:
    del block
    return _CallLine(ctx, match.group("name"), bracket=True)


def _open_line(ctx: Context, block: Block, match: regex.Match[str]) -> _CallLine:
    del block
    keep_line_break(ctx)  # the line break before the line stays text
    return _CallLine(ctx, match.group("name"), bracket=False)


_EXAMPLE = "[tool_call: NAME for KEY 'VALUE']"
ROWS = [
    Dialect("tool_call_for", _BRACKET, None, kind="untagged", first="[", reader=_open_bracket, example=_EXAMPLE),
    Dialect("tool_call_for_line", _LINE, None, kind="untagged", first="\n", reader=_open_line, example=_EXAMPLE),
    Dialect(
        "tool_call_for_first_line",
        _FIRST_LINE,
        None,
        kind="untagged",
        start="message",
        first=" \ttT" + _MARK,
        reader=_open_line,
        example=_EXAMPLE,
    ),
]
