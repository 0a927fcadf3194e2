"""Python-style calls of offered tools between a bare ``<`` and ``>``: a call tag whose name was left out.

    <get_news_report(location="Paris, France", language="en"), get_news_report(location="Letterkenny")>
    <ChaFod(foodItem="Caesar salad")><ChaDri.change_drink(drink_id="123", new_preferences={"size": "large"})

Asked to put its calls in ``<TOOLCALL>[…]</TOOLCALL>`` (BFCL's prompt-variation runs, BitAgent-8B), a model may
keep only the tag's brackets: one ``<…>`` around the whole run of calls (comma-separated, the list's ``[…]`` kept
or not), or one ``<…>`` around each call, the next one right after it (on the same line or the next). Evidence,
as for a bare pythonic call (`pythonic_calls`): the opener is ``<`` right before an offered tool's name and its
``(``, opening the message or a line; every call names an offered tool, its arguments literals read with `ast`;
after the last ``>`` nothing but blanks (or the model's end-of-turn token) on the line. The last ``>`` may be
missing where the output ends after a complete call (the model stopped there); a stream cut off by the token
limit, a call left open, or text after the ``>`` on its line (``<get_weather(city)> returns the forecast``)
leaves everything as written, text. A call written as a self-closing tag (``<runCommand(command: "ls")/>``, as
lee-code prompts for) ends with ``/>``; its arguments may be written ``key: value``, as a signature shows them (read
as `pycall` reads a call between markers, by the offered tool's schema).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from shim.parsing.pythonic import PythonicScanner, parse_pythonic
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.readers.block_end import TURN_END, Closed
from shim.parsing.readers.pycall import parse_arguments
from shim.parsing.readers.pythonic_calls import schema_of
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_NAME = r"[A-Za-z_][\w.\-]{0,127}"
_SAME = regex.compile(rf"[ \t]{{0,8}},[ \t\r\n]{{0,8}}(?P<name>{_NAME})\(")
"""The next call inside the same brackets: ``…), NAME(``."""
_CLOSE = regex.compile(r"[ \t]{0,8}(?P<list>\][ \t]{0,8})?/?[ \t]{0,4}>")
"""The ``>`` after the run's last call (the list's ``]`` before it, if it opened with ``[``), or ``/>`` as a
self-closing tag ends (lee-code's ``<runCommand(command: "ls")/>``)."""
_ONE_CALL = regex.compile(rf"(?P<name>{_NAME})\((?P<args>.*)\)", regex.DOTALL)
_AGAIN = regex.compile(rf"[ \t]{{0,8}}(?:\r?\n[ \t]{{0,8}})?<[ \t]{{0,4}}(?P<list>\[[ \t]{{0,4}})?(?P<name>{_NAME})\(")
"""The next call in brackets of its own: ``><NAME(``, or ``>`` then ``<NAME(`` on the next line."""
_LINE_END = regex.compile(r"[ \t]{0,8}(?=\r?\n|\Z)")


class AngleCalls:
    """A run of calls between ``<`` and ``>``, decided once its last bracket closes and what follows is seen."""

    def __init__(self, ctx: Context, opener: str, listed: bool) -> None:
        self.ctx = ctx
        self.listed = listed
        """The run opened with ``[`` inside the ``<``: its ``]`` comes before the ``>``."""
        self.calls: list[str] = []
        """Each call's text as written (``NAME(…)``), joined into one Python list to read at the end."""
        self._call(opener)
        self.closed = False
        """The last ``>`` was read: what follows on the line decides."""

    def _call(self, opener: str) -> None:
        self.scanner = PythonicScanner()
        self.scanner.feed(opener, 0)
        self.current = [opener]

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        while True:
            if not self.closed:
                if not self.scanner.done:
                    new = self.scanner.feed(text, pos)
                    ctx.consume(text[pos:new])
                    self.current.append(text[pos:new])
                    pos = new
                    if not self.scanner.done:
                        return pos, self
                    self.calls.append("".join(self.current))
                found = _SAME.match(text, pos, partial=not final)
                if found is not None and found.partial:
                    return pos, MORE
                if found is not None:  # `…), NAME(`: the next call in the same brackets
                    ctx.consume(found.group())
                    self._call(f"{found.group('name')}(")
                    pos = found.end()
                    continue
                close = _CLOSE.match(text, pos, partial=not final)
                if close is not None and close.partial:
                    return pos, MORE
                if close is None or bool(close.group("list")) != self.listed:
                    if final and pos >= len(text) and not self.listed:
                        return pos, self._decide()  # the output ends after a complete call: its `>` left out
                    ctx.revert()
                    return pos, None
                ctx.consume(close.group())
                pos = close.end()
                self.closed = True
            again = _AGAIN.match(text, pos, partial=not final)
            if again is not None and again.partial:
                return pos, MORE
            if again is not None:  # `<a(…)><b(…)>`: the next call in brackets of its own
                ctx.consume(again.group())
                self.listed = again.group("list") is not None
                self.closed = False
                self._call(f"{again.group('name')}(")
                pos = again.end()
                continue
            end = _LINE_END.match(text, pos, partial=not final)
            if end is not None and end.partial:
                return pos, MORE
            if end is None:
                turn = TURN_END.match(text, pos, partial=not final)
                if turn is not None and turn.partial:
                    return pos, MORE
                if turn is None:  # text after the `>` on its line: the brackets are prose's
                    ctx.revert()
                    return pos, None
            if pos >= len(text) and not final:
                return pos, MORE
            return pos, self._decide()

    def _decide(self) -> Next:
        ctx = self.ctx
        tools = ctx.tools
        calls = (
            parse_pythonic(
                f"[{', '.join(self.calls)}]",
                *schema_of(tools),
                lenient=not ctx.shown,
            )
            or self._signature_style()
        )
        if not calls or not tools.offers_all(calls):
            ctx.revert()
            return None
        for name, arguments in calls:
            ctx.end_call(tools.resolve(name), arguments, streamed=False)
        return Closed(ctx)  # `…)><|eot_id|>`: the model's end-of-turn token is markup

    def _signature_style(self) -> list[tuple[str, dict[str, Any]]] | None:
        """The calls with ``key: value`` arguments, as a signature writes them (``<runCommand(command: "ls")/>``),
        read as `pycall` reads a call between markers: each needs the offered tool's schema."""
        tools = self.ctx.tools
        calls: list[tuple[str, dict[str, Any]]] = []
        for written in self.calls:
            found = _ONE_CALL.fullmatch(written.strip())
            properties = tools.properties(tools.resolve(found.group("name"))) if found is not None else None
            if found is None or properties is None:
                return None
            try:
                calls.append((found.group("name"), parse_arguments(found.group("args"), properties)))
            except ValueError:
                return None
        return calls

    def finish(self, truncated: bool) -> None:
        if truncated or not self.scanner.done:
            self.ctx.revert()
            return
        self.feed("", 0, True)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> AngleCalls:
    del block
    keep_line_break(ctx, "\r\n \t")  # the line break before the call stays text
    return AngleCalls(ctx, f"{match.group('name')}(", match.group("list") is not None)


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return rf"{prefix}<[ \t]{{0,4}}(?P<list>\[[ \t]{{0,4}})?(?P<name>{names})\("

    return build


ROWS = [
    # <get_weather(city="Paris"), get_weather(city="Lima")> opening the message
    Dialect(
        "angle_calls", "<", None, kind="untagged", start="message", first="<", reader=_open, open_for_tools=_opener("")
    ),
    # …or a line
    Dialect(
        "angle_calls_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        open_for_tools=_opener(r"\r?\n[ \t]{0,8}"),
    ),
]
