"""Bracket commands inside spoken text: an offered tool's name and its one string argument's words in square brackets.

    Sure [look left] Let me check
    [web_search latest AI news]

Voice assistants that stream a reply to speech while the model acts (jetson-assistant's robot: ``[nod yes]``,
``[express curious]``) ask for this: the command is cut out of the spoken text and run. The evidence:

- the tool is offered and takes one string (its only parameter, or its only required one), named exactly as
  offered (case too: ``[Look here]`` starts a sentence), right after the ``[``;
- one or more blanks, then the argument's words, on one line, up to the first ``]``;
- the ``]`` is not followed by ``(`` or ``[`` (a Markdown link ``[look left](url)``, a reference ``[look left][1]``).

Anything else in brackets is text, unchanged, with no error: ``[citation needed]``, ``[1]``, a checkbox ``[x]``,
``[look here]`` when ``look`` is not offered, a name with no argument (``[look]``). A code fence or inline code keeps
the form text (`shim.parsing.readers.code_fence`, `shim.parsing.readers.prose`).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.bracket_action import takes_one_string
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS", "BracketCommand"]

_MAX = 1000
"""The longest argument read (a spoken command is short): a ``[`` left open in prose is not held for long."""


class BracketCommand:
    """The words up to ``]`` on the same line, decided once the character after the ``]`` is seen."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = pos
        limit = min(len(text), pos + _MAX)
        while end < limit and text[end] not in "]\r\n[":
            end += 1
        if end >= len(text) and not final and end - pos < _MAX:
            return pos, MORE
        if end >= len(text) or text[end] != "]" or not text[pos:end].strip():
            self.ctx.revert()
            return pos, None
        if end + 1 >= len(text) and not final:
            return pos, MORE  # a `(` or `[` after the `]` would make it a link
        if end + 1 < len(text) and text[end + 1] in "([":
            self.ctx.revert()
            return pos, None
        arguments = one_parameter(self.ctx.tools, self.name, text[pos:end].strip())
        if not arguments:
            self.ctx.revert()
            return pos, None
        self.ctx.consume(text[pos : end + 1])
        self.ctx.end_call(self.name, arguments, streamed=False)
        return end + 1, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> BracketCommand:
    del block
    return BracketCommand(ctx, match.group("name"))


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(ToolIndex([s for n, s in tools.specs.items() if takes_one_string(tools, n)]))
    # the name in its exact case right after the bracket, then blanks and a word's first character
    return None if names is None else rf"\[(?-i:(?P<name>{names}))[ \t]{{1,4}}(?=[^\s\]\[])"


ROWS = [Dialect("bracket_command", r"\[", None, kind="untagged", first="[", reader=_open, open_for_tools=_opener)]
"""``[NAME words]`` anywhere in the message, for an offered tool of one string parameter."""
