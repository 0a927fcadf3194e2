"""Qwen3-Coder's call opener drifted into another tag, its ``<parameter=K>`` blocks written as usual after it.

Qwen3.6/3.8-27B, asked for ``<function=NAME><parameter=K>V</parameter></function>``, drifts out of the opener
(q27's verbatim captures; the model is served by llama.cpp and OpenCode):

    <parameter=bash>                 the call opened with the parameter's tag, the tool's name for its key
    <parameter=command>
    ls
    </parameter>
    </function>

    <name>task                       the name in a tag of its own (``<name>``, ``<tool_name>``, ``<function_name>``),
    </parameter>                     closed by any closer, or by none
    <parameter=description>…

    {"function=Bash>                 a JSON call's brace and quote fused with the opener (``{"function="Read">``
    <parameter=command>…             too), or a JSON call's head (``{"name": "Bash",``) before XML parameters

    <name>Bash, "arguments": {…}}    a JSON call's head written as the name tag: its arguments object follows

    <tool_name>                      the name tag left empty: the call of the one offered tool whose schema declares
    <parameter=file_path>…           every key and requires none missing (`ToolIndex.taking`); with none or two
                                     fitting, an error event carrying the text

    terminal_execute>                the opener cut to the tool's name and ``>`` (``function=NAME>``: its ``<``
    <parameter=command>…             alone), where the message or a line begins (MiniMax-M3 in xalgorix's tests)

Leniencies, each read only for an offered tool's name (the evidence; ``<parameter=bash>`` of no offered tool is text)
and only where a ``<parameter=`` tag follows the opener (the body is Qwen3-Coder's; after a name tag, also where
``, "arguments": {`` does, the body then JSON's): the body is read as
``<function=NAME>``'s (`shim.parsing.readers.qwen_xml.XmlBody`); it ends at ``</function>``, at a wrapper's closer,
at the output's end, or where the next such opener begins (``<tool_name>Read</tool_name>…<tool_name>Bash…``).
Inside a Markdown fence such an opener is quoted damage, text.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import (
    MORE,
    NAME_START,
    Block,
    Context,
    Dialect,
    GivenBack,
    Next,
    Reader,
    keep_line_break,
    message_and_line_rows,
)
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.qwen_xml import XmlBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_NAME_TAG = r"(?:name|tool_name|function_name|tool|function)"
_BEFORE_PARAMETER = r"(?=[ \t\r\n]{0,8}<parameter=)"


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    json_head = (
        rf"<{_NAME_TAG}>[ \t\r\n]{{0,8}}(?P<name>{names})\"?[ \t]{{0,4}},[ \t\r\n]{{0,8}}"
        rf"\"(?:arguments|parameters|args)\"[ \t]{{0,4}}:[ \t\r\n]{{0,8}}(?P<json>)(?=\{{)"
    )
    return (
        rf"(?:(?:<parameter=[ \t]{{0,4}}(?P<name>{names})[ \t]{{0,4}}>"
        rf"|<{_NAME_TAG}>[ \t\r\n]{{0,8}}(?P<name>{names})[ \t\r\n]{{0,8}}"
        rf"(?:<[ \t]{{0,4}}/[ \t]{{0,4}}(?:{_NAME_TAG}|parameter)[ \t]{{0,4}}>)?"
        rf"|\{{[ \t]{{0,4}}\"?function=\"?(?P<name>{names})\"?[ \t]{{0,4}}>"
        rf"|\{{[ \t\r\n]{{0,8}}\"name\"[ \t]{{0,4}}:[ \t]{{0,4}}\"(?P<name>{names})\"[ \t]{{0,4}},?"
        # a name tag left empty (one, or a call tag then one: q27's `<tool>\n<tool_name>`), its closer or none
        rf"|(?:<{_NAME_TAG}>[ \t\r\n]{{0,8}}){{1,2}}(?P<nameless>)"
        rf"(?:<[ \t]{{0,4}}/[ \t]{{0,4}}{_NAME_TAG}[ \t]{{0,4}}>)?)"
        rf"{_BEFORE_PARAMETER}|{json_head})"
    )


class _DriftBody(XmlBody):
    """`XmlBody`, ended also where the next drifted opener begins (a model that drops ``</function>`` between
    calls opened this way)."""

    def __init__(self, ctx: Context, block: Block, name: str, opener: regex.Pattern[str]) -> None:
        super().__init__(ctx, block, name)
        self._next = opener

    def _read(self, text: str, pos: int, final: bool) -> tuple[int, str]:
        new, outcome = super()._read(text, pos, final)
        if outcome != "error":
            return new, outcome
        found = self._next.match(text, new, partial=not final)
        if found is not None and found.partial:
            return new, "more"
        if found is None:
            return new, outcome
        self._complete()
        return new, "done"


class _SurplusBrace:
    """After the arguments object of a JSON call whose head was a name tag: the ``}`` that closed the call object
    the tag stood for is markup."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        at = pos
        while at < len(text) and text[at] in " \t":
            at += 1
        if at >= len(text) and not final:
            return pos, MORE
        if at < len(text) and text[at] == "}":
            self.ctx.markup(text[pos : at + 1])
            return at + 1, AfterBody(self.ctx, self.block)
        return pos, AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.markup_as_text()


