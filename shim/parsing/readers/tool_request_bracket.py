"""A request word, then an offered tool's name and its arguments object in square brackets: ``TOOL_REQUEST[NAME:{…}]``.

    I need to search. TOOL_REQUEST[ada_search:{"query":"authentication"}]

Ada's prompt (luna-system/ada, its ``ToolRequestParser``) asks the model to request a tool this way, in the middle
of its prose: the word ``TOOL_REQUEST``, ``[``, the tool's name, a colon, the arguments as a JSON object (on one
line or spread over several), ``]``. The request is markup; the words around it stay text, and several requests
in one message are several calls. Leniencies: blanks around the name, the colon and the brackets; the object over
several lines.

The evidence is strict: the name is an offered tool's, the word stands on its own (``MY_TOOL_REQUEST[`` is no
request), the object is JSON and reads as that tool's arguments (the shape rules every untagged call goes through,
`shim.parsing.readers.untagged.calls_of`) and the ``]`` closes the brackets right after it. A request of a tool
that was not offered, an object that does not close or a bracket left open is text, unchanged; so is one shown in
prose (an inline code span, a code fence, after words presenting an example: the core's prose rules).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, GivenBack, Reader
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"[ \t\r\n]{0,8}\]")
"""The request's ``]`` right after the arguments object."""
_WORD_BEFORE = regex.compile(r"\w\Z")


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    if _WORD_BEFORE.search(ctx.tail()) is not None:  # `MY_TOOL_REQUEST[…]`: another word, not the request
        return GivenBack(ctx)
    name = ctx.tools.resolve(match.group("name"))

    return JsonCall(ctx, JsonCandidate(ctx), [(_CLOSE, True)], as_call=call_of(name))


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return rf"TOOL_REQUEST[ \t]{{0,2}}\[[ \t]{{0,4}}(?P<name>{names})[ \t]{{0,4}}:[ \t\r\n]{{0,8}}(?=\{{)"


ROWS = [
    Dialect(
        "tool_request_bracket",
        "TOOL_REQUEST",
        None,
        kind="untagged",
        reader=_open,
        open_for_tools=_opener,
        example='TOOL_REQUEST[NAME:{"KEY": "VALUE"}]',
    )
]
"""``TOOL_REQUEST[NAME:{…}]`` anywhere in the message, NAME an offered tool. The row gives no ``first``: the text
scanner stops at its leading word (``TOOL``), not at every ``T``."""
