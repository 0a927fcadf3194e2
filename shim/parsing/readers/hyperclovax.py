"""HyperCLOVA X SEED Think: a message addressed to a tool by a ``-> tool/RECIPIENT`` header, then its JSON.

    -> tool/function_call
    [{"name": "get_weather", "arguments": {"city": "Seoul"}}]

    -> tool/get_weather
    {"city": "Seoul"}

The template's header names the ``function_call`` recipient and the body is a list of calls (or one call); the
abbreviated form vLLM's test says the model sometimes writes under ``tool_choice="auto"`` names the tool itself,
and the body is its arguments object. Evidence: the header opening the message (or following its reasoning), an
offered tool (the recipient, or the calls' names), and a JSON body right on the next line; anything else is text.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, Reader
from shim.parsing.readers.block_end import Revert
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.untagged import UntaggedJson

__all__ = ["ROWS"]

_CALLS = frozenset({"function_call", "function_calls", "tool_call", "tool_calls"})


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    name = match.group("name")
    if name.casefold() in _CALLS and not ctx.tools.is_known(name):
        return UntaggedJson(ctx, block)  # the calls, each naming its tool: read as any untagged call list
    if not ctx.tools.is_known(name):
        return Revert(ctx)
    ctx.start_call(name)
    block.name = name
    return JsonBody(ctx, block)


ROWS = [
    Dialect(
        "hcx_tool_header",
        r"->[ \t]{0,4}tool/(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,4}\r?\n[ \t]{0,8}(?=[\{\[])",
        None,
        kind="untagged",  # where the message begins (after its reasoning), for an offered tool
        start="message",
        first="-",
        reader=_open,
        example='-> tool/function_call\n[{"name": "NAME", "arguments": {"KEY": "VALUE"}}]',
    ),
]
