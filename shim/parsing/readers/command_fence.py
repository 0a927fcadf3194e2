"""A command in a bare fence that ends the message: the call of the one offered tool that runs shell commands.

    Let's run the script to see if we can reproduce the bug.

    ```
    python reproduce_bug.py
    ```

SWE-agent's prompt asks for a discussion, then exactly one command in a ``` fence, which its agent runs in its shell
(its own commands such as ``edit 4:4`` … ``end_of_edit`` included); its parser takes the last fence as the action.
The offered tools decide, never the wording: the row exists only when the tool set holds exactly one *shell runner*
(`shim.parsing.readers.shell_prompt.shell_runner`: ``bash``, ``run_command``, ``developer__shell``…), and the
fence's body is that tool's one string, written as is.

The evidence is the block's shape, all of it:

- the fence names no language (```` ``` ```` alone on its line, at the message's or a line's start): a fence of a
  language (```` ```bash ````, ```` ```python ````) is code shown (`shim.parsing.readers.code_fence`); with the
  same tools, models write one for the user to run (vLLM's RWKV parser tests, a Granite 3 issue), and the
  ``negative`` track keeps it as text;
- its body opens with no JSON value, tag, gptme ``@call``, ``$`` prompt or fence (those are other rows' forms);
- the closing fence ends the message: only blanks follow it. A bare fence with text after it is an example or a
  snippet for the reader (SWE-agent's own system prompt shows one mid-text), and stays text, its body read again
  from the text state as any other bare fence's is. So is a fence the output's end cuts open, and an empty one.

The reader holds the body unconsumed until it knows (the closing fence and the output's end), so chunking decides
nothing; it remembers how far it looked, so a long body costs linear time.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.readers.code_fence import CODE_WORD, NOT_CODE
from shim.parsing.readers.shell_prompt import shell_runner
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["COMMAND_FENCE", "ROWS", "CommandFence", "open_command"]

_CLOSE = regex.compile(r"\r?\n[ \t]{0,3}```")
"""The closing fence's line (the line break before it is the fence's markup, not the command's)."""
_BLANKS = regex.compile(r"[ \t\r\n]*")
_LOOK_BACK = 8
"""Characters before the end of what was already searched that may begin a closer cut by a chunk's end."""


class CommandFence:
    """The fence's body, held unconsumed until the closing fence and the output's end decide it."""

    def __init__(self, ctx: Context, tool: str) -> None:
        self.ctx = ctx
        self.tool = tool
        self.searched = 0  # characters of the body (from ``pos``) known to hold no closer

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        close = _CLOSE.search(text, pos + max(0, self.searched - _LOOK_BACK), partial=not final)
        if close is None or close.partial:
            if final:  # cut open by the output's end: text
                return self._text(pos)
            self.searched = (len(text) if close is None else close.start()) - pos
            return pos, MORE
        after = _BLANKS.match(text, close.end())
        assert after is not None
        if after.end() < len(text):  # text follows the fence: a snippet shown, not the action
            return self._text(pos)
        if not final:
            self.searched = close.start() - pos
            return pos, MORE
        body = text[pos : close.start()].strip("\r\n")
        arguments = one_parameter(self.ctx.tools, self.tool, body) if body.strip() else None
        if arguments is None:
            return self._text(pos)
        self.ctx.consume(text[pos:])
        self.ctx.end_call(self.tool, arguments, streamed=False)
        return len(text), None

    def _text(self, pos: int) -> tuple[int, Next]:
        """Not a call: the opener is text, and the body is read again from the text state."""
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def open_command(ctx: Context, block: Block, match: regex.Match[str]) -> CommandFence:
    del block, match
    keep_line_break(ctx)  # the line break before the fence stays text
    tool = shell_runner(ctx.tools)
    assert tool is not None  # the row exists only with one
    return CommandFence(ctx, tool)


COMMAND_FENCE = (
    r"[ \t]{0,3}```[ \t]*\r?\n(?=[ \t\r\n]{0,64}[^\s{\[<@$`][^\r\n]*\r?\n)"
    rf"(?![ \t\r\n]{{0,64}}(?:{NOT_CODE}|{CODE_WORD})[ \t]*\r?\n)"
)
"""A fence of no language on its own line, its body's first character no JSON value, tag, ``@call``, ``$`` or fence,
its first line no info string written a line late (```` ```⏎xml⏎<command>… ````: `shim.parsing.readers.untagged`).
The first line is seen whole (to its line break), so where a chunk ends decides nothing."""


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        return prefix + COMMAND_FENCE if shell_runner(tools) else None

    return build


ROWS = [
    Dialect(
        "command_fence",
        r"```",
        None,
        kind="untagged",
        start="message",
        first="`",
        reader=open_command,
        open_for_tools=_opener(""),
    ),
    Dialect(
        "command_fence_after",
        r"\n```",
        None,
        kind="untagged",
        first="\n",
        reader=open_command,
        open_for_tools=_opener(r"\n"),
    ),
]
"""A bare fence opening the message or a line, with a shell runner offered (SWE-agent's action)."""
