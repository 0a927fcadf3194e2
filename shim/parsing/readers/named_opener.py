"""An opener that names the tool, then the arguments: a marker word, a separator and an offered tool's name inside a
bracket pair (or a fence's info string), the arguments' JSON object after it.

    <<tool:finish>>
    {"status": "complete", "summary": "done"}
    <</tool>>

    Here is the result: [TOOL:bash] {"command": "ls -la"}

    ```tool_call:write_file
    {"path": "test.txt", "content": "Hello World"}
    ```

Harness prompts define the call so: a swarm's ``<<tool:NAME>>{…}<</tool>>`` (agent-exploration), a Rust agent's
legacy ``[TOOL:NAME] {…}`` (PoopRusteek), coderAI's fence whose info string is ``tool_call:NAME``. They are one form:
a marker word that says "call" (``tool``, ``tool_call``, ``function``, ``call``, ``action``…:
`shim.parsing.readers.call_fence.LABEL`), a ``:`` or ``=`` or blanks, an offered tool's name, inside ``<…>``,
``<<…>>``, ``[…]`` or after a fence's backticks; then the arguments as a JSON object, bare or in a ```` ```json ````
fence. The bracket forms may be closed by the marker word's closer (``<</tool>>``, ``</tool>``, ``[/TOOL]``, markup
when it follows), and between the opener and that closer words around the object are the block's own (the
swarm's parser looks for the object inside the block). Leniencies: the closer left out (the call ends with its
object); the lenient JSON's (a trailing comma); blanks and line breaks around the object; the name quoted.

The evidence is strict: the name is an offered tool's, the bracket closes as it opened, the object is JSON and reads
as exactly one call of that tool (the shape rules every untagged call goes through,
`shim.parsing.readers.untagged.calls_of`); the fence form opens a line and its closing fence follows the object.
A marker of a tool that was not offered, a marker with no object after it (a sentence naming ``[TOOL:bash]``), an
object that does not close, a block whose closer holds no object, and the form shown in prose (an inline code
span, a code fence of a programming language, after words presenting an example: the core's prose rules) are text,
unchanged. Markers that other rows read first keep their readers: ``<tool: bash>`` on its own line (Meta CWM),
``<function=NAME>`` (Qwen), ``[TOOL_CALLS]NAME`` (Mistral).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, GivenBack, Next, Reader, WholeToCloser, match_at
from shim.parsing.readers.call_fence import LABEL
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.readers.untagged import JsonCall, JsonCandidate, call_of, calls_of
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_BRACKETS = {"<<": ">>", "<": ">", "[": "]"}
"""Each bracket pair's closing half: the opener closes as it opened."""
_CLOSERS = {
    "<<": r"[ \t\r\n]{0,8}<<[ \t]{0,4}/[ \t]{0,4}(?:%s)[ \t]{0,4}>>",
    "<": r"[ \t\r\n]{0,8}<[ \t]{0,4}/[ \t]{0,4}(?:%s)[ \t]{0,4}>",
    "[": r"[ \t\r\n]{0,8}\[[ \t]{0,4}/[ \t]{0,4}(?:%s)[ \t]{0,4}\]",
}
"""The block's closer by its opener's bracket, around a marker word (any of `LABEL`'s)."""
_LIMIT = 1 << 16
"""A block longer than this without its closer is no block (the hold-back stays bounded)."""
_BLANKS = regex.compile(r"[ \t\r\n]{0,64}")
_INNER_FENCE = regex.compile(r"```[ \t]{0,2}(?:json5?|jsonc)?[ \t]*\r?\n[ \t\r\n]{0,64}(?=\{)")
"""A ```` ```json ```` fence around the arguments inside a bracket block: the block's markup."""
_FENCE_END = regex.compile(r"[ \t\r\n]{0,8}```[ \t]*(?=\r?\n|\Z)")
_LINE_START = regex.compile(r"(?:\A|\n)[ \t]{0,8}\Z")
_WORD_BEFORE = regex.compile(r"\w\Z")


def _closer(bracket: str) -> regex.Pattern[str]:
    return regex.compile(_CLOSERS[bracket] % LABEL, regex.IGNORECASE)


