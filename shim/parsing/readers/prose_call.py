"""An offered tool's call written inside prose: its name, then its arguments as one object, ``NAME({…})`` in
parentheses or Gemma 4's stripped ``NAME{…}`` glued to the name (a blank between them makes the name a word of
the sentence: ``The docs write Tool: get_weather {…} for it.`` stays text).

    Hello create_file({"path": "test.txt", "content": "hi"}) World
    Sure thing. set_reaction{reaction: 'amusement', strength: 0.7} Here's a joke for you.
    [TOOL_CALL] web_search({"query": "AI"})
    call fetch_data({
      "source": "api"
    })

Harness prompts ask for ``NAME({json})`` (apitester, deepresearch, local-llm-kit), and Gemma 4 with its call tokens
stripped writes ``NAME{key: 'value'}`` in the middle of its spoken reply (superl8-serve). The call is markup, the words
around it stay text; several in one message are several calls. A label that announces the call is markup with it:
``[TOOL_CALL]`` before the name anywhere, ``call`` opening the call's line.

A call in prose is read only where the evidence is strong:

- the name is an offered tool's, standing as a word of its own (``api.create_file(`` or ``my_create_file(`` is
  code, not the call) and not in code (an inline span, a fence: the core's prose rules), nor after words presenting
  an example (`shim.parsing.readers.prose.presents`);
- the object's keys are the tool's declared parameters, every required one among them, and there is one at least
  (``NAME({})`` says nothing; a tool that declares none takes no call here); its first key is seen before the
  opener is taken;
- the object closes, then the ``)`` where it opened one, and nothing glued to the call's end goes on as code:
  ``).json()``, ``)[0]``, ``)x`` keep it all text.

Anything else is text, unchanged. A call opening the message or a line alone is `pythonic_calls`' or `name_first`'s;
this reader takes the same calls where prose is around them.
"""

from __future__ import annotations

import json
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import (
    Block,
    Context,
    Dialect,
    GivenBack,
    Reader,
    keep_line_break,
    message_and_line_rows,
)
from shim.parsing.readers.prose import presents
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "in_prose"]

_PAREN_END = regex.compile(r"[ \t\r\n]{0,8}\)")
"""The ``)`` right after the arguments object of ``NAME({…})``."""
_CALL_END = regex.compile(r"[ \t\r\n,;:!?)\]]|\.(?:[ \t\r\n]|\Z)|\Z")
"""What may follow a call in prose: a blank, a sentence's punctuation, a bracket closing around it, the end."""
_WORD_BEFORE = regex.compile(r"[\w.$@/\\\-]\Z|(?:[\"'][ \t]*:|[=(\[{])[ \t]*\Z")
"""A name glued to what is before it (``api.create_file``, ``my_create_file``, ``$create_file``), or a value of code
around it: a JSON member's (``"last_Date": birthdate({…})``, DeepSeek R1 in ollama#8517), an assignment's, an
argument's (``print(read_file({…}))``, ``[read_file({…})]``): no call."""
_LABEL = r"\[[ \t]{0,4}(?:tool|function)?[ _]?call[ \t]{0,4}\][ \t]{0,4}"
"""``[TOOL_CALL]`` before the call (deepresearch's prompt): the label is markup."""
_LINE_LABEL = r"call[ \t]{1,4}"
"""``call`` opening the call's line (local-llm-kit): the label is markup."""


def _keys(tools: ToolIndex) -> str | None:
    """Every offered tool's declared parameters, as one alternation (the opener's lookahead sees the first key)."""
    keys = {key for name in tools.specs for key in tools.properties(name) or ()}
    return "|".join(regex.escape(k) for k in sorted(keys, key=len, reverse=True)) or None


def _args_ahead(tools: ToolIndex) -> str | None:
    keys = _keys(tools)
    if keys is None:
        return None
    return rf"""(?=\{{[ \t\r\n]{{0,8}}["']?(?:{keys})["']?[ \t]{{0,4}}:)"""


def _opener(prefix: str) -> Any:
    def build(tools: ToolIndex) -> str | None:
        names, ahead = tool_name_pattern(tools), _args_ahead(tools)
        if names is None or ahead is None:
            return None
        return rf"{prefix}(?P<name>{names})(?P<paren>[ \t]{{0,2}}\([ \t\r\n]{{0,8}})?{ahead}"

    return build


def _words(tools: ToolIndex) -> tuple[str, ...]:
    """Where the text scanner stops for the offered names: each name's leading run of letters and digits (``create``
    for ``create_file``). A stop ends before any character that is a stop of its own (``_``, ``-``): the scanner finds
    the first stop fully written before one that a chunk's end cuts, so a stop word must hold none of them."""
    return tuple(sorted({m.group() for n in tools.specs if (m := _LEADING.match(n)) is not None}))


_LEADING = regex.compile(r"[A-Za-z][A-Za-z0-9]*")


