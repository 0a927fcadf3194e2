"""A call element whose attributes are the whole call: ``<tool_use server="fs" name="read" args='{"path": "a"}' />``.

Lum (an MCP desktop app) prompts for one self-closing tag per call: the MCP server, the tool's name and the JSON
arguments as attributes. The general shape: an element of a call tag (its name holds ``tool``, ``call``,
``function`` or ``invoke``: ``<tool_use>``, ``<toolcall>``, ``<mcp_tool_call>``, ``<function>``) whose ``name``
(or ``tool``, ``tool_name``, ``function``) attribute names an offered tool, self-closing or closed right after
(``<tool_use …></tool_use>``). Its other attributes are read as the arguments:

- an ``args`` (``arguments``, ``parameters``, ``params``, ``input``) attribute holding one JSON object (single-quoted
  as written, or double-quoted with ``&quot;`` entities, even encoded twice: ``&amp;quot;``);
- an attribute named by a parameter the tool declares (``<tool_call name="exec" command="ls"/>``): its value,
  unescaped as XML and typed by the schema;
- any other attribute (``server``, ``id``, ``type``) is the call's markup.

The same pairs may be a call tag's whole body (``<toolcall>name="grep" pattern="error"</toolcall>``: 0xAgent's
model wrote the attributes inside the tag): read alike. Names and values may hold entities (``open&amp;run``), tag
and attribute names any case. A tag whose name attribute names no offered tool, whose ``args`` is no JSON object,
or that holds anything but pairs stays text; so does an HTML or XML element (``<input name="q"/>``: no call tag).
"""

from __future__ import annotations

import html
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import Closed
from shim.parsing.xml_values import attributes, typed_value

__all__ = ["OPENED_ROWS", "ROWS"]

_WS = r"[ \t\r\n]"
_TAG = r"(?!xsl:)(?=[\w:.\-]{0,40}?(?:tool|call|function|invoke))[A-Za-z_][\w:.\-]{0,63}"
"""A call tag: its name holds a call word (``tool_use``, ``toolcall``, ``function_call``, ``mcp:invoke``); XSLT's
``<xsl:call-template name="…"/>`` is a stylesheet's markup, no call."""
_VALUE = r"""(?:"[^"<>]{0,8000}"|'[^'<>]{0,8000}')"""
_PAIR = rf"[A-Za-z_][\w:.\-]{{0,63}}{_WS}{{0,4}}={_WS}{{0,4}}{_VALUE}"
_NAME_KEYS = "name|tool|tool_name|function"
_NAME_PAIR = rf"""(?:{_NAME_KEYS}){_WS}{{0,4}}={_WS}{{0,4}}(?:"[^"<>\n]{{1,256}}"|'[^'<>\n]{{1,256}}')"""
_SEP = rf"(?:{_WS}{{1,8}}|{_WS}{{0,4}},{_WS}{{0,8}})"
_PAIRS = rf"(?:{_PAIR}{_SEP})*?{_NAME_PAIR}(?:{_SEP}{_PAIR}){{0,31}}"
"""Pairs, one of them naming the tool."""
_CLOSER = rf"<{_WS}{{0,4}}/{_WS}{{0,4}}(?P<closer>[A-Za-z_][\w:.\-]{{0,63}}){_WS}{{0,4}}>"
_OPEN = (
    rf"<[ \t]{{0,4}}(?P<tag>{_TAG})"
    rf"(?:{_WS}{{1,8}}(?P<attrs>{_PAIRS}){_WS}{{0,8}}(?:/[ \t]{{0,4}}>|>{_WS}{{0,8}}{_CLOSER})"
    rf"|[ \t]{{0,4}}>{_WS}{{0,8}}(?P<body>{_PAIRS}){_WS}{{0,8}},?{_WS}{{0,8}}{_CLOSER})"
)
_ARGS_KEYS = frozenset({"args", "arguments", "parameters", "params", "input"})


def _json_object(raw: str) -> dict[str, Any] | None:
    """An ``args`` value as one JSON object: as written, or unescaped once more where the model (or its app)
    encoded the entities twice (``{&amp;quot;a&amp;quot;:1}``); None: no object."""
    for _ in range(3):
        text = raw.strip()
        if not text:
            return {}
        value = lenient_json.loads_object(text)
        if value is not None:
            return value
        unescaped = html.unescape(raw)
        if unescaped == raw:
            return None
        raw = unescaped
    return None


