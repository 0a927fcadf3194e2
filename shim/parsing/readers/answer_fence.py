"""A shell's code fence that holds nothing but one JSON call of an offered tool: the answer.

    Here is the tool call:
    ```bash
    {"name": "cat", "arguments": {"file": "buggy.py"}}
    ```

A fence named by a programming language shows code (`shim.parsing.readers.code_fence`). But a JSON object is no
command of any shell (no shell runs ``{"name": …}``), while a shell fence is where a coding agent's harness takes
the model's action: a model that fences its call as a command (Qwen2.5-Coder-7B in open-agent-harness's smoke
tests, opening the message; deepseek-r1:14b in mini-codex's parser tests, after a sentence) mislabels its answer.
Where such a fence's content is one JSON object that reads as one call of an offered tool (the shape rules every
untagged call goes through) and the fence closes right after it, the fence is the call's markup, as a
```` ```json ```` fence's is (`shim.parsing.readers.untagged.FENCE`), wherever it stands: a sentence before it
changes nothing, as it changes nothing for the ```` ```json ```` fence (mini-codex's own parser reads every fence).

Anything else shows code, as before, all of it text: a fence holding more (a command after the object, a second
object), left open, naming no offered tool; and a fence of any other language, where a JSON object is code or data
as written (a Python or JavaScript literal, a JSONL record, a configuration example). The same rule for a pythonic
call list in a Python fence is `shim.parsing.readers.pythonic_list`'s ``MESSAGE_FENCE``, which stays at the message's
start: a Python call is Python code, where a JSON object is no shell's.

A Python fence that opens the message and holds nothing but a list of calls of offered tools written as JSON
objects (Python's quotes and literals allowed) is the answer by that same rule (`PYTHON_ROWS`): the list is the
shape the prompt asked for, and deepseek-coder 6.7B, asked for its calls "wrapped in python code" in BFCL's results,
fences ``[{"name": …, "params": {…}}]`` or ``[{'NAME': {…}}]`` so. The list must read as written, a Python literal or
strict JSON (a Python fence holds Python: nothing is repaired there). After prose, holding anything more, or holding
one object with no list around it (a dict is Python data as often as a call), a Python fence shows code.
"""

from __future__ import annotations

import ast
import json

import regex

from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break, match_at
from shim.parsing.readers.code_fence import CodeFence
from shim.parsing.readers.untagged import JsonCandidate, calls_of

__all__ = ["PYTHON_ROWS", "ROWS", "SHELLS", "AnswerFence"]

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

    def __init__(self, ctx: Context, *, many: bool = False) -> None:
        """``many``: a Python fence's list, which may hold several calls and must be a literal as written (Python's
        or JSON's, no repair: a Python fence holds Python)."""
        self.ctx = ctx
        self.json = JsonCandidate(ctx)
        self.complete = False
        self.many = many

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
        whole = close is not None and (not self.many or _literal(self.json.text()))
        shapes = calls_of(self.json.text(), ctx) if whole else []
        if close is None or not shapes or (len(shapes) > 1 and not self.many):
            ctx.revert()
            return pos, CodeFence(ctx)
        ctx.consume(close.group())
        for shape in shapes:
            ctx.end_call(shape.name, shape.arguments, streamed=False)
        return close.end(), None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()  # the fence never closed: it showed code


def _literal(body: str) -> bool:
    """``body`` reads whole as a Python literal or as strict JSON."""
    try:
        ast.literal_eval(body.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        try:
            json.loads(body)
        except ValueError:
            return False
    return True


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> AnswerFence:
    del block, match
    return AnswerFence(ctx)


def _open_after(ctx: Context, block: Block, match: regex.Match[str]) -> AnswerFence:
    del block, match
    keep_line_break(ctx, " \t\r\n")  # the line break (and the fence's indent) before the fence stays text
    return AnswerFence(ctx)


_OPEN = rf"```[ \t]{{0,2}}(?i:{_SHELL})[ \t]*\r?\n[ \t]{{0,8}}(?=\{{)"

ROWS = [
    Dialect("answer_code_fence", _OPEN, r"```", kind="untagged", start="message", first="`", reader=_open),
    Dialect("answer_code_fence_after", r"\n[ \t]{0,3}" + _OPEN, None, kind="untagged", first="\n", reader=_open_after),
]
"""```` ```bash ```` (a shell's fence) opening the message or a line, one JSON call of an offered tool its only
content. A line's row, not an anywhere one: after prose the fence is otherwise the code fence row's (`code_fence`),
tried before the untagged openers; and a fence opens a line."""


def _open_python(ctx: Context, block: Block, match: regex.Match[str]) -> AnswerFence:
    del block, match
    return AnswerFence(ctx, many=True)


PYTHON_ROWS = [
    Dialect(
        "answer_python_fence",
        r"```[ \t]{0,2}(?i:python3?|py)[ \t]*\r?\n(?:[ \t]{0,12}\r?\n){0,2}[ \t]{0,12}(?=\[[ \t\r\n]{0,64}\{)",
        r"```",
        kind="untagged",
        start="message",
        first="`",
        reader=_open_python,
    )
]
"""```` ```python ```` opening the message, a list of JSON calls of offered tools its only content (blank lines and
the prompt's indentation before it), as `shim.parsing.readers.pythonic_list`'s ``MESSAGE_FENCE`` reads the calls
written in Python."""
