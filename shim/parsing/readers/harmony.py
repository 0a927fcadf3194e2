"""gpt-oss harmony: ``<|start|>assistant<|channel|>CHANNEL [to=functions.NAME] [<|constrain|>json]<|message|>``.

    <|channel|>analysis<|message|>User asks weather in SF.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "SF"}<|call|>
    <|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>

A message with a recipient is a call (its JSON arguments stream); the ``analysis`` channel is reasoning;
any other message is visible text. Header tokens are markup. (Token spellings: openai/harmony, vLLM
``openai_tool_parser.py``, Ollama ``harmony/harmonyparser.go``.) Engines that strip special tokens leave
``commentary to=functions.NAME json{…}`` (or, opening the message, the recipient alone: ``to=functions.NAME {…}``,
``to=tool:NAME {…}``): read only when NAME is an offered tool; so is such a stripped header
as the body of a call tag (``<tool_call>assistant to=functions.NAME json\n{…}</tool_call>``). With every token
stripped, ``analysis…assistantfinal…`` opening the message is reasoning, then text. A recipient named with spaces
(``to=functions.Web Search``) is read as the offered tool its words name.

Models built on the same message structure address a message by recipient alone (ATEM / Glimmer,
``<|start|>assistant to=self<|message|>…<|eom|>``): ``to=self`` is reasoning, ``to=user`` (or ``all``) text for
the user, read as written, and a message to a tool, or to no one, whose body is a tagged call form
(``<atem:function_calls>…``) hands that form to the family that reads it. The output may begin inside such a
header (the template wrote ``<|start|>assistant``): `` to=NAME<|message|>`` or ``<|message|>`` where the message
begins. ``<|eom|>`` and ``<|eot|>`` end a message as ``<|end|>`` does.
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader, WholeToEnd, read_to
from shim.parsing.readers.block_end import TURN_END, Revert
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.reasoning import ReasoningBody
from shim.parsing.tags import PARTIAL

__all__ = ["ROWS"]

_MESSAGE = regex.compile(r"<\|message\|>")
_END = regex.compile(r"<\|end\|>|<\|call\|>|<\|return\|>|<\|eom\|>|<\|eot\|>")
_BODY_END = regex.compile(_END.pattern + r"|(?=<\|start\|>|<\|channel\|>)")
"""Where a reasoning or text message ends: its end token, or the header of the next message when the end token
was left out (``<|channel|>analysis<|message|>thinking...<|channel|>commentary to=…``, vllm-mlx's tests)."""
_RECIPIENT = regex.compile(r"\bto=(?:functions\.)?(?P<name>[^\s<]{1,128})")
_CHANNEL = regex.compile(r"<\|channel\|>[ \t]*(?P<channel>\w+)")
_MAX_HEADER = 512
_OTHER_ROLE = regex.compile(r"<\|start\|>[ \t]{0,2}(?:system|developer|user)\b", regex.IGNORECASE)
"""A header of a turn that is not the model's (``<|start|>system<|message|>``, ``<|start|>user<|message|>``): a
rendered prompt or a transcript, every character text (and, once shown, `shim.parsing.readers.prose.TRANSCRIPT`
keeps the rest of it text). A model writes its own turn (``assistant``), never the system's or the user's."""
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
        header = "".join(self.header)
        if _OTHER_ROLE.match(header):  # `<|start|>system<|message|>`: a rendered prompt, not the model's turn
            ctx.revert()
            return found.end(), None
        return found.end(), self._body(header)

    def _body(self, header: str) -> Reader:
        return message_body(self.ctx, self.block, header)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


_SELF = frozenset({"self"})
_USER = frozenset({"user", "all"})


def message_body(ctx: Context, block: Block, header: str) -> Reader:
    """The reader of a message's body, from its header: a call, reasoning, or text."""
    recipient = _RECIPIENT.search(header)
    name = _recipient_name(ctx, header, recipient) if recipient is not None else None
    if name is not None and not ctx.tools.is_known(name) and name.casefold() in _SELF | _USER:
        if name.casefold() in _SELF:
            ctx.reasoning("", ctx.take_raw())
            return ReasoningBody(ctx, _BODY_END)
        _visible_header(ctx)
        return ReasoningBody(ctx, _BODY_END, visible=True)
    channel = _CHANNEL.search(header)
    if name is None and channel is not None and channel.group("channel").casefold() == "analysis":
        ctx.reasoning("", ctx.take_raw())
        return ReasoningBody(ctx, _BODY_END)
    return _Lead(ctx, block, name)


_MORE_WORDS = regex.compile(r"(?:[ \t][^\s<]{1,64}){1,3}")


def _recipient_name(ctx: Context, header: str, recipient: regex.Match[str]) -> str:
    """The recipient's name: its first word, or, when that is no offered tool, the longest run of words after
    ``to=`` that is one (LM Studio's ``to=functions.Web Search <|constrain|>json``: a tool named with spaces)."""
    name = recipient.group("name")
    if ctx.tools.is_known(name):
        return name
    words = _MORE_WORDS.match(header, recipient.end())
    if words is not None:
        parts = words.group().split()
        for size in range(len(parts), 0, -1):
            candidate = " ".join([name, *parts[:size]])
            if ctx.tools.is_known(candidate):
                return candidate
    return name


def _visible_header(ctx: Context) -> None:
    """The header of a message the user reads: markup; after visible text of an earlier message (a commentary
    preamble, then the final answer), a line break between the two, as a reader shows two messages."""
    if ctx.shown:
        ctx.text("\n", ctx.take_raw())
    else:
        ctx.markup("")


class _Lead:
    """The first characters of a message's body: ``{`` begins a call's JSON arguments (with a recipient); an
    opener of a tagged call form hands the body to that form's family (the header is markup); anything
    else is the message's content (text)."""

    def __init__(self, ctx: Context, block: Block, name: str | None) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        lead = pos
        while lead < len(text) and text[lead] in " \t\r\n":
            lead += 1
        if lead >= len(text) and not final:
            return pos, MORE
        char = text[lead] if lead < len(text) else ""
        if char == "{" and self.name is not None:
            ctx.start_call(self.name)
            self.block.name = self.name
            return pos, JsonBody(ctx, self.block)
        if char == "<":
            found = ctx.markers.match(text, lead, final)
            if found is PARTIAL:
                return pos, MORE
            if found is not None and found.dialect is not None and found.dialect.kind == "call":
                ctx.markup("")
                return pos, None
        if self.name is not None:  # a recipient but no arguments: as before, a call whose body fails
            ctx.start_call(self.name)
            self.block.name = self.name
            return pos, JsonBody(ctx, self.block)
        _visible_header(ctx)
        return pos, ReasoningBody(ctx, _BODY_END, visible=True)

    def finish(self, truncated: bool) -> None:
        if self.name is not None:
            self.ctx.revert()
        else:
            self.ctx.markup("")


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Header:
    return Header(ctx, block, match.group())


def _headless(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    """The output begins inside a message header the template opened: the header is markup."""
    return message_body(ctx, block, match.group())


def _stripped(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    name = match.group("name")
    if not ctx.tools.is_known(name):
        return Revert(ctx)
    ctx.start_call(name)
    block.name = name
    return JsonBody(ctx, block)


def _recipient_only(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    if _GLUED.search(ctx.tail()):
        return Revert(ctx)  # `goto=tool:x`, `a.to=tool:x`: `to=` is part of another word
    if ctx.shown and ctx.tools.is_known(match.group("name")):  # after prose: a call only if it ends the output
        return _RecipientLast(ctx, match.group("name"))
    return _stripped(ctx, block, match)


_GLUED = regex.compile(r"[\w.=:/\-]\Z")


_TAIL = regex.compile(rf"(?:[ \t\r\n]+|{TURN_END.pattern})*", regex.IGNORECASE)


class _RecipientLast(WholeToEnd):
    """The recipient alone after prose (``Let me search. to=tool:code-search {…}``): a message addressed to a tool
    is the last of the model's turn, so it is a call only when its JSON ends the output (blanks and turn tokens
    aside); words after it (``Send it to=tool:x {…} later.``) make the whole prose. Decided at the end."""

    END = regex.compile(r"(?!)")

    def __init__(self, ctx: Context, name: str) -> None:
        super().__init__(ctx)
        self.name = name

    def _decide(self) -> None:
        body = "".join(self.body)
        found = lenient_json.value_at(body)
        tail = _TAIL.match(body, found[1]) if found is not None else None
        if found is None or not isinstance(found[0], dict) or tail is None or tail.end() < len(body):
            self.ctx.revert()
            return
        self.ctx.end_call(self.name, cast("dict[str, Any]", found[0]), streamed=False)
        self.ctx.markup("")


def _stripped_analysis(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    ctx.reasoning("", ctx.take_raw())
    return ReasoningBody(ctx, _STRIPPED_FINAL)


_STRIPPED_FINAL = regex.compile(r"assistant(?:[ \t]{0,2}final|(?=[ \t]{0,2}commentary[ \t]))")
"""Where the reasoning of a message whose tokens were stripped ends: the next header's words, glued
(``…nothing else.assistantfinalfour``); a ``commentary to=…`` header after it is read as its row reads it."""

_ANALYSIS_END = regex.compile(r"<\|end\|>")
_MAX_ANALYSIS = 4000


class _BareAnalysis:
    """``analysis`` opening the message with ``<|start|>assistant<|channel|>`` (and ``<|message|>``) stripped: its
    text is reasoning when ``<|end|>`` ends it (held and decided there); without it, everything is text."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.body: list[str] = []
        self.size = 0

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        stop, end = read_to(ctx, self.body, _ANALYSIS_END, text, pos, final)
        self.size += stop - pos
        if self.size > _MAX_ANALYSIS or (end is None and final):
            ctx.revert()  # no `<|end|>`: a reply whose first word is "analysis"
            return stop, None
        if end is None:
            return stop, self
        if end.partial:
            return stop, MORE
        ctx.consume(end.group())
        ctx.reasoning("".join(self.body).strip(), ctx.take_raw())
        return end.end(), None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _bare_analysis(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block, match
    return _BareAnalysis(ctx)


ROWS = [
    Dialect("harmony", r"<\|start\|>|<\|channel\|>", _END.pattern, reader=_open, example=EXAMPLE),
    Dialect(
        "harmony_headless",
        r"(?:to=[^\s<]{1,128}[ \t]{0,8}(?:<\|channel\|>[ \t]{0,4}\w{1,16}[ \t]{0,8}(?:json[ \t]{0,8})?)?)?"
        r"(?:<\|constrain\|>\w{1,16}[ \t]{0,8})?<\|message\|>",
        _END.pattern,
        kind="untagged",  # where the message begins, with offered tools (a header is no prose's first word)
        start="message",
        first="t<",
        reader=_headless,
        example=EXAMPLE,
    ),
    Dialect(
        "recipient_in_tag",
        r"(?:assistant[ \t]+|commentary[ \t]+)?to=(?:functions\.)?(?P<name>[^\s<>{}]{1,128})"
        r"[ \t]*(?:json)?[ \t]*\r?\n?(?=[ \t]*\{)",
        None,
        start="inside",
        inside=("tool_call", "tool_calls", "function_call"),
        first="act",
        reader=_stripped,
        example=EXAMPLE,
    ),
    Dialect(
        "harmony_stripped",
        r"commentary[ \t]+to=(?:functions\.)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})[ \t]*"
        r"(?:<\|constrain\|>[ \t]{0,4})?(?:json)?[ \t]*(?:<\|message\|>[ \t\r\n]{0,8})?(?=\{)",
        None,
        kind="untagged",
        reader=_stripped,
        example=EXAMPLE,
    ),
    # Every token stripped, the channel words left glued to the text (an engine decoding without special tokens):
    # `analysisWe need to answer…assistantfinalfour`. Where the message begins, `analysis` glued to a capital or a
    # quote opens the reasoning, up to `assistantfinal` (markup) or a stripped `assistantcommentary to=…` call.
    Dialect(
        "harmony_stripped_analysis",
        r"analysis(?=[\p{Lu}\"'*])",
        None,
        kind="untagged",
        start="message",
        first="a",
        reader=_stripped_analysis,
    ),
    # Only `<|start|>assistant<|channel|>` stripped (linzeyan/assistant's gpt-oss test): `analysis` then a blank
    # opening the message, its text reasoning up to `<|end|>` (`_BareAnalysis`); the `commentary to=…` header after
    # it is `harmony_stripped`'s.
    Dialect(
        "harmony_bare_analysis",
        r"analysis(?:[ \t]{1,4}|[ \t]{0,4}<\|message\|>[ \t\r\n]{0,4})",
        None,
        kind="untagged",
        start="message",
        first="a",
        reader=_bare_analysis,
    ),
    # The recipient alone, channel word stripped too: `to=functions.NAME {…}`, `to=tool:NAME {…}` (supercoder's
    # parser tests), opening the message or after prose (`Let me search. to=tool:code-search {…}`); an offered tool
    # only. The text scanner stops at the word `to=` (`shim.parsing.tags.Markers.fence_stops`), never at every `t`.
    Dialect(
        "recipient_only",
        r"to=(?:functions|tools?)[.:](?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})[ \t]{0,8}"
        r"(?:<\|constrain\|>[ \t]{0,4})?(?:json)?[ \t]{0,8}\r?\n?[ \t]{0,8}(?=\{)",
        None,
        kind="untagged",
        reader=_recipient_only,
        example=EXAMPLE,
    ),
]
