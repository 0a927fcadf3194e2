"""`JsonBody`: a tagged call body in lenient JSON, scanned string-aware as it streams (shared by JSON families).

The scanner (`json_scan`) tells a ``<`` inside a string from a tag; the name opens the call as soon as its
string closes and the arguments stream as strict JSON text. A ``<`` or ``[`` outside strings is looked at
as a marker: a closer ends the body (missing brackets are added when every value is whole), a new opener
ends it too, anything else is read as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARG_KEYS, NAME_EQUALS, NAME_KEYS, JsonScanner, Status
from shim.parsing.readers.base import MORE, Block, Context, Next, Reader, match_at
from shim.parsing.readers.block_end import AfterBody, Skip, closed_by
from shim.parsing.shapes import CallShape, ShapeError, to_call
from shim.parsing.tags import PARTIAL

__all__ = ["JsonBody"]

_NAME_MEMBER = regex.compile(r'^([ \t\r\n]*\{[ \t\r\n]*)"(?:' + NAME_EQUALS.pattern + r')"(?=[ \t\r\n]*[,}])')
"""The first member of a call object written as one key, ``"function=NAME"`` (`NAME_EQUALS`), to spell out."""

_DOUBLED = regex.compile(r"(?P<extra>\{[ \t\r\n]{0,8})(?P<inner>\{[ \t\r\n]{0,8}\")")
"""A call object opened with two braces then a key (``{{"name": …}}``): the outer brace is the template's escape."""

_KEY = regex.compile(r'\{[ \t\r\n]{0,64}"(?P<key>[A-Za-z_]{1,32})"')
_FIRST_KEY = regex.compile(
    r'\{[ \t\r\n]{0,64}"(?P<key>[A-Za-z_]{1,32})"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}"(?P<value>[^"\\\n]{0,128})"'
)
"""An object's first key and a short string value, to tell a named tool's arguments from the whole call written
again."""

PLACEHOLDER_VALUE = regex.compile(r"<[A-Za-z][A-Za-z0-9]*(?:[-_ ][A-Za-z0-9]+){1,8}>")
"""A template's stand-in written where a JSON value belongs (``<function-name>``, ``<args-dict>``, ``<tool name>``:
Hermes 3's prompt shows ``{'name': <function-name>, 'arguments': <args-dict>}``): words joined by ``-``, ``_`` or
spaces in angle brackets, which no call's JSON holds unquoted (an HTML tag has no separator)."""

CUT_OFF = "the output was cut off (token limit) before the call was complete, so it was not run"


