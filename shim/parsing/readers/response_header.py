"""A prompt template's header of the model's own turn, repeated by the model where its message begins, right before
a call: ``### Response:`` (the Alpaca-style templates xLAM and other fine-tunes use), ``### Assistant:``.

    ### Response:
    {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}

(xLAM in Ollama's v0.5 tests.) Where a call follows on the next line (a JSON call, a list or an envelope of them,
or a tagged call), the header is the call's markup, as ``<|im_start|>assistant`` is; anything else after it (an
answer in words) leaves it text. Only where the message begins, with offered tools: a header inside prose is a
document's heading.

Likewise a line holding only a format word (``json``, ``xml``: a fence's info string with its backticks lost)
right before a tagged call, anywhere (xLLM's DeepSeek V3.2 tests: ``Some text\njson\n`` before DSML's
``function_calls`` block): the call's markup; before anything else, text.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader, keep_line_break
from shim.parsing.readers.untagged import UntaggedJson, tagged_inside

__all__ = ["ROWS"]


class _AfterHeader:
    """After the header: a JSON value or a tagged call makes it markup; anything else, text."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos = self.ctx.skip_ws(text, pos)
        if pos >= len(text):
            if final:
                self.ctx.revert()
                return pos, None
            return pos, MORE
        if text[pos] in "{[":
            return pos, UntaggedJson(self.ctx, self.block)
        if text[pos] == "<":
            return tagged_inside(self.ctx, text, pos, final)
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del match
    return _AfterHeader(ctx, block)


class _AfterFormatWord:
    """After a format word's line: a tagged call right there makes the line its markup; anything else, text."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return tagged_inside(self.ctx, text, pos, final)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _open_format_word(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block, match
    keep_line_break(ctx)  # the line break before the word stays text
    return _AfterFormatWord(ctx)


ROWS = [
    Dialect(
        "response_header",
        r"#{2,4}[ \t]{1,4}(?i:response|assistant)[ \t]{0,4}:[ \t]*\r?\n",
        None,
        kind="untagged",
        start="message",
        first="#",
        reader=_open,
    ),
    Dialect(
        "format_word_line",
        r"\n[ \t]{0,4}(?:json|xml)[ \t]{0,4}\r?\n[ \t]{0,8}(?=<)",
        None,
        kind="untagged",
        first="\n",
        reader=_open_format_word,
    ),
]
