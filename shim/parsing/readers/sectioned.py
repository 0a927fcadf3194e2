# ruff: noqa: RUF001, RUF002, RUF003  (the full-width bars are DeepSeek's real tokens)
"""Calls between special tokens, as DeepSeek and Kimi K2 write them (the token spellings are in their modules).

    SECTION_BEGIN ( CALL_BEGIN HEAD SEPARATOR [```json] {ARGUMENTS} [```] CALL_END )* SECTION_END

``HEAD`` names the tool (``get_weather``, Kimi's ``functions.get_weather:0``), or is a type word after which
the name follows the separator on its own line (DeepSeek V3/R1: ``function<｜tool▁sep｜>get_weather``). The
arguments stream as they arrive (`JsonBody`). A missing ``CALL_END`` or ``SECTION_END`` is tolerated, and so is a
missing ``CALL_BEGIN`` where a head and its separator follow the section's opener or a call.

In place of ``HEAD SEPARATOR {ARGUMENTS}`` a call may hold any tagged form whose opener names its tool
(Step 3 writes ``<steptml:invoke name="NAME">…</steptml:invoke>`` between these tokens): that form's reader
reads it, and the section reads on after it. So may a whole JSON call object that names its tool, bare or in a
```` ```json ```` fence, with or without ``CALL_BEGIN`` (gyro-claw's tests: the section opener, a fenced
``{"tool": …, "args": …}``, a call's end token). A separator token between two calls is layout. A head
right before ``CALL_END``, with no separator and no arguments, is a call with none where it names an offered tool
that requires none (otterbot's Kimi K2.5 tests).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Next, Reader, ReaderFactory, match_at, read_to
from shim.parsing.readers.block_end import AfterBody, Closed, Skip
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.name_first import string_tools
from shim.parsing.shapes import one_parameter
from shim.parsing.tags import PARTIAL

__all__ = ["SEPARATOR", "Section", "Tokens", "head_name", "section_reader"]

SEPARATOR = r"<[｜|]tool[▁_]sep[｜|]>|<\|tool_call_argument_begin\|>"
"""Between a call's head and its arguments: DeepSeek's ``<｜tool▁sep｜>`` (also spelled with ASCII bars and
underscores) and Kimi's ``<|tool_call_argument_begin|>``; either family's calls may use either (engines and
fine-tunes mix the spellings)."""

_LAYOUT = r"[ \t]{0,64}(?:\r?\n[ \t]{0,64}){0,4}"
"""Blanks between a call's tokens and its head: line breaks and the indentation of each line (a test's string
that kept its source's indentation, every token on its own indented line, ouro-agents' Kimi K2 tests)."""

_SLOT = r"\{[A-Za-z_][\w \t.\-]{0,30}\}"
"""A template's slot in a head (``functions.{name}:{index}``, a document showing the format): part of the head, so
the call's name is a placeholder (`shim.parsing.readers.prose.placeholder`), never ``functions.`` with ``{name}``
for its arguments. A name never ends with ``.`` or ``:`` before its arguments either."""
_INDEX = regex.compile(r"[ \t]*:[ \t]*\d+$")
_ANGLED = regex.compile(r"function<([^<>\s]+)>")
"""The type word with the name in angle brackets for its separator (``function<TodoWrite>``, DeepSeek R1 in
ik_llama.cpp's tests)."""


def head_name(head: str) -> str | None:
    """The tool a call's head names (``get_weather``, ``functions.get_weather:0``), or None for a type word after
    which the name follows the separator (DeepSeek V3's ``function``)."""
    name = _INDEX.sub("", head).strip()
    if name.casefold() == "function":
        return None
    angled = _ANGLED.fullmatch(name)
    if angled is not None:
        return angled.group(1)
    return name.removeprefix("functions.") or head


_INDEX_SUFFIX = regex.compile(r"_\d{1,4}$")


def _underscored_head(ctx: Context, name: str) -> str:
    """A head written with ``_`` for the ``.`` and the ``:`` of ``functions.NAME:INDEX`` (``functions_Bash_2``, a
    chat template or an engine rewriting ids to ``[A-Za-z0-9_]``): the offered tool it names, when the head as
    written names none; else the head as written."""
    bare = name.removeprefix("functions_")
    for candidate in (bare, _INDEX_SUFFIX.sub("", bare)):
        if candidate and candidate != name and ctx.tools.is_known(candidate):
            return candidate
    return name


_FENCE_OPEN = regex.compile(r"```[A-Za-z]*[ \t]*(?:\r?\n|(?=\{))")
"""A fence around the arguments: on its own line, or on the object's line (llxprt's Kimi: ```` ```json {…}``` ````)."""
_FENCE_CLOSE = regex.compile(r"[ \t]*(?:\r?\n[ \t]*)?```")
_NAME_LINE = regex.compile(r"[ \t]*(?P<name>[^\s`<>]{1,128})[ \t]*\r?\n")
_WHOLE_CALL = regex.compile(r"(?:```(?:json)?[ \t]{0,8}\r?\n[ \t\r\n]{0,8})?(?=\{)")
"""A whole call object (``{"tool": NAME, "args": {…}}``, maybe in a ```` ```json ```` fence) where a call's head
belongs: the object names its tool, as a tagged JSON body does."""

Phase = Literal["between", "head", "name", "args", "after"]


@dataclass(frozen=True)
class Tokens:
    call_begin: str
    separator: str
    call_end: str
    section_end: str
    name_of: Callable[[str], str | None]
    """The tool name in a head, or None when the name follows the separator (a type word such as ``function``)."""

    @functools.cached_property
    def patterns(self) -> tuple[regex.Pattern[str], ...]:
        """The call opener, the head, the call closer, the section closer, the separator and a bare head,
        compiled once per family (a reader per call would recompile them whenever `regex`'s own cache, which
        tool-built openers fill, was cleared)."""
        # Layout around the head: a newline after the call token, or before ``<|tool_call_argument_begin|>``.
        # The separator left out, the arguments right after the head (Goose's Kimi test: `functions.NAME:1  {…}`), or
        # on the next line in a fence (rLLM's and ik_llama.cpp's DeepSeek R1 tests: `NAME\n```json`, the name in
        # angle brackets after the type word: `function<NAME>\n```json`).
        # A type word's line break stands for the separator (`function\nNAME\n{…}`: olmlx's DeepSeek tests).
        head = (
            rf"{_LAYOUT}(?P<head>function<[^<>\s]{{1,128}}>|(?:[^<>\n{{]|{_SLOT}){{1,160}}?)"
            rf"(?:{_LAYOUT}(?:{self.separator}|(?<![.:])(?=\{{))|(?<=\bfunction)[ \t]{{0,4}}\r?\n"
            rf"|(?P<fenced>[ \t]{{0,8}}\r?\n)(?=[ \t]{{0,64}}```)"
            rf"|(?P<bare>{_LAYOUT})(?={self.call_end}))"
        )
        bare = rf"(?:[^<>\n{{]|{_SLOT}){{1,160}}?{_LAYOUT}(?:{self.separator})"
        patterns = (self.call_begin, head, self.call_end, self.section_end, self.separator, bare)
        return tuple(regex.compile(p) for p in patterns)


def section_reader(tokens: Tokens, phase: Phase = "between") -> ReaderFactory:
    """A row's reader: a whole section (``between``), or a call whose section opener was left out (``head``)."""

    def factory(ctx: Context, block: Block, match: regex.Match[str]) -> Section:
        return Section(ctx, block, tokens, phase)

    return factory


class _Inner:
    """A named tagged form read inside a section: its own reader reads it; once its body is over (where it
    would read what follows the block), the section reads on instead."""

    def __init__(self, reader: Reader, section: Section) -> None:
        self.reader = reader
        self.section = section

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos, nxt = self.reader.feed(text, pos, final)
        if isinstance(nxt, AfterBody):
            self.section.phase = "after"
            return pos, self.section
        if nxt is MORE or nxt is None:
            return pos, nxt
        self.reader = nxt
        return pos, self

    def finish(self, truncated: bool) -> None:
        self.reader.finish(truncated)


class _FencedRaw:
    """A fenced body that is no JSON (DeepSeek-R1's ``python`` tool, then a ```` ```python ```` fence of code): the
    raw value of the tool's one string parameter, up to the closing fence (`name_first.RawBody`'s rule)."""

    def __init__(self, ctx: Context, section: Section, name: str) -> None:
        self.ctx = ctx
        self.section = section
        self.name = name
        self.body: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        stop, end = read_to(self.ctx, self.body, _FENCE_CLOSE, text, pos, final)
        if end is not None and end.partial:
            return stop, MORE
        if end is None and not final:
            return stop, self
        self._decide()
        self.section.phase = "after"  # the fence's end and the call's end token
        return stop, self.section

    def _decide(self) -> None:
        value = "".join(self.body)
        value = value[:-1] if value.endswith("\n") else value
        value = value[:-1] if value.endswith("\r") else value
        arguments = one_parameter(self.ctx.tools, self.name, value)
        if arguments is None:
            self.ctx.fail_call("expected the arguments as a JSON object")
        else:
            self.ctx.end_call(self.name, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call("the stream ended before the call's arguments")
        else:
            self._decide()
            self.ctx.markup_as_text()


class _StringArgs:
    """Arguments written as one JSON string literal holding the object (``"{\\"todos\\": […]}"``: SGLang's Kimi K2.6,
    the object serialised twice): the string is read whole, then its content as the arguments object."""

    def __init__(self, ctx: Context, section: Section, name: str) -> None:
        self.ctx = ctx
        self.section = section
        self.name = name
        self.body: list[str] = []
        self.escaped = False
        self.opened = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        start = pos
        if not self.opened:  # the opening quote
            self.opened = True
            pos += 1
        for index in range(pos, len(text)):
            char = text[index]
            if self.escaped:
                self.escaped = False
            elif char == "\\":
                self.escaped = True
            elif char == '"':
                self._take(text[start : index + 1])
                self._decide()
                self.section.phase = "after"
                return index + 1, self.section
        self._take(text[start:])
        if final:
            self.ctx.fail_call("the stream ended inside the call's arguments")
            self.section.phase = "after"
            return len(text), self.section
        return len(text), self

    def _take(self, piece: str) -> None:
        self.ctx.consume(piece)
        self.body.append(piece)

    def _decide(self) -> None:
        try:
            inner = json.loads("".join(self.body))
            arguments = lenient_json.loads(inner) if isinstance(inner, str) else None
        except (ValueError, lenient_json.LenientJSONError):
            arguments = None
        if isinstance(arguments, dict):
            self.ctx.end_call(self.name, cast("dict[str, Any]", arguments), streamed=False)
        else:
            self.ctx.fail_call("expected the arguments as a JSON object, found a string")

    def finish(self, truncated: bool) -> None:
        self.ctx.fail_call("the stream ended inside the call's arguments")


class Section:
    def __init__(self, ctx: Context, block: Block, tokens: Tokens, phase: Phase = "between") -> None:
        self.ctx = ctx
        self.block = block
        self.tokens = tokens
        self.phase: Phase = phase
        self.opened = phase != "between"  # a call began in this section (else its opener was prose)
        self.named = False  # a call's head was read: from here on a broken call is an error, not prose
        self.fenced = False  # the call's arguments opened a ``` fence
        self._call_begin, self._head, self._call_end, self._section_end, self._separator, self._bare_head = (
            tokens.patterns
        )
        """A head and its separator token right inside the section (mlx-swift-lm's Kimi K2 test)."""

    def _inner(self, text: str, pos: int, lead: int, final: bool) -> tuple[int, Next] | None:
        """A tagged call form whose opener names its tool at ``lead`` (after layout from ``pos``), in place of
        the head (None: not one)."""
        found = self.ctx.markers.match(text, lead, final)
        if found is PARTIAL:
            return pos, MORE
        dialect = None if found is None else found.dialect
        if found is None or dialect is None or dialect.kind != "call" or dialect.reader is None:
            return None
        if "name" not in dialect.compiled_open().groupindex:
            return None
        self.named = True
        self.ctx.consume(text[pos : found.match.end()])
        return found.match.end(), _Inner(dialect.reader(self.ctx, self.block, found.match), self)

    def _whole_call(self, text: str, pos: int, lead: int, final: bool) -> tuple[int, Next] | None:
        """A whole call object (maybe fenced) at ``lead`` (after layout from ``pos``) where the head belongs: read
        as a tagged JSON body (None: not one)."""
        if text[lead] not in "{`":
            return None
        found = match_at(_WHOLE_CALL, text, lead, final)
        if found is MORE:
            return pos, MORE
        if found is None:
            return None
        self.ctx.consume(text[pos : found.end()])
        self.opened = self.named = True
        ctx, block, tokens = self.ctx, self.block, self.tokens
        block.name = None
        return found.end(), JsonBody(ctx, block, then=lambda: Section(ctx, block, tokens, "after"))

    def _offered(self, head: regex.Match[str]) -> bool:
        name = self.tokens.name_of(head.group("head").strip())
        return name is not None and self.ctx.tools.is_known(_underscored_head(self.ctx, name))

    def _bare_call(self, head: regex.Match[str]) -> bool:
        """A head with no separator and no arguments before the call's end token (otterbot's Kimi K2.5 tests:
        ``<|tool_call_begin|>functions.get_time\n<|tool_call_end|>``): a call with no arguments, where the head
        names an offered tool none of whose parameters is required."""
        name = self.tokens.name_of(head.group("head").strip())
        if name is None:
            return False
        name = _underscored_head(self.ctx, name)
        return self.ctx.tools.is_known(name) and one_parameter(self.ctx.tools, name, "") == {}

    def _cut_token(self, text: str, pos: int) -> bool:
        """Whether the rest of the output is a closing token cut short (``<|tool_calls_section_end|``, the last
        characters lost when generation stopped or an engine trimmed a stop string): the section's markup."""
        rest = text[pos:].rstrip()
        if len(rest) < 2:
            return False
        for pattern in (self._section_end, self._call_end):
            found = pattern.fullmatch(rest, partial=True)
            if found is not None and found.partial:
                return True
        return False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if self.phase in ("between", "args", "after"):
            pos = ctx.skip_ws(text, pos)
            if pos >= len(text):
                return pos, self
        if self.phase == "between":
            if self.named:  # a separator token between two calls (Step 3's `…<｜tool_call_end｜><｜tool_sep｜>…`)
                found = match_at(self._separator, text, pos, final)
                if found is MORE:
                    return pos, MORE
                if found is not None:
                    ctx.markup(found.group())
                    return found.end(), self
            for pattern, then in ((self._call_begin, "head"), (self._section_end, "closed")):
                found = match_at(pattern, text, pos, final)
                if found is MORE:
                    return pos, MORE
                if found is not None:
                    if then == "closed":
                        ctx.markup(found.group())
                        return found.end(), Closed(ctx)
                    ctx.consume(found.group())
                    self.phase = "head"
                    self.opened = True
                    return found.end(), self
            bare = match_at(self._bare_head, text, pos, final)  # the call's begin token left out
            if bare is MORE:
                return pos, MORE
            if bare is not None:
                self.phase = "head"
                self.opened = True
                return pos, self
            whole = self._whole_call(text, pos, pos, final)
            if whole is not None:
                return whole
            if self.opened and self._cut_token(text, pos):  # `…<|tool_calls_section_end|`: at the output's end
                if not final:
                    return pos, MORE  # the token may go on in the next chunk
                ctx.markup(text[pos:])
                return len(text), Closed(ctx)
            if self.opened:
                ctx.markup_as_text()  # the section ends without its closing token
            else:
                ctx.revert()  # the section opener mentioned in prose
            return pos, None
        if self.phase == "head":
            lead = pos
            while lead < len(text) and text[lead] in " \t\r\n":
                lead += 1
            if lead >= len(text) and not final:
                return pos, MORE
            inner = self._inner(text, pos, lead, final) if lead < len(text) and text[lead] == "<" else None
            if inner is not None:
                return inner
            whole = self._whole_call(text, pos, lead, final) if lead < len(text) else None
            if whole is not None:
                return whole
        if self.phase in ("head", "name"):
            found = match_at(self._head if self.phase == "head" else _NAME_LINE, text, pos, final)
            if found is MORE:
                return pos, MORE
            if found is not None and found.groupdict().get("fenced") is not None and not self._offered(found):
                found = None  # a name and a fence with nothing between: only an offered tool's name is a call's head
            if found is not None and found.groupdict().get("bare") is not None and not self._bare_call(found):
                found = None  # a name and the call's end token: only a call of an offered tool that needs no argument
            if found is None and not self.named:  # no call in it yet: the tokens were named in prose
                ctx.revert()
                return pos, None
            if found is None:
                what = "a tool name and its separator token" if self.phase == "head" else "the tool name on its line"
                return pos, Skip(ctx, f"expected {what}")
            self.named = True
            ctx.consume(found.group())
            name = self.tokens.name_of(found.group("head").strip()) if self.phase == "head" else found.group("name")
            if name is not None and not ctx.tools.is_known(name):
                name = _underscored_head(ctx, name)
            if name is None:
                self.phase = "name"
            else:
                ctx.start_call(name)
                self.block.name = name
                self.phase = "args"
            return found.end(), self
        if self.phase == "args":
            if text[pos] == "`" and not self.fenced:
                found = match_at(_FENCE_OPEN, text, pos, final)
                if found is MORE:
                    return pos, MORE
                if found is not None:
                    ctx.consume(found.group())
                    self.fenced = True
                    return found.end(), self
            if text[pos] == "{":
                return pos, JsonBody(ctx, self.block, then=lambda: Section(ctx, self.block, self.tokens, "after"))
            name = self.block.name
            if text[pos] == '"' and name is not None:  # the arguments object serialised once more, as a string
                self.block.name = None
                return pos, _StringArgs(ctx, self, name)
            if not self.fenced and name is not None:  # the call's end token right after its name: no arguments
                found = match_at(self._call_end, text, pos, final)
                if found is MORE:
                    return pos, MORE
                if found is not None:
                    ctx.end_call(name, {}, streamed=False)
                    ctx.markup(found.group())
                    self.phase = "between"
                    return found.end(), self
            if self.fenced and name is not None and name in string_tools(ctx.tools).specs:
                return pos, _FencedRaw(ctx, self, name)
            return pos, Skip(ctx, "expected the arguments as a JSON object")
        for pattern in (_FENCE_CLOSE, self._call_end):  # after: the fence and the call's end token, if there
            found = match_at(pattern, text, pos, final)
            if found is MORE:
                return pos, MORE
            if found is not None:
                ctx.markup(found.group())
                if pattern is self._call_end:
                    self.phase = "between"
                return found.end(), self
        self.phase = "between"
        return pos, self

    def finish(self, truncated: bool) -> None:
        if not self.opened:
            self.ctx.revert()
        elif self.phase in ("between", "after"):
            self.ctx.markup_as_text()
        elif self.ctx.call_open:
            self.ctx.fail_call("the stream ended before the call's arguments")
        else:
            self.ctx.revert()
