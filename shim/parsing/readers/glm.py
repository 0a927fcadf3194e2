"""GLM-4.5 / 4.6 / 4.7: ``<tool_call>NAME`` then ``<arg_key>K</arg_key><arg_value>V</arg_value>`` pairs.

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Beijing</arg_value>
    </tool_call>

(vLLM ``glm4_moe_tool_parser.py``, SGLang ``function_call/glm4_moe_detector.py``.) The form lives inside the
``<tool_call>`` row: a name right after the opener (then a separator token, as Hunyuan HY-3 writes in vLLM's
``hy_v3`` parser tests: ``<tool_call>NAME<tool_sep>``), followed by ``<arg_key>`` or ``</tool_call>``.

Under load GLM-4.7/5 sometimes leave out the ``<arg_value>`` opener while the value and its closer are intact
(``<arg_key>query</arg_key>how many days</arg_value>``, vLLM issue 49248): the value then starts right after
``</arg_key>``, and still ends at ``</arg_value>``, the next ``<arg_key>`` or ``</tool_call>``.

GLM-4.7 also leaves out the first ``<arg_key>`` opener (vLLM PR 47190): the name runs into the key,
``<tool_call>send_command_to_shellcommand</arg_key><arg_value>…``. Inside ``<tool_call>``, a word that begins with an
offered tool's name and ends at ``</arg_key>`` is that name and its first key (one the schema declares, if it declares
any); the longest offered name wins.

The pair body is the evidence, not the tag around it: Laguna (Ollama's parser tests) sometimes wraps the same
call in ``<user>…</user>``. So any tag whose content begins with an offered tool's name and then
``<arg_key>`` opens the call, and a closing tag after its pairs ends it. A name that is not an offered tool,
or no ``<arg_key>`` after it, leaves the tag as text; inside ``<tool_call>``, a name alone (no pairs) where tools
are offered and it is none of them is text too (``<tool_call>GARBAGE</tool_call>``). With no tag at all, an
offered tool's name opening the message with its pairs right below is the call too (GLM-4.5-Air printing its call
without ``<tool_call>``). The name written before the opener instead of after it
(``market_analyst<tool_call><arg_key>…``, Finabot's tests), opening the message or a line, is an offered tool's call
too, and so is the next one glued after its ``</tool_call>``; inside ``<tool_call>``, the name may stand in
``<function>NAME</function>`` before the pairs (Finabot's tests).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import (
    MORE,
    NAME_START,
    Block,
    Context,
    Dialect,
    Next,
    keep_line_break,
    match_at,
    message_and_line_rows,
)
from shim.parsing.readers.block_end import AfterBody, Revert
from shim.parsing.readers.hy_v3 import END_OF_CALL, NAME_THEN_END, SEP, STRAY_CLOSER
from shim.parsing.readers.tagged_json import SUFFIX
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.xml_args import PairForm, XmlPairs
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import compile_marker

__all__ = ["FORM", "FUNCTION_TAG_ROWS", "ROWS"]

_NS = r"(?:[A-Za-z]{1,16}[_|])?"
"""A family's prefix on the pair tags: LongCat writes ``<longcat_arg_key>`` inside ``<longcat_tool_call>``, K2-V3
``<ifm|arg_key>`` inside ``<ifm|tool_call>``."""
_TYPE = rf"(?:<{_NS}arg_type>[ \t]*[\w.\-]{{1,32}}[ \t]*</{_NS}arg_type>\s*+)?"
"""K2-V3 may declare a value's type between key and value (``<ifm|arg_type>string</ifm|arg_type>``): markup, the
schema types the value."""

_SX = SUFFIX

_IN = r"[ \t]{0,4}"
"""Blanks inside a pair tag's brackets (``< arg_key >``, ``</ arg_value >``): a tag still, as every call tag is."""


def _tag(name: str, *, closer: bool = False) -> str:
    """A pair tag of the family (``<arg_key>``, with ``closer`` ``</arg_key>``): prefix, suffix, inner blanks."""
    return rf"<{_IN}{'/' + _IN if closer else ''}{_NS}{name}{_SX}{_IN}>"


