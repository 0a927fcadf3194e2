"""A call wrapper's word in square brackets right before a tagged call: the wrapper's markup, as its tag would be.

    [tool_call]
    <invoke name="run_command">
    <parameter name="command">ls -la</parameter>
    </invoke>

(MiniMax-M1 in LucidMind's ``brain.log``: the ``<minimax:tool_call>`` wrapper written as a bracketed ``[tool_call]``
line, the MiniMax M2.x bracket's spelling, before the invoke.) Where a tagged call of any family follows the label
(blank lines aside), the label and its closer after the call (``[/tool_call]``, or none) are the call's markup, as
``<tool_call>``/``</tool_call>`` around an invoke are; anything else after it leaves the label text (MiniMax's own
``[TOOL_CALL]{tool => …}`` body is `shim.parsing.readers.minimax_bracket`'s). Leniencies: the word in any case,
``tool`` or ``function`` then ``call``, ``calls`` or ``use``, joined by ``_``, a blank or nothing, with a namespace
(``[minimax:tool_call]``); blanks inside the brackets.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, Next, Reader
from shim.parsing.readers.untagged import tagged_inside
from shim.parsing.tags import compile_marker

__all__ = ["ROWS"]

_WORD = r"(?:[A-Za-z_]{1,16}:)?(?:tool|function)[ _]?(?:calls?|use)"
_OPEN = rf"\[[ \t]{{0,2}}{_WORD}[ \t]{{0,2}}\][ \t]{{0,8}}(?:\r?\n[ \t]{{0,8}}){{0,3}}(?=<)"
_CLOSE = compile_marker(rf"\[[ \t]{{0,2}}/[ \t]{{0,2}}{_WORD}[ \t]{{0,2}}\]")


class _AfterLabel:
    """Right after the label: a tagged call makes the label (and its closer after the call) markup; else text."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return tagged_inside(self.ctx, text, pos, final, outer=_CLOSE)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block, match
    return _AfterLabel(ctx)


ROWS = [Dialect("bracket_wrapper", _OPEN, None, kind="untagged", first="[", reader=_open)]
