"""A call written as one bracket of attributes: ``[Calling tool="web_search" query="weather" days="3"]``.

Models that saw earlier calls rendered in the chat history as a bracketed line copy that line (qMLX's parser tests,
the form OpenClaw's history shows). The bracket is read whole up to its ``]`` (a ``]`` inside a quoted value is
part of the value) and decided whole: the tool's name, then ``key=value`` pairs.

Leniencies: ``Calling``/``Call`` and ``tool``/``function`` in any case, ``name`` after them (``[Call tool
name="x" …]``); the name and the values in double or single quotes, or bare; backslash escapes inside a quoted
value (``\\"``, ``\\\\``, JSON's ``\\n``); a bare value read as JSON where it is one (``3``, ``true``), else as a word;
pairs separated by spaces, commas or line breaks. Quoted values stay strings here: the schema of the offered tool
types them once, for every family. Anything else in the bracket, a bracket cut off by the end of the output, and a
call of a tool that was not offered are text.

The same bracket written in the past tense, with the arguments as one JSON object (``[Called function "terminal"
with args: {"command": "whoami"}]``: the line agent frameworks write a past call into the history as, which the
model copies as its call, ClawRouter #189) is read alike: ``Called``/``Calling``/``Call``, ``tool``/``function``,
the name quoted or bare, ``tool``/``function`` before it or not (``[Called bash with args: {…}]``, the line Kiro's
clients parse, in a sentence or several glued), after a colon or not (``[Calling tool: terminal with arguments: {…}]``,
Hermes Agent's history line, MiniMax-M2.7 in hermes-studio #942), ``args``/``arguments``/``input``/``parameters``
before the colon; the object read leniently, its strings and keys in typographic quotes too (``{“command”: “ls”}``,
as a chat UI shows them: the bracket vouches for the call), the bracket's ``]`` the first one outside the object. In
place of that word and the object, one parameter the offered tool declares and its value as raw text to the
bracket's ``]`` on the same line (``[Calling terminal with command: ls -la "D:/x/"]``, DeepSeek's web chat,
token-free-gateway's tests): brackets nested in the value and a ``]`` inside double quotes are the value's; a key the
tool does not declare, an empty value or a line break before the ``]`` leave it text.
"""

from __future__ import annotations

import json
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import Block, Context, Dialect, GivenBack, Next, Reader

__all__ = ["ROWS", "Bracketed", "unquote"]

