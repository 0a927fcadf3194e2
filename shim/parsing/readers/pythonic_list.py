"""Pythonic call lists, as Llama 3.2 and Llama 4 write them: ``[get_weather(city='Lima', unit='celsius'), …]``.

Untagged, so they count only when every call names an offered tool. The list is scanned incrementally for its
closing bracket, then read with Python's own `ast` (literal values only, never evaluated code); see
`shim.parsing.pythonic`. A list that opens the message (or fills a fence) may write values bare
(``[f(email=a@b.c)]``) or each call as a string (``['gcd(a=1)', 'lcm(b=2)']``).
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.pythonic import PYTHONIC_START, QUOTED_START, PythonicScanner, parse_pythonic
from shim.parsing.readers.base import LINE_END, MORE, Block, Context, Dialect, Next, match_at
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.pythonic_calls import schema_of
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import UntaggedJson, answers_directly
from shim.parsing.shapes import ToolIndex

__all__ = ["FENCE", "MESSAGE_FENCE", "ROWS", "PythonicList"]


_FENCE_END = regex.compile(r"[ \t\r\n]{0,64}```")


_NEXT_LINE_CALL = regex.compile(
    r"[ \t]{0,8}\r?\n(?:[ \t]{0,12}\r?\n){0,2}[ \t]{0,12}(?P<name>[A-Za-z_][\w.\-]{0,127})\("
)
"""The next line's call after a bare call in a Python answer fence (blank lines and indentation between)."""


