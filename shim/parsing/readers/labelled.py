"""A label line right before a call block: the label is the call's markup, not visible text.

Frameworks that prompt a model to write its call under a heading get the heading back with the call:
RWKV's ``**Tool Call:**`` then a ```` ```json ```` fence (vLLM's RWKV parser), DSPy's ChatAdapter field header
``[[ ## tool_calls ## ]]`` then a (Python or JSON) value, a plain ``Tool call:`` / ``Function calls:`` line. The
label is read with what follows it, never on its own: only when the block right after it (blank lines aside) is
a JSON value or a ```` ```json ```` fence holding calls of offered tools (the evidence untagged forms need) is
the label markup; otherwise the label and the block go back out as text, unchanged.

Leniencies: the label in bold (``**…**``, ``__…__``), as a heading (``#``), or bare at a line's start (there
with the block after its colon on the same line too: ``tool_calls: [{…}]``);
``call`` or ``calls``; ``tool``, ``function`` or ``action``, joined by a blank, ``_`` or nothing (``TOOLCALL``), maybe
after ``assistant`` (``ASSISTANT_TOOL_CALLS:``);
or ``Calling tools`` / ``Calling function`` (smolagents' history line);
a colon inside or after the emphasis, or none (the label alone on its line, as DSPy's header is). A label and a
Python-style call in one bracket (``[Calling tool: add({"a": 5})]``, vllm-mlx's Qwen bracket format) is read the
same way, for an offered tool only.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import Block, Context, Dialect, keep_line_break
from shim.parsing.readers.command_fence import COMMAND_FENCE, open_command
from shim.parsing.readers.pycall import PyStart
from shim.parsing.readers.shell_prompt import shell_runner
from shim.parsing.readers.untagged import FENCE_OPEN, FenceStart, UntaggedJson
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_WORD = r"(?:(?:assistant[ _])?(?:tool|function|action)[ _]?calls?|calling[ _](?:tools?|functions?))"
"""The label's words: a noun (``Tool call``, ``TOOLCALL``), maybe with the role it is the field of before it
(``ASSISTANT_TOOL_CALLS:``, xerxes's transcript line), or a participle (``Calling tools:``, the line smolagents
renders before a call list in its history, which a model copies with the list)."""
_DSPY = rf"\[\[[ \t]{{0,4}}##[ \t]{{0,4}}{_WORD}[ \t]{{0,4}}##[ \t]{{0,4}}\]\]"
_MARKDOWN = rf"(?:\#{{1,6}}[ \t]{{1,4}})?(?P<em>\*\*|__)?{_WORD}[ \t]{{0,4}}:?(?P=em)?[ \t]{{0,4}}:?"
_PLAIN = rf"\n[ \t]{{0,8}}{_WORD}[ \t]{{0,4}}:?"
"""A bare label only where a line begins: its first character is then the line break, not a letter every word
may begin with (a row stopping at every ``t`` would cut other families' openers in two)."""
_BREAK = r"[ \t]{0,8}\r?\n(?:[ \t]{0,8}\r?\n){0,3}[ \t]{0,8}"
_BLOCK = rf"(?:(?P<fence>{FENCE_OPEN})|(?=[\{{\[]))"
_AFTER = _BREAK + _BLOCK
_AFTER_COLON = rf"(?:{_BREAK}|(?<=:)[ \t]{{0,8}}){_BLOCK}"
"""After a bare label with its colon, the block may follow on the label's own line (jarvis's tests: ``tool_calls:
[{…}]``, the envelope's key written as a label); an emphasised one, which may stand mid-line, needs its line."""
LABEL = rf"(?:(?:{_DSPY}|(?=[#*_]){_MARKDOWN}){_AFTER}|{_PLAIN}{_AFTER_COLON})"
FIRST_LINE = rf"[ \t]{{0,8}}{_WORD}[ \t]{{0,4}}:?{_AFTER_COLON}"
"""The label as the message's first line (``TOOLCALL`` then the JSON list: Llama 3.1 8B asked for BFCL's
``<TOOLCALL>…</TOOLCALL>`` wrote the tag's word without its brackets)."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> FenceStart | UntaggedJson:
    keep_line_break(ctx)  # the line break before a bare label stays text
    if match.group("fence") is not None:
        return FenceStart(ctx, block)
    return UntaggedJson(ctx, block)


_BRACKET = r"\[[ \t]{0,4}(?:calling|call)[ \t]{1,4}(?:tool|function)[ \t]{0,4}:[ \t]{0,8}(?=[A-Za-z_{])"
"""``[Calling tool: NAME({…})]``: a label and the call in one bracket (vllm-mlx's "Qwen bracket format"); a JSON
call object in its place (``[calling tool: {"name": …}]``) too."""


def _open_bracket(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    return PyStart(ctx, block, known_only=True)  # the call must name an offered tool; `]` after it is markup


_ACTION_WORD = rf"(?:{_WORD}|action)"
"""Before a command block, ReAct's and SWE-agent's ``Action:`` labels it too (OpenDevin's SWEAgent: ``Thoughts:`` …
then ``Action:`` and the bare fence its harness runs)."""
_COMMAND_LABEL = (
    rf"(?:(?=[#*_])(?:\#{{1,6}}[ \t]{{1,4}})?(?P<em>\*\*|__)?{_ACTION_WORD}[ \t]{{0,4}}:?(?P=em)?[ \t]{{0,4}}:?"
    rf"|{_ACTION_WORD}[ \t]{{0,4}}:?){_BREAK}"
)
"""A label alone on its line (bare, bold or a heading) with a bare command fence below it: the fence is then
`shim.parsing.readers.command_fence`'s, decided by the same evidence (one shell runner offered, the fence ending
the message), and the label is its markup; a fence that is no call gives the label back as text with it."""


def _command_opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        return prefix + _COMMAND_LABEL + COMMAND_FENCE if shell_runner(tools) else None

    return build


ROWS = [
    Dialect(
        "label_command_fence",
        r"Action",
        None,
        kind="untagged",
        start="message",
        first="#*_tTfFaAcC",
        reader=open_command,
        open_for_tools=_command_opener(""),
    ),
    Dialect(
        "label_command_fence_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=open_command,
        open_for_tools=_command_opener(r"\n[ \t]{0,8}"),
    ),
    Dialect("label_line_call", LABEL, None, kind="untagged", first="[#*_\n", reader=_open),
    Dialect("label_first_line", FIRST_LINE, None, kind="untagged", start="message", first=" \ttTfFaAcC", reader=_open),
    Dialect("label_bracket_call", _BRACKET, None, kind="untagged", first="[", reader=_open_bracket),
]
