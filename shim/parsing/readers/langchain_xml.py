"""LangChain's XML agent: ``<tool>NAME</tool><tool_input>INPUT</tool_input>``.

    <tool>search</tool><tool_input>weather in SF</tool_input>

The same pair under the name tag ``<function>`` is the SLIM format koogagent prompts a Gemma model for
(``<function>NAME</function>`` then ``<parameters>{…}</parameters>`` on the next line, the JSON padded with blanks).

The name tag holds only the name, so the evidence is the pair: an offered tool's name alone in ``<tool>``,
right before ``<tool_input>`` (whitespace aside; or an input tag named ``args``, ``arguments``, ``input``,
``parameters``, ``params``). The input runs to its closer (``</tool_input>``), or to the end of the
output (the agent stops generation at that closer, so a served output may lack it). A JSON object is the
arguments; any other input is the raw value of the tool's one string parameter (`react.input_arguments`), as
LangChain hands a bare string to a tool. Where this is not so, the block is text with no error:

- a name tag right before another (``<tool>a</tool><tool>b</tool><tool_input>…``): one input for several tools,
  which LangChain's parser rejects; the whole run stays text;
- an input the tool cannot take (no one string parameter, and no JSON object).

``<tool>{…}</tool>`` with a JSON call inside is `tagged_json`'s.

The name tag alone, nothing after it on its line (koogagent's SLIM protocol writes no input for a tool that takes
none), is a call only of an offered tool declaring no parameters, the tag at the start of its line; a tag holding a
model's word for "no tool" (``<function>none</function>``, `ToolIndex.declines`) opening the message is that
protocol's marker of no call: markup, no call, no error. Any other name alone in the tag stays text.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import LINE_END, MORE, Block, Context, Dialect, Next, WholeToEnd, match_at
from shim.parsing.readers.bracket_action import takes_nothing
from shim.parsing.readers.react import input_arguments, lenient_loads
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "ToolInput"]

_INPUT_TAGS = r"tool_input|action_input|tool_args|tool_arguments|args|arguments|input|parameters|params"
"""The input tag's spellings: LangChain's ``<tool_input>``, and the argument words models put in its place
(local_llm's ``<tool>list_dir</tool><args>{"path": "."}</args>``), and those of the JSON envelopes
(``action_input``, ``tool_args``)."""
_INPUT_ENDS = {tag: regex.compile(rf"</{tag}[ \t]{{0,8}}>", regex.IGNORECASE) for tag in _INPUT_TAGS.split("|")}
_INPUT_END = _INPUT_ENDS["tool_input"]


class ToolInput(WholeToEnd):
    """The input up to ``</tool_input>`` (or the end of the output), decided whole."""

    END = _INPUT_END

    def __init__(self, ctx: Context, name: str, *, several: bool, tag: str = "tool_input") -> None:
        super().__init__(ctx)
        self.name = name
        self.several = several
        self.end = _INPUT_ENDS.get(tag.lower(), _INPUT_END)  # the closer of the input tag that opened

    def _decide(self) -> None:
        raw = "".join(self.body)
        value = lenient_loads(raw) if raw.strip().startswith("{") else None
        arguments = None if self.several else input_arguments(self.ctx.tools, self.name, value or raw.strip())
        if arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.ctx.tools.resolve(self.name), arguments, streamed=False)


class LoneName:
    """The name tag with no input tag after it (already consumed): decided by what follows on its line."""

    def __init__(self, ctx: Context, name: str, *, declines: bool) -> None:
        self.ctx = ctx
        self.name = name
        self.declines = declines
        """The tag holds a word of the model's for "no tool", not an offered tool's name."""
        self.opens = not ctx.shown
        """Nothing visible came before the tag: it opens the message, where a protocol puts its "no tool" marker."""
        tail = ctx.tail()
        self.line_begins = not tail[tail.rfind("\n") + 1 :].strip()

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = match_at(LINE_END, text, pos, final)
        if end is MORE:
            return pos, MORE  # blanks at the chunk's end: the line may still go on
        self._decide(alone=end is not None)
        return pos, None

    def _decide(self, *, alone: bool) -> None:
        tools = self.ctx.tools
        if alone and self.declines and self.opens and tools.declines(self.name):
            self.ctx.markup("")  # the protocol's "no tool": the model chose no call
        elif alone and not self.declines and self.line_begins:
            self.ctx.end_call(tools.resolve(self.name), {}, streamed=False)
        else:
            self.ctx.revert()

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.revert()
        else:
            self._decide(alone=True)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ToolInput | LoneName:
    del block
    if "name" not in match.groupdict():
        lone = match.groupdict().get("lone")
        return LoneName(ctx, lone or match.group("word"), declines=lone is None)
    return ToolInput(ctx, match.group("name"), several=bool(match.group("others")), tag=match.group("input"))


_NAME_TAGS = "tool|function"
"""The name tag's spellings where it may stand alone (koogagent's SLIM protocol)."""
_PAIRED_NAME_TAGS = f"{_NAME_TAGS}|tool_name|function_name|name|action"
"""Its spellings before an input tag, where the pair is the evidence: the words of the call envelopes models know
(``<tool_name>NAME</tool_name>`` then ``<arguments>{…}</arguments>``, ``<action>`` then ``<action_input>``)."""


def _tag(names: str, content: str) -> str:
    return rf"<(?:{names})[ \t]{{0,8}}>[ \t]{{0,8}}{content}[ \t]{{0,8}}</(?:{names})[ \t]{{0,8}}>"


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    any_name = r"[^<>\r\n]{1,128}?"
    blanks = r"[ \t\r\n]{0,8}"
    inputs = rf"<(?P<input>{_INPUT_TAGS})[ \t]{{0,8}}>"
    others = _tag(_PAIRED_NAME_TAGS, any_name)
    return f"(?P<others>(?:{others}{blanks})*){_tag(_PAIRED_NAME_TAGS, f'(?P<name>{names})')}{blanks}{inputs}"


def _alone(tools: ToolIndex) -> str | None:
    if not tools:
        return None
    nothing = tool_name_pattern(ToolIndex([s for s in tools.specs.values() if takes_nothing(s.input_schema)]))
    lone = [_tag(_NAME_TAGS, f"(?P<lone>{nothing})")] if nothing is not None else []
    word = _tag(
        _NAME_TAGS, r"(?P<word>[A-Za-z][A-Za-z_\-. ]{0,30}?)"
    )  # a word for "no tool", which `ToolIndex.declines` tells
    return "|".join([*lone, word])


ROWS = [
    Dialect("langchain_xml", "<tool>", None, first="<", reader=_open, open_for_tools=_opener),
    # After the pair's row, which a name tag at a chunk's end may still open: that row is waited for.
    Dialect("langchain_xml_alone", "<tool>", None, first="<", reader=_open, open_for_tools=_alone),
]
"""``<tool>NAME</tool>`` (or ``<function>NAME</function>``) then the input tag; the name tag alone."""
