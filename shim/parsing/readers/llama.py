"""Llama 3.1 built-in tool syntax: ``<|python_tag|>{…}`` until the end-of-message token.

(Llama 3.1's custom-tool form ``<function=NAME>{…}</function>`` shares its opener with Qwen3-Coder's XML and
is read by `shim.parsing.readers.qwen_xml`.)
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


ROWS = [Dialect("python_tag", r"<\|python_tag\|>", r"<\|eom_id\|>|<\|eot_id\|>", body="json", reader=_open)]
