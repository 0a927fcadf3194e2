"""Gemma 3: ```` ```tool_code ```` fences holding Python calls, one per line (Google's function-calling guide).

```tool_code
get_product_name_by_PID(PID="807ZPKBL9V")
```

The same calls between ``<tool_code>`` tags are read alike. The block is Python the harness runs, so a call may be
assigned and its result printed (``summary = read_file(filename='notes.txt')`` then ``print(summary)``: the print
is markup); Gemma 4 under load drops the fence and writes the block's word as that variable
(``tool_code = NAME(…)`` then ``print(tool_code)``, vllm-mlx's tests), read at the message's or a line's start.
A code fence is weak evidence (docs show code in fences too), so every call must name an offered tool;
a JSON call list in the fence is read like an untagged ```` ```json ```` block. Calls are read by
`shim.parsing.readers.pycall`.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.pycall import PyStart, inner_row, print_row
from shim.parsing.readers.tagged_json import tag

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    # The core gives an untagged block no row; this one names its own so its next calls (`inside=`) are read.
    block.dialect = TOOL_CODE
    block.fence = True
    return PyStart(ctx, block, known_only=True)


def _open_tag(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    return PyStart(ctx, block, known_only=True)


def _open_assigned(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    block.dialect = TOOL_CODE_ASSIGNED
    return PyStart(ctx, block, known_only=True)


TOOL_CODE = Dialect("tool_code", r"```tool_code[ \t]*\r?\n", r"```", kind="untagged", reader=_open)
_ASSIGNED = r"tool_code[ \t]{0,4}=(?!=)[ \t]{0,4}(?=[A-Za-z_])"
TOOL_CODE_ASSIGNED = Dialect(
    "tool_code_assigned", _ASSIGNED, None, kind="untagged", start="message", first="t", reader=_open_assigned
)
_BLOCKS = ("tool_code", "tool_code_tag", "tool_code_assigned")
ROWS = [
    TOOL_CODE,
    # The same calls between <tool_code> tags, as Gemma 3 writes them when a prompt asks for tags.
    Dialect("tool_code_tag", *tag("tool_code"), reader=_open_tag),
    TOOL_CODE_ASSIGNED,
    Dialect("tool_code_assigned_line", rf"\n{_ASSIGNED}", None, kind="untagged", first="\n", reader=_open_assigned),
    inner_row("tool_code_call", _BLOCKS, known_only=True),
    print_row("tool_code_print", _BLOCKS),
]
