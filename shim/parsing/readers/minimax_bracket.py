"""MiniMax M2.x's bracketed call with Perl-style arrows, as users' issue threads quote it:

    [TOOL_CALL]
    {tool => "skills_list", args => {
      --category "research"
    }}
    [/TOOL_CALL]

(hermes-agent #11994 and #35935, AnythingLLM #4675.) The body is read whole up to ``[/TOOL_CALL]`` (or the end of
the output). Leniencies: typographic quotes and an en or em dash for ``--`` (as a word processor or a chat UI
writes them), ``name``/``arguments`` for ``tool``/``args``, values quoted or bare (``null``, ``true``,
numbers read as JSON, other words as text), and a JSON call object in place of the arrows. Anything else in the
brackets is text again; so is a call of a tool that was not offered.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import Block, Context, Dialect, WholeToEnd
from shim.parsing.shapes import ShapeError, to_call

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"\[/TOOL_CALL\]", regex.IGNORECASE)
_Q = "\"'\u201c\u201d\u2018\u2019"
"""Quotes, straight or typographic."""
_CALL = regex.compile(
    rf"\{{\s*(?:tool|name)\s*=>\s*[{_Q}]?(?P<name>[^{_Q}\s,{{}}]+)[{_Q}]?\s*,\s*(?:args|arguments)\s*=>\s*"
    r"\{(?P<args>.*)\}\s*\}",
    regex.DOTALL,
)
_ARG = regex.compile(
    rf"(?:--|[\u2013\u2014])(?P<key>[A-Za-z_][\w.\-]*)\s+(?:[{_Q}](?P<quoted>[^{_Q}]*)[{_Q}]|(?P<bare>[^\s{_Q}]+))"
)
_SKIP = regex.compile(r"[\s,]*")


def _arguments(args: str) -> dict[str, Any] | None:
    """``--key "value" --other 3``: the pairs, each once; None: anything else in between."""
    arguments: dict[str, Any] = {}
    pos = _SKIP.match(args, 0).end()  # pyright: ignore[reportOptionalMemberAccess]
    while pos < len(args):
        found = _ARG.match(args, pos)
        if found is None or found.group("key") in arguments:
            return None
        bare = found.group("bare")
        if bare is None:
            arguments[found.group("key")] = found.group("quoted")
        else:
            try:
                arguments[found.group("key")] = json.loads(bare)
            except ValueError:
                arguments[found.group("key")] = bare
        pos = _SKIP.match(args, found.end()).end()  # pyright: ignore[reportOptionalMemberAccess]
    return arguments


class BracketBody(WholeToEnd):
    """The body up to ``[/TOOL_CALL]``, decided whole."""

    END = _CLOSE

    def _decide(self) -> None:
        ctx, body = self.ctx, "".join(self.body).strip()
        found = _CALL.fullmatch(body)
        call: tuple[str, dict[str, Any]] | None = None
        if found is not None:
            arguments = _arguments(found.group("args"))
            call = None if arguments is None else (found.group("name"), arguments)
        elif body.startswith("{"):
            try:
                shape = to_call(lenient_json.loads(body), ctx.tools)
                call = (shape.name, shape.arguments)
            except (lenient_json.LenientJSONError, ShapeError):
                call = None
        if call is None or not ctx.tools.is_known(call[0]):
            ctx.revert()
        else:
            ctx.end_call(ctx.tools.resolve(call[0]), call[1], streamed=False)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> BracketBody:
    del block, match
    return BracketBody(ctx)


ROWS = [
    Dialect(
        "minimax_bracket",
        r"\[TOOL_CALL\]",
        None,
        kind="untagged",
        first="[",
        reader=_open,
        example='[TOOL_CALL]\n{tool => "NAME", args => {\n  --KEY "VALUE"\n}}\n[/TOOL_CALL]',
    )
]
