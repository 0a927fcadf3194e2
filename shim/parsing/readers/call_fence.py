"""A code fence whose label names a call, holding Python-style calls: the label is the fence's markup.

    ```tool_call
    get_weather(city="Paris", days=3)
    ```

Gemma's ```` ```tool_code ```` block (`shim.parsing.readers.gemma`) is one of a kind: a model asked for "a fenced
tool call" labels the fence with the words of its prompt (``tool_call``, ``function_calls``, ``tool``, ``call``,
``tool_use``, ``action``…) and writes the call in the spelling it was trained on, Python calls as often as JSON.
JSON in such a fence is `shim.parsing.readers.call_tokens`' ``call_fence`` row's (or `untagged.FENCE`'s);
this row takes the fence only where a Python call follows its label line (``NAME(``, ``[NAME(`` or
``print(NAME(``), read by `shim.parsing.readers.pycall` a call per line. A fence is weak evidence (docs show
code in fences), so every call must name an offered tool: anything else in the fence is text, fence and all. A
language's fence (```` ```python ````) is code, never this row's.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.pycall import PyStart, inner_row, print_row

__all__ = ["LABEL", "ROWS"]

LABEL = r"(?:tool|function|action)s?(?:[_\-]?(?:calls?|use|requests?|invocations?))?|calls?"
"""A fence label that names a call: the words a prompt uses for it (``tool_call``, ``functions``, ``tool-use``)."""

_CALL_AHEAD = r"(?=[ \t]{0,8}\[?[ \t]{0,4}(?:print[ \t]{0,4}\([ \t]{0,4})?[A-Za-z_][\w.\-]{0,127}[ \t]{0,4}\()"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    # The core gives an untagged block no row; this one names its own so its next calls (`inside=`) are read.
    block.dialect = CALL_FENCE
    block.fence = True
    return PyStart(ctx, block, known_only=True)


CALL_FENCE = Dialect(
    "python_call_fence", rf"```[ \t]{{0,2}}(?:{LABEL})[ \t]*\r?\n{_CALL_AHEAD}", r"```", kind="untagged", reader=_open
)
ROWS = [
    CALL_FENCE,
    inner_row("python_call_fence_call", ("python_call_fence",), known_only=True),
    print_row("python_call_fence_print", ("python_call_fence",)),
]
