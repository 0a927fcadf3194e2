"""Input files of the command line: refuse what would hang or is not a file, before anything opens it.

Opening a named pipe (FIFO) blocks until some other process writes to it, and a device can stream forever,
so a config, replay recording, tool list or parse source must be a regular file. A pipe that is already
open is fine: standard input (``-``) and process substitution (``-c <(...)``, a ``/dev/fd/N`` path) have
a writer on the other end.
"""

from __future__ import annotations

import os
import stat
import sys

import click

__all__ = ["check_input_file", "stdin_is_terminal"]

_OPEN_PIPE_DIRS = ("/dev/fd", "/proc/self/fd", f"/proc/{os.getpid()}/fd")


def check_input_file(path: str | os.PathLike[str], *, param: str, what: str = "file") -> None:
    """Exit with status 2 and one line unless ``path`` is a regular file or an already open pipe.

    A missing path is left to the reader, whose message says where the file was looked for.

    Raises:
        click.BadParameter: ``path`` is a named pipe, a device, a socket or a directory.
    """
    text = os.fspath(path)
    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISREG(mode):
        return
    if stat.S_ISFIFO(mode) and os.path.dirname(os.path.abspath(text)) in _OPEN_PIPE_DIRS:
        return
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a directory"
        if stat.S_ISDIR(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
    )
    raise click.BadParameter(
        f"{text!r} is {kind}, not a regular {what}; reading it could wait forever (pipe it in with - or <(cat ...))",
        param_hint=param,
    )


def stdin_is_terminal() -> bool:
    """Whether standard input is a person at a terminal (so reading it would wait silently)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
