"""Scoring one parsed stream against its case, and adding scores up.

A stream's events are folded with ``ParseResult.from_events`` (the same fold ``shim parse`` uses) into an
`Outcome`; `score_run` compares it with the case's expectations; `CellScore` accumulates the runs of one
case under one chunker (a case passes a chunker only if every chunking passes); `summarize` turns cells into
the rates of the report.
"""

from __future__ import annotations

import difflib
import functools
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shim.bench.corpus import Case
from shim.events import ParseResult, event_from_dict

__all__ = ["CellScore", "Outcome", "RunScore", "canonical", "fold_ws", "outcome_of", "score_run", "summarize"]

CallKey = tuple[str, str]
_MARKUP = frozenset("<>{}[]`")


def canonical(name: str, arguments: Any) -> CallKey:
    """A call as a comparable key: name plus arguments as sorted-key JSON (``1`` and ``1.0`` stay distinct)."""
    return name, json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def fold_ws(text: str) -> str:
    """Collapse every whitespace run to one space and trim: a parser may keep or drop the newline a block left."""
    return " ".join(text.split())


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """What one parser made of one chunking of one case."""

    calls: list[CallKey] = field(default_factory=list[CallKey])
    text: str = ""
    errors: int = 0
    raw: str = ""
    """``raw`` of all events concatenated."""
    crash: str | None = None
    """``repr`` of the exception the parser raised (or of a malformed event), if any."""
    timeout: bool = False

    def signature(self) -> tuple[Any, ...]:
        """What must not depend on the chunking: calls, exact text, number of errors, crash."""
        return tuple(self.calls), self.text, self.errors, self.crash is not None, self.timeout


def outcome_of(events: Sequence[dict[str, Any]], *, crash: str | None = None, timeout: bool = False) -> Outcome:
    """Fold event dicts; a dict that is not a valid event form counts as a crash."""
    raw = "".join(str(e.get("raw", "")) for e in events)
    try:
        result = ParseResult.from_events(event_from_dict(e) for e in events)
    except (ValueError, TypeError) as exc:
        return Outcome(raw=raw, crash=crash or f"malformed event: {exc!r}", timeout=timeout)
    return Outcome(
        calls=[canonical(c.name, c.arguments) for c in result.calls],
        text=result.text,
        errors=len(result.errors),
        raw=raw,
        crash=crash,
        timeout=timeout,
    )


@dataclass(frozen=True, kw_only=True)
class RunScore:
    """One chunking of one case, scored."""

    exact: bool
    """The calls equal the expected calls, in order, names and arguments."""
    tp: int
    fp: int
    fn: int
    text_ok: bool
    """Visible text equals the expected text after whitespace folding."""
    lost: int
    """Characters of the expected visible text missing from the parser's (folded)."""
    leaked: int
    """Characters of markup (``<>{}[]`` and backticks) in visible text that the expected text lacks."""
    errors_ok: bool | None
    raw_ok: bool
    invariant: bool
    crash: bool
    timeout: bool