class _Arguments:
    """After the opener: blanks, then the object (bare or fenced), or, in a block its closer ends, words around it."""

    def __init__(self, ctx: Context, name: str, bracket: str | None) -> None:
        self.ctx = ctx
        self.name = name
        self.bracket = bracket
        """The opener's bracket (None: a fence's info string)."""
        self.closer = _closer(bracket) if bracket else None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        blanks = match_at(_BLANKS, text, pos, final)
        if blanks is MORE:
            return pos, MORE
        assert blanks is not None
        start = blanks.end()
        if start >= len(text):  # only blanks after the opener, to the output's end
            self.ctx.revert()
            return pos, None
        closing = [(self.closer, False)] if self.closer is not None else []
        if text[start] == "{":
            self.ctx.consume(blanks.group())
            if self.bracket is None:  # the fence's own closer must follow
                return start, self._object([(_FENCE_END, True)])
            return start, self._object(closing)
        if self.bracket is not None and text.startswith("`", start):
            fence = match_at(_INNER_FENCE, text, start, final)
            if fence is MORE:
                return pos, MORE
            if fence is not None:
                self.ctx.consume(text[pos : fence.end()])
                return fence.end(), self._object([(_FENCE_END, True), *closing])
        if self.closer is None:
            self.ctx.revert()
            return pos, None
        return pos, _Enclosed(self.ctx, self.name, self.closer)

    def _object(self, ends: list[tuple[regex.Pattern[str], bool]]) -> JsonCall:
        """The arguments object held whole, then the block's ends, read as one call of the named tool."""
        name = self.name
        return JsonCall(self.ctx, JsonCandidate(self.ctx), ends, as_call=call_of(name))

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


_OBJECT = regex.compile(r"\{.*\}", regex.DOTALL)


class _Enclosed(WholeToCloser):
    """Words around the object up to the block's closer (``<<tool:NAME>> some text {…} trailing <</tool>>``): the
    block is decided whole, its one object the arguments; no closer (the output's end), text again."""

    def __init__(self, ctx: Context, name: str, closer: regex.Pattern[str]) -> None:
        super().__init__(ctx, closer, _LIMIT)
        self.name = name

    def decide(self, found: regex.Match[str]) -> tuple[int, Next]:
        inner = _OBJECT.search("".join(self.body))
        shapes = calls_of(call_of(self.name)(inner.group()), self.ctx) if inner else []
        if len(shapes) != 1:
            self.ctx.revert()
            return found.start(), None
        self.ctx.consume(found.group())
        self.ctx.end_call(shapes[0].name, shapes[0].arguments, streamed=False)
        return found.end(), None


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    del block
    bracket = match.group("bracket")
    fence = bracket.startswith("`")
    if fence:
        if not _LINE_START.search(ctx.tail()):  # a fence opens its line
            return GivenBack(ctx)
    elif match.group("end") != _BRACKETS[bracket]:  # `<tool:bash]`: the bracket does not close as it opened
        return GivenBack(ctx)
    return _Arguments(ctx, ctx.tools.resolve(match.group("name")), None if fence else bracket)


def _opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    if names is None:
        return None
    return (
        rf"(?P<bracket><<|<|\[|```)[ \t]{{0,2}}(?P<word>{LABEL})(?:[ \t]{{0,4}}[:=][ \t]{{0,4}}|[ \t]{{1,4}})"
        rf"""(?P<q>["']?)(?P<name>{names})(?P=q)[ \t]{{0,4}}(?P<end>>>|>(?=[^>])|\]|(?=\r?\n))"""
    )


ROWS = [
    Dialect(
        "named_opener",
        r"<|\[|```",
        None,
        kind="untagged",
        first="<[`",
        reader=_open,
        open_for_tools=_opener,
        example='<<tool:NAME>>{"KEY": "VALUE"}<</tool>>',
    )
]
"""``<<tool:NAME>>{…}<</tool>>``, ``[TOOL:NAME] {…}``, ```` ```tool_call:NAME ```` fences: NAME an offered tool."""
