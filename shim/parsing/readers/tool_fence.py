"""Tool fences, as Continue's system-message tools ask for: a ```` ```tool ```` fence naming the tool and its
arguments line by line.

    ```tool
    TOOL_NAME: read_file
    BEGIN_ARG: filepath
    src/main.py
    END_ARG
    ```

Continue also reads the form with its fence left out ("poor models are really bad at following
instructions"): a line that begins ``TOOL_NAME: NAME`` for an offered tool opens the same call, ended by the
last ``END_ARG`` (or the end of the output). Like every untagged form it counts only where the message or a
line begins, only for an offered tool, and not after a passage that presents an example.

No reader of its own: the form is data, a `shim.parsing.call_syntax.CallSyntax` read by the template-derived
reader (`shim.parsing.readers.derived`) like any syntax a chat template spells, so it has the same leniencies
(whitespace, a missing ``END_ARG`` or closing fence) and values typed by the tool's schema.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from shim.parsing.call_syntax import CallSyntax
from shim.parsing.readers.base import Dialect
from shim.parsing.readers.derived import opener_reader, rows
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "SYNTAX"]

SYNTAX = CallSyntax(
    name_at="markup",
    arguments="params",
    block_open="```tool\nTOOL_NAME:",
    name_close="\n",
    param_open="BEGIN_ARG:",
    param_key_close="\n",
    param_close="END_ARG",
    block_close="```",
)
UNFENCED = dataclasses.replace(SYNTAX, block_open="TOOL_NAME:", block_close="")
"""The same call with its fence left out: it ends with its last parameter."""

_open_unfenced = opener_reader(UNFENCED)


def _unfenced(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return None if names is None else rf"{prefix}TOOL_NAME:(?=[ \t]*(?:{names})[ \t]*\r?\n)"

    return build


ROWS = [
    *rows(SYNTAX, "tool_fence"),
    Dialect(
        "tool_name_line",
        "TOOL_NAME:",
        None,
        kind="untagged",
        start="message",
        first="Tt",
        reader=_open_unfenced,
        open_for_tools=_unfenced(""),
    ),
    Dialect(
        "tool_name_line_after",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open_unfenced,
        open_for_tools=_unfenced(r"\n[ \t]{0,8}"),
    ),
]
