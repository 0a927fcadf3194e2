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
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, WholeToEnd
from shim.parsing.readers.react import input_arguments, lenient_loads
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "ToolInput"]

_INPUT_TAGS = r"tool_input|args|arguments|input|parameters|params"
"""The input tag's spellings: LangChain's ``<tool_input>``, and the argument words models put in its place
(local_llm's ``<tool>list_dir</tool><args>{"path": "."}</args>``)."""
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


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> ToolInput:
    del block
    return ToolInput(ctx, match.group("name"), several=bool(match.group("others")), tag=match.group("input"))


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    tag = r"<(?:tool|function)[ \t]{0,8}>[ \t]{0,8}%s[ \t]{0,8}</(?:tool|function)[ \t]{0,8}>[ \t\r\n]{0,8}"
    any_name = r"[^<>\r\n]{1,128}?"
    inputs = rf"<(?P<input>{_INPUT_TAGS})[ \t]{{0,8}}>"
    return f"(?P<others>(?:{tag % any_name})*){tag % f'(?P<name>{names})'}{inputs}"


ROWS = [Dialect("langchain_xml", "<tool>", None, first="<", reader=_open, open_for_tools=_opener)]
"""``<tool>NAME</tool>`` (or ``<function>NAME</function>``) then the input tag."""
