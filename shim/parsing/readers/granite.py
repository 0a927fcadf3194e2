"""IBM Granite 3: ``<|tool_call|>[{"name": …, "arguments": {…}}, …]`` with no closing marker.

(Granite 3.x/4 also write ``<tool_call> […]`` and ``<tool_call>{…}</tool_call>``: the Hermes row reads those.)
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


ROWS = [Dialect("granite", r"<\|tool_call\|>", None, body="json", reader=_open)]
