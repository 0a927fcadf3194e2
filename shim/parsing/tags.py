"""The tag side of the parser: `TagState` and marker matching that holds back markers split across chunks.

Markers (opening and closing tags of every dialect) are `regex` patterns matched with ``partial=True``: a
match that runs off the end of the buffer means "this could still be a marker", so the parser keeps those
few characters for the next chunk instead of emitting them as text. ``<functionality>`` or ``a < b``
fail the match at their first wrong character and are released at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias

import regex

from shim.parsing.readers.base import Dialect, first_chars

__all__ = ["PARTIAL", "MarkerMatch", "Markers", "TagState"]


class TagState(Enum):
    """Where the parser is relative to a block."""

    NONE = "none"
    """In visible text."""
    START = "start"
    """An opening marker was seen; the body has not begun (it may still turn out to be prose)."""
    INSIDE = "inside"
    """Inside a body: JSON, XML-style parameters, reasoning, or a failed block being skipped."""
    END = "end"
    """A body is complete; waiting for a closing marker, another call of the same block, or text."""


class _Partial(Enum):
    PARTIAL = "partial"


PARTIAL = _Partial.PARTIAL
"""Returned by `Markers.match` when the buffer ends inside what may be a marker."""

MarkerKind: TypeAlias = Literal["open", "close", "fence"]


@dataclass(frozen=True)
class MarkerMatch:
    """A marker found at a position: what it is, whose it is, and the regex match (its text and end)."""

    kind: MarkerKind
    dialect: Dialect | None
    match: regex.Match[str]


def _anonymous(pattern: str) -> str:
    return regex.sub(r"\(\?P<\w+>", "(?:", pattern)


class Markers:
    """Every marker of a set of dialects, compiled once per parser."""

    def __init__(self, dialects: Sequence[Dialect]) -> None:
        anywhere = [d for d in dialects if d.start == "marker"]
        self.call_openers = [(d, d.compiled_open()) for d in anywhere if d.kind == "call"]
        fences = [d for d in dialects if d.kind == "untagged" and d.start == "marker"]
        self.fence_openers = [(d, d.compiled_open()) for d in fences]
        """Openers of untagged blocks that may appear anywhere (a ```json fence): only with known tools."""
        self.fence_closers = [(d, c) for d in fences if (c := d.compiled_close())]
        self.reasoning_openers = [(d, d.compiled_open()) for d in anywhere if d.kind == "reasoning"]
        self.call_closers = [(d, c) for d in dialects if d.kind == "call" and (c := d.compiled_close())]
        call_patterns = [d.close for d in dialects if d.kind == "call" and d.close] + [
            _anonymous(d.open) for d in anywhere if d.kind == "call"
        ]
        self._any_call_marker = regex.compile("|".join(f"(?:{p})" for p in call_patterns), regex.IGNORECASE)
        self.opener_chars = "".join(sorted({c for d in anywhere if d.kind != "untagged" for c in first_chars(d)}))
        """First characters of every opener: where the text scanner must stop and look."""
        self.fence_chars = "".join(sorted({c for d in fences for c in first_chars(d)}))
        self.inner: dict[str, list[tuple[Dialect, regex.Pattern[str]]]] = {}
        """Per wrapper row name: the rows whose forms its blocks may hold, with their openers."""
        for d in dialects:
            for wrapper in d.inside:
                self.inner.setdefault(wrapper, []).append((d, d.compiled_open()))

    def match(
        self, text: str, pos: int, final: bool, *, opens: bool = True, closes: bool = False, fences: bool = False
    ) -> MarkerMatch | _Partial | None:
        """Match a marker at ``pos``: a full match, `PARTIAL` (could still be one), or None."""
        partial = False
        candidates: list[tuple[MarkerKind, Dialect | None, regex.Pattern[str]]] = []
        if closes:
            candidates.extend(("close", d, p) for d, p in self.call_closers)
        if opens:
            candidates.extend(("open", d, p) for d, p in self.call_openers + self.reasoning_openers)
        if fences:
            candidates.extend(("fence", d, p) for d, p in (self.fence_closers if closes else self.fence_openers))
        for kind, dialect, pattern in candidates:
            found = pattern.match(text, pos, partial=not final)
            if found is None:
                continue
            if found.partial:
                partial = True
                continue
            if partial:  # an earlier row may still match with more input, and it outranks this one
                return PARTIAL
            return MarkerMatch(kind, dialect, found)
        return PARTIAL if partial else None

    def search_call_marker(self, text: str, pos: int, final: bool) -> regex.Match[str] | None:
        """Find the next call opener or closer (used to skip past a block that failed to parse)."""
        return self._any_call_marker.search(text, pos, partial=not final)
