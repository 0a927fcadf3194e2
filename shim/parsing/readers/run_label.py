"""A command after a label of running, ``Run: command``, for the offered tool that runs shell commands.

    Run: curl -s https://api.com/health

zhihuiti's harness gives its model one tool taking a command line and takes ``Run: …`` (as it takes ``$ …``) as
the command to run. The label is the ``$`` prompt spelled as a word: ``Run``, ``Execute``, ``Exec``, ``Command`` or
``Cmd`` and a colon, opening the message or a line, then, on the same line, a command. The offered tools decide,
never the text alone: the rows exist only when the tool set holds exactly one shell runner
(`shim.parsing.readers.shell_prompt.shell_runner`), and the rest of the line is its one parameter's value
(`shim.parsing.readers.shell_prompt.DollarCommand`: the line break after it stays text).

The evidence is strict, as for ``$``: the command begins with a lower-case letter, ``.``, ``/``, ``~`` or ``_``
(``Run: The tests pass`` and ``Run: 5 km`` are prose), the label stands where a line begins (``I'll run: x`` is a
sentence), and a label with nothing after it on its line (``Execute:`` then a ``$`` line) is text. The label in a
code fence is code shown (`shim.parsing.readers.code_fence`); with no shell runner offered, or two, it is text.
"""

from __future__ import annotations

from collections.abc import Callable

from shim.parsing.readers.base import Dialect, message_and_line_rows
from shim.parsing.readers.shell_prompt import open_command_line, shell_runner
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS"]

_LABEL = (
    r"(?-i:[Rr]un|RUN|[Ee]xec(?:ute)?|EXEC(?:UTE)?|[Cc](?:ommand|md)|COMMAND|CMD)"
    r"[ \t]{0,4}:[ \t]{1,4}(?=(?-i:[a-z./~_]))"
)
"""The label in title, lower or upper case (not mixed), its colon, and blanks before the command's first
character."""


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        return prefix + _LABEL if shell_runner(tools) else None

    return build


ROWS: list[Dialect] = message_and_line_rows(
    "run_label", _opener, reader=open_command_line, open="Run", first="RrEeCc", after="_after", indent=""
)
"""``Run: command`` opening the message or a line, with a shell runner offered."""
