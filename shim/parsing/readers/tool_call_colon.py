"""An upper-case ``TOOL_CALL:`` prefix, then a JSON call object, anywhere in the message.

    Some text at the end TOOL_CALL: {"tool": "last", "params": {}}
    TOOL_CALL: {"tool": "a", "params": {}}TOOL_CALL: {"tool": "b", "params": {}}

Holmium's prompt (its ``ToolParser``) asks the model to write each call so, in the middle of its prose or glued to
the call before: the word ``TOOL_CALL`` (an identifier-style constant, upper case), a colon, the call as a JSON
object (``{"tool": NAME, "params": {…}}`` or any call object the shape rules read). The prefix is markup; the words
around it stay text, and several prefixed objects are several calls. Leniencies: ``TOOL_CALLS``, ``TOOLCALL`` or
``TOOL CALL``, or ``TOOL`` alone with its colon (``TOOL: {"name": …}``, Pricer_Vision's prompt); blanks around
the colon; the object on the next line; the colon left out after the one word
(``TOOL_CALL {…}``: spettro's parser tests, a call the model leaked into its prose).

A label opening a line in any case (``Tool call:``) is `shim.parsing.readers.labelled`'s; this row reads the
constant where a line's words came before it, in upper case only (markers match in any case): ``Here is the tool
call: {…}`` is a sentence presenting the call, its words text (mini-agent's weak-model tests), the object after it
the untagged rules' to read. The evidence is strict: the word stands on its own
(``MY_TOOL_CALL:`` is another), the object is JSON and reads as exactly one call of an offered tool (the shape
rules every untagged call goes through, `shim.parsing.readers.untagged.calls_of`). A call of a tool that was not
offered, an object that does not close, the word with no object after it, and the form shown in prose (an inline
code span, a code fence, after words presenting an example: the core's prose rules) are text, unchanged.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect, GivenBack, Reader
from shim.parsing.readers.pycall import PyStart
from shim.parsing.readers.untagged import JsonCall, JsonCandidate

__all__ = ["ROWS"]

_WORD_BEFORE = regex.compile(r"\w\Z")
_NOTHING = regex.compile(r"(?!)")
"""No closer follows the object: the call ends with it."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    if _WORD_BEFORE.search(ctx.tail()) is not None:  # `MY_TOOL_CALL: {…}`: another word, not the prefix
        return GivenBack(ctx)
    if any(char.islower() for char in match.group()):  # `Here is the tool call: {…}`: words of a sentence
        return GivenBack(ctx)
    if match.group("py") is not None:  # `TOOL_CALL: roll(sides=6)`: a Python-style call of an offered tool
        return PyStart(ctx, block, known_only=True)
    return JsonCall(ctx, JsonCandidate(ctx), [(_NOTHING, False)])


_AFTER_TOOL = r"(?:[ _]?CALLS?[ \t]{0,4}:|_?CALLS?)"
_PREFIX = rf"TOOL{_AFTER_TOOL}"
_GAP = r"[ \t]{0,8}(?:\r?\n[ \t]{0,8})?"
"""Blanks after the prefix, the object on the same line or the next."""
_PY = r"(?P<py>[A-Za-z_][\w.\-]{0,127}\()"
"""``NAME(`` after the prefix: a Python-style call (hollingsbot's ``TOOL_CALL: roll(sides=6)``)."""

ROWS = [
    Dialect(
        "tool_call_colon_opening",
        rf"(?-i:{_PREFIX})[ \t]{{0,8}}(?={_PY})",
        None,
        kind="untagged",
        start="message",
        reader=_open,
        example="TOOL_CALL: NAME(KEY=VALUE)",
    ),
    Dialect(
        "tool_call_colon",
        # the prefix before a JSON call or a Python-style one; `TOOL:` alone before a JSON call only
        # (the literal word first: the text scanner stops at `TOOL`, not at every `t`)
        rf"TOOL(?:{_AFTER_TOOL}{_GAP}(?=\{{|{_PY})|[ \t]{{0,4}}:{_GAP}(?=\{{))",
        None,
        kind="untagged",
        reader=_open,
        example='TOOL_CALL: {"tool": "NAME", "params": {"KEY": "VALUE"}}',
    ),
]
"""``TOOL_CALL: NAME(…)`` opening the message (a row of its own: there the labelled-call rows would take the
line, and give it all back when prose follows the call on it), and ``TOOL_CALL: {…}`` or ``NAME(…)`` anywhere in
the message. The rows give no ``first``: the text scanner stops at its leading
word (``TOOL``, already a stop of `shim.parsing.readers.tool_request_bracket`), not at every ``T``."""
