"""A call tag naming its tool in an attribute, its arguments as XML elements (TelegramSearchBot's tool format).

    <tool name="ProcessMemoryCommandAsync">
      <parameters>
        <command>add_observations</command>
        <arguments><![CDATA[{"observations": […]}]]></arguments>
      </parameters>
    </tool>

A tag of any other name naming an offered tool (``<minerva_tool name="Read"><path>a.py</path></minerva_tool>``,
MinervaCode's harness prompt) holds the same elements, each one a parameter the tool declares, right under it
(`declared_elements`): the attribute alone is weak evidence, so the children must be the tool's own.

The opener is the named-tag row's (`shim.parsing.readers.minimax`: ``<tool name="NAME">``, ``<tool_call
name="NAME">``, which also read a JSON body or ``<parameter name="K">`` pairs); this body is the third form: child
elements, under an arguments element (``<parameters>``, ``<arguments>``, ``<args>``…) or right under the tag. They
are read as the element bodies of `shim.parsing.readers.xml_elements` are (CDATA kept as written, text leaves
typed by the schema), the tool named by the opener. Only for an offered tool: otherwise the block is text.
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing.json_scan import ARG_KEYS
from shim.parsing.readers.base import MORE, Block, Context, Next
from shim.parsing.readers.xml_elements import XmlElements, arguments_schema, elements
from shim.parsing.shapes import ToolIndex

__all__ = ["NamedElements", "declared_elements", "declared_keys", "element_body"]

_ARG_ATTRS = r"""(?:[ \t]{1,4}[\w\-]{1,32}[ \t]{0,4}=[ \t]{0,4}(?:"[^"<>\n]{0,64}"|'[^'<>\n]{0,64}')){1,4}"""
_ELEMENT = regex.compile(
    rf"<[ \t]{{0,4}}(?:(?P<tag>[A-Za-z_][\w.\-]{{0,63}})|(?P<tag>{'|'.join(ARG_KEYS)}){_ARG_ATTRS})[ \t]{{0,4}}>",
    regex.IGNORECASE,
)
"""A child element with no attributes (``<parameters>``, ``<city>``), or an arguments element with some
(``<args data-n="1">``: its attributes are markup); ``<parameter name="K">`` is the pairs form."""


class NamedElements(XmlElements):
    """The element body of a call whose tool the opener named."""

    def __init__(self, ctx: Context, block: Block, name: str, closer: regex.Pattern[str] | None = None) -> None:
        super().__init__(ctx, block, closer=closer)
        self.name = name
        self.parse = self._named

    def _named(self, body: str) -> Any:
        value = elements(body, arguments_schema(self.ctx.tools, self.name), self.declared)
        if not isinstance(value, dict):
            return {"name": self.name, "arguments": {}} if not str(value).strip() else value
        found = cast("dict[str, Any]", value)
        declared = self.ctx.tools.properties(self.ctx.tools.resolve(self.name)) or {}
        wrapper = [k for k in found if k in ARG_KEYS and k not in declared]
        if len(found) == 1 and wrapper:  # `<parameters>…</parameters>`: the arguments' own element
            return {"name": self.name, **found}
        return {"name": self.name, "arguments": found}


def element_body(ctx: Context, block: Block, name: str, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """At ``pos``, right after a named tag's opener: a child element opens its element body (None: not one)."""
    found = _ELEMENT.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial:
        return pos, MORE
    return pos, NamedElements(ctx, block, name)


def declared_keys(tools: ToolIndex) -> str | None:
    """A pattern of every parameter name the offered tools declare (what `declared_elements` may open on)."""
    keys = {key for name in tools.specs for key in tools.parameter_names(name) if _KEY.fullmatch(key)}
    return "|".join(regex.escape(k) for k in sorted(keys, key=len, reverse=True)) or None


_KEY = regex.compile(r"[A-Za-z_][\w.\-]{0,63}")


class _DeclaredElements(NamedElements):
    """`NamedElements` under a tag of any name, up to that tag's own closer: a call only where every child element
    is a parameter the named tool declares (no wrapper element)."""

    def _end(self, closer: str = "") -> bool:
        value = elements("".join(self.body), arguments_schema(self.ctx.tools, self.name), {})
        declared = self.ctx.tools.properties(self.ctx.tools.resolve(self.name)) or {}
        if not isinstance(value, dict) or not value or not set(cast("dict[str, Any]", value)) <= set(declared):
            return False
        return super()._end(closer)


def declared_elements(ctx: Context, block: Block, name: str, closer: regex.Pattern[str]) -> NamedElements:
    """The element body of a tag of any name whose attribute names the offered tool ``name``, up to ``closer``."""
    return _DeclaredElements(ctx, block, name, closer)
