"""``replay:PATH``: stream recorded model output, for tests, benchmarks and reproducing bug reports.

Two file forms:

- a text file (any suffix but ``.jsonl``): its whole content is the reply, on every turn;
- a ``.jsonl`` file: one JSON object per line, one per turn, served in order. Each has ``"response"`` (the
  text) or ``"chunks"`` (a list of strings, streamed exactly as split, to reproduce a chunking), and may have
  ``"finish_reason"`` (``"stop"`` or ``"length"``; default ``"stop"``). Blank lines and lines starting
  with ``#`` (comments saying where a recording came from) are skipped.

Deterministic: the same file and options stream the same chunks. Stop sequences in the options are
honoured as an engine would (the text ends before the first one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from shim.backends.base import item_record
from shim.backends.scripted import ScriptedBackend, Turn, read_turn
from shim.errors import ConfigError

__all__ = ["ReplayBackend", "item_record"]


class ReplayBackend(ScriptedBackend):
    """Serves recorded replies in order (a `ScriptedBackend` read from a file); see the module docstring."""

    def __init__(self, path: str | Path, *, chunk_size: int | None = 4, delay: float = 0.0) -> None:
        """Read the recording.

        Args:
            path: A text or ``.jsonl`` file.
            chunk_size: Characters per chunk for ``"response"`` text; ``None`` sends each reply whole.
                Ignored for recordings given as ``"chunks"``.
            delay: Seconds to wait before each chunk, to imitate a model's pace.

        Raises:
            ConfigError: the file is missing, unreadable or not in one of the two forms.
        """
        if chunk_size is not None and chunk_size < 1:
            raise ConfigError(f"replay chunk_size must be at least 1 (or None for whole replies); got {chunk_size!r}")
        self._path = Path(path)
        turns, repeat = _load(self._path, chunk_size)
        super().__init__(turns, chunk_size=chunk_size, repeat=repeat, delay=delay, name=f"replay:{self._path}")

    @property
    def description(self) -> str:
        return f"replay file {str(self._path)!r}"


def _load(path: Path, chunk_size: int | None) -> tuple[list[Turn], bool]:
    try:
        content = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"replay file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read replay file {str(path)!r}: {exc}") from None
    if path.suffix != ".jsonl":
        return [read_turn(content, str(path), chunk_size)], True
    turns: list[Turn] = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _is_trace_record(line):
            continue  # a `--trace` file: only its "response" lines are model output
        turns.append(_parse_line(path, number, line, chunk_size))
    if not turns:
        raise ConfigError(f"replay file {str(path)!r} has no recorded replies; write one JSON object per line")
    return turns, False


def _is_trace_record(line: str) -> bool:
    try:
        record: Any = json.loads(line)
    except json.JSONDecodeError:
        return False
    if not isinstance(record, dict):
        return False
    kind: Any = cast("dict[str, Any]", record).get("type", "response")
    return kind != "response"


def _parse_line(path: Path, number: int, line: str, chunk_size: int | None) -> Turn:
    where = f"replay file {str(path)!r}, line {number}"
    try:
        record: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where} is not JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise ConfigError(f'{where}: expected an object like {{"response": "..."}}')
    return read_turn(cast("dict[str, Any]", record), where, chunk_size)
