"""Tool-name XML, as Cline and Roo Code prompt for: ``<read_file><path>a.py</path></read_file>``.

The tag is the name of an offered tool and each child tag is one parameter. Untagged in spirit (any HTML
could look like it), so the evidence is strict: the opener is built only from offered tool names, only
whitespace may sit between the children, and a child must be a parameter the tool's schema declares (a tool
declaring none is called only as ``<TOOL></TOOL>``), once. Anything else goes back out as text, unchanged,
with no error; so does a block the stream ends inside a value of, or that the token limit cut off (a block
whose parameter tags are all closed when the output ends is the call: only its own closer was left out, and
Cline's parser reads it so). Values are text, typed by the schema (``true`` for a boolean, ``["a"]`` or a
Python literal ``['a']`` for an array); a ``<![CDATA[…]]>`` value is its content.

The opener may carry parameters as attributes (``<run_command command="ls -l" />``, Qwen2.5-Coder prompted
for tool XML): each attribute must be a parameter the tool declares, once (its value unescaped as XML, typed by
the schema; gptme's ``args="PATH"``, named by no parameter, is the first parameter's value); a self-closing
element is then the whole call, an open one takes the other parameters as children or its one other string
parameter as a body of plain text (``<save args="a.py">print(1)</save>``). A body that is whole one JSON object
of declared parameters is the arguments (``<search>{"query": "x"}</search>``, rnj-1 in a workunit benchmark).
Attributes may be separated by commas, as in a call's argument list (``<TOOL k="v", k2="w"/>``). The parameters may
also be a nameless tag's ``key="value"`` pairs right inside the tool's tag (``<get_news_report><location="Paris"
language="en"/>``, or comma-separated and left open: BitAgent-8B asked for BFCL's XML formats): no markup writes a
tag with no name, so each key a declared parameter, once, makes the call; the tool's closer after it, if written,
is its markup. The tool's name may also be the first word inside a tag of another name (``<use search
q="x"></use>``, llxprt's tests): then its attributes are the whole call (at least one, all the tool's parameters)
and the tag closes right after.

The body may instead be YAML-like lines, as models prompted for tool-name XML sometimes write it (Mistral
Small, quoted by ai-sdk-tool-call-middleware): ``<write_file>\npath: a.py\ncontent: line one\nline two
</write_file>``. The body must begin with ``KEY:`` for a parameter the schema declares; each line beginning
with another declared parameter's ``KEY:`` starts the next value, so a value runs over every other line
unchanged (``Note: …`` inside it is not a key). A one-line value in matching quotes is the text inside them; a
``KEY: |`` block scalar and a ``KEY:`` over an indented YAML list or mapping (an array or object parameter: CORD's
plan steps) are read as YAML reads them (`shim.parsing.readers.line_values`).

The opener's brackets may be lost too (Devstral Medium, quoted by the same tests): a line holding only an
offered tool's name, at the message's or a line's start, followed by that tool's declared parameter tags, is
the call; it ends with ``</NAME>`` if written, else where its tags stop (the next line is no parameter tag, or
the output ends).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import lru_cache
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import Closed
from shim.parsing.readers.line_values import BLOCK_SCALAR, block_scalar, nested_block
from shim.parsing.readers.xml_elements import elements
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import compile_marker
from shim.parsing.xml_values import cdata_content, layout_newline, typed_tree, typed_value

__all__ = ["NAMESPACES", "ROWS", "ToolXml", "tool_name_pattern"]

_WS = regex.compile(r"[ \t\r\n]+")
_CHILD = regex.compile(
    r"<(?:(?P<key>[A-Za-z_][\w.-]{0,63})"
    r"|(?P<tag>parameter|param)[ \t]{1,8}name[ \t]{0,4}=[ \t]{0,4}(?P<q>[\"']?)(?P<named>[A-Za-z_][\w.-]{0,63})(?P=q))"
    r"[ \t]{0,8}>"
)
"""A child element: ``<KEY>``, or ``<parameter name="KEY">`` (the invoke form's spelling of the same child, which
Kilo Code's and Roo Code's models write under a tool-named tag), closed by ``</KEY>`` or ``</parameter>``."""


def _child_key(child: regex.Match[str]) -> str:
    return child.group("key") or child.group("named")


_TAG_NAME = regex.compile(r"[A-Za-z_][\w.-]{0,127}")
_KEY_LINE = regex.compile(r"[ \t\r\n]*[A-Za-z_][\w .-]{0,40}:[ \t\r\n]")
_STRAY = regex.compile(r"<[ \t]{0,8}/[ \t]{0,8}(?P<key>[A-Za-z_][\w.-]{0,63})[ \t]{0,8}>")


def _closer(name: str) -> regex.Pattern[str]:
    return compile_marker(rf"<[ \t]{{0,8}}/[ \t]{{0,8}}{regex.escape(name)}[ \t]{{0,8}}>")


class ToolXml:
    """The children of ``<TOOL>…</TOOL>``; the call is decided at the closing tag."""

    def __init__(
        self, ctx: Context, block: Block, name: str, *, bare: bool = False, close: regex.Pattern[str] | None = None
    ) -> None:
        self.ctx = ctx
        self.block = block
        self.bare = bare
        """The opener was the name alone on its line: the call may end where its parameter tags stop."""
        self.name = ctx.tools.resolve(name)
        folded = [n for n in ctx.tools.specs if n.casefold() == name.casefold()]
        self.shouted = name.isupper() and folded == [self.name] and name != self.name
        """The tag is the one offered tool's name in capitals (``EXECUTE_COMMAND``, DeepSeek-agent's prompt format
        in capitals; openers match in any case): its parameter tags may be in capitals too (`_param`)."""
        self.close = close or _closer(name)
        """The tool's closing tag (``</NAME>``, or a family's own: ``</|DSML|NAME>``)."""
        spec = ctx.tools.specs.get(self.name)
        props: Any = spec.input_schema.get("properties") if spec is not None else None
        self.params: set[str] = set(props) if isinstance(props, dict) else set()  # pyright: ignore[reportUnknownArgumentType]
        self.arguments: dict[str, Any] = {}
        self.raws: dict[str, list[str]] = {}  # each child's text as written, in order (a list repeats its element)
        self.plain: list[str] | None = None  # a body of plain text: the value of the tool's one string parameter
        self._plain_stop: regex.Pattern[str] | None = None
        self.key: str | None = None
        self.value_end: regex.Pattern[str] | None = None
        self.value: list[str] = []
        self.lines: list[str] | None = None  # a YAML-like body, up to the closing tag
        self.indent = ""  # the blanks before the first key on its line: every key line has them
        self.tagged = False
        """The parameters were a nameless tag's attributes (`_ATTR_TAG`): the call ends after it."""
        keys = "|".join(regex.escape(p) for p in sorted(self.params, key=len, reverse=True))
        self.continues = compile_marker(
            rf"[ \t\r\n]*(?:<(?:{keys})[ \t]{{0,8}}>|{self.close.pattern})" if keys else self.close.pattern
        )
        self.line_key = (
            regex.compile(
                rf"(?P<key>{'|'.join(regex.escape(p) for p in sorted(self.params, key=len, reverse=True))})"
                r"[ \t]{0,8}:(?=[ \t\r\n])"
            )
            if self.params
            else None
        )

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx, n = self.ctx, len(text)
        while pos < n:
            if self.tagged:
                return self._after_attributes(text, pos, final)
            if self.bare and self.arguments and self.value_end is None:
                more = self.continues.match(text, pos, partial=not final)
                if more is not None and more.partial:
                    return pos, MORE
                if more is None:  # its tags stop: the call ends here, what follows is read afresh
                    ctx.end_call(self.name, self._final(), streamed=False)
                    return pos, None
            if self.plain is not None:  # plain text: up to the tool's closing tag
                found = self._plain_end().search(text, pos, partial=not final)
                stop = n if found is None else found.start()
                ctx.consume(text[pos:stop])
                self.plain.append(text[pos:stop])
                if found is None:
                    return n, self
                if found.partial:
                    return found.start(), MORE
                after = found.start()  # `<tool_call>\n<bash>\npwd\n</tool_call>`: the wrapper's closer, unread
                if found.group("own") is not None:
                    ctx.consume(found.group())
                    after = found.end()
                key = self._plain_key()
                body = "".join(self.plain)
                arguments = self._json_arguments(body)
                if arguments is not None:  # `<search>{"query": "x"}</search>`: the tool's arguments as JSON
                    ctx.end_call(self.name, {**self.arguments, **arguments}, streamed=False)
                    return found.end(), self._after()
                if (
                    key is None
                    or any(_child_key(c) in self.params for c in _CHILD.finditer(body))
                    or _KEY_LINE.match(body)
                ):
                    ctx.revert()  # the tool's own parameter tags in prose, or keys it does not declare: no value
                    return after, None
                value = typed_value(ctx.tools, self.name, key, "".join(self.plain).strip())
                ctx.end_call(self.name, {**self.arguments, key: value}, streamed=False)  # the opener's first
                return after, None
            if self.lines is not None:  # a YAML-like body: up to the tool's closing tag
                found = self.close.search(text, pos, partial=not final)
                stop = n if found is None else found.start()
                ctx.consume(text[pos:stop])
                self.lines.append(text[pos:stop])
                if found is None:
                    return n, self
                if found.partial:
                    return found.start(), MORE
                ctx.consume(found.group())
                arguments = self._line_arguments("".join(self.lines))
                if arguments is None:
                    ctx.revert()
                else:
                    ctx.end_call(self.name, arguments, streamed=False)
                return found.end(), self._after()
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
                blank = ws.group()
                self.indent = blank.rsplit("\n", 1)[-1] if "\n" in blank else self.indent + blank
                ctx.consume(blank)
                pos = ws.end()
                continue
            close = self.close.match(text, pos, partial=not final)
            if close is not None and close.partial:
                return pos, MORE
            if close is not None:
                ctx.consume(close.group())
                ctx.end_call(self.name, self._final(), streamed=False)
                return close.end(), self._after()
            if self.raws:  # a parameter's closer written twice (`…</command></command>`): markup
                stray = _STRAY.match(text, pos, partial=not final)
                if stray is not None and stray.partial:
                    return pos, MORE
                if stray is not None and stray.group("key") in self.raws:
                    ctx.consume(stray.group())
                    pos = stray.end()
                    continue
            if not self.raws and not self.arguments and text[pos] == "<":
                tag = _ATTR_TAG.match(text, pos, partial=not final)
                if tag is not None and tag.partial:
                    return pos, MORE
                arguments = _attributes(ctx, self.name, tag.group("pairs")) if tag is not None else None
                if tag is not None and arguments:  # `<TOOL><k="v" k2="v2"/>`: the parameters as a nameless tag's
                    ctx.consume(tag.group())
                    self.arguments.update(arguments)
                    self.tagged = True
                    pos = tag.end()
                    continue
            child = _CHILD.match(text, pos, partial=not final)
            if child is not None and child.partial:
                return pos, MORE
            if child is None and not self.arguments and self.line_key is not None and not self.bare:
                key = self.line_key.match(text, pos, partial=not final)
                if key is not None and key.partial:
                    return pos, MORE
                if key is not None:
                    self.lines = []
                    continue
            if child is None and not self.raws and not self.bare and (text[pos] == "{" or self._plain_key()):
                self.plain = []
                continue
            if child is None or not self._accepts(_child_key(child)):
                ctx.revert()  # not this tool's parameters: prose or markup that looks like it
                return pos, None
            ctx.consume(child.group())
            written = _child_key(child)
            self.key = self._param(written)
            self.value_end = _closer(child.group("tag") or written)
            self.value = []
            pos = child.end()
        return pos, self

    def _after(self) -> Next:
        """After the call's closer: in a ``` fence around the call (```` ```xml ````, the fence of its own format),
        the fence's closer is the call's markup too."""
        return Closed(self.ctx, fence=True) if self.block.fence else None

    def _after_attributes(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        """The nameless attribute tag is the whole call: the tool's closer right after it is its markup, if written
        (the next call's tag, or text, follows otherwise)."""
        close = _AFTER_TAG.match(text, pos, partial=not final)
        if close is not None and close.partial:
            return pos, MORE
        if close is not None and self.close.fullmatch(close.group().strip()):
            self.ctx.consume(close.group())
            pos = close.end()
        self.ctx.end_call(self.name, self._final(), streamed=False)
        return pos, None

    def _line_arguments(self, body: str) -> dict[str, Any] | None:
        """The arguments of a YAML-like body: each declared ``KEY:`` at a line's start begins a value."""
        assert self.line_key is not None
        arguments: dict[str, Any] = {}
        key: str | None = None
        value: list[str] = []
        for number, line in enumerate(body.splitlines(keepends=True)):
            closer = _STRAY.fullmatch(line.strip())
            if closer is not None and closer.group("key") in self.params:
                continue  # a parameter's XML closer on its own line (Claude Sonnet 4.5 via ai-sdk): markup
            indented = number == 0 or line.startswith(self.indent)
            found = self.line_key.match(line, 0 if number == 0 else len(self.indent)) if indented else None
            if found is not None and found.group("key") not in arguments and found.group("key") != key:
                if key is not None:
                    arguments[key] = self._line_value(key, value)
                key, value = found.group("key"), [line[found.end() :].lstrip(" \t")]
            elif key is None:
                return None
            else:
                value.append(line)
        if key is not None:
            arguments[key] = self._line_value(key, value)
        return arguments

    def _line_value(self, key: str, lines: list[str]) -> Any:
        block = BLOCK_SCALAR.fullmatch(lines[0].strip()) if lines else None
        if block is not None:
            return typed_value(self.ctx.tools, self.name, key, block_scalar(block.group(), lines[1:]))
        nested = nested_block(self.ctx.tools, self.name, key, lines[1:]) if lines and not lines[0].strip() else None
        if nested is not None:  # `steps:` over an indented YAML list (CORD), for an array parameter
            return nested
        raw = "".join(lines)
        raw = raw[:-1] if raw.endswith("\n") else raw
        raw = raw[:-1] if raw.endswith("\r") else raw
        quoted = raw.strip()
        if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "\"'" and "\n" not in quoted:
            raw = quoted[1:-1]
        return typed_value(self.ctx.tools, self.name, key, raw)

    def _json_arguments(self, body: str) -> dict[str, Any] | None:
        """A body that is whole one JSON object of parameters the tool declares (at least one, none other): the
        call's arguments (None: not one)."""
        text = body.strip()
        if not (text.startswith("{") and text.endswith("}")):
            return None
        arguments = lenient_json.loads_object(text)
        if not arguments:
            return None
        return arguments if all(key in self.params for key in arguments) else None

    def _accepts(self, key: str) -> bool:
        return self._param(key) in self.params

    def _param(self, key: str) -> str:
        """The declared parameter a child's tag names: as written, or in capitals under a tag in capitals (the
        one parameter so written)."""
        if key in self.params or not self.shouted or not key.isupper():
            return key
        found = [p for p in self.params if p.upper() == key]
        return found[0] if len(found) == 1 else key

    def _plain_end(self) -> regex.Pattern[str]:
        """Where a plain body ends: the tool's closer (group ``own``), or a call family's closer (``</tool_call>``)
        the model wrote instead, the tool's own left out (MiniMax M2.1 in LocalGPT); that closer stays unread."""
        if self._plain_stop is None:
            closers = sorted({d.close for d, _ in self.ctx.markers.call_closers if d.close})
            others = "".join(f"|(?:{c})" for c in closers)
            self._plain_stop = compile_marker(f"(?P<own>{self.close.pattern}){others}")
        return self._plain_stop

    def _plain_key(self) -> str | None:
        """The tool's one string parameter the opener's attributes left unset, which a body of plain text is the
        value of (None: not one)."""
        strings = [
            p
            for p in self.params
            if self.ctx.tools.property_type(self.name, p) == "string" and p not in self.arguments  # not in the opener
        ]
        return strings[0] if len(strings) == 1 else None

    def _final(self) -> dict[str, Any]:
        """The arguments from the children as written: a value that opens with one space in every child
        (``<city> Seoul</city>``, Nova 2 Lite) has it as layout; an array parameter collects its repeated
        elements (``<command>git</command><command>log</command>``), and one element is a one-item list; an object
        or array parameter's child elements are read by its schema (`elements`); a repeated parameter of another
        type keeps its last value, as JSON keeps a repeated key's."""
        raws = self.raws
        padded = all(r[:1] == " " and r[1:2].strip() and "\n" not in r for rs in raws.values() for r in rs)
        # Values given as the opening tag's attributes (`<TOOL k="v">…`) come first; children set the rest.
        arguments: dict[str, Any] = {k: v for k, v in self.arguments.items() if k not in raws}
        for key, written in raws.items():
            values = [r[1:] for r in written] if padded else written
            kind = self.ctx.tools.property_type(self.name, key)
            if kind in ("array", "object"):  # child elements read by the schema at their place
                schema: Any = (self.ctx.tools.properties(self.name) or {}).get(key)
                inner: Any = (
                    cast("dict[str, Any]", schema).get("items")
                    if kind == "array" and isinstance(schema, dict)
                    else schema
                )
                items = [elements(v, inner) if _CHILD.search(v) and cdata_content(v) is None else v for v in values]
                one: Any = items if kind == "array" and len(items) > 1 else items[-1]
                arguments[key] = typed_tree(self.ctx.tools, self.name, key, one)
            else:
                arguments[key] = typed_value(self.ctx.tools, self.name, key, values[-1])
        return arguments

    def _end_value(self) -> None:
        assert self.key is not None
        raw = "".join(self.value)
        if cdata_content(raw) is None:  # (a CDATA section is taken off where the value is typed)
            # the format puts a long value on its own lines: drop one newline on each side
            raw = raw[layout_newline(raw) :]
            raw = raw[: len(raw) - layout_newline(raw, end=True)]
        self.arguments[self.key] = typed_value(self.ctx.tools, self.name, self.key, raw)
        self.raws.setdefault(self.key, []).append(raw)
        self.key = None
        self.value_end = None

    def finish(self, truncated: bool) -> None:
        if self.tagged and not truncated:
            self.ctx.end_call(self.name, self._final(), streamed=False)
            return
        if self.raws and self.value_end is None and self.plain is None and self.lines is None and not truncated:
            # Every parameter tag closed, then the output ends (the model stopped before `</TOOL>`, as Cline's
            # parser reads a tool use still open): the call. Cut off by the token limit, or inside a value: text.
            self.ctx.end_call(self.name, self._final(), streamed=False)
            return
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ToolXml | _Attributed:
    name = match.groupdict().get("name") or ""
    attrs = match.groupdict().get("attrs") or ""
    arguments = _attributes(ctx, name, attrs) if attrs else {}
    verb = match.groupdict().get("verb")
    if verb is not None:  # `<use NAME k="v">`: the attributes are the whole call, the tag closes right after
        closer = None if match.group("slash") else _closer(verb)
        return _Attributed(ctx, name, arguments or None, closer)
    if match.groupdict().get("slash"):
        # `<TOOL/>` with no attribute is no call: JSX and HTML write components that way (`<TitleBar />`).
        return _Attributed(ctx, name, arguments or None)
    if arguments is None:
        return _Attributed(ctx, name, None)
    reader = ToolXml(ctx, block, name)
    reader.arguments.update(arguments)  # `<TOOL k="v"><other>…</other></TOOL>`: attributes and children
    return reader


def _open_bare(ctx: Context, block: Block, match: regex.Match[str]) -> ToolXml:
    return ToolXml(ctx, block, match.group("name"), bare=True)


def _bare_opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        tag = r"(?=[ \t]{0,8}<[A-Za-z_][\w.\-]{0,63}[ \t]{0,8}>)"
        return None if names is None else rf"{prefix}(?P<name>{names})[ \t]{{0,8}}\r?\n{tag}"

    return build


def tool_name_pattern(tools: ToolIndex) -> str | None:
    """The offered names that can be written as a word (longest first, escaped), as one alternation; ``-`` and
    ``_`` inside a name either way (``resolve_library_id`` for MCP's ``resolve-library-id``: a model spells the
    name as an identifier), and a template's namespace before it (``functions.NAME``), as `ToolIndex.resolve`
    reads them."""
    return _name_alternation(tuple(tools.specs))


@lru_cache(maxsize=1024)
def _name_alternation(offered: tuple[str, ...]) -> str | None:
    # Every tool-built opener of a parser asks for it (about sixty per parser): built once per tool set.
    names = sorted((n for n in offered if _TAG_NAME.fullmatch(n)), key=len, reverse=True)
    alternation = "|".join(_SEPARATOR.sub("[-_]", regex.escape(n)) for n in names)
    return rf"(?:{NAMESPACES}\.)?(?:{alternation})" if alternation else None


NAMESPACES = r"(?:functions|default_api)"
"""The namespaces chat templates put before every tool's name (OpenAI's ``functions.NAME``, Gemini's
``default_api.NAME``): a model copies them into any form (`ToolIndex.resolve` takes them off)."""


_SEPARATOR = regex.compile(r"(?<=[^\\-_])(?:\\-|_)(?=[^-_\\])")
"""A ``-`` (escaped) or ``_`` between two other characters of an escaped name."""


_ATTR_PAIR = r"""[A-Za-z_][\w.\-]{0,63}[ \t]{0,4}=[ \t]{0,4}(?:"[^"]{0,4000}"|'[^']{0,4000}')"""
_ATTR = regex.compile(
    r"""(?P<key>[A-Za-z_][\w.\-]{0,63})[ \t]{0,4}=[ \t]{0,4}"""
    r"""(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"',<>/=]+))"""
)
_BARE_PAIR = r"""[A-Za-z_][\w.\-]{0,63}[ \t]{0,4}=[ \t]{0,4}(?:"[^"\n]{0,4000}"|'[^'\n]{0,4000}'|[^\s"',<>/=]{1,200})"""
_ATTR_TAG = regex.compile(
    rf"<[ \t]{{0,4}}(?P<pairs>{_BARE_PAIR}(?:(?:[ \t]{{0,4}},)?[ \t\r\n]{{1,8}}{_BARE_PAIR}|,{_BARE_PAIR}){{0,31}})"
    r"[ \t]{0,4},?[ \t\r\n]{0,8}/?[ \t]{0,4}>"
)
"""A tag with no name, only ``key="value"`` pairs (blank- or comma-separated, a value quoted or bare), right inside
the tool's tag: ``<get_news_report><location="Paris" language="en"/>`` (BitAgent-8B asked for BFCL's XML formats).
No markup language writes a nameless tag: the pairs are the call's parameters."""
_AFTER_TAG = regex.compile(r"[ \t\r\n]{0,8}<[ \t]{0,8}/[ \t]{0,8}[A-Za-z_][\w.\-]{0,127}[ \t]{0,8}>")


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    # attributes separated by blanks, or by commas as in a call's argument list (`<TOOL k="v", k2="w"/>`)
    pairs = rf"[ \t\r\n]{{1,8}}{_ATTR_PAIR}(?:(?:[ \t]{{0,4}},)?[ \t\r\n]{{1,8}}{_ATTR_PAIR}){{0,31}}"
    attrs = rf"(?P<attrs>(?:{pairs})?)"
    # `<use search q="x"></use>`: a tag whose first word is the tool's name, its attributes the parameters
    verb = r"(?:(?P<verb>[A-Za-z_][\w:.\-]{0,31})[ \t]{1,8})?"
    return rf"<{verb}(?P<name>{names})(?![\w.\-=]){attrs}[ \t\r\n]{{0,8}}(?P<slash>/?)>"


def _attributes(ctx: Context, name: str, attrs: str) -> dict[str, Any] | None:
    """The arguments an opener's attributes give (``<run_command command="ls -l">``): each a parameter the
    tool declares, once, its value unescaped as XML and typed by the schema; None: any other attribute."""
    spec = ctx.tools.specs.get(ctx.tools.resolve(name))
    props: Any = spec.input_schema.get("properties") if spec is not None else None
    arguments: dict[str, Any] = {}
    for found in _ATTR.finditer(attrs):
        key = found.group("key")
        if key == "args" and isinstance(props, dict) and "args" not in props and props:
            # gptme's `<save args="PATH">`: the first parameter's value, by position
            key = str(next(iter(cast("dict[str, Any]", props))))
        if not isinstance(props, dict) or key not in props or key in arguments:
            return None
        quoted = found.group("dq") if found.group("dq") is not None else found.group("sq")
        raw = html.unescape(found.group("bare") if quoted is None else quoted)
        arguments[key] = typed_value(ctx.tools, name, key, raw)
    return arguments


class _Attributed:
    """A self-closing ``<TOOL k="v"/>``: the call is its attributes; or an opener whose attributes are no
    parameters of the tool: text. With ``closer`` (``<use NAME k="v">``), that closer must follow at once."""

    def __init__(
        self, ctx: Context, name: str, arguments: dict[str, Any] | None, closer: regex.Pattern[str] | None = None
    ) -> None:
        self.ctx = ctx
        self.name = name
        self.arguments = arguments
        self.closer = closer

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.arguments is not None and self.closer is not None:
            end = _WS.match(text, pos)
            at = pos if end is None else end.end()
            if at >= len(text) and not final:
                return pos, MORE
            found = self.closer.match(text, at, partial=not final)
            if found is not None and found.partial:
                return pos, MORE
            if found is None:
                self.arguments = None
            else:
                self.ctx.consume(text[pos : found.end()])
                pos = found.end()
        if self.arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.ctx.tools.resolve(self.name), self.arguments, streamed=False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.feed("", 0, True)


ROWS = [
    # <read_file><path>a.py</path></read_file>: only for offered tools, only their parameters as children.
    Dialect("tool_name_xml", r"<", None, kind="untagged", first="<", reader=_open, open_for_tools=_opener),
    # The same with the opener's brackets lost: the name alone on its line, its parameter tags below.
    Dialect(
        "tool_name_line_xml",
        "name",
        None,
        kind="untagged",
        start="message",
        first="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_",
        reader=_open_bare,
        open_for_tools=_bare_opener(""),
    ),
    Dialect(
        "tool_name_line_xml_after",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open_bare,
        open_for_tools=_bare_opener(r"\n[ \t]{0,8}"),
    ),
]
