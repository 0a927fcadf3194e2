"""A tool's name between a model's special tokens, its JSON arguments right after: the shape many families
share with different token spellings, read by one rule for offered tools.

    <|tool_calls|><|tool_call:begin|>x9<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Paris"}
    <|tool_call:end|><|calls|>                                                         (Solar Open)
    functions.get_weather:0 {"city": "Paris"}                 (Kimi K2 with its special tokens stripped)

A special token is ``<|…|>`` (a word, no spaces or brackets inside); before the name come one to four of them
(each may be followed by a short id, ``x9``), after it one to three, then the ``{`` of the arguments. Or the
name carries a namespace and an index (``functions.NAME:0``) with at most one token before the ``{``, where the
message or a line begins, or anywhere in prose with the index written and the ``{`` glued on. All only
name an offered tool: the tokens are the model's markup, the tool name the evidence. Tokens right after the
arguments (the call's and the block's end) are markup too. The families with a reader of their own (Kimi,
DeepSeek, harmony…) match first; this row reads the spellings no table row names.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break, match_at
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import PARTIAL

__all__ = ["ROWS"]

_TOKEN = r"<\|[^|<>\s]{1,40}\|>"
_GAP = r"[ \t\r\n]{0,4}"
_ID = rf"(?:[\w\-]{{1,40}}{_GAP}(?=<\|))?"
_TOKEN_AFTER = regex.compile(rf"{_GAP}(?!<\|[^|<>\s]{{0,30}}(?:begin|start)){_TOKEN}", regex.IGNORECASE)
"""A token that ends the call or the block; one whose words say begin / start opens the next call and stays."""
_FORMAT = r"(?:json[ \t]{0,4})?"
"""A format word between two tokens (PLaMo 3: ``<|plamo:constrain|>json<|plamo:msg|>{…}``), as in harmony."""


class _TokensAfter:
    """After the arguments: the special tokens that end the call and the block are markup."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = match_at(_TOKEN_AFTER, text, pos, final)  # one token at a time: the same under any chunking
        if found is MORE:
            return pos, MORE
        if found is not None:
            # the token that opens the next call (Inkling's `<|message_model|>NAME<|content_invoke_tool_json|>{`)
            # is that call's, not this one's end
            start = found.start() + len(found.group()) - len(found.group().lstrip(" \t\r\n"))
            nxt = self.ctx.markers.match(text, start, final, fences=True)
            if nxt is PARTIAL:
                return pos, MORE
            row = nxt.dialect if nxt is not None and nxt.kind in ("open", "fence") else None
            if row is not None and row.kind in ("call", "untagged"):
                self.ctx.markup_as_text()
                return pos, None
        if found is not None:
            self.ctx.markup(found.group())
            return found.end(), self
        self.ctx.markup_as_text()
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.ctx.markup_as_text()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    block.name = match.group("name")
    return JsonBody(ctx, block, then=lambda: _TokensAfter(ctx))


def _between_tokens(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return rf"(?:{_TOKEN}{_GAP}{_ID}){{1,4}}(?P<name>{names}){_GAP}(?:{_TOKEN}{_GAP}{_FORMAT}){{1,4}}(?=\{{)"


def _namespaced(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        index = r"(?:[ \t]{0,4}:[ \t]{0,4}\d+)?"
        return rf"{prefix}functions\.(?P<name>{names}){index}[ \t]{{0,4}}(?:{_TOKEN})?{_GAP}(?=\{{)"

    return build


def _indexed(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return rf"functions\.(?P<name>{names}):\d{{1,4}}(?=\{{[ \t\r\n]{{0,4}}[\"}}])"


def _open_line(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    keep_line_break(ctx)  # the line break before the call stays text
    return _open(ctx, block, match)


ROWS = [
    Dialect("token_call", "<", None, kind="untagged", first="<", reader=_open, open_for_tools=_between_tokens),
    # Where the message or a line begins (a stop at every `f` of prose would slow all text down).
    Dialect(
        "namespaced_call",
        "functions",
        None,
        kind="untagged",
        start="message",
        first="f",
        reader=_open,
        open_for_tools=_namespaced(""),
    ),
    Dialect(
        "namespaced_call_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open_line,
        open_for_tools=_namespaced(r"\n[ \t]{0,8}"),
    ),
    # Anywhere in prose, with its index: `…the directory contents.functions.LS:1{"path": …}` (Kimi K2 with its tokens
    # stripped, ik_llama.cpp's tests). The literal word `functions` gates it (the text scanner stops at the word,
    # not at every `f`); the namespace, an offered name, the `:INDEX` and the object glued on are the evidence.
    Dialect("namespaced_call_in_prose", "functions", None, kind="untagged", reader=_open, open_for_tools=_indexed),
]
