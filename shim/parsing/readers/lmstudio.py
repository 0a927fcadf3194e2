"""LM Studio's prompt-based tool use: ``[TOOL_REQUEST]{…}[END_TOOL_REQUEST]`` (a JSON body, like the tagged family).

The closer's words in either order: ``[TOOL_REQUEST_END]`` (LLxprt Code's prompt) is the same closer. The markers'
underscores may be left out, as a model copying them from the prompt as words does (``[TOOLREQUEST]…[ENDTOOLREQUEST]``,
ERNIE 4.5 on LM Studio). The result's closer ``[END_TOOL_RESULT]`` in the request's place closes it too (a closer
models print, personal_agent's parser tests: "model typo tolerance")."""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS"]


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


ROWS = [
    Dialect(
        "tool_request",
        r"\[TOOL_?REQUEST\]",
        r"\[(?:END_?TOOL_?(?:REQUEST|RESULT)|TOOL_?REQUEST_?END)\]",
        body="json",
        reader=_open,
    )
]
