"""DSPy ReAct's output fields: the tool's name and its JSON arguments, each under its ``[[ ## FIELD ## ]]`` header.

    [[ ## next_thought ## ]]
    I need to fetch flight information for the route from SFO to JFK.

    [[ ## next_tool_name ## ]]
    fetch_flight_info

    [[ ## next_tool_args ## ]]
    {"origin": "SFO", "destination": "JFK"}

    [[ ## completed ## ]]

DSPy's ChatAdapter asks for each output field under a ``[[ ## NAME ## ]]`` header; ``dspy.ReAct`` asks for
``next_thought``, ``next_tool_name`` (a Literal of the tools' names, ``finish`` among them) and
``next_tool_args`` (a JSON object). The two headers, the name and the object are the call's markup; the thought
and the ``completed`` header stay as the message's text, as the ``[[ ## tool_calls ## ]]`` field's neighbours do
(`shim.parsing.readers.labelled`).

The evidence is the pair: the name header (``next_tool_name`` or ``tool_name``), then on its own line an offered
tool's name (quotes around it allowed), then, blank lines aside, the arguments header (``next_tool_args`` or
``tool_args``) and a JSON object. Anything else, or an object that is not JSON even leniently, is text again.
"""

from __future__ import annotations

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCandidate
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "FieldArguments"]


def _header(field: str) -> str:
    return rf"\[\[[ \t]{{0,4}}##[ \t]{{0,4}}(?:next_)?{field}[ \t]{{0,4}}##[ \t]{{0,4}}\]\]"


_GAP = r"[ \t]{0,8}\r?\n(?:[ \t]{0,8}\r?\n){0,3}[ \t]{0,8}"
"""The end of a line, then blank lines, then the next field's start."""


class FieldArguments:
    """The ``next_tool_args`` object: the named tool's arguments, decided when it is whole."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = ctx.tools.resolve(name)
        self.json = JsonCandidate(ctx)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        new, status = self.json.scan(text, pos, final)
        if status is Status.MORE:
            return new, MORE  # a token split at the chunk's end is carried over
        if status is Status.DONE:
            self._decide()
        return new, None  # not JSON: already reverted

    def _decide(self) -> None:
        value = lenient_json.loads_object(self.json.text())
        if value is not None:
            self.ctx.end_call(self.name, value, streamed=False)
        else:
            self.ctx.revert()

    def finish(self, truncated: bool) -> None:
        scanner = self.json.scanner
        if not truncated and scanner.completable():
            self.json.body.append(scanner.closers())
            self._decide()
        else:
            self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> FieldArguments:
    del block
    return FieldArguments(ctx, match.group("name"))


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    name = rf"(?P<q>[\"'`]?)(?P<name>{names})(?P=q)"
    return rf"{_header('tool_name')}{_GAP}{name}{_GAP}{_header('tool_args')}{_GAP}(?=\{{)"


ROWS = [Dialect("dspy_tool_fields", r"\[\[", None, kind="untagged", first="[", reader=_open, open_for_tools=_opener)]
"""``[[ ## next_tool_name ## ]]`` NAME ``[[ ## next_tool_args ## ]]`` {…}, anywhere: NAME an offered tool."""
