"""The reader of a call syntax derived from a model's chat template (`shim.profiles.from_template`).

A `shim.parsing.call_syntax.CallSyntax` is data: the markers a template writes and how it spells a call.
`rows` turns it into one table row whose opener is the block's first marker; `DerivedBlock` reads the block:

    BLOCK_OPEN  CALL_OPEN call CALL_CLOSE  SEPARATOR  CALL_OPEN call CALL_CLOSE  BLOCK_CLOSE

where a call is either a JSON object holding name and arguments (any shape `shim.parsing.shapes` reads), or
``NAME NAME_CLOSE`` followed by arguments as a JSON object, a JSON string, pythonic keyword arguments
``(k=v, …)`` or parameters ``PARAM_OPEN key PARAM_KEY_CLOSE value PARAM_CLOSE``.

Leniencies: whitespace around and inside every marker may differ from the template's (a run of whitespace
matches any run, or none); digits in a marker match any digits (``functions.NAME:0``, ``:1``); a missing
``CALL_CLOSE``, ``PARAM_CLOSE`` or ``BLOCK_CLOSE`` is forgiven (a value then ends at the next parameter or the
call's end; a call at the next call or the end of the output); arguments are lenient JSON; parameter values
are typed by `shim.parsing.xml_values.typed_value`.

Arguments written as a JSON object stream as they arrive (`shim.parsing.readers.json_body.JsonBody`, once the
call's name is known), like every tagged family's. Other forms (parameters, pythonic arguments, a JSON string)
are read one call at a time: the reader holds the input from a call's opener until the call is complete
(`MORE`), then emits it whole, so events do not depend on how the input was split.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.call_syntax import CallSyntax, marker_pattern
from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.pythonic import parse_pythonic
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.json_body import CUT_OFF, JsonBody
from shim.parsing.shapes import ShapeError, call_items, to_call
from shim.parsing.xml_values import typed_value, unlaid

__all__ = ["DerivedBlock", "opener_reader", "rows"]


def _compile(marker: str) -> regex.Pattern[str] | None:
    return regex.compile(r"\s*" + marker_pattern(marker), regex.IGNORECASE) if marker.strip() else None


_NAME = regex.compile(r"\s*(?P<name>[A-Za-z_][\w\-.]{0,127}?)(?=[^\w\-.]|$)")
_NAME_GREEDY = regex.compile(r"\s*(?P<name>[A-Za-z_][\w\-.]{0,127})")
_WS = regex.compile(r"\s*")


class _NeedMore(Exception):
    """The input ends where the call may still continue."""

    def __init__(self, at: int | None = None) -> None:
        super().__init__()
        self.at = at
        """Where what may still grow begins (a marker cut off by the end of the text), if known."""


class _Bad(Exception):
    """Not a call of this syntax; the message says why."""


@dataclass
class _Call:
    end: int
    name: str
    arguments: dict[str, Any]


class _Matchers:
    def __init__(self, syntax: CallSyntax) -> None:
        self.syntax = syntax
        self.call_open = _compile(syntax.call_open)
        self.call_close = _compile(syntax.call_close)
        self.separator = _compile(syntax.separator)
        self.block_close = _compile(syntax.block_close)
        self.name_close = _compile(syntax.name_close)
        self.param_open = _compile(syntax.param_open)
        self.param_key_close = _compile(syntax.param_key_close) or (
            regex.compile(r"[ \t]*\r?\n") if "\n" in syntax.param_key_close else None
        )  # a key that ends at its line's end (``BEGIN_ARG: path\n``)
        self.param_close = _compile(syntax.param_close)
        self.param_separator = _compile(syntax.param_separator)
        self.param_quote = _compile(syntax.param_quote)
        self.bare_call = regex.compile(_follows(syntax), regex.IGNORECASE) if syntax.name_close else None
        self.bare_key = (
            regex.compile(r"\s*(?P<key>[A-Za-z_][\w.\-]{0,127})" + marker_pattern(syntax.param_key_close))
            if syntax.param_key_close.strip()
            else None
        )


def _at(pattern: regex.Pattern[str] | None, text: str, pos: int, final: bool) -> int | None:
    """End of ``pattern`` matched at ``pos``, None when it does not match; `_NeedMore` when it may still."""
    if pattern is None:
        return None
    found = pattern.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial or (found.end() >= len(text) and not final and found.end() == pos):
        raise _NeedMore
    return found.end()


def _find(pattern: regex.Pattern[str], text: str, pos: int, final: bool) -> regex.Match[str] | None:
    found = pattern.search(text, pos, partial=not final)
    if found is not None and found.partial:
        raise _NeedMore
    return found


class DerivedBlock:
    """Reads the calls of one block of a derived syntax (the opener is consumed)."""

    def __init__(self, ctx: Context, block: Block, syntax: CallSyntax, matchers: _Matchers) -> None:
        self.ctx = ctx
        self.block = block
        self.syntax = syntax
        self.m = matchers
        self.in_call = True  # False: between calls (after a call's close)
        self.after_streamed = False  # a streamed call's arguments just ended: its closer may follow
        self.calls = 0
        # What is known of the call being held, by position from its start, so each retry resumes where the
        # last one stopped: the JSON scanner, and how far a value was searched for its end (linear, not
        # quadratic, in the call's length whatever the chunking).
        self._base = 0
        self._scanners: dict[int, tuple[JsonScanner, int]] = {}
        self._searched: dict[int, int] = {}

    # -- the Reader protocol ------------------------------------------------------------------------

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        while True:
            try:
                if self.after_streamed:  # the call's own closer, if it wrote one
                    closed = _at(self.m.call_close, text, pos, final)
                    self.after_streamed = False
                    if closed is not None:
                        self.ctx.markup(text[pos:closed])
                        pos = closed
                if self.in_call:
                    self._base = pos
                    streamed = self._stream(text, pos, final)
                    if streamed is not None:
                        return streamed
                    call = self._call(text, pos, final)
                    self._scanners.clear()
                    self._searched.clear()
                    self._emit(text, pos, call)
                    pos = call.end
                    self.in_call = False
                    continue
                return self._between(text, pos, final)
            except _NeedMore:
                return pos, MORE
            except _Bad as exc:
                if self.calls == 0:
                    self.ctx.revert()
                    return pos, None
                self.ctx.fail_call(str(exc))
                return pos, None

    def finish(self, truncated: bool) -> None:
        if self.in_call and self.calls == 0 and not truncated:
            self.ctx.revert()
        elif self.in_call:
            self.ctx.fail_call(CUT_OFF if truncated else "the call ends before it is complete")
        else:
            self.ctx.markup_as_text()

    # -- between calls ------------------------------------------------------------------------------

    def _between(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        at = pos
        after_sep = _at(self.m.separator, text, at, final)
        at = after_sep if after_sep is not None else at
        opened = _at(self.m.call_open, text, at, final)
        if opened is not None or (self.m.call_open is None and self._bare_call_follows(text, at, final)):
            self.ctx.consume(text[pos : opened if opened is not None else at])
            self.in_call = True
            return opened if opened is not None else at, self
        closed = _at(self.m.block_close, text, pos, final)
        if closed is not None:
            self.ctx.consume(text[pos:closed])
            self.ctx.markup("")
            return closed, None
        if not final and _WS.match(text, pos).end() >= len(text):  # type: ignore[union-attr]  # always matches
            return pos, MORE  # only whitespace so far: a closer or another call may follow
        self.ctx.markup_as_text()
        return pos, None

    def _bare_call_follows(self, text: str, pos: int, final: bool) -> bool:
        """With no per-call marker, a next call starts with ``{`` (JSON) or a name (markup)."""
        start = _WS.match(text, pos).end()  # type: ignore[union-attr]  # always matches
        if start >= len(text):
            if not final:
                raise _NeedMore
            return False
        if self.syntax.name_at != "markup":
            return text[start] == "{"
        found = self.m.bare_call.match(text, start, partial=not final) if self.m.bare_call else None
        if found is not None and found.partial:
            raise _NeedMore
        # Where no marker opened the block, every call in it is an offered tool's (a line after the call that is
        # no tool's name, ``Done.``, is text), as the first one had to be.
        return found is not None and (self.block.dialect is not None or self.ctx.tools.is_known(found.group("name")))

    # -- one call -----------------------------------------------------------------------------------

    def _call(self, text: str, pos: int, final: bool) -> _Call:
        if self.syntax.name_at == "key":
            start = _WS.match(text, pos).end()  # type: ignore[union-attr]  # always matches
            end, value = self._json(text, start, final)
            items = cast("dict[str, Any]", value) if isinstance(value, dict) else {}
            name, arguments = next(iter(items.items())) if len(items) == 1 else ("", None)
            if not isinstance(arguments, dict):
                raise _Bad('a call must be {"<tool name>": {...arguments}}')
            return self._closed(text, end, final, name, cast("dict[str, Any]", arguments))
        if self.syntax.name_at == "json":
            start = _WS.match(text, pos).end()  # type: ignore[union-attr]  # always matches
            end, value = self._json(text, start, final)
            try:
                items = call_items(value)
                if len(items) != 1:
                    raise _Bad("one call object was expected")
                shape = to_call(items[0])
            except ShapeError as exc:
                raise _Bad(str(exc)) from None
            return self._closed(text, end, final, shape.name, shape.arguments)
        name, at = self._head(text, pos, final)
        if self.syntax.arguments == "params":
            end, arguments = self._params(text, at, final, name)
        elif self.syntax.arguments == "pythonic":
            end, arguments = self._pythonic(text, at, final, name)
        else:
            start = _WS.match(text, at).end()  # type: ignore[union-attr]  # always matches
            end, value = self._json(text, start, final)
            if isinstance(value, str):
                try:
                    value = lenient_json.loads(value)
                except lenient_json.LenientJSONError as exc:
                    raise _Bad(f"the arguments are a string that is not JSON ({exc})") from None
            if not isinstance(value, dict):
                raise _Bad("the arguments must be a JSON object")
            arguments = cast("dict[str, Any]", value)
        return self._closed(text, end, final, name, arguments)

    def _head(self, text: str, pos: int, final: bool) -> tuple[str, int]:
        """A markup call's tool name and where its arguments begin."""
        found = _NAME.match(text, pos, partial=not final)
        if found is None:
            raise _Bad("no tool name after the call's opener")
        if found.partial or (found.end() >= len(text) and not final):
            raise _NeedMore
        name_end = found.end()
        after = _at(self.m.name_close, text, name_end, final)
        if after is None and self.m.name_close is not None:
            greedy = _NAME_GREEDY.match(text, pos)
            assert greedy is not None
            name_end = greedy.end()
            after = _at(self.m.name_close, text, name_end, final)
            if after is None and not (self.syntax.arguments == "json" and text[name_end:].lstrip()[:1] == "{"):
                raise _Bad(f"the tool name is not followed by {self.syntax.name_close.strip()!r}")
        name = text[found.start("name") : name_end].strip()
        if self.block.dialect is None and self.calls == 0 and not self.ctx.tools.is_known(name):
            raise _Bad(f"{name!r} is not an offered tool")  # an untagged opener counts only for one
        at = after if after is not None else name_end
        return name, at

    def _stream(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        """A call whose arguments are a JSON object streams them (`JsonBody`) once its name is known; None: the
        call is read whole (`_call`): parameters, pythonic arguments, a JSON string, a list."""
        if self.syntax.arguments != "json" or self.syntax.name_at == "key":
            return None
        name: str | None = None
        at = pos
        if self.syntax.name_at == "markup":
            name, at = self._head(text, pos, final)
        start = _WS.match(text, at).end()  # type: ignore[union-attr]  # always matches
        if start >= len(text):
            if final:
                return None
            raise _NeedMore
        if text[start] != "{":
            return None
        self.ctx.consume(text[pos:start])
        self.block.name = name
        self.in_call = False
        return start, JsonBody(self.ctx, self.block, then=self._streamed)

    def _streamed(self) -> DerivedBlock:
        self.calls += 1
        self.after_streamed = True
        return self

    def _closed(self, text: str, end: int, final: bool, name: str, arguments: dict[str, Any]) -> _Call:
        closed = _at(self.m.call_close, text, end, final)
        return _Call(closed if closed is not None else end, name, arguments)

    def _json(self, text: str, start: int, final: bool) -> tuple[int, Any]:
        if start >= len(text):
            if final:
                raise _Bad("the call ends before its JSON")
            raise _NeedMore
        if text[start] not in "{[\"'":
            raise _Bad("a JSON value was expected")
        scanner, resume = self._scanners.get(start - self._base, (None, 0))
        if scanner is None:
            scanner = JsonScanner(stop_chars="", capture=False)
        end, status = scanner.feed(text, self._base + resume if resume else start, final=final)
        if status in (Status.MORE, Status.DONE) and not final:
            self._scanners[start - self._base] = (scanner, end - self._base)
        if status is Status.ERROR:
            raise _Bad(scanner.error or "not JSON")
        if status is not Status.DONE:
            if not final:
                raise _NeedMore
            if not scanner.completable():
                raise _Bad("the JSON ends before it is complete")
            end = len(text)
        try:
            return end, lenient_json.loads(text[start:end])
        except lenient_json.LenientJSONError as exc:
            raise _Bad(str(exc)) from None

    def _pythonic(self, text: str, pos: int, final: bool, name: str) -> tuple[int, dict[str, Any]]:
        end = _group_end(text, pos - 1 if text[pos - 1 : pos] == "(" else pos, final)
        opened = text.rfind("(", 0, pos + 1) if text[pos - 1 : pos] == "(" else pos
        source = f"[{name}{text[opened:end]}]"
        calls = None
        for lenient in (_same, _python_words, _raw_strings, _bare_words):
            source = lenient(source)
            calls = parse_pythonic(source)
            if calls:
                break
        if not calls:
            raise _Bad(f"the call of {name!r} is not NAME(key=value, …)")
        return end, calls[0][1]

    def _params(self, text: str, pos: int, final: bool, name: str) -> tuple[int, dict[str, Any]]:
        m = self.m
        arguments: dict[str, Any] = {}
        at = pos
        while True:
            begin = at
            if arguments:
                sep = _at(m.param_separator, text, at, final)
                at = sep if sep is not None else at
            key, value_start = self._key(text, at, final)
            if key is None:
                if _WS.match(text, begin).end() >= len(text) and not final:  # type: ignore[union-attr]
                    raise _NeedMore
                return begin, arguments
            quoted = _at(m.param_quote, text, value_start, final)
            if quoted is not None and m.param_quote is not None:
                close = _find(m.param_quote, text, quoted, final)
                if close is None and not final:
                    raise _NeedMore
                value_end = close.start() if close is not None else len(text)
                arguments[key] = text[quoted:value_end]
                at = close.end() if close is not None else len(text)
                after = _at(m.param_close, text, at, final)
                at = after if after is not None else at
                continue
            if m.param_quote is not None and text[value_start : value_start + 1] in ("{", "["):
                end = _group_end(text, value_start, final, m.param_quote)
                arguments[key] = _quoted_value(text[value_start:end], m.param_quote)
                at = end
                continue
            ends = [p for p in (m.param_close, m.param_open, m.call_close, m.block_close) if p is not None]
            if m.param_open is None and m.param_separator is not None:
                ends.append(m.param_separator)
            stop = self._value_end(ends, text, value_start, final)
            if stop is None:
                if not final:
                    raise _NeedMore
                raw, at = text[value_start:].strip(), len(text)
            elif stop.re is m.param_close:
                raw, at = unlaid(text[value_start : stop.start() + _lead(stop.group())]), stop.end()
            else:
                raw, at = text[value_start : stop.start()].strip(), stop.start()
            arguments[key] = typed_value(self.ctx.tools, name, key, raw)

    def _value_end(self, ends: list[regex.Pattern[str]], text: str, start: int, final: bool) -> regex.Match[str] | None:
        """The first end of the value at ``start``, searched from where the last retry left off."""
        key = start - self._base
        begin = self._base + self._searched.get(key, key)
        try:
            found = _first(ends, text, begin, final)
        except _NeedMore as more:
            self._searched[key] = (more.at if more.at is not None else len(text)) - self._base
            raise
        if found is None and not final:
            self._searched[key] = len(text) - self._base  # no end can begin before what comes next
        return found

    def _key(self, text: str, pos: int, final: bool) -> tuple[str | None, int]:
        """The next parameter's key and where its value starts; None when no parameter begins at ``pos``."""
        m = self.m
        assert m.param_key_close is not None
        if m.param_open is None:
            found = m.bare_key.match(text, pos, partial=not final) if m.bare_key else None
            if found is None:
                return None, pos
            if found.partial:
                raise _NeedMore
            return found.group("key"), found.end()
        opened = _at(m.param_open, text, pos, final)
        if opened is None:
            return None, pos
        key_end = _find(m.param_key_close, text, opened, final)
        if key_end is None:
            if final:
                raise _Bad(f"a parameter's name after {text[pos:opened].strip()!r} does not end")
            raise _NeedMore
        return text[opened : key_end.start()].strip(), key_end.end()

    # -- emitting -----------------------------------------------------------------------------------

    def _emit(self, text: str, pos: int, call: _Call) -> None:
        self.ctx.consume(text[pos : call.end])
        self.ctx.start_call(call.name)
        self.ctx.end_call(call.name, call.arguments, streamed=False)
        self.calls += 1


def _lead(marker: str) -> int:
    """The whitespace a lenient marker match took before the marker itself."""
    return len(marker) - len(marker.lstrip())


def _first(patterns: list[regex.Pattern[str]], text: str, pos: int, final: bool) -> regex.Match[str] | None:
    """The earliest match of any pattern from ``pos`` (a pattern cut off by the end of the text: `_NeedMore`)."""
    best: regex.Match[str] | None = None
    for pattern in patterns:
        found = pattern.search(text, pos, partial=not final)
        if found is None:
            continue
        if best is None or found.start() < best.start():
            best = found
    if best is not None and best.partial:
        raise _NeedMore(best.start())
    return best


_JSON_WORDS = regex.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|\b(null|true|false)\b""")


def _same(source: str) -> str:
    return source


_QUOTED = regex.compile(r"""(?<![\w])(['"])(.*?)\1(?=\s*[,)\]}:])""", regex.DOTALL)
_BARE_VALUE = regex.compile(r"""(?<=[(,]\s*[A-Za-z_]\w*\s*=\s*)(?!['"\[{(\-\d]|True\b|False\b|None\b)([^,)]+)""")


def _raw_strings(source: str) -> str:
    """Strings as the template printed them, unescaped (``'C:\\temp'`` with a real newline inside): their
    text taken literally."""
    return _QUOTED.sub(lambda m: json.dumps(m.group(2), ensure_ascii=False), source)


def _bare_words(source: str) -> str:
    """Values printed without quotes (``city=Paris``): text up to the next comma or parenthesis."""
    return _BARE_VALUE.sub(lambda m: json.dumps(m.group(1).strip(), ensure_ascii=False), source)


def _python_words(source: str) -> str:
    """JSON's ``null``/``true``/``false`` outside strings as Python's (templates write dicts with ``tojson``)."""
    words = {"null": "None", "true": "True", "false": "False"}
    return _JSON_WORDS.sub(lambda m: m.group(1) or words[m.group(2)], source)


_BARE_KEY = regex.compile(r"([{,]\s*)([A-Za-z_][\w.\-]*)(\s*:)")


def _quoted_value(source: str, quote: regex.Pattern[str]) -> Any:
    """An object or list written with bare keys and ``quote``-delimited strings (Gemma 4), as JSON data."""
    parts: list[str] = []
    for i, piece in enumerate(quote.split(source)):
        if i % 2:
            parts.append(json.dumps(piece, ensure_ascii=False))
        else:
            parts.append(_BARE_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2)}"{m.group(3)}', _python_words(piece)))
    try:
        return lenient_json.loads("".join(parts))
    except lenient_json.LenientJSONError as exc:
        raise _Bad(f"a value is not an object or list ({exc})") from None


def _group_end(text: str, pos: int, final: bool, quote: regex.Pattern[str] | None = None) -> int:
    """The end of the bracketed group (``( … )``, ``{ … }``, ``[ … ]``) starting at ``pos``: brackets of every kind
    nest, and none counts inside a string. Strings are quoted with ``"`` or ``'`` (backslash escapes), or, with
    ``quote``, between two ``quote`` markers taken literally (Gemma 4's ``<|"|>``)."""
    depth, i = 0, pos
    while i < len(text):
        if quote is not None:
            q = quote.match(text, i, partial=not final)
            if q is not None and not q.partial and q.group().strip():
                close = quote.search(text, q.end(), partial=not final)
                if close is None or close.partial:
                    break
                i = close.end()
                continue
        c = text[i]
        if quote is None and c in "\"'":
            i = _string_end(text, i)
            if i < 0:
                break
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    if not final:
        raise _NeedMore
    raise _Bad("a group's brackets are not closed")


def _string_end(text: str, pos: int) -> int:
    """Just past the string quoted at ``pos`` (backslash escapes), or -1 when the text ends inside it."""
    mark, i = text[pos], pos + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == mark:
            return i + 1
        else:
            i += 1
    return -1


def _follows(syntax: CallSyntax) -> str:
    """A call's start where no marker of its own opens it: a name, what follows names, and a ``{`` of JSON."""
    follows = r"(?P<name>[A-Za-z_][\w\-.]{0,127})" + marker_pattern(syntax.name_close)
    return follows + (r"\s*\{" if syntax.arguments == "json" else "")


def opener_reader(syntax: CallSyntax) -> Callable[[Context, Block, regex.Match[str]], DerivedBlock]:
    """The reader of a syntax's block for a row whose opener (consumed) is written elsewhere."""
    matchers = _Matchers(syntax)

    def _open(ctx: Context, block: Block, match: regex.Match[str]) -> DerivedBlock:
        del match
        return DerivedBlock(ctx, block, syntax, matchers)

    return _open


def rows(syntax: CallSyntax, name: str = "derived") -> list[Dialect]:
    """The table row of a derived syntax.

    An opener with a marker of its own (``<tool_call>``, ``[TOOL_CALLS]``) may open a block anywhere. One too
    plain to mark a block (nothing, or a bare ``[``) opens one only where the message begins, only when a
    tool name and what follows it come next, and only for an offered tool, like the table's untagged rows.
    A plain opener of JSON calls gets no row: the table's untagged rows read bare JSON already.
    """
    opener = syntax.opener
    _open = opener_reader(syntax)
    pattern = marker_pattern(opener)
    if sum(c.isalnum() or c in "<|[]>_" for c in opener) >= 2:
        each = bool(syntax.call_open) and not syntax.block_open  # `[TOOL_CALLS]` before every call
        return [Dialect(name, pattern, None, reader=_open, first=opener[0], opens_each_call=each)]
    if syntax.name_at != "markup" or (not syntax.name_close.strip() and syntax.arguments != "json"):
        return []
    follows = _follows(syntax)
    first = opener[0] if opener else "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
    row = Dialect(name, f"{pattern}(?=\\s*{follows})", None, kind="untagged", start="message", reader=_open)
    return [replace(row, first=first)]
