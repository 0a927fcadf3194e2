"""Tool-name-first calls: the tool's name, then its JSON arguments on the next line (Functionary v3.2).

    >>>get_weather
    {"city": "Paris"}

Functionary's turns begin with ``>>>RECIPIENT\\n``: ``all`` for text to the user, a tool's name for a call. Its
template ends the prompt with ``>>>``, so a served model's output starts with the bare name. Both are read
for offered tools only (``>>>`` opens REPL transcripts in prose, and a word alone on a line is no evidence): with
``>>>`` anywhere, without it only where the message begins, and only when a ``{`` follows on the next line.
(``>>>all`` before text to the user is left as text: a ``>`` that could start it would hold back every quote
and tag end in prose.)
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    block.name = match.group("name")
    return JsonBody(ctx, block)


def _marked(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf">>>[ \t]{{0,4}}(?P<name>{names})[ \t]{{0,4}}\r?\n[ \t\r\n]{{0,8}}(?=\{{)"


def _bare(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"(?P<name>{names})[ \t]{{0,4}}\r?\n[ \t\r\n]{{0,8}}(?=\{{)"


ROWS = [
    Dialect("functionary_recipient", ">>>", None, first=">", reader=_open, open_for_tools=_marked),
    Dialect(
        "name_first", "name", None, kind="untagged", start="message", first=_LETTERS, reader=_open, open_for_tools=_bare
    ),
]
