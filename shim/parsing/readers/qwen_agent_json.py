"""Qwen-Agent's ``✿FUNCTION✿`` marker before a whole JSON call object, a lone ``✿`` after it:

    ✿FUNCTION✿ {"name": "calc", "arguments": {"x": 1}} ✿

(yunshu's tests: the flower marker of Qwen-Agent's function-calling prompt, with the call written as the Hermes
object instead of the prompt's ``NAME`` / ``✿ARGS✿: {…}`` lines, which `shim.parsing.readers.react` reads). The
flower markers are tokens no prose writes, but the object is the evidence: only a call of an offered tool (its
shape read by `shim.parsing.shapes`) makes the marker, and a lone ``✿`` right after the object, markup; anything
else gives the marker back as text with what follows. Leniencies: a colon after the marker; blanks or a line
break before the object.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.untagged import UntaggedJson
from shim.parsing.tags import compile_marker

__all__ = ["ROWS"]

_OPEN = r"✿FUNCTION✿[ \t]{0,8}:?[ \t]{0,8}(?:\r?\n[ \t]{0,8})?(?=[\{\[])"
_CLOSE = compile_marker(r"✿(?![A-Za-z_]{1,16}✿)")
"""A lone flower, not the next marker (``✿RESULT✿``, ``✿FUNCTION✿``)."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    del match
    return UntaggedJson(ctx, block, _CLOSE)


ROWS = [Dialect("qwen_agent_json", _OPEN, None, kind="untagged", first="✿", reader=_open)]
