"""Tool-name-first calls: the tool's name, then its arguments on the next line (Functionary v1 to v3).

    >>>get_weather
    {"city": "Paris"}

The same without a marker opens a message (the arguments on the next line, or on the name's line:
``searxng_search {"query": …}``, ``read_file{"path": …}``; the name may keep Kimi's call index, ``detect_ui:0``)
or, with a JSON object on the name's line, any line;
and it follows a label set off by rules or brackets anywhere (``--- CALL ---``), where the name may carry a URI
scheme (``nc://searxng_search``).

Functionary's turns begin with ``>>>RECIPIENT\\n`` (v2.5 on Llama 3: ``<|reserved_special_token_249|>``): ``all``
for text to the user, a tool's name for a call. Its template ends the prompt with ``>>>``, so a served model's
output starts with the bare name. Both are read for offered tools only (``>>>`` opens REPL transcripts in prose,
and a word alone on a line is no evidence): with the marker anywhere, without it only where the message begins,
and only when a ``{`` follows on the next line. Leniencies:

- a body that is not JSON after a marked name is the raw value of the tool's one string parameter (its only
  parameter, or its only required one): functionary's ``python`` tool takes raw code this way. It runs to the
  next marker or special token (``<|eot_id|>``), or the end of the message. So does one after the bare name
  opening the message, alone on its line and exactly as offered (``bash\necho hi``: Qwen3.6 in vmlx#192);
- ``>>>all\\n`` (the recipient ``all``: the user) is turn markup, with tools offered only (a ``>`` that could start
  it would otherwise hold back every quote and tag end in prose).
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import MORE, NAME_START, Block, Context, Dialect, Next, keep_line_break, read_to
from shim.parsing.readers.block_end import AfterBody, open_markup
from shim.parsing.readers.json_body import CUT_OFF, JsonBody
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex, one_parameter
from shim.parsing.tags import compile_marker

__all__ = ["ROWS", "V2_HEADER", "V2_ROWS", "RawBody", "string_tools"]

_MARKER = r"(?:>>>|<\|reserved_special_token_249\|>)[ \t]{0,4}"
_RAW_END = regex.compile(r">>>|<\|[A-Za-z0-9_]{1,40}\|>")
"""Where a raw body ends: the next recipient marker or any special token (``<|eot_id|>``, ``<|from|>``)."""


def string_tools(tools: ToolIndex) -> ToolIndex:
    """The offered tools a raw string can be the arguments of: one string parameter (the only one, or the only
    required one)."""
    fits: list[Any] = []
    for spec in tools.specs.values():
        arguments = one_parameter(tools, spec.name, "x")
        if arguments is not None and arguments and tools.property_type(spec.name, next(iter(arguments))) == "string":
            fits.append(spec)
    return ToolIndex(fits)


class RawBody:
    """A call's body that is the raw value of the tool's one string parameter, up to the next marker or token."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.body: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        stop, end = read_to(self.ctx, self.body, _RAW_END, text, pos, final)
        if end is not None and end.partial:
            return stop, MORE
        if end is None and not final:
            return stop, self
        return stop, self._decide()

    def _decide(self) -> Next:
        arguments = one_parameter(self.ctx.tools, self.name, "".join(self.body).strip("\r\n"))
        if arguments is None:
            self.ctx.revert()
            return None
        self.ctx.end_call(self.ctx.tools.resolve(self.name), arguments, streamed=False)
        return AfterBody(self.ctx, self.block)  # the turn's end token after it is markup

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        else:
            self._decide()