class PythonicList:
    def __init__(self, ctx: Context, block: Block, opener: str) -> None:
        self.ctx = ctx
        self.block = block
        block.next_body = lambda: UntaggedJson(ctx, block)
        # Bare values and calls as strings only where the list is the message's call block (it opens the message,
        # or fills a fence): mid-prose, `[search(query=q)]` may be code.
        self.lenient = block.fence or not ctx.shown
        # There, calls as strings may be damaged, one a line (`shim.parsing.pythonic`: `PythonicScanner`)
        self.scanner = PythonicScanner(call_lines=self.lenient and QUOTED_START.match(opener) is not None)
        self.scanner.feed(opener, 0)  # the opener `[name(` was consumed by the core
        self.body = [opener]
        self.bare = not opener.startswith("[")
        """Calls with no list around them, one a line (`MESSAGE_FENCE` only): each ends at its ``)``."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        while True:
            new = self.scanner.feed(text, pos)
            if new > pos:
                self.ctx.consume(text[pos:new])
                self.body.append(text[pos:new])
            if not self.scanner.done:
                return new, self
            if not self.bare:
                break
            more = _NEXT_LINE_CALL.match(text, new, partial=not final)
            if more is not None and more.partial:
                return new, MORE
            if more is None or not self.ctx.tools.is_known(more.group("name")):
                break
            self.ctx.consume(more.group())  # the line break between two calls: the calls' markup
            opener = f"{more.group('name')}("
            self.body.append(f", {opener}")
            self.scanner = PythonicScanner()
            self.scanner.feed(opener, 0)
            pos = more.end()
        if self.block.fence:  # the list must be all the fence holds: its closing fence next
            closing = _FENCE_END.match(text, new, partial=not final)
            if closing is None or (closing.partial and final):
                self.ctx.revert()
                return new, None
            if closing.partial:
                return new, MORE
        body = "".join(self.body)
        # Positional arguments bind to the schema's parameters in a list (as `PythonicCalls` binds them); calls bare
        # in a Python fence are keyword calls only: `click('81')` there is code.
        parameters, spelled, declared = schema_of(self.ctx.tools)
        calls = parse_pythonic(
            f"[{body}]" if self.bare else body,
            None if self.bare else parameters,
            spelled,
            declared,
            lenient=self.lenient,
        )
        return new, AfterBody(self.ctx, self.block) if self._end_calls(calls) else None

    def finish(self, truncated: bool) -> None:
        # A list opening the message whose output ends after its last call's `)`: only the list's `]` is missing
        # (CoALM-8B in BFCL's result files; `PythonicCalls.finish` reads the same when it holds the list).
        listed = None if self.bare else self.scanner.with_list_closed("".join(self.body))
        calls = None
        if listed is not None and self.lenient and not truncated and not self.block.fence:
            calls = parse_pythonic(listed, *schema_of(self.ctx.tools), lenient=True)
        self._end_calls(calls)

    def _end_calls(self, calls: list[tuple[str, dict[str, Any]]] | None) -> bool:
        """The calls, each of an offered tool, end here; else the list was text (reverted)."""
        if calls is None or not self.ctx.tools.offers_all(calls):
            self.ctx.revert()
            return False
        for name, arguments in calls:
            self.ctx.end_call(name, arguments, streamed=False)
        return True


class EmptyList:
    """``[]`` opening the message (already consumed): alone on its line, the list of no calls a pythonic prompt asks
    for when no tool fits (`answers_directly`), markup; with anything after it on its line, text."""

    def __init__(self, ctx: Context, opener: str) -> None:
        self.ctx = ctx
        self.opener = opener

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = match_at(LINE_END, text, pos, final)
        if end is MORE:
            return pos, MORE
        self._decide(alone=end is not None)
        return pos, None

    def _decide(self, *, alone: bool) -> None:
        if alone and answers_directly(self.opener, self.ctx, empty=True):
            self.ctx.markup("")
        else:
            self.ctx.revert()

    def finish(self, truncated: bool) -> None:
        self._decide(alone=not truncated)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicList:
    return PythonicList(ctx, block, match.group())


def _open_empty(ctx: Context, block: Block, match: regex.Match[str]) -> EmptyList:
    del block
    return EmptyList(ctx, match.group())


def _open_fenced(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicList:
    block.fence = True  # the closing fence is the list's markup too
    return PythonicList(ctx, block, match.group("list"))


_LIST_GAP = r"[ \t]{0,8}(?:\r?\n[ \t]{0,12})?"
"""Between a fenced list's ``[`` and its first call: blanks, or a line break and the line's indentation (a list
written one call a line, ``[\n    f(a=1),\n]``, as Gemma 3 1B fenced its BFCL answers)."""


def _fenced(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return (
        None
        if names is None
        else rf"```(?:json)?[ \t]{{0,8}}\r?\n[ \t]{{0,8}}(?P<list>\[{_LIST_GAP}['\"]?(?:{names})['\"]?\()"
    )


ROWS = [
    Dialect("pythonic", PYTHONIC_START.pattern, None, kind="untagged", reader=_open),
    # Each call a string of the list: ['gcd(num1=96)', 'lcm(num1=15)'] (Snowflake Arctic in BFCL's results).
    Dialect("pythonic_strings", QUOTED_START.pattern, None, kind="untagged", reader=_open),
    Dialect("pythonic_none", r"\[[ \t]{0,8}\]", None, kind="untagged", start="message", reader=_open_empty),
]

FENCE = Dialect(
    "pythonic_fence", "```", r"```", kind="untagged", first="`", reader=_open_fenced, open_for_tools=_fenced
)
"""A list of offered tools' calls as the only content of a fence with no language (or ``json``): Llama 3.2 3B
fenced its answer so in BFCL's result files. A fence naming a programming language shows code instead."""


def _answer_fence(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return (
        None
        if names is None
        else rf"```(?:python3?|py)[ \t]{{0,8}}\r?\n(?:[ \t]{{0,12}}\r?\n){{0,2}}[ \t]{{0,12}}"
        rf"(?P<list>\[{_LIST_GAP}['\"]?(?:{names})['\"]?\(|(?:{names})\()"
    )


MESSAGE_FENCE = Dialect(
    "pythonic_answer_fence",
    "```",
    r"```",
    kind="untagged",
    start="message",
    first="`",
    reader=_open_fenced,
    open_for_tools=_answer_fence,
)
"""A Python fence that opens the message and holds nothing but a list of offered tools' calls (or of the calls as
strings), or the calls bare, one a line (blank lines and the prompt's indentation around them), is the model's
answer, as prompts that ask for the calls "wrapped in python code" get it (deepseek-coder 6.7B and Gemma 7B in BFCL's
results): read as the fence with no language is. Anywhere else, or holding anything more (code around a call, a
call's result used), a Python fence shows code (`shim.parsing.readers.code_fence`)."""