FORM = PairForm(
    # After </arg_key>: <arg_value>, or (the opener left out) the value itself. The whitespace is taken
    # possessively and a "<" must begin <arg_value>, so a chunk ending at "</arg_key>\n<" waits for more text
    # instead of starting the value there. With the key's closer left out (`<arg_key>city<arg_value>…`), the
    # value's opener ends the key: a key never holds a tag.
    key=regex.compile(
        rf"{_tag('arg_key')}[ \t]*(?P<key>[^<\n]{{1,200}}?)[ \t]*"
        rf"(?:{_tag('arg_key', closer=True)}\s*+{_TYPE}(?:{_tag('arg_value')}|(?!<))|\s*+{_tag('arg_value')})",
        regex.IGNORECASE,
    ),
    value_end=regex.compile(
        rf"(?P<close>{_tag('arg_value', closer=True)})|{_tag('arg_key')}|(?P<outer>{_tag('tool_call', closer=True)})"
        rf"|{END_OF_CALL}",
        regex.IGNORECASE,
    ),
    # HY V3: a stray value closer where a pair should begin ends the call (`hy_v3.STRAY_CLOSER`).
    call_end=regex.compile(STRAY_CLOSER, regex.IGNORECASE),
    expected="<arg_key>KEY</arg_key><arg_value>VALUE</arg_value> or </tool_call>",
)


_ANY_CLOSE = r"</[ \t]{0,8}[A-Za-z_][\w:.\-]{0,31}[ \t]{0,8}>"
ANY_TAG_FORM = PairForm(
    key=FORM.key,
    value_end=regex.compile(
        rf"(?P<close>{_tag('arg_value', closer=True)})|{_tag('arg_key')}|{_ANY_CLOSE}", regex.IGNORECASE
    ),
    call_end=regex.compile(_ANY_CLOSE, regex.IGNORECASE),
    expected="<arg_key>KEY</arg_key><arg_value>VALUE</arg_value> or the tag's closer",
)
"""The pairs under a tag that is not a call tag (``<user>``): any closing tag after them ends the call."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> XmlPairs | Revert:
    if match.groupdict().get("bare") is not None and ctx.tools.specs and not ctx.tools.is_known(match.group("name")):
        return Revert(ctx)  # `<tool_call>GARBAGE</tool_call>`: a word alone, of no offered tool, says no call
    return XmlPairs(ctx, block, match.group("name"), FORM)


def _open_any(ctx: Context, block: Block, match: regex.Match[str]) -> XmlPairs:
    return XmlPairs(ctx, block, match.group("name"), ANY_TAG_FORM)


def _open_glued(ctx: Context, block: Block, match: regex.Match[str]) -> XmlPairs | Revert:
    name, key = match.group("name"), match.group("key")
    declared = ctx.tools.properties(name)
    if declared and key not in declared:
        return Revert(ctx)  # the word only begins with a tool's name: no key of its own follows
    pairs = XmlPairs(ctx, block, name, FORM)
    pairs.key = key  # the value starts right after the key's closer (and `<arg_value>`, if written)
    return pairs


def _glued(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return (
        None
        if names is None
        else rf"(?P<name>{names})(?P<key>[A-Za-z_][\w.\-]{{0,63}})[ \t]*</{_NS}arg_key{_SX}>\s*+"
        rf"(?:<{_NS}arg_value{_SX}>|(?=[^<\s]))"  # a character after it: the opener never ends at a chunk's end
    )


_BEFORE_FORM = PairForm(
    key=FORM.key,
    value_end=FORM.value_end,
    call_end=regex.compile(rf"{_tag('tool_call', closer=True)}|{END_OF_CALL}", regex.IGNORECASE),
    expected=FORM.expected,
)
"""The pairs after ``NAME<tool_call>``: the wrapper's closer is this call's own end (the next name may follow it)."""


class _NameBefore:
    """The pairs of a call whose name came before ``<tool_call>``; after its closer, the next such call (its name
    glued right after it, blanks aside) is read too: ``a<tool_call>…</tool_call>b<tool_call>…</tool_call>``."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.pairs = XmlPairs(ctx, block, name, _BEFORE_FORM)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos, after = self.pairs.feed(text, pos, final)
        if after is self.pairs:
            return pos, self
        if isinstance(after, AfterBody):
            return pos, _NextNameBefore(self.ctx, self.block)
        return pos, after

    def finish(self, truncated: bool) -> None:
        self.pairs.finish(truncated)


