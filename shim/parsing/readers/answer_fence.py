"""A shell's code fence that opens the message and holds nothing but one JSON call of an offered tool: the answer.

    ```bash
    {"name": "cat", "arguments": {"file": "buggy.py"}}
    ```

A fence named by a programming language shows code (`shim.parsing.readers.code_fence`). But a JSON object is no
command of any shell (no shell runs ``{"name": …}``), while a shell fence is where a coding agent's harness takes
the model's action: a model that fences its call as a command (Qwen2.5-Coder-7B in open-agent-harness's smoke
tests) mislabels its answer. Where such a fence opens the message and its content is one JSON object that reads as
one call of an offered tool (the shape rules every untagged call goes through) and the fence closes right after it,
the fence is the call's markup, as a ```` ```json ```` fence's is (`shim.parsing.readers.untagged.FENCE`).

Anything else shows code, as before, all of it text: a fence after prose, holding more (a command after the object,
a second object), left open, naming no offered tool; and a fence of any other language, where a JSON object is
code or data as written (a Python or JavaScript literal, a JSONL record, a configuration example). The same rule
for a pythonic call list in a Python fence is `shim.parsing.readers.pythonic_list`'s ``MESSAGE_FENCE``.
"""

from __future__ import annotations

import regex

from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, match_at
from shim.parsing.readers.code_fence import CodeFence
from shim.parsing.readers.untagged import JsonCandidate, calls_of

__all__ = ["ROWS", "SHELLS", "AnswerFence"]

SHELLS = (
    "bash",
    "sh",
    "zsh",
    "fish",
    "ksh",
    "csh",
    "tcsh",
    "shell",
    "powershell",
    "pwsh",
    "ps1",
    "cmd",
    "bat",
    "batch",
)
"""Fence info strings that name a shell (a session's transcript, ``console``, shows output: not one of these)."""
_SHELL = "|".join(sorted(SHELLS, key=len, reverse=True))

_CLOSE = regex.compile(r"[ \t\r\n]{0,64}```[ \t]*(?=\r?\n|\Z)")
"""The fence's closing line right after the object."""


class AnswerFence:
    """The object held whole, then the closing fence: one call of an offered tool, or the fence shows code (the
    rest of it read as `CodeFence` reads a fence, all text)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.json = JsonCandidate(ctx)
        self.complete = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if not self.complete:
            new, status = self.json.scan(text, pos, final)
            if status is Status.MORE:
                return new, MORE
            if status is not Status.DONE:
                return new, CodeFence(ctx)  # not JSON: given back as text already; the fence shows code
            self.complete, pos = True, new
        close = match_at(_CLOSE, text, pos, final)
        if close is MORE:
            return pos, MORE
        shapes = calls_of(self.json.text(), ctx) if close is not None else []
        if close is None or len(shapes) != 1:
            ctx.revert()
            return pos, CodeFence(ctx)
        ctx.consume(close.group())
        ctx.end_call(shapes[0].name, shapes[0].arguments, streamed=False)
        return close.end(), None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()  # the fence never closed: it showed code


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> AnswerFence:
    del block, match
    return AnswerFence(ctx)


ROWS = [
    Dialect(
        "answer_code_fence",
        rf"```[ \t]{{0,2}}(?i:{_SHELL})[ \t]*\r?\n[ \t]{{0,8}}(?=\{{)",
        r"```",
        kind="untagged",
        start="message",
        first="`",
        reader=_open,
    )
]
"""```` ```bash ```` (a shell's fence) opening the message, one JSON call of an offered tool its only content."""
