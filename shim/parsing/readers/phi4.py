"""Phi-4-mini: ``functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, …]`` (or one call object with no
list around it, ``functools{…}``).

``functools`` is a plain word (Python's module), so the list counts only with offered tools, when every item
has a call's shape and names one of them (`shim.parsing.readers.untagged`); anything else stays text. It is
looked for where the model writes it, at the start of the message or of a line (the line break before it is
then the call's markup): stopping at every ``f`` of prose would slow the text scanner threefold.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.untagged import UntaggedJson

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    return UntaggedJson(ctx, block)


_OPEN = r"functools[ \t]{0,4}(?=[\[{])"

ROWS = [
    Dialect("phi4_functools", _OPEN, None, kind="untagged", start="message", reader=_open),
    Dialect("phi4_functools_line", r"\r?\n[ \t]{0,8}" + _OPEN, None, kind="untagged", first="\r\n", reader=_open),
]
