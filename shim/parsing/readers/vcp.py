"""VCPToolBox's tool request: ``key:「始」value「末」`` lines between ``<<<[TOOL_REQUEST]>>>`` markers.

    <<<[TOOL_REQUEST]>>>
    tool_name:「始」SciCalculator「末」,
    expression:「始」2+2「末」
    <<<[END_TOOL_REQUEST]>>>

VCPToolBox (lioensky/VCPToolBox) teaches its models this protocol: each argument is a key, a colon and its value
between the start and end words ``始`` and ``末`` in corner brackets (``「始」…「末」`` or the white ones
``『始』…『末』``, as its own tests write both), lines ending in a comma; ``tool_name`` names the tool. The
delimiters let a value hold anything (commas, quotes, line breaks), so the value is taken as written, typed by the
tool's schema (VCP passes every value as text; a string parameter keeps it so).

The body is read whole up to ``<<<[END_TOOL_REQUEST]>>>`` or the output's end (the closer may be a stop sequence).
It must be nothing but such pairs (blanks and commas between them), each key once, one of them ``tool_name``: then
it is a call, of any tool (the markers are the protocol's own, as a tag is). Anything else after the opener (a
sentence naming ``<<<[TOOL_REQUEST]>>>``) is text again; a body cut off by the token limit too.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import Block, Context, Dialect, WholeToEnd
from shim.parsing.xml_values import typed_value

__all__ = ["ROWS", "VcpBody"]

_OPEN = r"<<<\[TOOL_REQUEST\]>>>"
_CLOSE = regex.compile(r"<<<\[END_TOOL_REQUEST\]>>>", regex.IGNORECASE)
_PAIR = regex.compile(
    r"[\s,]*(?P<key>[A-Za-z_][\w.\-]{0,63})[ \t]{0,8}[:\uff1a][ \t]{0,8}[「『]始[」』](?P<value>.*?)[「『]末[」』]",
    regex.DOTALL,
)
_REST = regex.compile(r"[\s,]*")
_NAME_KEY = "tool_name"


def pairs(body: str) -> dict[str, str] | None:
    """The ``key:「始」value「末」`` pairs of a body, in order; None: anything else in it, or a key twice."""
    found: dict[str, str] = {}
    pos = 0
    while True:
        pair = _PAIR.match(body, pos)
        if pair is None:
            break
        if pair.group("key") in found:
            return None
        found[pair.group("key")] = pair.group("value")
        pos = pair.end()
    rest = _REST.match(body, pos)
    return found if rest is not None and rest.end() == len(body) else None


class VcpBody(WholeToEnd):
    """The body up to ``<<<[END_TOOL_REQUEST]>>>``, decided whole."""

    END = _CLOSE

    def _decide(self) -> None:
        ctx = self.ctx
        found = pairs("".join(self.body))
        name = None if found is None else found.pop(_NAME_KEY, None)
        if found is None or name is None or not name.strip():
            ctx.revert()
            return
        tool = ctx.tools.resolve(name.strip())
        arguments: dict[str, Any] = {key: typed_value(ctx.tools, tool, key, value) for key, value in found.items()}
        ctx.end_call(tool, arguments, streamed=False)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> VcpBody:
    del block, match
    return VcpBody(ctx)


ROWS = [
    Dialect(
        "vcp_tool_request",
        _OPEN,
        None,
        first="<",
        reader=_open,
        example="<<<[TOOL_REQUEST]>>>\ntool_name:「始」NAME「末」,\nKEY:「始」VALUE「末」\n<<<[END_TOOL_REQUEST]>>>",
    )
]
"""``<<<[TOOL_REQUEST]>>>`` anywhere in the message, its pairs, ``<<<[END_TOOL_REQUEST]>>>``."""