def _call(ctx: Context, pairs: str) -> tuple[str, dict[str, Any]] | None:
    """The tool and the arguments the pairs give; None: no offered tool named, a key twice, or ``args`` that are
    no JSON object."""
    values: dict[str, str] = {}
    for written_key, value in attributes(pairs):
        key = written_key.casefold()
        if key in values:
            return None
        values[key] = value
    written = next((values[k] for k in _NAME_KEYS.split("|") if k in values), None)
    if written is None or not ctx.tools.is_known(written):
        return None
    name = ctx.tools.resolve(written)
    declared = {str(k).casefold(): str(k) for k in ctx.tools.properties(name) or {}}
    arguments: dict[str, Any] = {}
    for key, value in values.items():
        if key in declared:  # a parameter written as an attribute
            arguments[declared[key]] = typed_value(ctx.tools, name, declared[key], value)
    for key, value in values.items():
        if key in _ARGS_KEYS and key not in declared:
            found = _json_object(value)
            if found is None:
                return None
            arguments.update(found)
    return name, arguments


class _Whole:
    """The element, read whole by the opener: the call, or text."""

    def __init__(self, ctx: Context, block: Block, match: regex.Match[str]) -> None:
        self.ctx = ctx
        self.block = block
        self.match = match

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        del text, final
        if not self._decide():
            return pos, None
        return pos, Closed(self.ctx, fence=self.block.fence)  # a fence around the call, a closer written again

    def finish(self, truncated: bool) -> None:
        del truncated
        self._decide()

    def _decide(self) -> bool:
        ctx, match = self.ctx, self.match
        closer = match.group("closer")
        call = _call(ctx, match.group("attrs") or match.group("body") or "")
        if call is None or (closer is not None and closer.casefold() != match.group("tag").casefold()):
            ctx.revert()
            return False
        ctx.end_call(call[0], call[1], streamed=False)
        return True


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> _Whole:
    return _Whole(ctx, block, match)


_BLANKS = regex.compile(r"[ \t\r\n]*")


class _Opened:
    """A call tag opened with attributes and nothing after it (`OPENED`): given back, which the core reports as a call
    cut off at its opener where the output ends (`shim.parsing.stream.StreamParser.revert`) and keeps as text before
    anything else."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        blanks = _BLANKS.match(text, pos)
        assert blanks is not None
        if blanks.end() >= len(text) and not final:
            return pos, MORE  # the output may end here
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _open_opened(ctx: Context, block: Block, match: regex.Match[str]) -> _Opened:
    return _Opened(ctx)


OPENED = rf"<[ \t]{{0,4}}{_TAG}(?:{_WS}{{1,8}}{_PAIR}){{1,32}}{_WS}{{0,8}}>(?={_WS}{{0,64}}\Z)"
"""A call tag opened with attributes that name no tool, the last thing in the text read so far (``<tool_use
server="x">``): the start of a call element the output may end with."""


ROWS = [
    # <tool_use server="S" name="NAME" args='{…}' />, closed or self-closing, or the pairs as a call tag's body
    # (<toolcall>name="NAME" k="v"</toolcall>): before the call tags' own rows, which read a JSON body.
    Dialect(
        "attribute_call",
        _OPEN,
        None,
        first="<",
        reader=_open,
        example='<tool_use name="NAME" args=\'{"KEY": "VALUE"}\' />',
    ),
]

OPENED_ROWS = [
    # The same tag opened and nothing after it: the output ends at the opener (a call cut off), else text. Last in the
    # table: its lookahead sees only the text read so far, so before a row that reads the same opener
    # (`<function name="NAME">`, `<tool name="NAME">`) it would take that opener where a chunk ends after it and give it
    # back as text once the body arrives, where the whole text goes to that row.
    Dialect(
        "attribute_call_opened",
        OPENED,
        None,
        first="<",
        reader=_open_opened,
        example='<tool_use name="NAME" args=\'{"KEY": "VALUE"}\' />',
    ),
]
