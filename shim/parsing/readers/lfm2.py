"""LFM2 (Liquid): ``<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>``.

A pythonic call list between special tokens (read by `shim.parsing.readers.pycall`); a JSON list there is
read too. With the tokens stripped by the engine, the bare list is the untagged pythonic form.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.pycall import PyStart, inner_row

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    return PyStart(ctx, block)


ROWS = [
    Dialect("lfm2", r"<\|tool_call_start\|>", r"<\|tool_call_end\|>", reader=_open),
    inner_row("lfm2_call", ("lfm2",)),
]