def _declared(tools: ToolIndex, name: str, arguments: Any) -> bool:
    """``arguments`` is an object of the tool's declared parameters, every required one among them."""
    props = tools.properties(name)
    if props is None or not isinstance(arguments, dict):
        return False
    keys = set(cast("dict[str, Any]", arguments))
    spec = tools.specs[name]
    required: Any = spec.input_schema.get("required") or []
    needed = {str(r) for r in cast("list[Any]", required)} if isinstance(required, list) else set[str]()
    return bool(keys) and keys <= set(props) and needed <= keys


def in_prose(ctx: Context, name: str, *, paren: bool) -> Reader:
    """The reader of a call's arguments object (its name and opener consumed): the object, the ``)`` with
    ``paren``, and an end of the call prose may follow; else all of it is text again."""
    tool = ctx.tools.resolve(name)

    def as_call(arguments: str) -> str:  # the call object the shape rules read, or nothing when the keys do not fit
        try:
            value = lenient_json.loads(arguments)
        except lenient_json.LenientJSONError:
            return ""
        if not _declared(ctx.tools, tool, value):
            return ""
        return json.dumps({"name": tool, "arguments": value})

    ends = [(_PAREN_END, True)] if paren else []
    return JsonCall(ctx, JsonCandidate(ctx), ends, as_call=as_call, follows=_CALL_END)


_WRAPPER = r"(?:function|tool)_call[ \t]{0,2}\([ \t\r\n]{0,8}(?=\{)"
"""``function_call(`` around a whole call object (local-llm-kit): the wrapper's word and parentheses are markup."""


def _open_wrapper(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block, match
    tail = ctx.tail()
    if _WORD_BEFORE.search(tail) is not None or presents(tail):
        return GivenBack(ctx)
    return JsonCall(ctx, JsonCandidate(ctx), [(_PAREN_END, True)], follows=_CALL_END)


def _pair(prefix: str) -> Any:
    """``name: "NAME", arguments: {…}``: a call object's two members with its braces and the keys' quotes left out."""

    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is None:
            return None
        return (
            rf"""{prefix}name[ \t]{{0,4}}:[ \t]{{0,4}}(?P<q>["']?)(?P<name>{names})(?P=q)[ \t]{{0,4}},[ \t]{{0,4}}"""
            rf"(?:arguments|parameters|args)[ \t]{{0,4}}:[ \t]{{0,4}}(?=\{{)"
        )

    return build


def _open_pair(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    keep_line_break(ctx, "\r\n \t")  # the line break and indent before it stay text
    if presents(ctx.tail()):
        return GivenBack(ctx)
    name = ctx.tools.resolve(match.group("name"))

    return JsonCall(ctx, JsonCandidate(ctx), [(_LINE_END, True)], as_call=call_of(name))


_LINE_END = regex.compile(r"[ \t]{0,8}(?:\r?\n|$)")
"""A call written as a line's pair ends its line."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    tail = ctx.tail()
    if _WORD_BEFORE.search(tail) is not None or presents(tail):
        return GivenBack(ctx)
    return in_prose(ctx, match.group("name"), paren=match.group("paren") is not None)


def _open_line(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    keep_line_break(ctx, "\r\n \t")  # the line break and indent before it stay text
    if presents(ctx.tail()):
        return GivenBack(ctx)
    return in_prose(ctx, match.group("name"), paren=match.group("paren") is not None)


ROWS = [
    # create_file({"path": "a.txt"}) / set_reaction{reaction: 'joy'} anywhere in prose: the scanner stops at the
    # offered names (`Dialect.words`), not at every letter.
    Dialect(
        "prose_call",
        "name",
        None,
        kind="untagged",
        reader=_open,
        open_for_tools=_opener(""),
        words_for_tools=_words,
        example='NAME({"KEY": "VALUE"})',
    ),
    # [TOOL_CALL] web_search({"query": "AI"}): the label and the call, anywhere.
    Dialect(
        "labelled_prose_call", r"\[", None, kind="untagged", first="[", reader=_open, open_for_tools=_opener(_LABEL)
    ),
    # function_call({"name": "calculate", "arguments": {…}}) anywhere: a call word's parentheses around a call.
    Dialect(
        "call_word_wrapper",
        _WRAPPER,
        None,
        kind="untagged",
        first="fFtT",
        words=("function", "tool"),  # no `_` in a stop word (`_words`)
        reader=_open_wrapper,
    ),
    # name: "search_database", arguments: {…} opening the message or a line.
    *message_and_line_rows("name_colon_arguments", _pair, reader=_open_pair, open="name", first="nN"),
    # call fetch_data({…}) opening the message or a line.
    *message_and_line_rows(
        "call_word_prose_call",
        lambda prefix: _opener(prefix + _LINE_LABEL),
        reader=_open_line,
        open="call",
        first="cC",
    ),
]
