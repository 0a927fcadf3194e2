"""Mistral: ``[TOOL_CALLS][{…}, …]`` or, with newer tokenizers, ``[TOOL_CALLS]NAME[ARGS]{…}`` (also written
without ``[ARGS]``: ``[TOOL_CALLS]NAME{…}``, or with a call id: ``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}``). No
closing marker."""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, NAME_START, Block, Context, Dialect, Next
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tagged_json import TaggedStart
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["BARE_ROWS", "ROWS", "MistralStart"]

_NAME_ARGS = regex.compile(
    r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})(?:\[CALL_ID\][ \t]{0,4}[\w\-]{0,64}[ \t]{0,4})?"
    r"(?:[ \t]{0,4}\[ARGS\]|[ \t]{0,4}(?=\{))"
)
"""``NAME[ARGS]`` (a space before the token too), ``NAME{`` or, with Mistral's v11+ tokenizers (Magistral,
Devstral), ``NAME[CALL_ID]ID[ARGS]``."""


class MistralStart(TaggedStart):
    """A JSON body as for every tagged family, or ``NAME[ARGS]`` followed by the arguments object."""

    def named_body(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        found = _NAME_ARGS.match(text, pos, partial=not final)
        if found is None:
            return None
        if found.partial:
            return pos, MORE
        self.ctx.consume(found.group())
        self.block.name = found.group("name")
        self.ctx.start_call(found.group("name"))
        return found.end(), self


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> MistralStart:
    return MistralStart(ctx, block)


def _bare_args(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"(?P<name>{names})[ \t]{{0,4}}\[ARGS\][ \t]{{0,4}}(?=\{{)"


def _open_bare(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    block.name = match.group("name")
    return JsonBody(ctx, block)


# `[/TOOL_CALLS]` closes the list in some Mistral templates (Ollama's tests); it is markup, never text.
ROWS = [Dialect("mistral", r"\[TOOL_CALLS\]", r"\[/TOOL_CALLS\]", body="mistral", reader=_open, opens_each_call=True)]

BARE_ROWS = [
    # NAME[ARGS]{…} with the [TOOL_CALLS] token left out (a detokenizer that drops it; mlx-swift-lm's tests): the
    # [ARGS] token after an offered tool's name is the evidence.
    Dialect(
        "mistral_args",
        "name",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open_bare,
        open_for_tools=_bare_args,
    ),
]
