"""A call tag whose body names the tool on a line of its own, then gives its arguments as ``key: value`` lines.

    <tool_use>
    Edit
    file_path: src/main.py
    old_string: <<<OLD
    print("hi")
    OLD
    new_string: <<<NEW
    print("hello")
    NEW
    </tool_use>

notion-proxy's delimited format (its prompt asks Notion's AI for it, to spare code the JSON escaping): any call
tag's body (`shim.parsing.readers.tagged_json`) may hold it. The first line is an offered tool's name alone; each
line after it is ``KEY: value``, ``KEY`` a parameter that tool declares (in any case), or ``KEY: <<<TAG`` (or
``KEY:`` with ``<<<TAG`` on the next line), the value then being every line up to a line that is ``TAG`` alone,
taken as written (a heredoc: no escaping, blank lines and indents kept). A line that is no key line of the tool
goes on the value before it; blank lines between the pairs are layout. A bare name with the closer after it is a
call with no arguments. Values other than heredocs are typed by the schema (`shim.parsing.xml_values`).

The same key lines follow an opener that names the tool itself (`key_lines`: zikos' ``<tool name="NAME">``, read
by the named-tag row of `shim.parsing.readers.minimax`), or a ``tool: NAME`` header line opening a fence named by a
word that is no language (`header_lines`: freegent's ```` ```freegent ````, from `shim.parsing.readers.untagged`'s
fence row); the closing fence then ends the call and is its markup. A heredoc may also open on a line of its own
named for its parameter (``<<<CONTENT`` for ``content``) and close with ``TAG>>>`` mirroring it. Values may be
written as YAML writes them (`shim.parsing.readers.line_values`): ``KEY: |`` (``|-``, ``>``…) over lines indented
under the key, less their indentation; ``KEY:`` alone over an indented YAML list or mapping, for a parameter
declared an array or an object; a line indented under such a key is the value's whatever it reads. The line break
before the closer is the body's layout, not the last value's (zikos and freegent read a ``|`` block so).

The block's closer is found here, a line at a time, not by the tag scan: a closer inside an open heredoc is the
value's text (an ``Edit`` of a prompt that teaches this very format holds a whole ``<tool_use>`` example), so a call
never escapes from a value. The evidence is the name of an offered tool alone on the body's first line, then a key
line of a parameter it declares (or the closer): a sentence after the tag, the name of a tool that was not offered,
or a first key the tool does not declare leaves the tag to the other body forms. At the output's end with no closer
the call is whole (the closer may be a stop sequence) unless a heredoc is still open or the output was cut off.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Next, match_at, next_line
from shim.parsing.readers.block_end import closed_by
from shim.parsing.readers.line_values import BLOCK_SCALAR, block_scalar, nested_block
from shim.parsing.xml_values import typed_value

__all__ = ["FENCE_CLOSE", "header_lines", "key_lines", "name_lines"]

_NAME = regex.compile(r"(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,8}(?=\r?\n|<)")
"""The tool's name alone on the body's first line (or right before the closer)."""
_KEY = regex.compile(r"[ \t]{0,8}(?P<key>[A-Za-z_][\w\-]{0,63})[ \t]{0,4}:(?:[ \t]{1,8}|(?=\r?\n|\Z))")
_BLANKS = regex.compile(r"[ \t\r\n]*")
_HEREDOC = regex.compile(r"<<<[ \t]{0,4}(?P<q>['\"]?)(?P<tag>[A-Za-z_]\w{0,31})(?P=q)[ \t]*")
"""A heredoc's opener, the whole value: ``<<<TAG`` (PHP's spelling; quoted, ``<<<'TAG'``, the same)."""
_HEADER = regex.compile(
    r"(?i:tool|tool_name|name|function)[ \t]{0,4}:[ \t]{0,4}(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]*(?=\r?\n)"
)
"""A header line naming the tool (``tool: NAME``) at a fence's body's start."""
FENCE_CLOSE = regex.compile(r"(?<![^\n])[ \t]{0,3}```")
"""A fence's closing line: the call's end, when the call is a fence's whole body (`header_lines`)."""


