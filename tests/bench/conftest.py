"""Helpers for the bench tests: run one mutation operator by name."""

from __future__ import annotations

import random

import pytest

from shim.bench.corpus import OPERATORS
from shim.bench.mutations import Draw, Mutant

_BY_NAME = {op.name: op for op in OPERATORS}


def mutants(name: str, n: int = 6, *, huge_chars: int = 2_000) -> list[Mutant]:
    """``n`` outputs of the operator ``name`` from seeds 0..n-1."""
    op = _BY_NAME[name]
    return [op.make(Draw(random.Random(seed), huge_chars=huge_chars)) for seed in range(n)]


def body(text: str, tag: str = "function_call") -> str:
    """What stands between the first opening tag and the last closing tag (or the end)."""
    start = text.index(f"<{tag}>") + len(tag) + 2
    end = text.rfind(f"</{tag}>")
    return text[start : end if end >= start else len(text)]


@pytest.fixture
def tools() -> list[str]:
    from shim.bench.mutations import TOOLS

    return list(TOOLS)
