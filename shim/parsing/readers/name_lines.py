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
from shim.parsing.xml_values import typed_value

__all__ = ["name_lines"]

_NAME = regex.compile(r"(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,8}(?=\r?\n|<)")
"""The tool's name alone on the body's first line (or right before the closer)."""
_KEY = regex.compile(r"[ \t]{0,8}(?P<key>[A-Za-z_][\w\-]{0,63})[ \t]{0,4}:(?:[ \t]{1,8}|(?=\r?\n|\Z))")
_BLANKS = regex.compile(r"[ \t\r\n]*")
_HEREDOC = regex.compile(r"<<<[ \t]{0,4}(?P<q>['\"]?)(?P<tag>[A-Za-z_]\w{0,31})(?P=q)[ \t]*")
"""A heredoc's opener, the whole value: ``<<<TAG`` (PHP's spelling; quoted, ``<<<'TAG'``, the same)."""


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
    keys = {str(key).casefold(): str(key) for key in ctx.tools.properties(name) or {}}
    after = _BLANKS.match(text, found.end())
    assert after is not None
    if after.end() >= len(text):
        return (pos, MORE) if not final else None
    shut = close.match(text, after.end(), partial=not final)
    if shut is not None and shut.partial:
        return pos, MORE
    if shut is None:
        key = match_at(_KEY, text, after.end(), final)
        if key is MORE:
            return pos, MORE
        if key is None or key.group("key").casefold() not in keys:
            return None
    ctx.consume(found.group())
    return found.end(), NameLines(ctx, block, name, keys, close)


class NameLines:
    """The lines after the name, each decided once it is whole (its line break seen, or the output's end), so the
    call is the same whatever the chunking."""

    def __init__(self, ctx: Context, block: Block, name: str, keys: dict[str, str], close: regex.Pattern[str]) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.keys = keys
        """The declared parameters by their folded names."""
        self.close = close
        self.pairs: dict[str, list[str]] = {}
        self.last: str | None = None
        """The key whose value the next line that is no key line goes on."""
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
            got = next_line(text, pos, final)
            if got is MORE:
                return pos, MORE
            if got is None:
                return self._end_of_output(pos)
            stop, line, last = got
            start = pos + (2 if text.startswith("\r\n", pos) else 1)  # where the line begins, after its break
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
            if line.strip() == self.heredoc:
                self.heredoc, self.last = None, None
            else:
                assert self.last is not None
                self.pairs[self.last].append(line)
            return
        if not line.strip():
            if self.last is not None and self.last not in self.literal:
                self.pairs[self.last].append(line)  # a blank line inside a value that goes on after it
            return
        found = _KEY.match(line)
        key = self.keys.get(found.group("key").casefold()) if found is not None else None
        if found is None or key is None:
            heredoc = _HEREDOC.fullmatch(line.strip())
            if self.last is not None and heredoc is not None and not "".join(self.pairs[self.last]).strip():
                self._open_heredoc(self.last, heredoc)  # `KEY:` then `<<<TAG` on the line after it
            elif self.last is not None and self.last not in self.literal:
                self.pairs[self.last].append(line)
            return
        value = line[found.end() :]
        self.last = key
        self.literal.discard(key)
        self.pairs[key] = []
        heredoc = _HEREDOC.fullmatch(value.strip())
        if heredoc is not None:
            self._open_heredoc(key, heredoc)
        else:
            self.pairs[key].append(value)

    def _open_heredoc(self, key: str, opener: regex.Match[str]) -> None:
        self.pairs[key] = []
        self.literal.add(key)
        self.heredoc = opener.group("tag")

    def _arguments(self) -> dict[str, Any]:
        arguments: dict[str, Any] = {}
        for key, lines in self.pairs.items():
            if key in self.literal:
                arguments[key] = typed_value(self.ctx.tools, self.name, key, "\n".join(lines), literal=True)
            else:
                arguments[key] = typed_value(self.ctx.tools, self.name, key, "\n".join(lines).strip())
        return arguments

    def _closed(self, text: str, pos: int, shut: regex.Match[str] | None) -> tuple[int, Next]:
        assert shut is not None
        self.ctx.consume(shut.group())
        self.ctx.end_call(self.name, self._arguments(), streamed=False)
        return shut.end(), closed_by(self.ctx, shut.group(), fence=self.block.fence, outer=self.block.outer)

    def _end_of_output(self, pos: int) -> tuple[int, Next]:
        self.finish(False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        if truncated or self.heredoc is not None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.name, self._arguments(), streamed=False)
