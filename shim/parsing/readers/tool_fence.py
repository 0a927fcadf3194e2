"""Tool fences, as Continue's system-message tools ask for: a ```` ```tool ```` fence naming the tool and its
arguments line by line.

    ```tool
    TOOL_NAME: read_file
    BEGIN_ARG: filepath
    src/main.py
    END_ARG
    ```

No reader of its own: the form is data, a `shim.parsing.call_syntax.CallSyntax` read by the template-derived
reader (`shim.parsing.readers.derived`) like any syntax a chat template spells, so it has the same leniencies
(whitespace, a missing ``END_ARG`` or closing fence) and values typed by the tool's schema.
"""

from __future__ import annotations

from shim.parsing.call_syntax import CallSyntax
from shim.parsing.readers.derived import rows

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
ROWS = rows(SYNTAX, "tool_fence")
