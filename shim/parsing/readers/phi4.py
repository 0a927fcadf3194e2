"""Phi-4-mini: ``functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, …]``.

``functools`` is a plain word (Python's module), so the list counts only with offered tools, when every item
has a call's shape and names one of them (`shim.parsing.readers.untagged`); anything else stays text.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.untagged import UntaggedJson

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    return UntaggedJson(ctx, block)


ROWS = [Dialect("phi4_functools", r"functools[ \t]{0,4}(?=\[)", None, kind="untagged", reader=_open)]