class _NextNameBefore:
    """After such a call: another offered tool's name then ``<tool_call>`` and its pairs, or the block's end."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        pos = ctx.skip_ws(text, pos)
        if pos >= len(text) and not final:
            return pos, self
        pattern = _name_before("")(ctx.tools)
        found = match_at(compile_marker(pattern), text, pos, final) if pattern is not None else None
        if found is MORE:
            return pos, MORE
        if found is None:
            return pos, AfterBody(ctx, self.block)
        ctx.consume(found.group())
        return found.end(), _NameBefore(ctx, self.block, found.group("name"))

    def finish(self, truncated: bool) -> None:
        AfterBody(self.ctx, self.block).finish(truncated)


def _open_before(ctx: Context, block: Block, match: regex.Match[str]) -> _NameBefore:
    keep_line_break(ctx)  # the line break before the name stays text
    return _NameBefore(ctx, block, match.group("name"))


def _name_before(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        return (
            None
            if names is None
            else rf"{prefix}(?P<name>{names})[ \t]{{0,8}}{_tag('tool_call')}"
            rf"(?=[ \t]{{0,8}}\r?\n?[ \t]{{0,8}}{_tag('arg_key')})"
        )

    return build


def _any_tag(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return (
        None
        if names is None
        else rf"<[A-Za-z_][\w:.\-]{{0,31}}>[ \t]{{0,8}}\r?\n?[ \t]{{0,8}}(?P<name>{names})"
        rf"(?=[ \t]{{0,8}}\r?\n?[ \t]{{0,8}}<{_NS}arg_key>)"
    )


def _bare(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    return None if names is None else rf"(?P<name>{names})(?=[ \t]{{0,8}}\r?\n?[ \t]{{0,8}}<{_NS}arg_key>)"


ROWS = [
    Dialect(
        "glm",
        rf"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{{0,127}}?)(?:{SEP})?"
        rf"(?=\s*(?:<{_IN}(?:{_NS}arg_key|(?P<bare>/{_IN}[A-Za-z_:|]{{0,17}}tool_call)){_SX}{_IN}>|(?P<bare>{NAME_THEN_END})))",
        None,
        start="inside",
        inside=("tool_call",),
        reader=_open,
        example="<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>",
    ),
    # The first <arg_key> opener left out: an offered tool's name runs into the key (GLM-4.7 in vLLM PR 47190,
    # `<tool_call>send_command_to_shellcommand</arg_key><arg_value>…`); a key the schema declares, when it declares.
    Dialect(
        "glm_glued_key",
        "name",
        None,
        start="inside",
        inside=("tool_call",),
        first=NAME_START,
        reader=_open_glued,
        open_for_tools=_glued,
        example="<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>",
    ),
    # The name then its pairs opening the message, <tool_call> left out (GLM-4.5-Air in mlx-lm#607).
    Dialect(
        "glm_bare",
        "name",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open,
        open_for_tools=_bare,
        example="<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>",
    ),
    # The name written before <tool_call> instead of inside it (Finabot's tests: `market_analyst<tool_call><arg_key>…`),
    # opening the message or a line, or right after such a call's closer (the next call, `_NextNameBefore`); an
    # offered tool's only.
    *message_and_line_rows("glm_name_before", _name_before, reader=_open_before, open="name", first=NAME_START),
    Dialect(
        "glm_any_tag",
        "<",
        None,
        kind="untagged",
        first="<",
        reader=_open_any,
        open_for_tools=_any_tag,
        example="<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>",
    ),
]


FUNCTION_TAG_ROWS = [
    # Inside <tool_call>: the name as `<function>NAME</function>` before the pairs (Finabot's tests), where
    # Qwen3-Coder's damaged opener of the same spelling expects `<parameter=…>`: before that row in the table.
    Dialect(
        "glm_function_tag",
        rf"<{_IN}function{_IN}>[ \t\r\n]{{0,8}}(?P<name>[^\W\d][\w.\-:]{{0,127}})[ \t\r\n]{{0,8}}"
        rf"<{_IN}/{_IN}function{_IN}>(?=[ \t\r\n]{{0,8}}{_tag('arg_key')})",
        None,
        start="inside",
        inside=("tool_call",),
        first="<",
        reader=_open,
        example="<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>",
    )
]
