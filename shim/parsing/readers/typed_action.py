"""An action tag whose ``type`` (or ``tool``, ``name``) attribute names an offered tool: its other attributes are
parameters, its body the one parameter left.

    <boltArtifact id="a1" title="Setup">
      <boltAction type="shell">npm install</boltAction>
      <boltAction type="file" filePath="index.js">console.log("hi")</boltAction>
    </boltArtifact>

bolt.new's prompt asks the model for actions so: a tag whose name says what it is (``boltAction``: a call word,
``action``, ``tool``, ``call``, ``function``, ``invoke``, ``command`` in it), a ``type`` attribute naming the kind of
action (its tools ``shell``, ``file``), further attributes its parameters (``filePath``), the body the content. The
general form: a call-word tag whose ``type``, ``tool``, ``tool_name`` or ``name`` attribute names an offered tool;
each other attribute the tool declares is that parameter (typed by the schema), any other is markup (``id``); the
body, its layout line breaks aside, is the value of the one declared parameter the attributes left (or of the one
required among them); an empty body gives nothing. Under ``type`` the body is content whatever it holds (a file's
HTML); under a tool's name (``name``, ``tool``) a body of elements is structure, the element rows' to read
(`shim.parsing.readers.minimax`), not a value. A tag of no call family around the actions (``<boltArtifact …>``)
is their markup when only actions stand inside it (`shim.parsing.readers.untagged.WRAPPED_CALL`).

The evidence is strict: the tag's name holds a call word (an HTML element never does: ``<button type="submit">`` is
text whatever the tools), the attribute names an offered tool, the tag closes with its own closer, and the body has
one parameter to go to. Anything else (a tool that was not offered, no closer, a body and no parameter left for it,
an attribute given twice) is text, unchanged, as is the form shown in prose (an inline code span, a code fence, after
words presenting an example: the core's prose rules).
"""

from __future__ import annotations

import html
from typing import Any

import regex

from shim.parsing.readers.base import RESULT_TAG, Block, Context, Dialect, Next, Reader, WholeToCloser
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex
from shim.parsing.xml_values import attributes, typed_value, unlaid

__all__ = ["ROWS"]

_WS = r"[ \t\r\n]"
_TAG = rf"(?=[\w:.\-]{{0,40}}?(?:action|tool|call|function|invoke|command)){RESULT_TAG}[A-Za-z_][\w:.\-]{{0,63}}"
"""A tag whose name holds a call word (``boltAction``, ``tool_call``, ``mcp:invoke``) and no result word
(``tool_result``: `RESULT_TAG`)."""
_PAIR = r"""[A-Za-z_][\w:.\-]{0,63}[ \t\r\n]{0,4}=[ \t\r\n]{0,4}(?:"[^"<>]{0,4000}"|'[^'<>]{0,4000}')"""
_NAME_KEYS = ("type", "tool", "tool_name", "name")
_ELEMENT = regex.compile(r"[ \t\r\n]*<[A-Za-z_]")
"""A body opening with an element."""
_LIMIT = 1 << 20
"""A body longer than this without its closer is no action (the hold-back stays bounded)."""


class _Body(WholeToCloser):
    """The body up to the tag's own closer, decided whole with the opener's attributes."""

    def __init__(self, ctx: Context, name: str, key: str, attrs: str, close: regex.Pattern[str]) -> None:
        super().__init__(ctx, close, _LIMIT)
        self.name = name
        self.key = key
        """The attribute that named the tool (``type``)."""
        self.attrs = attrs

    def decide(self, found: regex.Match[str]) -> tuple[int, Next]:
        arguments = _arguments(self.ctx.tools, self.name, self.key, self.attrs, "".join(self.body))
        if arguments is None:
            self.ctx.revert()
            return found.start(), None
        self.ctx.consume(found.group())
        self.ctx.end_call(self.name, arguments, streamed=False)
        return found.end(), None


def _arguments(tools: ToolIndex, name: str, key: str, attrs: str, body: str) -> dict[str, Any] | None:
    """The declared attributes and the body as the tool's arguments (``key`` named the tool); None: an attribute
    twice, or a body with no one parameter left to take it."""
    declared = {str(k).casefold(): str(k) for k in tools.properties(name) or {}}
    arguments: dict[str, Any] = {}
    seen: set[str] = {key.casefold()}
    for written, text in attributes(attrs):
        attr = written.casefold()
        if attr in seen:
            return None
        seen.add(attr)
        if attr in declared and attr not in _NAME_KEYS:
            arguments[declared[attr]] = typed_value(tools, name, declared[attr], text)
    value = unlaid(body)
    if not value.strip():
        return arguments
    if key.casefold() != "type" and _ELEMENT.match(value):
        return None  # `<x_tool name="Read"><file>…`: elements under a tool's name are structure, not a value
    left = [k for k in declared.values() if k not in arguments]
    if len(left) != 1:
        spec = tools.specs.get(name)
        required: Any = spec.input_schema.get("required") or [] if spec is not None else []
        left = [k for k in left if k in required]
    if len(left) != 1:
        return None
    arguments[left[0]] = typed_value(tools, name, left[0], html.unescape(value))
    return arguments


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    close = regex.compile(rf"<{_WS}{{0,4}}/{_WS}{{0,4}}{regex.escape(match.group('tag'))}{_WS}{{0,4}}>", regex.I)
    attrs = (match.group("before") or "") + " " + (match.group("after") or "")
    return _Body(ctx, ctx.tools.resolve(match.group("name")), match.group("key"), attrs, close)


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    keys = "|".join(_NAME_KEYS)
    return (
        rf"<(?P<tag>{_TAG})(?P<before>(?:{_WS}{{1,8}}{_PAIR}){{0,16}}?){_WS}{{1,8}}(?P<key>{keys}){_WS}{{0,4}}={_WS}{{0,4}}"
        rf"""(?P<q>["'])(?P<name>{names})(?P=q)(?P<after>(?:{_WS}{{1,8}}{_PAIR}){{0,16}}){_WS}{{0,8}}>"""
    )


ROWS = [
    Dialect(
        "typed_action",
        "<",
        None,
        kind="untagged",
        first="<",
        reader=_open,
        open_for_tools=_opener,
        example='<action type="NAME" KEY="VALUE">BODY</action>',
    )
]
"""``<boltAction type="shell">npm install</boltAction>``: NAME an offered tool, the tag's name a call word."""