_ANY_PARAMETER = r"(?=[ \t\r\n]{0,8}<parameter(?:[ \t]{0,4}=|[ \t]{1,4}[^\W\d]))"
"""A parameter's opener follows: ``<parameter=K>``, ``<parameter K>``, ``<parameter name="K">``."""


def _cut_opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    """``NAME>`` (or ``function=NAME>``) opening the message or a line: the opener's ``<function=`` (or its ``<``)
    cut, an offered tool's name kept, a parameter's opener right after it (xalgorix's regression from a MiniMax-M3
    run: ``terminal_execute>⏎<parameter=command>…</parameter>⏎</function>``)."""

    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return rf"{prefix}(?:function[ \t]{{0,4}}=[ \t]{{0,4}})?(?P<name>{names})[ \t]{{0,4}}>{_ANY_PARAMETER}"

    return build


def _open_cut(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    if ctx.in_fence:
        return GivenBack(ctx)
    keep_line_break(ctx)  # the line break before the cut opener stays text
    return _DriftBody(ctx, block, match.group("name"), match.re)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    if ctx.in_fence:  # damage quoted in a document (a build log showing the shape): a drifting model fences nothing
        return GivenBack(ctx)
    if match.group("json") is not None:  # `<name>NAME, "arguments": {…}}`: the arguments object follows
        block.name = match.group("name")
        return JsonBody(ctx, block, then=lambda: _SurplusBrace(ctx, block))
    # A name tag left empty (``<tool_name>`` right before the parameters): the tool is the one offered tool the
    # arguments fit, decided once they are read (`shim.parsing.stream`'s `end_call`, `ToolIndex.taking`).
    name = "" if match.group("nameless") is not None else match.group("name")
    return _DriftBody(ctx, block, name, match.re)


ROWS = [
    # `NAME>` where the message or a line begins, the opener's `<function=` cut, a parameter's opener after it.
    *message_and_line_rows(
        "qwen_xml_cut_opener", _cut_opener, reader=_open_cut, open="name", first=NAME_START, indent=r"[ \t]{0,8}"
    ),
    Dialect("qwen_xml_drift", "<", None, kind="untagged", first="<{", reader=_open, open_for_tools=_opener),
    # The same right inside <tool_call> or <tool_calls> (``<tool_call>\n<name>\nBash\n</parameter>\n<parameter=…``),
    # before the call tag's own readers take ``<name>`` for an element form.
    Dialect(
        "qwen_xml_drift_inside",
        "<",
        None,
        start="inside",
        inside=("tool_call", "tool_calls"),
        first="<{",
        reader=_open,
        open_for_tools=_opener,
    ),
]
