"""One small seam for every parser the benchmark measures: ``feed(chunk)`` / ``close()`` returning event dicts.

The dicts are the ``to_dict()`` forms of ``shim.events``, so shim's own parser needs only ``to_dict()`` and
the baselines write them directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

__all__ = ["PARSER_NAMES", "BenchParser", "ParserSpec", "ShimStream", "parser_specs"]

EventDict = dict[str, Any]


class BenchParser(Protocol):
    """What the runner drives: a fresh instance per stream."""

    def feed(self, chunk: str) -> list[EventDict]: ...

    def close(self) -> list[EventDict]: ...


@dataclass(frozen=True, kw_only=True)
class ParserSpec:
    """A measurable parser: its name, the strategy it reproduces and how to make one for a tool list."""

    name: str
    strategy: str
    make: Callable[[Sequence[str | dict[str, Any]]], BenchParser]
    make_in_reasoning: Callable[[Sequence[str | dict[str, Any]]], BenchParser] | None = None
    """A parser told the output starts inside reasoning (a case's ``starts_in_reasoning``, what a model's profile
    gives from its template); None: the parser has no such setting and reads those outputs like any other."""


class ShimStream:
    """shim's ``StreamParser`` behind the bench seam."""

    name = "shim"

    def __init__(self, tools: Sequence[str | dict[str, Any]] = (), *, in_reasoning: bool = False) -> None:
        from shim.parsing.stream import StreamParser  # imported late: the parser is optional for the baselines

        self._parser = StreamParser(tools=list(tools), in_reasoning=in_reasoning)

    def feed(self, chunk: str) -> list[EventDict]:
        return [e.to_dict() for e in self._parser.feed(chunk)]

    def close(self) -> list[EventDict]:
        return [e.to_dict() for e in self._parser.close()]


def _shim_available() -> bool:
    try:
        import shim.parsing.stream  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return False
    return True


PARSER_NAMES: tuple[str, ...] = ("shim", "hermes-partial", "regex+repair", "regex")
"""Every parser, in report order."""


def parser_specs() -> dict[str, ParserSpec]:
    """The parsers that can run here (shim's own only once ``shim.parsing.stream`` is importable).

    Raises:
        ImportError: the ``bench`` extra (json-repair, partial-json-parser) is not installed.
    """
    from shim.bench.baselines import HermesPartial, RegexAccumulate, RegexRepair

    specs = [
        ParserSpec(
            name="shim",
            strategy="shim.StreamParser: tag state machine + string-aware body scan + lenient JSON grammar",
            make=ShimStream,
            make_in_reasoning=partial(ShimStream, in_reasoning=True),
        ),
        ParserSpec(
            name="hermes-partial",
            strategy="server engines (vLLM Hermes style): tag in accumulated text + partial_json_parser re-parse",
            make=HermesPartial,
        ),
        ParserSpec(
            name="regex+repair",
            strategy="accumulate-and-regex re-scanned per chunk, json_repair on each body",
            make=RegexRepair,
        ),
        ParserSpec(
            name="regex",
            strategy="desktop clients: accumulate, re-scan /<function_call>([\\s\\S]*?)<\\/function_call>/, JSON.parse",
            make=RegexAccumulate,
        ),
    ]
    return {s.name: s for s in specs if s.name != "shim" or _shim_available()}
