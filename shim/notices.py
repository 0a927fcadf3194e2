"""Notices for the response being served: a lower layer says how it changed the request's handling (constraint
turned off, saved state that could not be read) and the server names it in a response header.

The server calls `collect_notices` before running a request; whatever runs in that task, or in tasks it
starts, calls `notice` (a no-op outside a request), and the server turns the notices into headers.
"""

from __future__ import annotations

from contextvars import ContextVar

__all__ = ["collect_notices", "notice"]

_notices: ContextVar[dict[str, list[str]] | None] = ContextVar("shim_notices", default=None)


def collect_notices() -> dict[str, list[str]]:
    """Start collecting this task's notices (and those of the tasks it starts): header name -> notices."""
    notices: dict[str, list[str]] = {}
    _notices.set(notices)
    return notices


def notice(header: str, text: str) -> None:
    """Tell the request being served (if any) ``text``, in the response header ``header``."""
    notices = _notices.get()
    if notices is not None:
        listed = notices.setdefault(header, [])
        if text not in listed:
            listed.append(text)