class JsonBody:
    """One JSON call object (or, when the opener named the tool, its arguments object)."""

    def __init__(self, ctx: Context, block: Block, then: Callable[[], Reader] | None = None) -> None:
        """``then``: who reads on once the body is over (default `AfterBody`); it also gets a closer unread."""
        self.ctx = ctx
        self.block = block
        self.then = then
        self.name = block.name
        block.name = None  # the next object of the same block is a whole call again
        stops = "<" + ("[" if "[" in ctx.markers.opener_chars else "")
        self.bare_words = block.dialect is not None and block.dialect.kind == "call"
        """A tag vouches for the call: an unquoted word is a string value (``{"city": Seoul}``), as a reader sees it."""
        self.scanner = JsonScanner(
            stop_chars=stops,
            args_only=self.name is not None,
            kinds=ctx.tools.scalar_kinds,
            bare_words=self.bare_words,
        )
        self.scanner.name = self.name
        self.body: list[str] = []
        self.begun = False
        self.whole = False
        """The named tool's arguments object turned out to be a whole call again (`_restated`)."""

    def _consume(self, text: str, start: int, end: int) -> None:
        if end > start:
            piece = text[start:end]
            self.ctx.consume(piece)
            self.body.append(piece)

    def _restated(self, text: str, pos: int, final: bool) -> bool | None:
        """Whether the arguments object opens by naming the tool again under a name key the tool does not declare
        (``{"name": "search", "args": {…}}`` after ``search`` was given, Inkling's invoke), or with an arguments
        key the tool's schema does not declare (``<function=NAME>{"arguments": {…}}``, Qwen3.5 mixing its XML
        and JSON forms): then it is the whole call again, read as one; None: its first key and value are not
        complete yet."""
        assert self.name is not None
        tools = self.ctx.tools
        own = tools.resolve(self.name)
        key = _KEY.match(text, pos, partial=not final)  # decided by the key alone where it can be: arguments stream
        if key is None:
            return False
        if key.partial:
            return None
        declared = tools.properties(own)
        if key.group("key") in ARG_KEYS and declared is not None and key.group("key") not in declared:
            return True  # `{"arguments": {…}}` for a tool declaring no such parameter: the call's own envelope
        if key.group("key") not in NAME_KEYS or key.group("key") in (declared or {}):
            return False
        first = _FIRST_KEY.match(text, pos, partial=not final)
        if first is None:
            return False
        if first.partial:
            return None
        return tools.resolve(first.group("value")) == own

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.begun and self.name is not None and not self.whole and pos < len(text):
            restated = self._restated(text, pos, final)
            if restated is None:
                return pos, MORE
            if restated:  # read as a whole call whose name is known: only its arguments value streams
                self.whole = True
                stops = self.scanner.stop_chars
                self.scanner = JsonScanner(
                    stop_chars=stops, kinds=self.ctx.tools.scalar_kinds, bare_words=self.bare_words
                )
                self.scanner.name = self.name
        scanner, ctx = self.scanner, self.ctx
        if not self.begun and pos < len(text):
            doubled = _DOUBLED.match(text, pos, partial=not final)
            if doubled is not None and doubled.partial:
                return pos, MORE
            self.begun = True
            if doubled is not None:  # `{{…}}`: a template's escaped braces copied from the prompt; `}` is stray
                ctx.consume(doubled.group("extra"))
                pos = doubled.start("inner")
        new, status = scanner.feed(text, pos, final=final)
        self._consume(text, pos, new)
        self._progress()
        if status is Status.MORE:
            return new, MORE
        if status is Status.DONE:
            return new, self._finish()
        if status is Status.ERROR:
            if self.block.array and text.startswith("]", new) and scanner.completable():
                # The list of calls closed over its last call's missing brace (`[{…, "arguments": {…}]`): the
                # scanner never saw the list's `[` (the opener took it), so the `]` is the block's, as in the
                # scanner's own rule for a closer that skips open brackets.
                scanner.error = None
                self.finish(truncated=False)
                return new, self.then() if self.then is not None else AfterBody(ctx, self.block)
            return new, Skip(ctx, str(scanner.error))
        found = ctx.markers.match(text, new, final, closes=True)  # STOP: a '<' or '[' outside strings
        if found is PARTIAL:
            return new, MORE
        if found is None and not ctx.call_open:
            shown = match_at(PLACEHOLDER_VALUE, text, new, final)
            if shown is MORE:
                return new, MORE
            if shown is not None:  # `{'name': <function-name>, …}`: the format shown with its stand-ins, not a call
                ctx.revert()
                return new, None
        if found is None:
            after, status = scanner.force(text, new)
            self._consume(text, new, after)
            if status is Status.ERROR:
                return after, Skip(ctx, str(scanner.error))
            return after, self
        self.finish(truncated=False)
        if found.kind == "close" and self.then is not None:
            return new, self.then()
        if found.kind == "close":
            ctx.markup(found.match.group())
            fence = self.block.fence and not found.match.group().startswith("`")  # a fence closer closes the fence
            return found.match.end(), closed_by(ctx, found.match.group(), fence=fence, outer=self.block.outer)
        return new, None  # a new opener closes this block; the text scanner opens the next

    def names_no_call(self, name: str | None) -> bool:
        """Whether a body naming ``name`` (None: naming no tool) is no call under this block's row: its text goes
        back, tag and all, with no error. Every row but a few (`shim.parsing.readers.llama`) takes any name."""
        del name
        return False

    def _progress(self) -> None:
        ctx, scanner = self.ctx, self.scanner
        if not ctx.call_open and scanner.name is not None and not self.names_no_call(scanner.name):
            ctx.start_call(scanner.name)
        if ctx.call_open and scanner.streamed:
            chunk = scanner.take_arguments()
            if chunk:
                ctx.chunk(chunk)

    def finish(self, truncated: bool) -> None:
        """The body ended early (closer, new opener, end of stream): add missing closers if it is whole."""
        scanner = self.scanner
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        elif scanner.completable():
            closers = scanner.closers()
            scanner.complete()
            self._progress()
            self._finish(added=closers)
        else:
            where = "inside a string" if scanner.in_string else "before its JSON was complete"
            self.ctx.fail_call(f"the call ends {where}")

    def _finish(self, added: str = "") -> Reader:
        body = "".join(self.body) + added
        if self.scanner.name is not None and self.name is None:  # `{"function=NAME", …}`: the member spelled out
            body = _NAME_MEMBER.sub(lambda m: f'{m.group(1)}"name": {json.dumps(m.group("name"))}', body, count=1)
        after = self.then() if self.then is not None else AfterBody(self.ctx, self.block)
        bare = self.scanner.bare_name
        if bare is not None and bare not in self.ctx.tools.specs:  # `{name: get weather}`: words, not a tool's name
            self.ctx.fail_call(f"unquoted text {bare!r} is not a JSON value (strings need quotes)")
            return after
        try:
            value = lenient_json.loads(body, bare_words=self.bare_words)
        except lenient_json.LenientJSONError as exc:
            self.ctx.fail_call(str(exc))
            return after
        try:
            if self.name is not None and self.whole:
                if isinstance(value, dict) and not any(key in value for key in NAME_KEYS):
                    value = {"name": self.name, **cast("dict[str, Any]", value)}  # the envelope without the name
                shape = to_call(value, self.ctx.tools, unwrap=not self.scanner.streamed)
                if self.ctx.tools.resolve(shape.name) != self.ctx.tools.resolve(self.name):
                    raise ShapeError(f"the arguments of {self.name!r} name another tool, {shape.name!r}")
            elif self.name is not None:
                if not isinstance(value, dict):
                    raise ShapeError(f"the arguments of {self.name!r} must be a JSON object")
                arguments: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
                shape = CallShape(self.name, arguments, canonical=True)
            else:
                shape = to_call(value, self.ctx.tools, unwrap=not self.scanner.streamed)
        except ShapeError as exc:
            tool = self._tool_taking(value)
            if tool is None and not self.ctx.call_open and self.names_no_call(None):
                self.ctx.revert()
            elif tool is None:
                self.ctx.fail_call(str(exc))
            else:
                self.ctx.end_call(tool, cast("dict[str, Any]", value), streamed=False)
        else:
            if not self.ctx.call_open and self.names_no_call(shape.name):
                self.ctx.revert()
                return after
            streamed = self.scanner.streamed and self.ctx.call_open  # a start withheld streamed nothing
            self.ctx.end_call(shape.name, shape.arguments, streamed=streamed)
        return after

    def _tool_taking(self, value: Any) -> str | None:
        """A call tag (never an untagged candidate) holding only the arguments, no name (clawlite's tests:
        ``<tool_call>{"script": "ls"}</tool_call>``): the tool is the one offered tool whose schema declares those
        keys, if exactly one does; else None."""
        dialect = self.block.dialect
        if dialect is None or dialect.kind != "call" or not isinstance(value, dict) or self.scanner.streamed:
            return None
        if any(key in value for key in (*NAME_KEYS, *ARG_KEYS)):
            return None  # a call's own shape, only damaged: the error says what is wrong
        return self.ctx.tools.taking(cast("dict[str, Any]", value))


class NamedStart:
    """After an opener that names the tool (``<invoke name="NAME">``, ``<function name="NAME">``): a ``{`` makes
    the body the arguments as JSON, whatever form the family writes otherwise (``otherwise``: its own reader of
    a body that begins with markup, ``<``; None: only JSON may follow). Anything else: the opener was text."""

    def __init__(
        self, ctx: Context, block: Block, name: str, otherwise: Callable[[], Reader] | None, *, raw: bool = False
    ) -> None:
        """``raw``: ``otherwise`` also reads a body of plain text (the family's wrapper vouches for the opener)."""
        self.ctx = ctx
        self.block = block
        self.name = name
        self.otherwise = otherwise
        self.raw = raw

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos = self.ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        if text[pos] == "{":
            self.block.name = self.name
            return pos, JsonBody(self.ctx, self.block)
        if self.otherwise is not None and (text[pos] == "<" or self.raw):  # the family's own markup
            return pos, self.otherwise()
        self.ctx.revert()  # neither: the opener was named in prose (`use the <invoke name="x"> tag`)
        return pos, None

    def finish(self, truncated: bool) -> None:
        if self.otherwise is not None and not truncated:
            self.otherwise().finish(truncated)
        else:
            self.ctx.revert()
