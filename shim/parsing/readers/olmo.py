"""OLMo 3: ``<function_calls>get_weather(location="NYC")</function_calls>``, one call per line.

Python-style calls with JSON literals (``true``, ``null``) inside the same wrapper Claude-style XML uses; the
wrapper is a plain word, so a call there counts only when it names an offered tool (`known_only`).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.pycall import inner_row
from shim.parsing.readers.tagged_json import TaggedStart, tag

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


ROWS = [
    # The wrapper (shared with Claude-style <invoke> XML: one row of that name in the table is enough).
    Dialect("function_calls", *tag("function_calls"), reader=_open),
    inner_row("olmo_call", ("function_calls",), known_only=True),
]
