"""Calls between special tokens whose words say what they are: a call opens at a token that names a tool or
function call, and the body inside is read by the shared shape readers (a JSON call, or key / value pairs).

- A call token of either bar style (``<|x|>``, or DeepSeek's full-width bars) followed by a JSON call or a list of them:
  GigaChat 3.1 ``<|function_call|>{"name": …, "arguments": {…}}``, and the same words with ``tool``, a plural, or
  a start / begin word (``<|tool_calls_begin|>``).
- A role header addressing a function, between two special tokens: GigaChat 3
  ``<|message_sep|>\\n\\nfunction call<|role_sep|>\\n{…}`` (vLLM ``gigachat3_tool_parser.py``).
- A call token with a start word, the name, then argument tokens (Solar Open, vLLM ``solar_open_tool_parser.py``)::

    <|tool_call:start|>get_weather
    <|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>
    <|tool_call:end|>

- A Markdown fence whose language is a call word (```` ```tool_call ````) around a JSON call.
- Kimi K3's open / close grammar (SGLang ``kimik3_detector.py``): ``<|open|>tools<|sep|>`` and
  ``<|open|>response<|sep|>`` sections (markup), ``<|open|>call tool="NAME" …<|sep|>``, arguments
  ``<|open|>argument key="K" …<|sep|>V<|close|>argument<|sep|>`` (or one block of all arguments,
  ``<|open|>json …<|sep|>{…}<|close|>json<|sep|>``), ``<|close|>call<|sep|>``, the message's end
  ``<|close|>message<|sep|>`` (markup as a turn's end is; its think channel is a reasoning row).

Leniencies: ``:``, ``_``, a space or nothing between a token's words; either word order of start and subject;
any case; the call's end token left out (the next call, or the stream's end, closes it). A token whose words
say nothing of a call (``<|im_start|>``) opens nothing here.
"""

from __future__ import annotations

import html

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import Skip, open_markup
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.tagged_json import TaggedStart
from shim.parsing.readers.xml_args import PairForm, XmlPairs

__all__ = ["ROWS"]

_L = r"<[|\uff5c]"
_R = r"[|\uff5c]>"
_J = r"[:_ ]?"
"""Between a token's words."""
_START = r"(?:start|begin|open)"
_CALL = rf"(?:tool|function){_J}calls?"
_TOKEN = rf"{_L}[^|\uff5c<>\s]{{1,40}}{_R}"
_GAP = r"[ \t\r\n]{0,4}"
_NAME = r"[A-Za-z_][\w.\-]{0,127}"


def _token(words: str, edge: str) -> str:
    """A special token of ``words`` with ``edge`` (start, end) before or after them, or (edge ``""``) alone."""
    if not edge:
        return rf"{_L}{words}{_R}"
    return rf"{_L}(?:{words}{_J}{edge}|{edge}{_J}{words}){_R}"


_THOUGHT_WORDS = r"[^<>\[\]{}\r\n]{1,400}?"
_THOUGHT_END = r"(?:</think>)?[ \t\r\n]{0,4}"
_THOUGHT = _THOUGHT_WORDS + _THOUGHT_END
"""A sentence inside a call token before its JSON: no markup, no brackets, on one line, at most a short paragraph."""
_BODY_START = r"(?:\[[ \t\r\n]{0,8}\{|\{[ \t\r\n]{0,8}\")"
_THOUGHT_TEXT = regex.compile(rf"(?P<text>{_THOUGHT_WORDS})(?P<end>{_THOUGHT_END})(?={_BODY_START})")


