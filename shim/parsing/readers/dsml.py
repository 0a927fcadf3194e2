# ruff: noqa: RUF001, RUF002, RUF003  (the full-width bars are DeepSeek's real tokens)
"""DeepSeek V3.2 / V4 "DSML" markup: XML-style calls whose every tag carries the ``｜DSML｜`` namespace.

GigaChat 3.5 writes the same markup under its own namespace (``<｜GCML｜tool_calls><｜GCML｜invoke name=…>``): any
namespace of two to eight capitals between the bars is read alike (a family copying the DeepSeek template with
its own name is the next one); the ``invoke name=`` / ``parameter name=`` shape is the evidence, not the word.

    <｜DSML｜function_calls>            (V4: <｜DSML｜tool_calls>; V4.1: <｜DSML｜ calls>)
    <｜DSML｜invoke name="get_time">
    <｜DSML｜parameter name="city" string="true">Tokyo</｜DSML｜parameter>
    </｜DSML｜invoke>
    </｜DSML｜function_calls>

Leniencies: ASCII ``|`` for the full-width bars; the ``string`` attribute left out; a value in
``<![CDATA[…]]>`` (`shim.parsing.xml_values`); a wrapper or an invoke
whose end tag is missing; an invoke holding its arguments as one JSON object (``<｜DSML｜invoke name="f">{…}``);
a closer's slash written after the first bar (``<｜/DSML｜invoke>``) or left out with that bar doubled
(``<｜｜DSML｜invoke>``); the bars doubled on both sides of the namespace on every tag (``<｜｜DSML｜｜invoke name=…>``,
``</｜｜DSML｜｜invoke>``). DeepSeek's web chat damages the markup further (deepblack-bridge's captured payloads): bars
of either width, one to three each side, blanks among them, a Chinese character glitching into a bar's place
(``<｜该DSML｜｜ parameter …>``: `_NS`); inside an invoke, tags without the namespace (a parameter closed by a plain
``</parameter>``, the XML form's ``<parameter name="content">`` beside DSML ones: a value without the ``string``
attribute loses its layout line breaks, as the XML families read it) and a closer that lost its element's name
(``…value #</｜｜DSML｜｜>``, `_NAMELESS_CLOSE`); parameters right inside the wrapper with their invoke left out, a
call of the one offered tool taking them (`ToolIndex.taking`), else an error naming no tool.
The ``string`` attribute decides a value's type, as the template writes it:
``string="true"`` keeps the text exactly, ``string="false"`` reads it as JSON (text if it is not). Without the
attribute the tool's schema decides: a parameter whose type is not string is typed as every XML value is
(`shim.parsing.xml_values.typed_value`), anything else stays text. Arguments are
sent in one piece when the call ends, after the shape rules (`shim.parsing.shapes.call_arguments`) had their say, so a
call that wrote its whole arguments object as one ``arguments`` parameter streams the unwrapped object.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.json_body import NamedStart
from shim.parsing.readers.tagged_json import TaggedStart, tag
from shim.parsing.readers.tool_xml import ToolXml, tool_name_pattern
from shim.parsing.readers.xml_args import PairForm, XmlPairs
from shim.parsing.shapes import ToolIndex, call_arguments
from shim.parsing.tags import compile_marker
from shim.parsing.xml_values import cdata_content, typed_value, unlaid

__all__ = ["ROWS"]

_BAR = r"(?:｜|\|)"
_WORD = r"[ \t]{0,2}[A-Z][A-Z0-9]{1,7}[ \t]{0,2}"
_NS1 = rf"{_BAR}{_WORD}{_BAR}[ \t]{{0,2}}"
_LEFT = r"(?:(?:｜|\||\p{Han})[ \t]{0,2}){1,3}"
_RIGHT = r"(?:(?:｜|\|)[ \t]{0,2}){1,3}"
_NS = rf"{_LEFT}{_WORD}{_RIGHT}"
"""The namespace between its bars, however DeepSeek's web chat damages them: full-width or ASCII bars, one to three
each side, mixed and with blanks among them (`<｜｜DSML｜｜ invoke name=…>`, Zed #60601; `<|DSML| invoke …>`;
V4.1 puts a blank after them, `<｜DSML｜ invoke name=…>`), and a Chinese character glitching into the markup where a
bar stands before the namespace (`<｜该DSML｜｜ calls>`, `<该DSML｜ invoke …>`: deepblack-bridge's captured payloads).
The bars after the namespace are the evidence, with the `invoke name=` / `parameter name=` shape."""
_NAME = r'"(?P<{group}>[^"\n>]{{1,128}})"'
_STRING = r'(?:[ \t]+string[ \t]*=[ \t]*"(?P<string>true|false)")?'
# A closer's slash: `</|DSML|invoke>`, or written after the first bar (or bars), `<|/DSML|invoke>` (grok2api's sieve
# test), or left out with only the first bar doubled, `<||DSML|invoke>` (glm2api): a tag with no `name=` that only a
# closer can be. (Both bars doubled, `<||DSML||invoke>`, is the doubled namespace, an opener.)
_CLOSE = rf"<(?:/{_NS}|{_BAR}{{1,2}}/{_WORD}{_BAR}{{1,2}}|{_BAR}{_NS1})"
_ELEMENT_CLOSE = rf"(?:<(?:/{_NS}|{_BAR}{{1,2}}/{_WORD}{_BAR}{{1,2}}|{_NS})|</)"
"""Inside an invoke, an element's closer: any spelling of the namespace with or without the slash (only a closer has
no `name=`), or no namespace at all (`<｜DSML｜parameter name="k">v</parameter>`: the web chat's hybrid markup)."""
_NAMELESS_CLOSE = rf"(?:[ \t]+\#)?</{_NS}>"
"""A closer that lost its element's name (`…value #</｜｜DSML｜｜>`): it closes the open parameter. The web chat's
glitch writes a `#` before it, apart from the value by a blank (both incidents deepblack-bridge captured): the
closer's debris, not the value's."""

FORM = PairForm(
    key=regex.compile(
        rf"<(?:{_NS})?parameter[ \t]+name[ \t]*=[ \t]*{_NAME.format(group='key')}{_STRING}[ \t]*>", regex.I
    ),
    value_end=regex.compile(
        rf"(?P<close>{_ELEMENT_CLOSE}parameter[ \t]*>|{_NAMELESS_CLOSE})|<(?:{_NS})?parameter[ \t]"
        rf"|{_ELEMENT_CLOSE}invoke[ \t]*>",
        regex.I,
    ),
    call_end=regex.compile(rf"{_ELEMENT_CLOSE}invoke[ \t]*>", regex.IGNORECASE),
    expected='<｜DSML｜parameter name="KEY" string="true">VALUE</｜DSML｜parameter> or </｜DSML｜invoke>',
)
EXAMPLE = (
    '<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="true">VALUE'
    "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>"
)


class DsmlInvoke(XmlPairs):
    """One ``invoke``: its parameters are gathered, then shaped and sent as one arguments chunk."""

    def _end_pair(self) -> None:
        assert self.key is not None
        raw = "".join(self.value)
        if "string" not in self.attributes:
            # no `string` attribute, which the template always writes: the XML families' element (the web chat's
            # hybrid `<parameter name="content">⏎…⏎</parameter>`), whose line breaks by its tags are layout
            raw = unlaid(raw)
        inner = cdata_content(raw)  # `<![CDATA[…]]>`: XML's literal text, the value is what is inside
        text = raw if inner is None else inner
        value: Any = text
        string = self.attributes.get("string", "").lower()
        # string="false": the model says the value is JSON (a number, a list…); no attribute: the schema says.
        schema_typed = self.ctx.tools.property_type(self.name, self.key) not in (None, "string", "str")
        if string != "true" and schema_typed:
            value = typed_value(self.ctx.tools, self.name, self.key, raw)
        elif string == "false":
            try:
                value = lenient_json.loads(text.strip())
            except lenient_json.LenientJSONError:
                value = text
        self.arguments[self.key] = value
        self.key = None

    def _end_call(self) -> None:
        arguments = call_arguments(self.ctx.tools, self.name, self.arguments)
        self.ctx.chunk(json.dumps(arguments, ensure_ascii=False))
        self.ctx.end_call(self.name, arguments, streamed=True)


def _invoke(ctx: Context, block: Block, match: regex.Match[str]) -> NamedStart:
    # `{` right after the opener: the arguments as one JSON object (as every invoke family may write them)
    name = match.group("name")
    return NamedStart(ctx, block, name, lambda: DsmlInvoke(ctx, block, name, FORM), raw=True)


def _nameless(ctx: Context, block: Block, match: regex.Match[str]) -> DsmlInvoke:
    """A parameter right inside the wrapper, its invoke left out (`<｜该DSML｜｜ calls>⏎<｜该DSML｜｜ parameter
    name="command">…`, deepblack-bridge's captured payloads): a call naming no tool, which the core gives to the one
    offered tool whose schema takes its arguments (`ToolIndex.taking`), or reports as a call naming none."""
    reader = DsmlInvoke(ctx, block, "", FORM)
    reader.key = match.group("key")
    reader.attributes = {k: v for k, v in match.groupdict().items() if k != "key" and v is not None}
    return reader


def _tool_xml(ctx: Context, block: Block, match: regex.Match[str]) -> ToolXml:
    name = match.group("name")
    return ToolXml(ctx, block, name, close=compile_marker(rf"</{_NS}{regex.escape(name)}[ \t]{{0,8}}>"))


def _tool_xml_opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"<{_NS}(?P<name>{names})[ \t]{{0,8}}>"


def _wrapper(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)  # the invokes are declared inside it


_WRAPPER = r"(?:function_calls|tool_calls|calls)"
_WRAPPER_OPEN, _WRAPPER_CLOSE = tag(rf"(?!{_BAR}{_NS1}{_WRAPPER})(?:{_NS}){_WRAPPER}")
"""A wrapper whose first bar alone is doubled (`<||DSML|function_calls>`) is a closer that lost its slash (`_CLOSE`)."""

ROWS = [
    # V4.1 names the wrapper `calls` (`<｜DSML｜ calls>`, with a blank after the bars: Xinference's parser tests).
    Dialect(
        "dsml_calls",
        _WRAPPER_OPEN,
        rf"{_WRAPPER_CLOSE}|{_CLOSE}(?:function_calls|tool_calls|calls)[ \t]*>",
        reader=_wrapper,
        example=EXAMPLE,
    ),
    Dialect(
        "dsml_invoke",
        rf"<{_NS}invoke[ \t]+name[ \t]*=[ \t]*{_NAME.format(group='name')}[ \t]*>",
        rf"{_CLOSE}invoke[ \t]*>",
        inside=("dsml_calls",),
        reader=_invoke,
        example=EXAMPLE,
    ),
    Dialect(
        "dsml_nameless_invoke",
        rf"<{_NS}parameter[ \t]+name[ \t]*=[ \t]*{_NAME.format(group='key')}{_STRING}[ \t]*>",
        None,
        start="inside",
        inside=("dsml_calls",),
        reader=_nameless,
        example=EXAMPLE,
    ),
    # Tool-name XML (`shim.parsing.readers.tool_xml`) with the namespace on the tool's tags: a model asked for
    # Cline's `<TOOL><KEY>V</KEY></TOOL>` that writes `<｜DSML｜TOOL>…</｜DSML｜TOOL>` (pi-free #376). Only for an
    # offered tool, only its declared parameters as children, as the plain form.
    Dialect(
        "dsml_tool_xml",
        "<",
        None,
        kind="untagged",
        first="<",
        reader=_tool_xml,
        open_for_tools=_tool_xml_opener,
    ),
]
