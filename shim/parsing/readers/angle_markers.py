"""A JSON list (or object) of calls between ``<<<TOOL_CALLS>>>`` and ``<<<END_TOOL_CALLS>>>`` markers.

    <<<TOOL_CALLS>>>
    [{"name": "glob", "arguments": {"pattern": "*.py"}}]
    <<<END_TOOL_CALLS>>>

A proxy's tool emulation (m365-copilot-proxy, for a chat model with no tool calling of its own) asks for the calls
so: the words of a call token written with the triple angle brackets prompts use for delimiters. The markers are
markup, the body is read as the tagged family's (`shim.parsing.readers.tagged_json`: a call object or a list of
them, every shape rule). Leniencies: two angle brackets or three; ``TOOL_CALL``, ``TOOLCALLS``, ``FUNCTION_CALLS``;
the closer as ``<<<END_TOOL_CALLS>>>``, ``<<</TOOL_CALLS>>>`` or ``<<<TOOL_CALLS_END>>>``, or left out at the output's
end. A marker in a sentence, inline code or a code fence is text (the core's prose rules); a body that is no call is
what the tagged family makes of it.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS"]

_WORDS = r"(?:TOOL|FUNCTION)[ _]?CALLS?"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    del match
    return TaggedStart(ctx, block)


_CLOSER_WORDS = rf"(?:END[ _]?{_WORDS}|/[ \t]{{0,2}}{_WORDS}|{_WORDS}[ _]?END)"


def _marker(words: str) -> str:
    """``<<<WORDS>>>`` or ``<<WORDS>>``, as many brackets closing as opening. No optional bracket ends the pattern:
    ``<<<WORDS>>`` at a chunk's end would match in full before its last ``>`` came."""
    inner = rf"[ \t]{{0,2}}{words}[ \t]{{0,2}}"
    return rf"(?:<<<{inner}>>>|<<(?!<){inner}>>(?=[^>]))"


ROWS = [
    Dialect(
        "angle_markers",
        _marker(_WORDS),
        _marker(_CLOSER_WORDS),
        body="json",
        reader=_open,
        example='<<<TOOL_CALLS>>>\n[{"name": "NAME", "arguments": {"KEY": "VALUE"}}]\n<<<END_TOOL_CALLS>>>',
    )
]
"""``<<<TOOL_CALLS>>>[…]<<<END_TOOL_CALLS>>>`` anywhere in the message."""
