"""Trace files: every prompt, event and tool exchange of a run, one JSON object per line, secrets redacted.

Each line has a ``type``: ``prompt`` (the plain messages sent to the model), ``event`` (a parser event),
``response`` (the model's whole reply with its original chunk boundaries and finish reason),
``tool_result``, ``done``. The ``response`` lines are what the ``replay:`` backend serves, so a trace
reproduces a run (or a user's bug report) without the model: ``shim run -m replay:trace.jsonl ...``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["TraceWriter", "redact"]

# Credentials that show up in prompts and tool output even when no config named them.
_PATTERNS = re.compile(
    r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}|\b(sk-[A-Za-z0-9_-]{12,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abp]-[A-Za-z0-9-]{10,})"
)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace known secret values and credential-shaped strings with ``[REDACTED]``."""
    for secret in sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, "[REDACTED]")
    return _PATTERNS.sub(lambda m: (m.group(1) or "") + "[REDACTED]", text)


class TraceWriter:
    """Append trace records to a JSONL file (opened per record: nothing stays open, a crash loses no line)
    or to a text stream the caller owns."""

    def __init__(self, target: str | Path | TextIO, *, secrets: Iterable[str] = ()) -> None:
        self._secrets = tuple(secrets)
        self._path = Path(target) if isinstance(target, (str, Path)) else None
        self._stream = None if isinstance(target, (str, Path)) else target

    def write(self, kind: str, **data: Any) -> None:
        record = {"type": kind, "time": round(time.time(), 3), **data}
        line = redact(json.dumps(record, ensure_ascii=False, default=str), self._secrets) + "\n"
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as file:
                file.write(line)
        elif self._stream is not None:
            self._stream.write(line)
            self._stream.flush()
