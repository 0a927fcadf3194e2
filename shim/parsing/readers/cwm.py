"""Meta's Code World Model (CWM): a tool block whose body is the tool's one input, written raw.

    <tool: bash>
    echo hello world
    </tool>

    <tool: function>
    terminal find . -name "*.py"
    </tool>

The opener names the tool (CWM's serve module: ``bash``, ``python``, ``edit``…) and ends its line, and the body,
its layout line breaks aside, is the value of the tool's one parameter (or its one required one). The generic
``function`` block (vLLM's CWM parser) names the tool by the body's first word, its input the rest. Leniencies:
spaces around the name; a body written as a JSON object of arguments is read as those arguments. Evidence: an
offered tool (the opener's name, or ``function``'s first word), the block opening the message (CWM writes one call
a turn, after its reasoning), the ``</tool>`` closer, and a body the tool can take; anything else is text as
written: a block after prose is a tool's specification or a README's example (``<tool: bash>`` over a line
``[command(s)]``).
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader
from shim.parsing.readers.block_end import Revert
from shim.parsing.shapes import one_parameter

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"</tool[ \t]*>")
_LIMIT = 1 << 20
"""A body longer than this without ``</tool>`` is no block (the hold-back stays bounded)."""
_GENERIC = frozenset({"function", "tool", "call"})
_FIRST_WORD = regex.compile(r"[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,127})(?:[ \t]+|\r?\n|$)")
EXAMPLE = "<tool: NAME>\nINPUT\n</tool>"


class _Body:
    """Everything up to ``</tool>``, decided whole."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = name
        self.body: list[str] = []
        self.size = 0

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = _CLOSE.search(text, pos, partial=not final)
        stop = len(text) if found is None else found.start()
        self.size += stop - pos
        if self.size > _LIMIT:
            self.ctx.revert()
            return pos, None
        self.ctx.consume(text[pos:stop])
        self.body.append(text[pos:stop])
        if found is None:
            if final:
                self.ctx.revert()
                return stop, None
            return stop, self
        if found.partial:
            return stop, MORE
        return self._decide(text, found)

    def _decide(self, text: str, found: regex.Match[str]) -> tuple[int, Next]:
        ctx = self.ctx
        call = _call(ctx, self.name, _unlaid("".join(self.body)))
        if call is None:
            ctx.revert()  # the opener and body are text; the closer is read as text from here
            return found.start(), None
        name, arguments = call
        ctx.consume(found.group())
        ctx.end_call(name, arguments, streamed=False)
        return found.end(), None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _unlaid(body: str) -> str:
    body = body[1:] if body.startswith("\n") else body[2:] if body.startswith("\r\n") else body
    return body[:-1] if body.endswith("\n") else body


def _call(ctx: Context, name: str, body: str) -> tuple[str, dict[str, Any]] | None:
    """The call the block makes, or None: it names no offered tool, or its body is no input the tool takes."""
    tools = ctx.tools
    if tools.is_known(name):
        return _arguments(ctx, name, body)
    if name.casefold() not in _GENERIC:
        return None
    first = _FIRST_WORD.match(body)
    if first is None or not tools.is_known(first.group("name")):
        return None
    return _arguments(ctx, first.group("name"), body[first.end() :].rstrip("\r\n"))


def _arguments(ctx: Context, name: str, body: str) -> tuple[str, dict[str, Any]] | None:
    if body.lstrip().startswith("{"):
        try:
            value = lenient_json.loads(body.strip())
        except lenient_json.LenientJSONError:
            value = None
        if isinstance(value, dict):
            found = cast(dict[Any, Any], value)
            if one_parameter(ctx.tools, name, body) is None or _declares(ctx, name, found):
                return name, {str(k): v for k, v in found.items()}
    arguments = one_parameter(ctx.tools, name, body)
    return None if arguments is None else (name, arguments)


def _declares(ctx: Context, name: str, value: dict[Any, Any]) -> bool:
    """The object's keys are the tool's parameters (not a JSON value given as the one parameter's text)."""
    spec = ctx.tools.specs.get(ctx.tools.resolve(name))
    props: Any = spec.input_schema.get("properties") or {} if spec is not None else {}
    return bool(value) and all(str(key) in props for key in value)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    name = match.group("name")
    if not ctx.tools.is_known(name) and name.casefold() not in _GENERIC:
        return Revert(ctx)  # no offered tool: the tag is text, not held while its body is read
    return _Body(ctx, name)


ROWS = [
    Dialect(
        "cwm_tool",
        r"<tool:[ \t]{0,4}(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,4}>(?=[ \t]{0,4}\r?\n)",
        r"</tool[ \t]*>",
        kind="untagged",  # where the message begins (after its reasoning), for an offered tool
        start="message",
        first="<",
        reader=_open,
        example=EXAMPLE,
    ),
]
