"""A tool message announced on its own line: ``TOOL: NAME``, then the call as a JSON object (langroid's LLM messages).

    TOOL: run_alloy_analyzer
    {
        "request": "run_alloy_analyzer",
        "recipient": "",
        "specification": "sig List {…}"
    }

langroid asks a model for a JSON tool message whose ``request`` key names the tool, its arguments flat beside it;
the shape rules read that object (`shim.parsing.shapes`: ``request`` names an offered tool, langroid's own
``recipient`` and ``purpose`` fields are no arguments). The line before it is the tool's label: markup with the call.
The object may also hold only the arguments (``TOOL: get_weather\\n{"city": "Paris"}``): the line names the tool.

Evidence: the name on the line is an offered tool's, the line opens the message or a line, and a ``{`` opens the
next line. ``TOOL: rm`` of no offered tool, or with no object after it, is text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from shim.parsing.json_scan import NAME_KEYS
from shim.parsing.readers.base import Block, Context, Dialect, keep_line_break
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]


class _LabelledBody(JsonBody):
    """The JSON object after the label: a whole call (``request`` names the tool), or only the arguments of the
    labelled tool when it names none."""

    def __init__(self, ctx: Context, block: Block, label: str) -> None:
        super().__init__(ctx, block)
        self.label = label

    def _tool_taking(self, value: Any) -> str | None:
        if isinstance(value, dict) and not any(key in value for key in (*NAME_KEYS, "request")):
            return self.label
        return None


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    if match.group().startswith(("\r", "\n")):
        keep_line_break(ctx, "\r\n")  # the line break before the label stays text
    return _LabelledBody(ctx, block, ctx.tools.resolve(match.group("name")))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return rf"{prefix}TOOL[ \t]{{0,4}}:[ \t]{{0,4}}(?P<name>{names})[ \t]{{0,8}}\r?\n[ \t\r\n]{{0,8}}(?=\{{)"

    return build


ROWS = [
    Dialect(
        "request_key",
        "TOOL",
        None,
        kind="untagged",
        start="message",
        first="T",
        reader=_open,
        open_for_tools=_opener(""),
    ),
    Dialect(
        "request_key_after",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        open_for_tools=_opener(r"\n"),
    ),
]