class _Thought:
    """Inside a call token, the thought before its JSON (the opener's lookahead saw it whole): reasoning, a
    ``</think>`` after it markup; then the JSON as a call token's body."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = _THOUGHT_TEXT.match(text, pos, partial=not final)
        if found is None:
            self.ctx.revert()
            return pos, None
        if found.partial or (found.end() >= len(text) and not final):
            return pos, MORE
        self.ctx.reasoning(found.group("text"), self.ctx.take_raw(found.group("text")))
        self.ctx.markup(found.group("end"))
        return found.end(), TaggedStart(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _thought(ctx: Context, block: Block, match: regex.Match[str]) -> _Thought:
    return _Thought(ctx, block)


def _json(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)  # a JSON call, a list of them; anything else: the token goes back as text


def _json_block(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    # the tool named in the call's opener (an attribute: `&quot;` is `"`), its arguments one JSON object
    block.name = html.unescape(match.group("name"))
    return JsonBody(ctx, block)


_ARG = rf"(?:tool{_J})?arg(?:ument)?"
PAIR_FORM = PairForm(
    key=regex.compile(
        rf"{_token(_ARG, _START)}[ \t]*(?P<key>[^<\n]{{1,200}}?)[ \t]*{_token(_ARG, 'value')}", regex.IGNORECASE
    ),
    value_end=regex.compile(
        rf"(?P<close>{_token(_ARG, 'end')})|{_token(_ARG, _START)}|{_token(_CALL, 'end')}", regex.IGNORECASE
    ),
    call_end=regex.compile(_token(_CALL, "end"), regex.IGNORECASE),
    expected="<|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|> or <|tool_call:end|>",
)


def _pairs(ctx: Context, block: Block, match: regex.Match[str]) -> XmlPairs:
    return XmlPairs(ctx, block, match.group("name"), PAIR_FORM)


_SEP = rf"{_L}sep{_R}"
_ATTR_TEXT = r"""(?:[^"\n<>]|<(?![|\uff5c]))"""
"""One character of a name or key attribute: a raw ``<`` too (``tool="calc<beta"``, Aphrodite's K3 tests), never
the start of a token; its entities are unescaped as XML's (``a&amp;b`` is ``a&b``)."""
_ATTR = r"""[ \t]+[\w-]{1,32}[ \t]*=[ \t]*"[^"\n<>]{0,64}\""""
_OTHER_ATTR = r"""[ \t]+(?!tool[ \t]*=)[\w-]{1,32}[ \t]*=[ \t]*"[^"\n<>]{0,64}\""""
"""An attribute other than ``tool`` (``index="1"``), before the tool's or in a call that names none."""
OPEN_CLOSE_FORM = PairForm(
    key=regex.compile(
        rf"""{_L}open{_R}argument[ \t]+key[ \t]*=[ \t]*"(?P<key>{_ATTR_TEXT}{{1,200}})"(?:{_ATTR}){{0,4}}?"""
        rf"""(?:[ \t]+type[ \t]*=[ \t]*"(?P<type>[a-z]{{1,16}})")?(?:{_ATTR}){{0,4}}[ \t]*{_SEP}""",
        regex.IGNORECASE,
    ),
    value_end=regex.compile(
        rf"(?P<close>{_L}close{_R}argument{_SEP})|{_L}open{_R}argument[ \t]|{_L}close{_R}call{_SEP}",
        regex.IGNORECASE,
    ),
    # The section's closer ends a call whose own closer was left out.
    call_end=regex.compile(rf"{_L}close{_R}call{_SEP}|{_L}close{_R}tools{_SEP}", regex.IGNORECASE),
    expected='<|open|>argument key="KEY"<|sep|>VALUE<|close|>argument<|sep|> or <|close|>call<|sep|>',
)


def _open_close(ctx: Context, block: Block, match: regex.Match[str]) -> XmlPairs:
    return XmlPairs(ctx, block, html.unescape(match.group("name")), OPEN_CLOSE_FORM)  # an attribute: `&quot;` is `"`


_CALL_OPEN = (
    rf'''{_L}open{_R}call(?:{_OTHER_ATTR}){{0,4}}[ \t]+tool[ \t]*=[ \t]*"(?P<name>{_ATTR_TEXT}{{1,128}})"'''
    rf"""(?:{_ATTR}){{0,4}}[ \t]*{_SEP}"""
)
"""K3's call opener naming its tool in the ``tool`` attribute, before or after the others."""


def _nameless(ctx: Context, block: Block, match: regex.Match[str]) -> Skip:
    return Skip(ctx, 'the call names no tool: write tool="NAME" in its opener')


ROWS = [
    Dialect(
        "call_token_pairs",
        rf"{_token(_CALL, _START)}[ \t]*(?P<name>{_NAME})(?={_GAP}{_L}(?:{_ARG}|{_CALL}){_J}(?:{_START}|end){_R})",
        None,
        first="<",
        reader=_pairs,
        example="<|tool_call:start|>NAME\n<|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|>\n<|tool_call:end|>",
    ),
    Dialect(
        "call_token",
        rf"(?:{_token(_CALL, _START)}|{_token(_CALL, '')})(?={_GAP}[\[{{])",
        rf"{_token(_CALL, 'end')}",
        first="<",
        reader=_json,
        example='<|function_call|>{"name": "NAME", "arguments": {...}}',
    ),
    # A sentence of thought inside the call token before its JSON (Seed's `<|FunctionCallBegin|>User needs the
    # weather.[{…}]`, UI-TARS' MCP environment; sometimes closed by a `</think>`): reasoning, then the call.
    Dialect(
        "call_token_thought",
        rf"{_token(_CALL, _START)}(?={_THOUGHT}{_BODY_START})",
        rf"{_token(_CALL, 'end')}",
        first="<",
        reader=_thought,
        example='<|function_call|>{"name": "NAME", "arguments": {...}}',
    ),
    Dialect(
        "call_role_header",
        # The role must say call: a bare `tool` role (`<|im_start|>tool<|im_sep|>`) carries a tool's result.
        rf"{_TOKEN}{_GAP}{_CALL}{_GAP}{_TOKEN}(?={_GAP}[\[{{])",
        None,
        first="<",
        reader=_json,
        example='<|message_sep|>function call<|role_sep|>{"name": "NAME", "arguments": {...}}',
    ),
    # A Markdown fence whose language is a call word, around a JSON call (Gemma 3 1B: ```tool_call\n{…}\n```).
    Dialect(
        "call_fence",
        rf"```[ \t]{{0,4}}{_CALL}[ \t]{{0,8}}\r?\n(?=[ \t\r\n]{{0,8}}[\[{{])",
        r"```",
        first="`",
        reader=_json,
        example='```tool_call\n{"name": "NAME", "arguments": {...}}\n```',
    ),
    # A call whose arguments are one JSON block: `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`.
    Dialect(
        "open_close_json",
        _CALL_OPEN + rf"""[ \t\r\n]{{0,8}}{_L}open{_R}json(?:{_ATTR}){{0,4}}[ \t]*{_SEP}(?=[ \t\r\n]{{0,8}}\{{)""",
        rf"{_L}close{_R}json{_SEP}(?:[ \t\r\n]{{0,8}}{_L}close{_R}call{_SEP})?",
        first="<",
        reader=_json_block,
        example='<|open|>call tool="NAME"<|sep|><|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>'
        "<|close|>call<|sep|>",
    ),
    Dialect(
        "open_close_call",
        _CALL_OPEN,
        rf"{_L}close{_R}call{_SEP}",  # read by the pairs' reader; named so a reasoning block knows a call closed
        first="<",
        reader=_open_close,
        example='<|open|>call tool="NAME"<|sep|><|open|>argument key="KEY"<|sep|>VALUE<|close|>argument<|sep|>'
        "<|close|>call<|sep|>",
    ),
    # A call that names no tool (`<|open|>call index="1"<|sep|><|open|>argument …`), its arguments right after it: the
    # model's call, which no reader can run: an error carrying it to its closer (after the rows above, which read a
    # call naming one). Without an argument after it, the token is named in prose: text.
    Dialect(
        "open_close_nameless",
        rf"{_L}open{_R}call(?:{_OTHER_ATTR}){{0,4}}[ \t]*{_SEP}(?=[ \t\r\n]{{0,8}}{_L}open{_R}argument\b)",
        rf"{_L}close{_R}call{_SEP}",
        first="<",
        reader=_nameless,
        example='<|open|>call tool="NAME"<|sep|><|open|>argument key="KEY"<|sep|>VALUE<|close|>argument<|sep|>'
        "<|close|>call<|sep|>",
    ),
    # The response channel's tokens; the tools section's opener where a token follows it (named in prose, it is
    # text). Its closer and the message's are turn ends (`block_end.TURN_END`): markup after a call, or where the
    # message ends or another token follows.
    Dialect(
        "open_close_section",
        rf"{_L}(?:open|close){_R}response{_SEP}|{_L}open{_R}tools{_SEP}(?=[ \t\r\n]{{0,8}}{_L})",
        None,
        kind="markup",
        first="<",
        reader=open_markup,
    ),
]
