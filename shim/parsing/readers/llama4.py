"""Llama 4: ``<|python_start|>[get_weather(location='Tokyo')]<|python_end|>``.

A pythonic call list (or JSON) between special tokens, read by `shim.parsing.readers.pycall`.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.pycall import PyStart, inner_row

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    return PyStart(ctx, block)


ROWS = [
    Dialect("llama4_python", r"<\|python_start\|>", r"<\|python_end\|>", reader=_open),
    inner_row("llama4_call", ("llama4_python",)),
]