class Glued:
    """After a call's arguments: the next offered name and its object run on with no separator (``a{…}b{…}``,
    where a detokenizer dropped the control tokens between calls) is the next call; anything else is read on as
    after any body."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block
        names = tool_name_pattern(ctx.tools)
        self.pattern = None if names is None else compile_marker(_glued(names))

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if pos >= len(text) and not final:
            return pos, self
        found = None if self.pattern is None else self.pattern.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:
            return AfterBody(self.ctx, self.block).feed(text, pos, final)
        self.ctx.consume(found.group())
        self.block.name = found.group("name")
        return found.end(), JsonBody(self.ctx, self.block, then=lambda: Glued(self.ctx, self.block))

    def finish(self, truncated: bool) -> None:
        AfterBody(self.ctx, self.block).finish(truncated)


def _glued(names: str) -> str:
    # the name in its exact case, then its object (`{"` or `{}`) on the same line
    return rf"[ \t]{{0,4}}(?-i:(?P<name>{names}))[ \t]{{0,4}}(?=\{{[ \t]{{0,4}}[\"}}])"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    block.name = match.group("name")
    return JsonBody(ctx, block, then=lambda: Glued(ctx, block))


def _open_raw(ctx: Context, block: Block, match: regex.Match[str]) -> RawBody:
    return RawBody(ctx, block, match.group("name"))


def _marked(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"{_MARKER}(?P<name>{names})[ \t]{{0,4}}\r?\n[ \t\r\n]{{0,8}}(?=\{{)"


def _marked_raw(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(string_tools(tools))
    # the blank lines are taken whole (possessive), so a `{` after them is seen, or the match waits for more text
    return (
        None
        if names is None
        else rf"{_MARKER}(?P<name>{names})[ \t]{{0,4}}\r?\n(?:[ \t]*+\r?\n)*+(?=[ \t]*+[^ \t\r\n{{])"
    )


def _to_all(tools: ToolIndex) -> str | None:
    return None if not tools else rf"{_MARKER}all[ \t]{{0,4}}\r?\n|{V2_HEADER}all[ \t]{{0,4}}\r?\n?<\|content\|>"


V2_HEADER = r"(?:<\|from\|>[ \t]{0,4}assistant[ \t]{0,4}\r?\n?)?<\|recipient\|>[ \t]{0,4}"
"""Functionary v2's message header up to the recipient's name: ``<|from|>assistant\\n<|recipient|>``."""


def _v2_raw(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(string_tools(tools))
    tail = r"[ \t]{0,4}\r?\n?<\|content\|>(?:[ \t]*+\r?\n)*+(?=[ \t]*+[^ \t\r\n{])"
    return None if names is None else rf"{V2_HEADER}(?P<name>{names}){tail}"


def _bare_raw(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(string_tools(tools))
    # exactly as offered (case too): `Search` heading a paragraph is no call of `search`
    return (
        None if names is None else rf"(?-i:(?P<name>{names}))[ \t]{{0,4}}\r?\n(?:[ \t]*+\r?\n)*+(?=[ \t]*+[^ \t\r\n{{])"
    )


_COLON = r"(?:[ \t]{0,2}:(?![:/]))?"
"""A colon after the name, as a label (``get_weather: {"city": …}``): markup of the call."""


_SCHEME = r"(?:[a-z][a-z0-9+.\-]{0,15}://)?"
"""A URI scheme before the name (``nc://searxng_search``): the tool named as a resource; `ToolIndex.resolve` keeps
the last path segment."""


_INDEX = r"(?:[ \t]{0,2}:[ \t]{0,2}\d{1,4})?"
"""Kimi's call index after the name (``detect_ui:0``, its ids ``functions.NAME:INDEX`` left in the output with their
tokens dropped: gyro-claw's tests): markup of the call, never part of the name."""


def _bare(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    # the arguments on the next line, or on the same line after a space (`searxng_search {"query": …}`) or none
    return (
        None
        if names is None
        else rf"(?P<name>{names}){_INDEX}{_COLON}(?:[ \t]{{0,4}}\r?\n[ \t\r\n]{{0,8}}|[ \t]{{0,4}})(?=\{{)"
    )


def _line(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    # after prose, the name opens its line and a JSON object (`{"` or `{}`) follows on it: `read_file{"path": …}`
    return (
        None
        if names is None
        else rf"\r?\n[ \t]{{0,8}}(?P<name>{names}){_INDEX}{_COLON}[ \t]{{0,4}}(?=\{{[ \t]{{0,4}}[\"}}])"
    )


def _open_line(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    keep_line_break(ctx)  # the line break before the name stays text
    return _open(ctx, block, match)


def _after_prose(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    # a colon ending prose with the name glued on, no space: `…as follows:search{"query": …}` (exact case). Only
    # the colon: a full stop at a chunk's end would be held back for the name that may follow, in all prose
    return None if names is None else rf":(?-i:(?P<name>{names}))(?=\{{[ \t]{{0,4}}[\"}}])"


def _open_after_prose(ctx: Context, block: Block, match: regex.Match[str]) -> JsonBody:
    keep_line_break(ctx, ":")  # the prose's colon stays text
    return _open(ctx, block, match)


_CALL_LABEL = r"(?:[-=*#]{2,}|\[)[ \t]{0,4}(?i:(?:tool|function)[ _]?)?(?i:call)[ \t]{0,4}(?:[-=*#]{2,}|\]|:)"
"""A label that announces a call on its line, set off by rules or brackets: ``--- CALL ---``, ``=== TOOL CALL ===``,
``[CALL]``, ``## Call:``."""


def _labelled(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return rf"{_CALL_LABEL}[ \t]{{0,4}}{_SCHEME}(?P<name>{names})[ \t]{{0,4}}\r?\n?[ \t]{{0,4}}(?=\{{)"


ROWS = [
    # Functionary v1: <|START_OF_FUNCTION_CALL|>NAME:\n{…}<|END_OF_FUNCTION_CALL|> (special tokens: any name)
    Dialect(
        "functionary_v1",
        r"<\|START_OF_FUNCTION_CALL\|>[ \t]{0,4}(?P<name>[A-Za-z_][\w.-]{0,63})[ \t]{0,4}:?[ \t\r\n]{0,8}(?=\{)",
        r"<\|END_OF_FUNCTION_CALL\|>",
        reader=_open,
        example='<|START_OF_FUNCTION_CALL|>NAME:\n{"key": "value"}<|END_OF_FUNCTION_CALL|>',
    ),
    Dialect("functionary_recipient", ">>>", None, first="><", reader=_open, open_for_tools=_marked),
    Dialect("functionary_raw", ">>>", None, first="><", reader=_open_raw, open_for_tools=_marked_raw),
    Dialect("functionary_to_all", ">>>", None, kind="markup", first="><", reader=open_markup, open_for_tools=_to_all),
    Dialect(
        "name_first",
        "name",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open,
        open_for_tools=_bare,
    ),
    # The same on a line of its own after prose, a JSON object right after the name (MLX-Server's tests)
    Dialect("name_first_line", r"\n", None, kind="untagged", first="\n", reader=_open_line, open_for_tools=_line),
    # A label announcing the call, then the name and its arguments: `--- CALL --- nc://searxng_search {…}` (Qwen3.6
    # under vLLM, 1cat-vllm#26), anywhere in the message (the label and an offered tool's name are the evidence)
    Dialect(
        "labelled_name_first", "[-=*#[]", None, kind="untagged", first="-=*#[", reader=_open, open_for_tools=_labelled
    ),
    # Glued to prose's colon where a control token was dropped: Mistral Small 3.2's `[TOOL_CALLS]NAME[ARGS]{…}`
    # decoded with special tokens skipped (BFCL's result files) leaves `…these calculations:NAME{…}NAME{…}`. The colon
    # with no space after it, an offered name in its exact case and a JSON object right after are the evidence.
    Dialect(
        "name_first_after_prose",
        ":",
        None,
        kind="untagged",
        first=":",
        reader=_open_after_prose,
        open_for_tools=_after_prose,
        glued=True,  # `Sure, here is how you can do it:NAME{…}` is the calls, not an example shown
    ),
    # The same without the marker, a raw body: `bash\necho hi` opening the message (Qwen3.6 in vmlx#192)
    Dialect(
        "name_first_raw",
        "name",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open_raw,
        open_for_tools=_bare_raw,
    ),
]

V2_ROWS = [
    # Functionary v2: <|from|>assistant\n<|recipient|>NAME\n<|content|>raw text, for a tool of one string parameter
    # (listed before `react`'s row for the JSON form, which would read only the first line).
    Dialect("functionary_v2_raw", r"<\|", None, first="<", reader=_open_raw, open_for_tools=_v2_raw),
]