def _common_prefix(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


@functools.lru_cache(maxsize=4096)
def _text_diff(expected: str, got: str) -> tuple[int, int]:
    # Cached: every chunker of one case usually yields the same text, and SequenceMatcher is quadratic.
    # The common prefix and suffix are cut first: they hold no edit, and most texts differ in one place.
    if expected == got:
        return 0, 0
    head = _common_prefix(expected, got)
    tail = _common_prefix(expected[head:][::-1], got[head:][::-1])
    expected, got = expected[head : len(expected) - tail], got[head : len(got) - tail]
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    lost = 0
    leaked = 0
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("delete", "replace"):
            lost += i2 - i1
        if op in ("insert", "replace"):
            leaked += sum(ch in _MARKUP for ch in got[j1:j2])
    return lost, leaked


def score_run(case: Case, outcome: Outcome, reference: Outcome | None = None) -> RunScore:
    """Score ``outcome`` against ``case``; ``reference`` is the same parser's whole-message outcome."""
    expected = [canonical(c.name, c.arguments) for c in case.calls]
    got = outcome.calls
    tp = sum((Counter(expected) & Counter(got)).values())
    lost, leaked = _text_diff(fold_ws(case.visible), fold_ws(outcome.text))
    return RunScore(
        exact=got == expected and outcome.crash is None,
        tp=tp,
        fp=len(got) - tp,
        fn=len(expected) - tp,
        text_ok=fold_ws(case.visible) == fold_ws(outcome.text),
        lost=lost,
        leaked=leaked,
        errors_ok=None if case.errors is None else outcome.errors == case.errors,
        raw_ok=outcome.raw == case.text,
        invariant=reference is None or outcome.signature() == reference.signature(),
        crash=outcome.crash is not None,
        timeout=outcome.timeout,
    )


@dataclass(kw_only=True)
class CellScore:
    """All chunkings of one case under one chunker for one parser; booleans hold only if every run holds."""

    parser: str
    case_id: str
    category: str
    source: str
    chunker: str
    runs: int = 0
    exact: bool = True
    tp: int = 0
    fp: int = 0
    fn: int = 0
    text_ok: bool = True
    lost: int = 0
    leaked: int = 0
    errors_ok: bool | None = None
    raw_ok: bool = True
    invariant: bool = True
    crashes: int = 0
    timeouts: int = 0
    example: dict[str, Any] | None = None
    """The first failing run: its chunks (abridged) and outcome, for the report."""

    def add(self, run: RunScore) -> None:
        self.runs += 1
        self.exact &= run.exact
        self.tp += run.tp
        self.fp += run.fp
        self.fn += run.fn
        self.text_ok &= run.text_ok
        self.lost = max(self.lost, run.lost)
        self.leaked = max(self.leaked, run.leaked)
        if run.errors_ok is not None:
            self.errors_ok = run.errors_ok if self.errors_ok is None else self.errors_ok and run.errors_ok
        self.raw_ok &= run.raw_ok
        self.invariant &= run.invariant
        self.crashes += run.crash
        self.timeouts += run.timeout

    @property
    def passed(self) -> bool:
        """Exact calls, exact text, the right errors, lossless, chunk-invariant, no crash."""
        return (
            self.exact
            and self.text_ok
            and self.errors_ok is not False
            and self.raw_ok
            and self.invariant
            and not self.crashes
            and not self.timeouts
        )

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in vars(self).items() if k != "example"}
        data["passed"] = self.passed
        if self.example is not None:
            data["example"] = self.example
        return data


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize(cells: Iterable[CellScore]) -> dict[str, Any]:
    """Rates over case x chunker cells: exact-match calls, precision/recall, text, invariance and the rest."""
    cells = list(cells)
    n = len(cells)
    tp = sum(c.tp for c in cells)
    scored_errors = [c for c in cells if c.errors_ok is not None]
    return {
        "cells": n,
        "cases": len({c.case_id for c in cells}),
        "exact": _rate(sum(c.exact for c in cells), n),
        "precision": _rate(tp, tp + sum(c.fp for c in cells)) if tp + sum(c.fp for c in cells) else 1.0,
        "recall": _rate(tp, tp + sum(c.fn for c in cells)) if tp + sum(c.fn for c in cells) else 1.0,
        "text_ok": _rate(sum(c.text_ok for c in cells), n),
        "text_lost": sum(c.lost > 0 for c in cells),
        "tag_leak": sum(c.leaked > 0 for c in cells),
        "errors_ok": _rate(sum(bool(c.errors_ok) for c in scored_errors), len(scored_errors)),
        "raw_ok": _rate(sum(c.raw_ok for c in cells), n),
        "invariant": _rate(sum(c.invariant for c in cells), n),
        "crashes": sum(c.crashes for c in cells),
        "timeouts": sum(c.timeouts for c in cells),
        "passed": _rate(sum(c.passed for c in cells), n),
    }
