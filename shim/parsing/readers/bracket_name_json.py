"""An offered tool's name and its arguments object as a bracketed pair: ``[NAME, {…}]``.

    [mcp_perplexity_ask, {"messages":[{"role":"user","content":"What is 2+2?"}]}]

A tool call written as a two-item list, the name first (unquoted, as a model copies a prompt's ``[tool_name,
{json}]`` notation, or quoted as JSON would have it) and the arguments object second; personal_agent's
``parse_text_tool_calls`` keeps it as its fallback strategy. Leniencies: the name with or without double quotes;
up to two stray ``}`` between the object and the ``]`` (a model closing one brace too many, the same parser's
"trailing noise" test).

The evidence is strict: the pair opens the message or a line, the name is an offered tool's followed by a comma and
a ``{``, the object is JSON and reads as that tool's arguments (the shape rules every untagged call goes through,
`shim.parsing.readers.untagged.calls_of`), the ``]`` closes the pair and only blanks follow it on its line. Anything
else (a pair inside a sentence, a name no tool has, prose after the ``]``, an object that does not close) is text
again, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import Block, Context, keep_line_break, message_and_line_rows
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"[ \t\r\n]{0,8}(?:\}[ \t]{0,4}){0,2}\][ \t]*(?=\r?\n|\Z)")
"""The pair's ``]`` (after at most two stray ``}``), the last thing on its line."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonCall:
    """The arguments object, held until the pair's ``]`` and the line's end decide it."""
    del block
    keep_line_break(ctx)  # the line break before the pair stays text
    name = match.group("name")
    return JsonCall(ctx, JsonCandidate(ctx), [(_CLOSE, True)], as_call=call_of(name))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return rf'{prefix}\[[ \t]{{0,4}}(?P<q>"?)(?P<name>{names})(?P=q)[ \t]{{0,4}},[ \t\r\n]{{0,8}}(?=\{{)'

    return build


ROWS = message_and_line_rows("bracket_name_json", _opener, reader=_open, open=r"\[", first="[")
"""``[NAME, {…}]`` opening the message or a line, NAME an offered tool."""