_OPEN = (
    r"\[[ \t]{0,4}(?:calling|call)[ \t]{1,4}(?:tool|function)(?:[ \t]{1,4}name)?[ \t]{0,4}=[ \t]{0,4}"
    r"(?=[\"'A-Za-z_])"
)
_VALUE = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[^\s\"',\]]+"
_NAME = regex.compile(rf"(?P<name>{_VALUE})", regex.DOTALL)
_PAIR = regex.compile(
    rf"[\s,]{{1,64}}(?P<key>[A-Za-z_][\w.\-]{{0,63}})[ \t]{{0,4}}=[ \t]{{0,4}}(?P<value>{_VALUE})", regex.DOTALL
)
_TAIL = regex.compile(r"[\s,]{0,64}")
_MAX_BODY = 1 << 20
"""A bracket longer than this (1 MiB) is no call line: text, so a stray opener cannot hold a whole output back."""


def unquote(value: str) -> Any:
    """A value as written: quoted, its characters (escapes read as JSON's, else only ``\\"``/``\\'``/``\\\\``); bare,
    JSON where it is a JSON scalar, else the word."""
    if value[:1] in "\"'":
        inner = value[1:-1]
        if value[0] == '"':
            try:
                return json.loads(value)
            except ValueError:
                pass
        return regex.sub(r"\\([\\\"'])", r"\1", inner)
    try:
        loaded = json.loads(value)
    except ValueError:
        return value
    return loaded if not isinstance(loaded, (dict, list)) else value


def _call(body: str) -> tuple[str, dict[str, Any]] | None:
    """The name and the pairs of a bracket's inside (after ``=``, before ``]``); None: anything else in it."""
    found = _NAME.match(body)
    if found is None:
        return None
    name = unquote(found.group("name"))
    if not isinstance(name, str) or not name:
        return None
    arguments: dict[str, Any] = {}
    pos = found.end()
    while (pair := _PAIR.match(body, pos)) is not None:
        key = pair.group("key")
        if key in arguments:
            return None
        arguments[key] = unquote(pair.group("value"))
        pos = pair.end()
    if _TAIL.fullmatch(body, pos) is None:
        return None
    return name, arguments


class Bracketed:
    """A bracket's inside, taken up to its ``]`` (found by the subclass's ``_scan``), then decided whole
    (``_decide``); never closed, or too long, it goes back out as text."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.body: list[str] = []
        self.size = 0
        self.quote = ""
        """The quote a string opened and has not closed; empty outside strings."""
        self.escaped = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = self._scan(text, pos)
        piece = text[pos : len(text) if end is None else end]
        self.ctx.consume(piece)
        self.body.append(piece)
        self.size += len(piece)
        if end is None:
            if self.size > _MAX_BODY or final:
                self.ctx.revert()  # no `]`: a bracket opened in prose, or cut off
                return len(text), None
            return len(text), self
        if text[end] != "]":  # `_scan` stopped at what ends the bracket as text (a line break): no call
            self.ctx.revert()
            return end, None
        self.ctx.consume("]")
        self._decide()
        return end + 1, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()

    def _in_string(self, char: str) -> bool:
        """Whether ``char`` is inside a string the scan opened (its closing quote included), tracked across chunks."""
        if not self.quote:
            return False
        if self.escaped:
            self.escaped = False
        elif char == "\\":
            self.escaped = True
        elif char == self.quote:
            self.quote = ""
        return True

    def _scan(self, text: str, pos: int) -> int | None:
        """Where the closing ``]`` is in ``text`` from ``pos`` (or a character that makes the bracket text); None:
        not in ``text``."""
        raise NotImplementedError

    def _decide(self) -> None:
        raise NotImplementedError


class AttrBracket(Bracketed):
    """The inside of the bracket after ``=``, up to the ``]`` outside quotes, then decided whole."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.prev = "="
        """The character read last (a quote opens a value only after ``=``, a space or a comma)."""

    def _scan(self, text: str, pos: int) -> int | None:
        """Where the closing ``]`` is (outside quotes), tracking the quotes across chunks; None: not in ``text``."""
        for index in range(pos, len(text)):
            char, prev = text[index], self.prev
            self.prev = char
            if self._in_string(char):
                continue
            if char in "\"'" and prev in "= \t\r\n,":
                self.quote = char
            elif char == "]":
                return index
        return None

    def _decide(self) -> None:
        ctx = self.ctx
        call = _call("".join(self.body))
        if call is None or not ctx.tools.is_known(call[0]):
            ctx.revert()
            return
        ctx.end_call(ctx.tools.resolve(call[0]), call[1], streamed=False)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> AttrBracket:
    del block, match
    return AttrBracket(ctx)


_ARGS = r"(?:args|arguments|input|parameters|params)"
_CALLED = (
    r"\[[ \t]{0,4}(?:called|calling|call)[ \t]{1,4}(?:(?:tool|function)(?:[ \t]{0,4}:[ \t]{0,4}|[ \t]{1,4}))?"
    r"(?P<name>\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|[A-Za-z_][\w.\-]{0,127})"
    rf"[ \t]{{1,4}}with[ \t]{{1,4}}(?:{_ARGS}[ \t]{{0,4}}:[ \t]{{0,4}}(?=\{{)"
    rf"|(?!{_ARGS}[ \t]{{0,4}}:)(?P<key>[A-Za-z_][\w\-]{{0,63}})[ \t]{{0,4}}:[ \t]{{0,4}})"
)
"""``with args: {…}``, the arguments as one object; or ``with KEY: VALUE``, one parameter and its raw value (the word
for the arguments is never a key: the object after it may be still to come)."""
_TYPOGRAPHIC_CLOSE = "\u201d"
"""What `JsonBracket` keeps as the open quote inside a string in typographic double quotes."""
_CLOSE_AFTER = regex.compile(r"[ \t]{0,4}\]")


