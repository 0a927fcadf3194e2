"""A call element written with an XML namespace prefix the tag itself declares: the prefix is the namespace's, not
the call's.

    <qwen:tool_call xmlns:qwen="http://qwen.ai/schema">
      <qwen:tool_name>k8s.annotate</qwen:tool_name>
      <qwen:tool_arguments>{"namespace": "ai-apps"}</qwen:tool_arguments>
    </qwen:tool_call>

    <tool:call xmlns:tool="urn:tool" name="k8s.scale"><tool:args><replicas>1</replicas></tool:args></tool:call>

An XML reader (vllm-chill's Go proxy in front of vLLM reads the model's XML with one) sees the local names: the tag
``tool_call``, the elements ``tool_name``, ``args``. The general form: a call tag (its name holds ``tool``, ``call``,
``function`` or ``invoke``) written ``<P:TAG …>`` with an ``xmlns:P`` attribute on it, closed by ``</P:TAG>``; the
body, each ``P:`` taken off its tags, is read as the elements of a call (`shim.parsing.readers.xml_elements`: name
and arguments elements, the arguments as JSON text or one element each), the tool named by an element or by the tag's
``name`` (``tool``, ``tool_name``, ``function``) attribute. A body that names no offered tool, a tag without the
declaration (``<ns:tool_call>``: some family's own prefix) stays text; one the output ends in (its closer left out or
misspelt) is read as it stands, as the elements' family reads an unclosed block.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, GivenBack, Reader
from shim.parsing.readers.xml_elements import XmlElements
from shim.parsing.xml_values import attributes

__all__ = ["ROWS"]

_WS = r"[ \t\r\n]"
_VALUE = r"""(?:"[^"<>]{0,1024}"|'[^'<>]{0,1024}')"""
_PAIR = rf"[A-Za-z_][\w:.\-]{{0,63}}{_WS}{{0,4}}={_WS}{{0,4}}{_VALUE}"
_OPEN = (
    r"<(?P<ns>[A-Za-z_][\w.\-]{0,31}):(?P<tag>(?=[\w.\-]{0,40}?(?i:tool|call|function|invoke))[A-Za-z_][\w.\-]{0,63})"
    rf"(?P<attrs>(?:{_WS}{{1,8}}{_PAIR}){{0,15}}?{_WS}{{1,8}}xmlns:[A-Za-z_][\w.\-]{{0,31}}{_WS}{{0,4}}={_WS}{{0,4}}{_VALUE}"
    rf"(?:{_WS}{{1,8}}{_PAIR}){{0,15}}){_WS}{{0,8}}>"
)
_NAME_KEYS = ("name", "tool", "tool_name", "function")


class _Namespaced(XmlElements):
    """The body up to ``</P:TAG>``, read as a call's elements with the prefix taken off (and the opener's name
    attribute as the name element)."""

    def __init__(self, ctx: Context, block: Block, ns: str, tag: str, name: str | None) -> None:
        closer = regex.compile(rf"<{_WS}{{0,4}}/{_WS}{{0,4}}{regex.escape(ns)}:{regex.escape(tag)}{_WS}{{0,4}}>")
        super().__init__(ctx, block, closer=closer)
        self.prefix = regex.compile(rf"<({_WS}{{0,4}}/)?{_WS}{{0,4}}{regex.escape(ns)}:")
        self.name = name

    def _end(self, closer: str = "") -> bool:
        del closer
        written = "".join(self.body)
        body = self.prefix.sub(lambda m: "<" + (m.group(1) or ""), written)
        if self.name is not None:
            body = f"<name>{self.name}</name>{body}"
        self.body = [body]
        try:
            return super()._end()
        finally:
            self.body = [written]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    name: str | None = None
    declared = False
    for key, written in attributes(match.group("attrs")):
        declared = declared or key == f"xmlns:{match.group('ns')}"
        if key.casefold() in _NAME_KEYS:
            value = written.strip()
            name = value if value and not regex.search(r"[<>&]", value) else None
    if not declared:  # the pattern holds no backreference (the table's unions make its groups anonymous)
        return GivenBack(ctx)  # a prefix other than the one the tag declares: no namespace's, the opener is text
    return _Namespaced(ctx, block, match.group("ns"), match.group("tag"), name)


ROWS = [
    # <qwen:tool_call xmlns:qwen="…"><qwen:tool_name>NAME</qwen:tool_name>…: before the rows that would read the
    # prefixed tag as another family's (`<tool: bash>`, a tag of no family around a call)
    Dialect(
        "xmlns_call",
        _OPEN,
        None,
        first="<",
        reader=_open,
        example='<ns:tool_call xmlns:ns="URI"><ns:name>NAME</ns:name><ns:arguments>{…}</ns:arguments></ns:tool_call>',
    ),
]
"""A call tag with a namespace prefix it declares: the elements read without the prefix."""
