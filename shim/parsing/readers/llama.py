"""Llama 3.1 built-in tool syntax: ``<|python_tag|>`` then a JSON call, or a built-in tool's pythonic call
(``brave_search.call(query="…")``, ``wolfram_alpha.call(…)``), until the end-of-message token.

(Llama 3.1's custom-tool form ``<function=NAME>{…}</function>`` shares its opener with Qwen3-Coder's XML and
is read by `shim.parsing.readers.qwen_xml`.) A built-in's name resolves to the offered tool (``wolfram_alpha``
for ``wolfram_alpha.call``) by the shape rules.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.pycall import CALL_OPEN, PyCall
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS"]


class PythonTagStart(TaggedStart):
    """A JSON call as in every tagged family, or ``NAME(k="v")`` / ``NAME.call(k="v")``."""

    def named_body(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        found = CALL_OPEN.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:
            return None
        self.ctx.consume(found.group())
        return found.end(), PyCall(self.ctx, self.block, found.group("name"))


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return PythonTagStart(ctx, block)


ROWS = [Dialect("python_tag", r"<\|python_tag\|>", r"<\|eom_id\|>|<\|eot_id\|>", body="json", reader=_open)]
