"""One benchmark run end to end: corpus, chunkers, parsers, accuracy, throughput, outputs.

``shim bench`` and ``benchmarks/run_bench.py`` are thin wrappers over `run_bench`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shim.bench.adapters import PARSER_NAMES, ParserSpec, parser_specs
from shim.bench.chunkers import make_chunkers
from shim.bench.corpus import load_corpus
from shim.bench.report import build_results, write_outputs
from shim.bench.runner import ThroughputConfig, run_accuracy, run_throughput

__all__ = ["BenchOptions", "Progress", "run_bench", "select_parsers"]


@dataclass(frozen=True, kw_only=True)
class BenchOptions:
    """What to run. ``quick`` shrinks the corpus, the chunkers and the throughput sizes (for the test suite)."""

    quick: bool = False
    seed: int = 0
    parsers: Sequence[str] = ()
    """Parser names; empty means every parser available here."""
    out: Path = Path("bench-results")
    throughput: bool = True


class Progress:
    """Hooks the CLI fills in to drive a progress bar; the defaults do nothing."""

    def start(self, total: int) -> None:
        """``total`` steps are coming (one per parser and case, one per parser and workload)."""

    def step(self, label: str) -> None:
        """One step is done."""


def select_parsers(names: Sequence[str]) -> list[ParserSpec]:
    """The requested parsers in report order.

    Raises:
        ValueError: a name is unknown, or ``shim`` is asked for but ``shim.parsing.stream`` is missing.
    """
    specs = parser_specs()
    for name in names:
        if name not in PARSER_NAMES:
            raise ValueError(f"unknown parser {name!r}; choose from {', '.join(PARSER_NAMES)}")
        if name not in specs:
            raise ValueError(f"parser {name!r} is not available here (shim.parsing.stream cannot be imported)")
    wanted = set(names) or set(specs)
    return [specs[n] for n in PARSER_NAMES if n in wanted and n in specs]


def run_bench(options: BenchOptions, progress: Progress | None = None) -> tuple[dict[str, Any], list[Path]]:
    """Run the benchmark and write its outputs; return the results dict and the files written.

    Raises:
        ValueError: see `select_parsers`.
    """
    progress = progress or Progress()
    specs = select_parsers(options.parsers)
    cases = load_corpus(options.seed, variants=1 if options.quick else 4, huge_chars=1_500 if options.quick else 8_000)
    chunkers = make_chunkers(quick=options.quick)
    tcfg = ThroughputConfig(small=2_000, repeats=1, cap_s=3.0) if options.quick else ThroughputConfig(cap_s=15.0)
    workloads = 2 if options.throughput else 0
    progress.start(len(specs) * (len(cases) + workloads))

    def step(parser: str, what: Any) -> None:
        progress.step(f"{parser}: {getattr(what, 'id', what)}")

    cells = run_accuracy(cases, specs, chunkers, cell_limit_s=5.0 if options.quick else 20.0, on_case=step)
    throughput = run_throughput(specs, tcfg, on_step=step) if options.throughput else {}
    meta = {"seed": options.seed, "quick": options.quick, "chunk_size": tcfg.chunk_size, "size_1x": tcfg.small}
    results = build_results(cases=cases, specs=specs, chunkers=chunkers, cells=cells, throughput=throughput, meta=meta)
    return results, write_outputs(results, options.out)
