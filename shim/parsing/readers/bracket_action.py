"""Bracket actions, as the ReAct paper's prompts ask for: an offered tool's name, then its one argument in square
brackets.

    I should search for Paramore, and see if it is from Tennessee.
    Action 1: Search[Paramore]

The ReAct paper's HotpotQA and FEVER prompts name their actions ``Search[entity]``, ``Lookup[keyword]`` and
``Finish[answer]``, under an ``Action:`` label (numbered: ``Action 3:``); WebShop's ``search[query]`` and
``click[target]`` are written the same way, often as the whole reply (the harness put ``Action:`` in the prompt).

Plain words, so the evidence is strict: the name must be an offered tool that takes one string (its only
parameter, or its only required one: the bracket's content is its value; or none, with empty brackets), glued to
its ``[`` (a JSON object of the tool's own parameters there is its arguments: `shapes.one_parameter`); the form counts
after an ``Action:`` label opening the message or a line (blank lines may stand between the label and the name),
or with no label only where the message begins. The content runs on one line to the matching ``]`` (brackets
inside it nest), and nothing but blanks may follow that ``]`` on its line: ``search[here](https://…)`` is a
Markdown link, text. A line break inside the brackets makes the whole text again; the output ending inside them
is a call cut off (its text is the call's markup, and the model is told it was not run). A code fence, or a
passage presenting an example, keeps the form text (`shim.parsing.readers.prose`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing.readers.base import MORE, NAME_START, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS", "BracketArgument", "takes_nothing", "takes_one_string"]

_LABEL = r"Action(?:[ \t]{1,4}\d{1,3})?[ \t]{0,8}:[ \t]{0,8}(?:\r?\n[ \t]{0,8}){0,3}"
"""``Action:`` or ``Action 3:``, then the name on the same line or below it (a blank line between, FEVER's
text-davinci-002 once)."""


class BracketArgument:
    """The bracket's content up to its matching ``]``; decided when the rest of that line is seen blank."""

    def __init__(self, ctx: Context, tool: str) -> None:
        self.ctx = ctx
        self.tool = tool
        self.body: list[str] = []
        self.depth = 0
        self.closed = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.closed:
            return self._after(text, pos, final)
        i = pos
        while i < len(text):
            char = text[i]
            if char == "[":
                self.depth += 1
            elif char == "]":
                if self.depth == 0:
                    self.ctx.consume(text[pos : i + 1])
                    self.body.append(text[pos:i])
                    self.closed = True
                    return self._after(text, i + 1, final)
                self.depth -= 1
            elif char in "\r\n":  # one line only: a bracket left open is prose
                self.ctx.consume(text[pos:i])
                self.ctx.revert()
                return i, None
            i += 1
        self.ctx.consume(text[pos:])
        self.body.append(text[pos:])
        if final:
            self.ctx.fail_call(CUT_OFF)
            return len(text), None
        return len(text), self

    def _after(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = pos
        while end < len(text) and text[end] in " \t":
            end += 1
        if end >= len(text) and not final:
            return pos, MORE
        if end < len(text) and text[end] not in "\r\n":
            self.ctx.revert()  # more on the line: `search[here](…)`, a link; `[x] and [y]`, prose
            return pos, None
        self._decide()
        return pos, None

    def _decide(self) -> None:
        value = "".join(self.body).strip()
        arguments = one_parameter(self.ctx.tools, self.tool, value)
        if arguments is None or (value == "" and arguments):
            self.ctx.revert()
        else:
            self.ctx.end_call(self.ctx.tools.resolve(self.tool), arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if self.closed:
            self._decide()
        else:
            self.ctx.fail_call(CUT_OFF)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> BracketArgument:
    del block
    keep_line_break(ctx)  # the line break before the label stays text
    return BracketArgument(ctx, match.group("name"))


def takes_one_string(tools: ToolIndex, name: str) -> bool:
    arguments = one_parameter(tools, name, "x")
    if arguments is None:
        return False
    (key,) = arguments
    props: Any = tools.specs[name].input_schema.get("properties") or {}
    schema: Any = cast(dict[str, Any], props).get(key) if isinstance(props, dict) else None
    return not isinstance(schema, dict) or cast(dict[str, Any], schema).get("type", "string") == "string"


def takes_nothing(schema: dict[str, Any]) -> bool:
    """A tool of no parameters: called with empty brackets (``finish[]``)."""
    return not schema.get("properties") and not schema.get("required")


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        fits = [s for n, s in tools.specs.items() if takes_one_string(tools, n) or takes_nothing(s.input_schema)]
        names = tool_name_pattern(ToolIndex(fits))
        return None if names is None else rf"{prefix}(?P<name>{names})\[(?!ARGS\]|CALL_ID\])"

    return build


ROWS = [
    Dialect(
        "bracket_action",
        "Action",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open,
        open_for_tools=_opener(rf"(?:{_LABEL})?"),
    ),
    Dialect(
        "bracket_action_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        open_for_tools=_opener(rf"\n[ \t]{{0,8}}{_LABEL}"),
    ),
]
"""``Action: NAME[VALUE]`` opening the message or a line; ``NAME[VALUE]`` alone opening the message."""
