"""A harness's label written right before a call, on the call's line: the label is the call's markup.

    [tool]: {"type": "tool_use", "name": "edit_file", "id": "ef01", "input": {"path": "a.py"}}

(the amplifier Claude provider renders each Anthropic ``tool_use`` block of a history as a ``[tool]: `` line, and
the model writes its own call the same way). The label is read with what follows it, never alone: only when a
JSON value on the label's line reads as a call of an offered tool (the evidence untagged forms need) is the label
markup; a value that is no call (the same harness's ``[tool]: {"id": …, "output": …}`` result lines), a call of a
tool not offered, or words after the label give the label back as text with the value.

Leniencies: the word in any case, ``tool`` or ``function``, alone or with ``use`` joined by ``_``, a blank or
nothing; blanks inside the brackets; the colon left out.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.untagged import UntaggedJson

__all__ = ["ROWS"]

_WORD = r"(?:tool|function)(?:[ _]?use)?"
"""Not ``[TOOL_CALLS]`` (Mistral's token) nor ``[tool_call]`` (`shim.parsing.readers.bracket_wrapper`'s wrapper)."""
LABEL = rf"\[[ \t]{{0,2}}{_WORD}[ \t]{{0,2}}\][ \t]{{0,2}}:?[ \t]{{0,8}}(?=[\{{\[])"
"""``[tool]: `` with the JSON value's first bracket right after it on the line."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    del match
    return UntaggedJson(ctx, block)


ROWS = [Dialect("harness_label", LABEL, None, kind="untagged", first="[", reader=_open)]