def name_lines(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """At ``pos``, where the body of a call tag begins: the tool's name on a line of its own, then its key lines or
    the tag's closer. Returns the reader of the lines; None when the body is not this form."""
    close = block.dialect.compiled_close() if block.dialect is not None else None
    if close is None:
        return None
    found = match_at(_NAME, text, pos, final)
    if found is MORE:
        return pos, MORE
    if found is None or not ctx.tools.is_known(found.group("name")):
        return None
    name = ctx.tools.resolve(found.group("name"))
    keys = _keys(ctx, name)
    after = _BLANKS.match(text, found.end())
    assert after is not None
    if after.end() >= len(text):
        return (pos, MORE) if not final else None
    shut = close.match(text, after.end(), partial=not final)
    if shut is not None and shut.partial:
        return pos, MORE
    if shut is None:
        first = _first_key(keys, text, after.end(), final)
        if first is None:
            return pos, MORE
        if not first:
            return None
    ctx.consume(found.group())
    return found.end(), NameLines(ctx, block, name, keys, close)


def key_lines(ctx: Context, block: Block, name: str, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """At ``pos``, a line's start in the body of a call tag whose opener named the tool (zikos' ``<tool
    name="NAME">``): a key line of a parameter it declares begins its key lines, to the tag's closer. None: the
    body is not this form."""
    close = block.dialect.compiled_close() if block.dialect is not None else None
    if close is None or not ctx.tools.is_known(name):
        return None
    name = ctx.tools.resolve(name)
    keys = _keys(ctx, name)
    first = _first_key(keys, text, pos, final)
    if first is None:
        return pos, MORE
    if not first:
        return None
    return pos, NameLines(ctx, block, name, keys, close, fresh=True)


def header_lines(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """At ``pos``, the start of a fence's body: ``tool: NAME`` naming an offered tool, then a key line of a parameter
    it declares; the key lines run to the closing fence, which is the call's markup with the opener (freegent's
    ```` ```freegent ```` block). None: the body is not this form."""
    found = match_at(_HEADER, text, pos, final)
    if found is MORE:
        return pos, MORE
    if found is None or not ctx.tools.is_known(found.group("name")):
        return None
    name = ctx.tools.resolve(found.group("name"))
    keys = _keys(ctx, name)
    start = found.end() + (2 if text.startswith("\r\n", found.end()) else 1)
    first = _first_key(keys, text, start, final)
    if first is None:
        return pos, MORE
    if not first:
        return None
    ctx.consume(found.group())
    return found.end(), NameLines(ctx, block, name, keys, FENCE_CLOSE, fenced=True)


def _keys(ctx: Context, name: str) -> dict[str, str]:
    return {str(key).casefold(): str(key) for key in ctx.tools.properties(name) or {}}


def _first_key(keys: dict[str, str], text: str, pos: int, final: bool) -> bool | None:
    """Whether the line at ``pos`` is a key line of a declared parameter, or a heredoc's opener named by one
    (``<<<CONTENT`` for ``content``); None: the text ends before that shows."""
    if pos >= len(text):
        return False if final else None
    key = match_at(_KEY, text, pos, final)
    if key is MORE:
        return None
    if key is not None:
        return key.group("key").casefold() in keys
    heredoc = match_at(_HEREDOC_LINE, text, pos, final)
    if heredoc is MORE:
        return None
    return heredoc is not None and heredoc.group("tag").casefold() in keys


_HEREDOC_LINE = regex.compile(r"[ \t]{0,8}" + _HEREDOC.pattern + r"(?=\r?\n)")


class NameLines:
    """The key lines, each decided once it is whole (its line break seen, or the output's end), so the call is the
    same whatever the chunking."""

    def __init__(
        self,
        ctx: Context,
        block: Block,
        name: str,
        keys: dict[str, str],
        close: regex.Pattern[str],
        *,
        fresh: bool = False,
        fenced: bool = False,
    ) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.keys = keys
        """The declared parameters by their folded names."""
        self.close = close
        self.fresh = fresh
        """The next line starts at the reading position (no line break before it to read first)."""
        self.fenced = fenced
        """The closer is the fence around the call: no fence closer after it to take as markup."""
        self.pairs: dict[str, list[str]] = {}
        self.last: str | None = None
        """The key whose value the next line that is no key line goes on."""
        self.latest: str | None = None
        """The key of the last key line (or heredoc): its value ends at the closer."""
        self.deep: int | None = None
        """The indent of the last key line when its value opened a YAML block (``KEY: |``, or ``KEY:`` alone): a
        line indented deeper is the value's, whatever it reads."""
        self.heredoc: str | None = None
        """The open heredoc's tag: every line up to the one that is the tag alone is the value's."""
        self.literal: set[str] = set()
        """Keys whose value was a heredoc: taken as written."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        while True:
            if pos < len(text) and text[pos] == "<":  # the closer right after the name: no arguments
                shut = self.close.match(text, pos, partial=not final)
                if shut is not None and shut.partial:
                    return pos, MORE
                if shut is not None:
                    return self._closed(text, pos, shut)
            fresh, self.fresh = self.fresh, False
            fresh_line = _line_at(text, pos, final) if fresh and pos < len(text) else None
            got = (fresh_line or MORE) if fresh and pos < len(text) else next_line(text, pos, final)
            if got is MORE or got is None:
                self.fresh = fresh
                return (pos, MORE) if got is MORE else self._end_of_output(pos)
            stop, line, last = got
            start = pos if fresh else pos + (2 if text.startswith("\r\n", pos) else 1)  # where the line begins
            shut = self.close.search(line) if self.heredoc is None else None
            if shut is not None:
                self._take(line[: shut.start()])
                self.ctx.consume(text[pos : start + shut.start()])
                return self._closed(text, start + shut.start(), self.close.match(text, start + shut.start()))
            self._take(line)
            self.ctx.consume(text[pos:stop])
            pos = stop
            if last:
                return self._end_of_output(pos)

    def _take(self, line: str) -> None:
        if self.heredoc is not None:
            if line.strip() in (self.heredoc, self.heredoc + ">>>"):  # `TAG`, or `TAG>>>` mirroring `<<<TAG`
                self.heredoc, self.last = None, None
            else:
                assert self.last is not None
                self.pairs[self.last].append(line)
            return
        if not line.strip():
            if self.last is not None and self.last not in self.literal:
                self.pairs[self.last].append(line)  # a blank line inside a value that goes on after it
            return
        indent = len(line) - len(line.lstrip(" \t"))
        if self.last is not None and self.deep is not None and (indent > self.deep or _listed(line, indent, self)):
            self.pairs[self.last].append(line)  # a line of the YAML block the key opened
            return
        self.deep = None
        found = _KEY.match(line)
        key = self.keys.get(found.group("key").casefold()) if found is not None else None
        if found is None or key is None:
            heredoc = _HEREDOC.fullmatch(line.strip())
            if self.last is not None and heredoc is not None and not "".join(self.pairs[self.last]).strip():
                self._open_heredoc(self.last, heredoc)  # `KEY:` then `<<<TAG` on the line after it
            elif heredoc is not None and heredoc.group("tag").casefold() in self.keys:
                self._open_heredoc(self.keys[heredoc.group("tag").casefold()], heredoc)  # `<<<CONTENT` for `content`
            elif self.last is not None and self.last not in self.literal:
                self.pairs[self.last].append(line)
            return
        value = line[found.end() :]
        self.last = self.latest = key
        self.literal.discard(key)
        self.pairs[key] = []
        heredoc = _HEREDOC.fullmatch(value.strip())
        if heredoc is not None:
            self._open_heredoc(key, heredoc)
        else:
            self.pairs[key].append(value)
            if not value.strip() or BLOCK_SCALAR.fullmatch(value.strip()):
                self.deep = indent

    def _open_heredoc(self, key: str, opener: regex.Match[str]) -> None:
        self.pairs[key] = []
        self.literal.add(key)
        self.last = self.latest = key
        self.deep = None
        self.heredoc = opener.group("tag")

    def _arguments(self) -> dict[str, Any]:
        arguments: dict[str, Any] = {}
        tools = self.ctx.tools
        for key, lines in self.pairs.items():
            header = BLOCK_SCALAR.fullmatch(lines[0].strip()) if lines and key not in self.literal else None
            if key in self.literal:
                arguments[key] = typed_value(tools, self.name, key, "\n".join(lines), literal=True)
            elif header is not None and any(line.strip() for line in lines[1:]):
                value = block_scalar(header.group(), [line + "\n" for line in lines[1:]])
                if key == self.latest and value.endswith("\n"):
                    value = value[:-1]  # the line break before the closer is the body's layout
                arguments[key] = typed_value(tools, self.name, key, value, literal=True)
            else:
                nested = nested_block(tools, self.name, key, [x + "\n" for x in lines[1:]]) if lines else None
                if nested is not None and not lines[0].strip():
                    arguments[key] = nested
                else:
                    arguments[key] = typed_value(tools, self.name, key, "\n".join(lines).strip())
        return arguments

    def _closed(self, text: str, pos: int, shut: regex.Match[str] | None) -> tuple[int, Next]:
        assert shut is not None
        self.ctx.consume(shut.group())
        self.ctx.end_call(self.name, self._arguments(), streamed=False)
        fence = self.block.fence and not self.fenced
        return shut.end(), closed_by(self.ctx, shut.group(), fence=fence, outer=self.block.outer)

    def _end_of_output(self, pos: int) -> tuple[int, Next]:
        self.finish(False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        if truncated or self.heredoc is not None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.name, self._arguments(), streamed=False)


def _listed(line: str, indent: int, lines: NameLines) -> bool:
    """A YAML list's item at its key's own indent (``steps:`` then ``- a``), under a key opened with nothing."""
    assert lines.last is not None
    return indent == lines.deep and line.lstrip().startswith("- ") and not "".join(lines.pairs[lines.last][:1]).strip()


def _line_at(text: str, pos: int, final: bool) -> tuple[int, str, bool] | None:
    """The line starting at ``pos``, before the text's end (no line break before it), as `next_line` gives the line
    after one; None until it is whole."""
    end = text.find("\n", pos)
    if end < 0 and not final:
        return None
    stop = len(text) if end < 0 else end
    line = text[pos:stop].rstrip("\r")
    if end >= 0 and stop > pos and text[stop - 1] == "\r":
        stop -= 1
    return stop, line, end < 0
