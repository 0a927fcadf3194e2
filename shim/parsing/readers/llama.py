"""Llama 3.1 built-in tool syntax: ``<|python_tag|>`` then a JSON call, or a built-in tool's pythonic call
(``brave_search.call(query="…")``, ``wolfram_alpha.call(…)``), until the end-of-message token.

(Llama 3.1's custom-tool form ``<function=NAME>{…}</function>`` shares its opener with Qwen3-Coder's XML and
is read by `shim.parsing.readers.qwen_xml`.) A built-in's name resolves to the offered tool (``wolfram_alpha``
for ``wolfram_alpha.call``) by the shape rules. Any other body is raw code for the offered code-interpreter tool
(``python``, ``code_interpreter``, taking one string parameter), as Llama 3.1's docs and functionary v3.1 write
it, up to the end-of-message token or the end of the output; with no such tool it stays text.

The tag opens the environment's input, not a call of any name: with tools offered, a body is a call only when it
names an offered tool (or the JSON of its arguments fits one, `JsonBody`'s rule for a call tag). A Python call of
any other name is code (the code interpreter's, else text: ``robot.parse("hi", lang="python")``), and so is a JSON
body naming another tool or none (``{"name": "get_language_info", …}``, a restated result ``{"message": "Hello"}``,
an invented error object): Llama 3.2 writes these after a tool's result, and its text goes back, tag and all, with
no error. A call of an offered tool keeps every rule of a tagged call (damaged JSON is still its error).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import open_markup
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.name_first import RawBody, string_tools
from shim.parsing.readers.pycall import CALL_OPEN, PyCall
from shim.parsing.readers.tagged_json import TaggedStart
from shim.parsing.shapes import ToolIndex, call_id

__all__ = ["ROWS", "SEPARATOR_ROWS"]


_CODE_TOOL = regex.compile(r"(?:i?python|code[_-]?interpreter|python[_-]?interpreter)", regex.IGNORECASE)
"""Names of the code-interpreter tool that ``<|python_tag|>`` code goes to (Llama 3.1's built-in
``code_interpreter``, functionary's ``python``)."""
_NAME_THEN_BODY = regex.compile(r"[A-Za-z_][\w.\-]{0,127}[ \t]{0,4}:?[ \t\r\n]{0,8}\{")
"""A name then JSON arguments (``NAME {…}``), which `TaggedStart` reads: no raw code."""
_IDENTIFIER = regex.compile(r"[A-Za-z_][\w.\-]{0,127}")
"""A tool's name as a name is written; a phrase or a call id in the name slot names its tool by the arguments."""


def names_other_tool(tools: ToolIndex, name: str | None) -> bool:
    """With tools offered, ``name`` names none of them (None: the body names no tool), nor says "no tool"
    (`ToolIndex.declines`), and is a name as written (a phrase or a call id is left to the arguments)."""
    if not tools:
        return False
    if name is None:
        return True
    name = name.strip()
    return (
        _IDENTIFIER.fullmatch(name) is not None
        and not call_id(name)
        and not tools.is_known(name)
        and not tools.declines(name)
    )


class PythonTagBody(JsonBody):
    """A JSON body after ``<|python_tag|>``: no call unless it names an offered tool (its start waits for that)."""

    def names_no_call(self, name: str | None) -> bool:
        return names_other_tool(self.ctx.tools, name)


def code_tool(tools: ToolIndex) -> str | None:
    """The one offered code-interpreter tool that takes its code as one string parameter, if there is one."""
    fits = [name for name in string_tools(tools).specs if _CODE_TOOL.fullmatch(name)]
    return fits[0] if len(fits) == 1 else None


class PythonTagStart(TaggedStart):
    """A JSON call as in every tagged family, or ``NAME(k="v")`` / ``NAME.call(k="v")``; any other body is code
    for the offered code-interpreter tool (Llama 3.1's ``<|python_tag|>`` then raw Python, functionary v3.1)."""

    def json_body(self) -> JsonBody:
        return PythonTagBody(self.ctx, self.block)

    def named_body(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        found = CALL_OPEN.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None or names_other_tool(self.ctx.tools, found.group("name")):
            return self._code(text, pos, final)  # `robot.parse(…)` of no offered tool: Python, not a call
        self.ctx.consume(found.group())
        return found.end(), PyCall(self.ctx, self.block, found.group("name"))

    def _code(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        tool = code_tool(self.ctx.tools)
        if tool is None:
            return None
        named = _NAME_THEN_BODY.match(text, pos, partial=not final)
        if named is not None and (named.partial or (named.end() >= len(text) and not final)):
            return pos, MORE
        if named is not None:
            return None
        return pos, RawBody(self.ctx, self.block, tool)


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return PythonTagStart(ctx, block)


ROWS = [Dialect("python_tag", r"<\|python_tag\|>", r"<\|eom_id\|>|<\|eot_id\|>", body="json", reader=_open)]

SEPARATOR_ROWS = [
    # Llama 3.x separates its calls with `; ` (`{…}; {…}`, read by `AfterBody`). A message that opens with the
    # separator right before a call (an engine's text from a position on: Lemonade quoting llama.cpp's error from
    # the second call) holds the separator of a call it does not show: markup, as between calls.
    Dialect(
        "llama_separator",
        r';[ \t]{0,4}(?=\{[ \t\r\n]{0,8}")',
        None,
        kind="untagged",
        start="message",
        first=";",
        reader=open_markup,
    )
]
