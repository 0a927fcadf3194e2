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
offered tool (the opener's name, or ``function``'s first word), the ``</tool>`` closer, a body the tool can take,
and where the block stands: opening the message (CWM writes its call after its reasoning), or, after prose, ending
it (``preamble\n<tool: function>…</tool>\n<tool: function>…</tool>``: the calls end the model's turn, only blanks
and other blocks after them). A block after prose that text follows is a tool's specification or a README's example
(``<tool: bash>`` over a line ``[command(s)]``, then its description): text as written, with every block before it.
The shorthand ``<tool: python import os; print(1) </tool>`` (no ``>`` after the name, the input on the same line)
names the tool by its label, as vLLM's CWM parser reads it.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader, WholeToCloser
from shim.parsing.readers.block_end import Revert
from shim.parsing.shapes import one_parameter
from shim.parsing.xml_values import layout_newline

__all__ = ["ROWS"]

_CLOSE = regex.compile(r"</tool[ \t]*>")
_LIMIT = 1 << 20
"""A body longer than this without ``</tool>`` is no block (the hold-back stays bounded)."""
_GENERIC = frozenset({"function", "tool", "call"})
_FIRST_WORD = regex.compile(r"[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,127})(?:[ \t]+|\r?\n|$)")
EXAMPLE = "<tool: NAME>\nINPUT\n</tool>"


_OPEN = (
    r"<tool:[ \t]{0,4}(?P<name>[A-Za-z_][\w.\-]{0,127})"
    r"(?:[ \t]{0,4}>(?=[ \t]{0,4}\r?\n)|(?P<short>[ \t]{1,4})(?=[^\s>]))"
)
_AGAIN = regex.compile(rf"[ \t\r\n]{{0,64}}{_OPEN}")
_BLANKS = regex.compile(r"[ \t\r\n]{0,256}\Z")


class _Body(WholeToCloser):
    """Everything up to ``</tool>``, decided whole; after prose, the calls wait for the message's end."""

    def __init__(
        self, ctx: Context, name: str, *, short: bool = False, pending: list[tuple[str, dict[str, Any]]] | None = None
    ) -> None:
        super().__init__(ctx, _CLOSE, _LIMIT)
        self.name = name
        self.short = short
        """``<tool: NAME INPUT </tool>``: the input on the opener's line, blanks around it are layout."""
        self.pending: list[tuple[str, dict[str, Any]]] | None = (
            pending if pending is not None else ([] if ctx.shown else None)
        )
        """The calls of blocks after prose, held until the message ends (None: the block opens the message)."""
        self.between = False
        """The block's closer was read: blanks, another block or the message's end follow."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.between:
            return self._after(text, pos, final)
        return super().feed(text, pos, final)

    def decide(self, found: regex.Match[str]) -> tuple[int, Next]:
        ctx = self.ctx
        body = "".join(self.body)
        call = _call(ctx, self.name, body.strip(" \t") if self.short else _unlaid(body))
        if call is None:
            ctx.revert()  # the opener and body are text; the closer is read as text from here
            return found.start(), None
        ctx.consume(found.group())
        if self.pending is None:
            name, arguments = call
            ctx.end_call(name, arguments, streamed=False)
            return found.end(), None
        self.pending.append(call)
        self.between = True
        return found.end(), self

    def _after(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        """After a block that followed prose: another block, or the message's end, or text (all of it text)."""
        again = _AGAIN.match(text, pos, partial=not final)
        if again is not None and again.partial:
            return pos, MORE
        if again is not None and (self.ctx.tools.is_known(again.group("name")) or _generic(again.group("name"))):
            self.ctx.consume(again.group())
            short = again.group("short") is not None
            return again.end(), _Body(self.ctx, again.group("name"), short=short, pending=self.pending)
        end = _BLANKS.match(text, pos, partial=not final)
        if end is not None and (end.partial or not final):
            return pos, MORE  # only blanks so far: the message may still end here
        if end is None:
            self.ctx.revert()  # text after the blocks: a specification or an example, shown
            return pos, None
        self.ctx.consume(end.group())
        self._emit()
        return end.end(), None

    def _emit(self) -> None:
        assert self.pending is not None
        for name, arguments in self.pending:
            self.ctx.end_call(name, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if self.between and not truncated:
            self._emit()
            return
        self.ctx.revert()


def _unlaid(body: str) -> str:
    body = body[layout_newline(body) :]
    return body[: len(body) - layout_newline(body, end=True)]


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
        found = lenient_json.loads_object(body.strip())
        if found is not None and (one_parameter(ctx.tools, name, body) is None or _declares(ctx, name, found)):
            return name, {str(k): v for k, v in found.items()}
    arguments = one_parameter(ctx.tools, name, body)
    return None if arguments is None else (name, arguments)


def _declares(ctx: Context, name: str, value: dict[Any, Any]) -> bool:
    """The object's keys are the tool's parameters (not a JSON value given as the one parameter's text)."""
    spec = ctx.tools.specs.get(ctx.tools.resolve(name))
    props: Any = spec.input_schema.get("properties") or {} if spec is not None else {}
    return bool(value) and all(str(key) in props for key in value)


def _generic(name: str) -> bool:
    return name.casefold() in _GENERIC


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    name = match.group("name")
    if not ctx.tools.is_known(name) and not _generic(name):
        return Revert(ctx)  # no offered tool: the tag is text, not held while its body is read
    return _Body(ctx, name, short=match.group("short") is not None)


ROWS = [
    Dialect(
        "cwm_tool",
        _OPEN,
        r"</tool[ \t]*>",
        kind="untagged",  # for an offered tool, opening the message or ending it
        first="<",
        reader=_open,
        example=EXAMPLE,
    ),
]
