"""A call tag naming its tool in an attribute, its arguments as XML elements (TelegramSearchBot's tool format).

    <tool name="ProcessMemoryCommandAsync">
      <parameters>
        <command>add_observations</command>
        <arguments><![CDATA[{"observations": […]}]]></arguments>
      </parameters>
    </tool>

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
from shim.parsing.readers.xml_elements import XmlElements, elements

__all__ = ["NamedElements", "element_body"]

_ELEMENT = regex.compile(r"<[ \t]{0,4}(?P<tag>[A-Za-z_][\w.\-]{0,63})[ \t]{0,4}>")
"""A child element with no attributes (``<parameters>``, ``<city>``); ``<parameter name="K">`` is the pairs form."""


class NamedElements(XmlElements):
    """The element body of a call whose tool the opener named."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        super().__init__(ctx, block)
        self.name = name
        self.parse = self._named

    def _named(self, body: str) -> Any:
        value = elements(body, None, self.declared)
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
