"""MiniMax and Claude-style XML: ``<invoke name="NAME"><parameter name="K">V</parameter></invoke>``.

    <minimax:tool_call>
    <invoke name="get_weather">
    <parameter name="city">Seattle</parameter>
    </invoke>
    </minimax:tool_call>

Inside ``<minimax:tool_call>`` (MiniMax M2: vLLM ``minimax_m2_tool_parser.py``), inside ``<function_calls>``
(the Claude-style prompt format), or bare (mlx-lm's MiniMax tests). The names may carry a namespace
prefix (``<invoke>``). Several invokes share one wrapper. A parameter tag may carry attributes after its name
(``<parameter name="k" string="true">``, DeepSeek V3.2's DSML shape written without its markers). A chat
template's special token printed inside a quoted name (``name="read<|message|>"``, Glimmer under stress) stays in
the name; the tool index resolves it to the offered tool the rest names (`shapes.ToolIndex.resolve`).
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing.readers.base import MORE, RESULT_TAG, Block, Context, Dialect, Next, Reader, read_to
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.json_body import CUT_OFF, JsonBody, NamedStart
from shim.parsing.readers.name_lines import key_lines
from shim.parsing.readers.named_elements import declared_elements, declared_keys, element_body
from shim.parsing.readers.prose import presents
from shim.parsing.readers.tagged_json import TaggedStart, tag
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.xml_args import PairForm, XmlPairs
from shim.parsing.readers.xml_elements import elements
from shim.parsing.shapes import ToolIndex, one_parameter, positional_arguments
from shim.parsing.xml_values import typed_tree

__all__ = ["ANY_TAG_ROWS", "FORM", "ROWS"]

_NS = r"(?:[A-Za-z_]{1,16}:)?"
_QUOTED = r"""["'](?P<{group}>(?:[^"'\n>]|<[|\uff5c][^"'<>|\uff5c\n]{{1,40}}[|\uff5c]>){{1,128}})["']"""
"""A quoted name; a special token printed into it (``read<|message|>``) is kept for the tool index to strip."""
_PAIR = r"(?:param(?:eter)?|arg(?:ument)?)"
"""A pair's tag: ``<parameter name="K">`` (MiniMax), or the same pair spelled ``<param>``, ``<argument>``, ``<arg>``
(brain-agent's ``<tool name="bash"><param name="command">ls</param></tool>``)."""
_ATTRS = r"""(?:[ \t]+[\w:-]{1,32}[ \t]*=[ \t]*["'][^"'\n<>]{0,64}["']){0,4}"""
"""Further attributes after the name (DeepSeek V3.2 writes ``string="true"``): the schema types the value."""

_PAIR_EQ = rf"<{_PAIR}[ \t]{{0,4}}=[ \t]{{0,4}}"
"""Qwen3-Coder's spelling of a pair, ``<parameter=K>``, inside an invoke (llm-gateway's tests: the two families'
markup mixed, as MiniMax M2.7 writes ``<parameter name="K">`` inside Qwen's ``<function=NAME>``)."""

FORM = PairForm(
    key=regex.compile(
        rf"<(?P<ns>[A-Za-z_]{{1,16}}:)?{_PAIR}[ \t]+name[ \t]*=[ \t]*{_QUOTED.format(group='key')}{_ATTRS}[ \t]*>"
        rf"|{_PAIR_EQ}(?P<key>[^\W\d][\w.\-]{{0,63}})[ \t]{{0,4}}>",
        regex.I,
    ),
    value_end=regex.compile(
        rf"(?P<close></{_NS}{_PAIR}[ \t]*>)|<{_NS}{_PAIR}[ \t]|{_PAIR_EQ}|</{_NS}invoke[ \t]*>", regex.I
    ),
    call_end=regex.compile(rf"</{_NS}invoke[ \t]*>", regex.IGNORECASE),
    expected='<parameter name="KEY">VALUE</parameter> or </invoke>',
    trim=True,
)
EXAMPLE = '<invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke>'


_PARAMETER = regex.compile(rf"<{_NS}{_PAIR}[ \t]|{_PAIR_EQ}", regex.IGNORECASE)
_INVOKE_END = regex.compile(rf"</{_NS}invoke[ \t]*>", regex.IGNORECASE)


class _InvokeBody:
    """``<parameter name="K">`` pairs (MiniMax M2), or elements named by the parameters (MiniMax-M3, Xinference
    ``minimax_m3_tool_parser``: ``<city>Beijing</city>``, nested elements an object, ``<item>`` children or a
    repeated element a list), read whole up to ``</invoke>`` and typed by the schema at each place. A body of
    plain text is the value of the tool's one parameter (Claude Haiku 4.5 in gptme: ``<invoke name="ipython">``
    then the code itself); after an ``args="PATH"`` attribute, the first parameter's value, the body the next's
    (gptme's ``<invoke name="save" args="PATH">`` then the file)."""

    def __init__(self, ctx: Context, block: Block, name: str, args: str | None = None) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.args = args
        """gptme's ``args="PATH"``: the first parameter's value, written in the opener (the body is the next's)."""
        self.body: list[str] | None = None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if self.body is None:
            found = _PARAMETER.match(text, pos, partial=not final)
            if found is not None and found.partial:
                return pos, MORE
            if found is not None:
                return pos, XmlPairs(ctx, self.block, self.name, FORM)
            self.body = []
        stop, end = read_to(ctx, self.body, _INVOKE_END, text, pos, final)
        if end is None:
            return stop, self
        if end.partial:
            return stop, MORE
        ctx.consume(end.group())
        self._end()
        return end.end(), AfterBody(ctx, self.block)

    def _end(self) -> None:
        ctx = self.ctx
        value: Any = elements("".join(self.body or []))
        if isinstance(value, str) and not value.strip():
            value = {}
        if self.args is not None:  # `<invoke name="save" args="PATH">` then the content: values in order
            body = "".join(self.body or []).strip("\r\n")
            value = positional_arguments(ctx.tools, self.name, [self.args, body] if body else [self.args])
            if value is not None:
                ctx.end_call(self.name, value, streamed=False)
            else:
                ctx.fail_call(f"{self.name!r} takes no value written as args={self.args!r} and a body")
            return
        if isinstance(value, str):  # no elements: the raw value of the tool's one parameter (Claude Haiku's code)
            value = one_parameter(ctx.tools, self.name, value.strip("\r\n"))
            if value is not None:
                ctx.end_call(self.name, value, streamed=False)
                return
        if not isinstance(value, dict):
            ctx.fail_call(f"expected {EXAMPLE} or elements named by the parameters")
            return
        arguments = {k: typed_tree(ctx.tools, self.name, k, v) for k, v in cast("dict[str, Any]", value).items()}
        ctx.end_call(self.name, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        else:
            self._end()


def _invoke(ctx: Context, block: Block, match: regex.Match[str]) -> NamedStart:
    name = match.group("name")
    body: Reader = _InvokeBody(ctx, block, name, match.groupdict().get("args"))
    # Inside its wrapper (`<function_calls>`), an invoke whose body is plain text is a call too; bare, such an
    # opener may be named in prose (`use the <invoke name="x"> tag`).
    wrapped = block.dialect is not None and block.dialect.name != "invoke"
    return NamedStart(ctx, block, name, lambda: body, raw=wrapped)


_NAMED_TAGS = "tool_call|function_call|tool[-_]use|tool"
_OTHER_ATTRS = (
    r"""(?:[ \t]+(?!name\b|arguments\b|args\b|parameters\b|input\b)[\w:-]{1,32}[ \t]*=[ \t]*"""
    r"""["'][^"'\n<>]{0,128}["']){0,4}"""
)
"""Attributes beside the name (``id="call_00_xxx"``, DeepSeek V4 in memoh): markup of the call, never arguments."""
_WS = r"[ \t]{0,8}"


_FENCED_OR_LISTED = regex.compile(r"(?:```[A-Za-z_]{0,16}[ \t]{0,8}\r?\n?)?[ \t\r\n]{0,64}\[?[ \t\r\n]{0,64}\{")
"""A ```` ```json ```` fence or a ``[`` before the arguments object."""
_PROSE_THEN_OBJECT = regex.compile(
    r"(?P<text>[^\s<>{}\[\]`][^<>{}\[\]`]{0,400}?[^\s<>{}\[\]`])(?P<gap>[ \t]*\r?\n[ \t]{0,64})(?=\{)"
)
"""Sentences before the arguments object on a line of its own, inside a tag naming an offered tool (LmDotnetTools'
tests: ``<tool_call name="GetWeather">\nSome explanatory text here.\n{…}``): the model's prose."""


class _NamedTagStart:
    """After ``<tool_call name="NAME">``: the arguments as JSON (`NamedStart`), also in a ```` ```json ```` fence
    or as a list of argument objects (``[{…}]``: each one a call of the tool), as a call tag's body may be
    (`TaggedStart`, with the tool already named); or parameters as in ``<invoke>`` up to the tag's closer."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        at = ctx.skip_ws(text, pos)
        if at >= len(text):
            return at, self
        if text[at] in "`[":  # a fence or a list: the call tag's own body forms, the tool named by the opener
            found = _FENCED_OR_LISTED.match(text, at, partial=not final)
            if found is not None and found.partial:
                return at, MORE
            if found is not None:
                self.block.name = self.name
                start = TaggedStart(ctx, self.block)
                self.block.next_body = self._next_arguments  # each object of a list: a call of the named tool
                return at, start
        elif text[at] not in "{<" and ctx.tools.is_known(self.name):
            lines = key_lines(ctx, self.block, self.name, text, at, final)
            if lines is not None:  # `<tool name="NAME">` then `key: value` lines (zikos)
                return lines
            lead = _PROSE_THEN_OBJECT.match(text, at, partial=not final)
            if lead is not None and lead.partial:
                return at, MORE
            if lead is not None and not presents(lead.group("text")):
                ctx.markup("")  # the named opener is the call's markup; the model's sentence is text
                ctx.text(lead.group("text"))
                ctx.consume(lead.group("gap"))
                self.block.name = self.name
                return lead.end(), JsonBody(ctx, self.block)
        elif text[at] == "<":
            body = element_body(ctx, self.block, self.name, text, at, final)
            if body is not None:  # `<tool name="NAME"><parameters><k>v</k>…`: the arguments as elements
                return body
        return at, self._json_or_pairs()

    def _next_arguments(self) -> Reader:
        self.block.name = self.name
        return JsonBody(self.ctx, self.block)

    def _json_or_pairs(self) -> NamedStart:
        ctx, block, name = self.ctx, self.block, self.name
        return NamedStart(ctx, block, name, lambda: XmlPairs(ctx, block, name, FORM))

    def finish(self, truncated: bool) -> None:
        self._json_or_pairs().finish(truncated)


def _named(ctx: Context, block: Block, match: regex.Match[str]) -> _NamedTagStart:
    """``<tool_call name="NAME">``: see `_NamedTagStart`."""
    return _NamedTagStart(ctx, block, match.group("name"))


def _wrapper(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)  # JSON calls, or the invoke form declared inside it


def _any_tag_opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    head = rf"<{_WS}{RESULT_TAG}(?P<tag>[A-Za-z_][\w:.\-]{{0,63}})[ \t]+(?:name|tool|tool_name|function)[ \t]*=[ \t]*"
    keys = declared_keys(tools)
    element = rf"|(?P<element><{_WS}(?:{keys}){_WS}>)" if keys else ""
    pair = rf"<{_NS}{_PAIR}[ \t]+name[ \t]*="
    return rf"""{head}["'](?P<name>{names})["']{_WS}>(?=[ \t\r\n]{{0,64}}(?:{pair}{element}))"""


def _any_tag(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    """The pairs up to ``</TAG>`` of the opener's own tag (or ``</invoke>``); or, where a declared parameter's
    element follows the opener (``<minerva_tool name="Read"><path>a.py</path></minerva_tool>``), the elements up to
    ``</TAG>`` (`declared_elements`)."""
    close = rf"</{_WS}{regex.escape(match.group('tag'))}{_WS}>"
    if match.group("element") is not None:
        return declared_elements(ctx, block, match.group("name"), regex.compile(close, regex.IGNORECASE))
    form = PairForm(
        key=FORM.key,
        value_end=regex.compile(rf"(?P<close></{_NS}{_PAIR}[ \t]*>)|<{_NS}{_PAIR}[ \t]|{close}", regex.I),
        call_end=regex.compile(close, regex.IGNORECASE),
        expected=f'<parameter name="KEY">VALUE</parameter> or </{match.group("tag")}>',
    )
    return XmlPairs(ctx, block, match.group("name"), form)


ANY_TAG_ROWS = [
    # <call_record tool="read"><parameter name="path">a.py</parameter></call_record> (Gemini 3 in oh-my-pi):
    # the invoke form under a tag of any name, for an offered tool, with a parameter pair right after it; or one
    # element per argument, each a parameter the tool declares (MinervaCode's <minerva_tool name="Read"><path>…).
    Dialect("named_any_tag", "<", None, kind="untagged", first="<", reader=_any_tag, open_for_tools=_any_tag_opener),
]


_BARE_NAME = r"[^\W\d][\w.\-]{0,127}"
"""The name unquoted (``<invoke name=get_weather>``, llm-gateway's tests): one identifier up to the tag's ``>``."""

ROWS = [
    Dialect("minimax_tool_call", *tag("minimax:tool_call"), reader=_wrapper, example=EXAMPLE),
    Dialect("function_calls", *tag(f"{_NS}function_calls"), reader=_wrapper, example=EXAMPLE),
    Dialect(
        "invoke",
        # gptme's `args="PATH"` gives the first parameter by position; further attributes after the name
        # (`type="function"`, olmlx's tests) as after a parameter's
        rf"<{_NS}invoke[ \t]+name[ \t]*=[ \t]*(?:{_QUOTED.format(group='name')}|(?P<name>{_BARE_NAME}))"
        r"""(?:[ \t]+args[ \t]*=[ \t]*"(?P<args>[^"\n<>]{1,512})")?"""
        rf"{_ATTRS}[ \t]*>",
        rf"</{_NS}invoke[ \t]*>",
        inside=("minimax_tool_call", "function_calls", "tool_call", "tool_calls"),
        reader=_invoke,
        example=EXAMPLE,
    ),
    # The tool named in the opener (quoted or not: name=NAME), the arguments as the body:
    # <tool_call name="NAME">{…}</tool_call> (also in a ```json fence, or as a list [{…}]), other
    # attributes beside the name (<tool_call id="call_0" name="NAME">), or the arguments as an unquoted attribute
    # holding the object, the tag's `>` left out (<tool_call name="NAME" arguments={'k': 'v'}</tool_call>).
    Dialect(
        "named_tag",
        rf"<{_WS}(?:{_NAMED_TAGS}){_OTHER_ATTRS}[ \t]+name[ \t]*=[ \t]*"
        rf"(?:[\"'](?P<name>[^\"'<>\n]{{1,128}})[\"']|(?P<name>[A-Za-z_][\w.\-]{{0,127}}))"
        rf"{_OTHER_ATTRS}(?:{_WS}>|[ \t]+(?:arguments|args|parameters|input)[ \t]*=[ \t]*(?=\{{))",
        rf"<{_WS}/{_WS}(?:{_NAMED_TAGS}){_WS}>",
        reader=_named,
        example='<tool_call name="NAME">{"key": "value"}</tool_call>',
    ),
]
