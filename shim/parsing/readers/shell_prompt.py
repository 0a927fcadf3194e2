"""A command written as a shell prompt line, ``$ command``, for the offered tool that runs shell commands.

    Let me check:
    $ ls -la

Agents that give a small model one tool to run shell commands may ask it to write the command as a prompt line
(goose's local-inference tool emulation: ``$ cmd`` runs its shell tool). Out of that setting the same line is
a command shown in prose, so the offered tools decide, never the text alone: the rows exist only when the tool
set holds exactly one *shell runner*:

- a tool of one string parameter a line can be (its only parameter, or its only required one);
- whose name says it runs a shell: a word of the name (split at ``_``, ``-``, ``.`` and camelCase, after an MCP
  server prefix ``server__``) names a shell (``shell``, ``bash``, ``sh``, ``zsh``, ``terminal``, ``console``,
  ``cmd``, ``powershell``), and the name is that word alone, sits under a server prefix (``developer__shell``)
  or carries a verb of running (``run_shell``, ``execute_bash``, ``shell_exec``); or the name is a verb of
  running and ``command`` (``run_command``, ``execute_command``) and its parameter is the command;
- or whose one parameter is itself named ``command`` or ``cmd`` and whose name says nothing else: words of running
  or of a tool only (zhihuiti's one tool ``tool`` taking ``{"command": "curl …"}``, ``execute``, ``run_tool``);
  ``command_palette`` takes a command it does not run in a shell.

The ``$`` opens a call only where the message or a line begins, then blanks and a command's first character (a
letter, ``.``, ``/``, ``~`` or ``_``: ``$ 5`` is a price); the rest of the line is the parameter's value, and the
line break stays text. A ``$`` line in a code fence is code shown (`shim.parsing.readers.code_fence`), and one
after "for example" an example (`shim.parsing.readers.prose`). With no shell runner offered, or two, a ``$``
line is text. A fence of the runner's language (```` ```bash ````) is not read as its call: with the same tools,
models write one for the user to run (vLLM's RWKV parser tests, a Granite 3 issue), which the `negative` track
keeps as text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS", "DollarCommand", "open_command_line", "shell_runner"]

_SHELL_WORDS = frozenset({"shell", "bash", "sh", "zsh", "terminal", "console", "cmd", "powershell", "pwsh"})
"""Words of a tool's name that name a shell."""
_RUN_WORDS = frozenset({"run", "exec", "execute", "session"})
_COMMAND_WORDS = frozenset({"command", "commands", "cmd"})
_COMMAND_KEYS = frozenset({"command", "cmd"})
"""The names of a parameter that is a command line, under a name that says nothing else (`_GENERIC_WORDS`)."""
_GENERIC_WORDS = _RUN_WORDS | {"tool", "tools", "action", "function", "do"}
"""Words of a tool's name that say only that it runs or is a tool."""
_WORD = regex.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(name)]


def _runs_shell(tools: ToolIndex, name: str) -> bool:
    """Whether the tool ``name`` runs shell commands, by its name and its one string parameter."""
    spec = tools.specs[name]
    arguments = one_parameter(tools, name, "x")
    if arguments is None:
        return False
    (key,) = arguments
    props: Any = spec.input_schema.get("properties") or {}
    schema: Any = cast(dict[str, Any], props).get(key) if isinstance(props, dict) else None
    if isinstance(schema, dict) and cast(dict[str, Any], schema).get("type", "string") != "string":
        return False
    prefixed = "__" in name.strip("_")
    words = _words(name.rsplit("__", 1)[-1])
    if _SHELL_WORDS.intersection(words):
        return len(words) == 1 or prefixed or bool(_RUN_WORDS.intersection(words))
    if key.casefold() in _COMMAND_KEYS and words and _GENERIC_WORDS.issuperset(words):
        return True
    return bool(_COMMAND_WORDS.intersection(words) and _RUN_WORDS.intersection(words) and key in _COMMAND_WORDS)


def shell_runner(tools: ToolIndex) -> str | None:
    """The one offered tool that runs shell commands (None: no such tool, or more than one)."""
    found = [name for name in tools.specs if _runs_shell(tools, name)]
    return found[0] if len(found) == 1 else None


class DollarCommand:
    """The rest of a ``$ `` line: the shell runner's parameter, decided at the line's end (which stays text)."""

    def __init__(self, ctx: Context, tool: str) -> None:
        self.ctx = ctx
        self.tool = tool
        self.body: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = text.find("\n", pos)
        stop = len(text) if end < 0 else end
        if end < 0 and not final and stop > pos and text[stop - 1] == "\r":
            stop -= 1  # a `\r` may begin the line's end
        self.ctx.consume(text[pos:stop])
        self.body.append(text[pos:stop])
        if end < 0 and not final:
            return stop, (MORE if stop < len(text) else self)
        self._decide()
        return stop, None

    def _decide(self) -> None:
        command = "".join(self.body).rstrip("\r").strip()
        arguments = one_parameter(self.ctx.tools, self.tool, command) if command else None
        if arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.tool, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.revert()
        else:
            self._decide()


def open_command_line(ctx: Context, block: Block, match: regex.Match[str]) -> DollarCommand:
    """The rest of the line after its opener (``$ ``, ``Run: ``) as the one offered shell runner's command."""
    del block, match
    keep_line_break(ctx)  # the line break before the call stays text
    tool = shell_runner(ctx.tools)
    assert tool is not None  # the row exists only with one
    return DollarCommand(ctx, tool)


def _dollar_opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        return rf"{prefix}\$[ \t]{{1,4}}(?=[A-Za-z./~_])" if shell_runner(tools) else None

    return build


ROWS = [
    Dialect(
        "dollar_command",
        r"\$",
        None,
        kind="untagged",
        start="message",
        first="$",
        reader=open_command_line,
        open_for_tools=_dollar_opener(""),
    ),
    Dialect(
        "dollar_command_after",
        r"\n\$",
        None,
        kind="untagged",
        first="\n",
        reader=open_command_line,
        open_for_tools=_dollar_opener(r"\n"),
    ),
]
"""``$ command`` opening the message or a line, with a shell runner offered."""
