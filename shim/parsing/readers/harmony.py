"""gpt-oss harmony: ``<|start|>assistant<|channel|>CHANNEL [to=functions.NAME] [<|constrain|>json]<|message|>``.

    <|channel|>analysis<|message|>User asks weather in SF.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "SF"}<|call|>
    <|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>

A message with a recipient is a call (its JSON arguments stream); the ``analysis`` channel is reasoning;
any other message is visible text. Header tokens are markup. (Token spellings: openai/harmony, vLLM
``openai_tool_parser.py``, Ollama ``harmony/harmonyparser.go``.) Engines that strip special tokens leave
``commentary to=functions.NAME json{…}``: read only when NAME is an offered tool.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader
from shim.parsing.readers.block_end import Revert
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.reasoning import ReasoningBody

__all__ = ["ROWS"]

_MESSAGE = regex.compile(r"<\|message\|>")
_END = regex.compile(r"<\|end\|>|<\|call\|>|<\|return\|>")
_RECIPIENT = regex.compile(r"\bto=(?:functions\.)?(?P<name>[^\s<]{1,128})")
_CHANNEL = regex.compile(r"<\|channel\|>[ \t]*(?P<channel>\w+)")
_MAX_HEADER = 512
EXAMPLE = (
    '<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{"key": "value"}<|call|>'
)


class Header:
    """From the opener to ``<|message|>``: who the message is for, and on which channel."""

    def __init__(self, ctx: Context, block: Block, opener: str) -> None:
        self.ctx = ctx
        self.block = block
        self.header = [opener]
        self.size = 0

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        found = _MESSAGE.search(text, pos, partial=not final)
        end = len(text) if found is None else found.start()
        self.size += end - pos
        if self.size > _MAX_HEADER:
            ctx.revert()  # no message follows: `<|start|>` mentioned in prose
            return pos, None
        ctx.consume(text[pos:end])
        self.header.append(text[pos:end])
        if found is None:
            return end, self
        if found.partial:
            return end, MORE
        ctx.consume(found.group())
        return found.end(), self._body("".join(self.header))

    def _body(self, header: str) -> Reader:
        ctx = self.ctx
        recipient = _RECIPIENT.search(header)
        if recipient is not None:
            ctx.start_call(recipient.group("name"))
            self.block.name = recipient.group("name")
            return JsonBody(ctx, self.block)
        channel = _CHANNEL.search(header)
        if channel is not None and channel.group("channel").casefold() == "analysis":
            ctx.reasoning("", ctx.take_raw())
            return ReasoningBody(ctx, _END)
        ctx.markup("")
        return ReasoningBody(ctx, _END, visible=True)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Header:
    return Header(ctx, block, match.group())


def _stripped(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    name = match.group("name")
    if not ctx.tools.is_known(name):
        return Revert(ctx)
    ctx.start_call(name)
    block.name = name
    return JsonBody(ctx, block)


ROWS = [
    Dialect("harmony", r"<\|start\|>|<\|channel\|>", _END.pattern, reader=_open, example=EXAMPLE),
    Dialect(
        "harmony_stripped",
        r"commentary[ \t]+to=(?:functions\.)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})[ \t]*(?:json)?[ \t]*(?=\{)",
        None,
        kind="untagged",
        reader=_stripped,
        example=EXAMPLE,
    ),
]
