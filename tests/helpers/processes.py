"""Child processes for tests that start a real server (``shim serve``, with or without ``--workers``).

A test's bound on a process starting is a hang guard, never a race: the machine may be busy (CI beside
other jobs, ``tests/stress.sh``), and a server that needs 20 s to import there is not broken. Each process
runs in its own process group, so teardown stops the workers it forked too, however the test ended (an
assertion, a timeout, a cancelled scope): no worker is left listening after the run.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence

import anyio
from anyio.abc import Process

__all__ = ["STARTUP_GUARD", "read_until", "running"]

STARTUP_GUARD = 180.0
"""Seconds a test waits for a server process to start: on a quiet machine they take one or two."""

_STOP_GRACE = 30.0
"""Seconds a process group gets to exit after SIGTERM before it is killed."""


@contextlib.asynccontextmanager
async def running(command: Sequence[str], *, env: Mapping[str, str] | None = None) -> AsyncIterator[Process]:
    """Start ``command`` in a new process group; on exit, stop the whole group and reap the process.

    SIGTERM first (uvicorn's supervisor then stops its workers and exits), SIGKILL for whatever is left
    after `_STOP_GRACE` seconds or once the leader has gone (orphaned workers included).
    """
    # stderr is inherited: pytest captures it, and shows it with a failing test.
    environment = dict(env) if env is not None else None
    process = await anyio.open_process(list(command), env=environment, stderr=None, start_new_session=True)
    try:
        yield process
    finally:
        with anyio.CancelScope(shield=True):
            _signal_group(process.pid, signal.SIGTERM)
            with anyio.move_on_after(_STOP_GRACE):
                await process.wait()
            _signal_group(process.pid, signal.SIGKILL)
            await process.aclose()


async def read_until(process: Process, marker: str) -> str:
    """What the process printed on stdout up to and including ``marker`` (bounded by `STARTUP_GUARD`).

    Raises:
        AssertionError: the process exited first; the message carries what it printed.
    """
    assert process.stdout is not None
    printed = ""
    with anyio.fail_after(STARTUP_GUARD):
        while marker not in printed:
            try:
                printed += (await process.stdout.receive()).decode()
            except (anyio.EndOfStream, anyio.ClosedResourceError):
                raise AssertionError(f"the process exited before printing {marker!r}; it printed {printed!r}") from None
    return printed


def _signal_group(group: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is empty: all have exited
        os.killpg(group, sig)