class JsonBracket(Bracketed):
    """The JSON object after ``with args:``, up to the ``]`` after it (brackets and braces inside strings or nested
    in the object are its own), then decided whole."""

    def __init__(self, ctx: Context, name: str) -> None:
        super().__init__(ctx)
        self.name = name
        self.depth = 0

    def _scan(self, text: str, pos: int) -> int | None:
        for index in range(pos, len(text)):
            char = text[index]
            if self.quote == _TYPOGRAPHIC_CLOSE and char in "\u201c\u201d":
                self.quote = ""  # `“…”` (or `”…”`): either typographic double quote ends it, as the grammar reads it
                continue
            if self._in_string(char):
                continue
            if char == '"':
                self.quote = char
            elif char in "\u201c\u201d":
                self.quote = _TYPOGRAPHIC_CLOSE
            elif char in "{[":
                self.depth += 1
            elif char in "}]":
                if self.depth == 0 and char == "]":
                    return index
                self.depth = max(0, self.depth - 1)
        return None

    def _decide(self) -> None:
        ctx = self.ctx
        body = "".join(self.body).strip()
        try:
            value: Any = lenient_json.loads(body, typographic=True)
        except lenient_json.LenientJSONError:
            value = None
        arguments = cast("dict[str, Any]", value) if isinstance(value, dict) else None
        if arguments is None or not ctx.tools.is_known(self.name):
            ctx.revert()
            return
        ctx.end_call(ctx.tools.resolve(self.name), arguments, streamed=False)


class RawBracket(Bracketed):
    """The text after ``with KEY:`` up to the bracket's ``]`` on the same line (brackets nested in it and double
    quotes are its own), the one argument of a declared parameter, then decided whole; a line break before the
    ``]`` makes it all text."""

    def __init__(self, ctx: Context, name: str, key: str) -> None:
        super().__init__(ctx)
        self.name = name
        self.key = key
        self.depth = 0

    def _scan(self, text: str, pos: int) -> int | None:
        """Where the closing ``]`` or a line break is, from ``pos``; None: neither in ``text`` (brackets and quotes
        tracked across chunks)."""
        for index in range(pos, len(text)):
            char = text[index]
            if char in "\r\n":
                return index
            if self._in_string(char):
                continue
            if char == '"':
                self.quote = char
            elif char == "[":
                self.depth += 1
            elif char == "]":
                if self.depth == 0:
                    return index
                self.depth -= 1
        return None

    def _decide(self) -> None:
        ctx = self.ctx
        value = "".join(self.body).strip()
        if not value:
            ctx.revert()
            return
        ctx.end_call(ctx.tools.resolve(self.name), {self.key: value}, streamed=False)


def _open_called(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    name = match.group("name")
    name = name[1:-1] if name[:1] in "\"'`" else name
    key = match.group("key")
    if key is None:
        return JsonBracket(ctx, name)
    props = ctx.tools.properties(ctx.tools.resolve(name)) if ctx.tools.is_known(name) else None
    if props is None or key not in props:  # `[Calling NAME with KEY: …]`: a parameter the offered tool declares
        return GivenBack(ctx)
    return RawBracket(ctx, name, key)


ROWS = [
    Dialect(
        "called_function_args",
        _CALLED,
        None,
        kind="untagged",
        first="[",
        reader=_open_called,
        example='[Called function "NAME" with args: {"KEY": "VALUE"}]',
    ),
    Dialect(
        "calling_tool_attrs",
        _OPEN,
        None,
        kind="untagged",
        first="[",
        reader=_open,
        example='[Calling tool="NAME" KEY="VALUE"]',
    ),
]
