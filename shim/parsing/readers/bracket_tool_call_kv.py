"""A call logged as one line of ``key=value`` fields after a ``[Tool Call]`` label (Onyx issue 14931):

    [Tool Call] name=run-command id=3d4e5f6a-7b8c-9d0e-1f2a-3b4c5d6e7f8a args={"command": "echo READY"}

A client's log line for a call (label, name, id, JSON arguments), which a model that sees its history so copies
instead of calling. The name must be an offered tool's (``[Tool Call]`` before other words is a heading in prose)
and ``args=`` must be followed by a JSON object: the label, the name and the arguments together make it a call
wherever it stands. Leniencies: the label in any case, with ``_`` or no blank (``[TOOL_CALL]``, ``[ToolCall]``)
and an optional colon after it; the name quoted or bare; an ``id=`` field (any text but blanks, up to 80
characters; the model's own invention, not kept) before or after the name, or none; ``arguments=``, ``input=``,
``params=`` or ``parameters=`` for ``args=``, with ``=`` or ``:``; the lenient JSON of every body. After the closing
brace the text is text again.
"""

from __future__ import annotations

from shim.parsing.readers.at_call import open_named_json
from shim.parsing.readers.base import Dialect
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_LABEL = r"\[[ \t]{0,2}(?i:tool[ _]?call)[ \t]{0,2}\][ \t]{0,4}:?[ \t]{0,4}"
_ID = r"""(?i:id)[ \t]{0,2}=[ \t]{0,2}["']?[^\s"'\]]{1,80}["']?"""
_ARGS = r"(?i:args|arguments|input|params|parameters)[ \t]{0,2}[=:][ \t]{0,2}(?=\{)"


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    name = rf"""(?i:name)[ \t]{{0,2}}=[ \t]{{0,2}}(?P<q>["']?)(?P<name>{names})(?P=q)(?![\w.\-])"""
    return rf"{_LABEL}(?:{_ID}[ \t]{{1,4}})?{name}(?:[ \t]{{1,4}}{_ID})?[ \t]{{1,4}}{_ARGS}"


ROWS = [
    Dialect(
        "bracket_tool_call_kv",
        r"\[",
        None,
        kind="untagged",
        first="[",
        reader=open_named_json,
        open_for_tools=_opener,
        example="[Tool Call] name=NAME args={...}",
    )
]
