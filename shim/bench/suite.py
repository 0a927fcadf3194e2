"""One benchmark run end to end: corpus, chunkers, parsers, accuracy, throughput, outputs.

``shim bench`` and ``benchmarks/run_bench.py`` are thin wrappers over `run_bench`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from shim.bench.adapters import PARSER_NAMES, ParserSpec, parser_specs
from shim.bench.chunkers import Chunker, fixed, make_chunkers, token_like, whole
from shim.bench.corpus import Case, load_corpus
from shim.bench.real import load_decoys, load_hunts, load_real
from shim.bench.report import build_results
from shim.bench.runner import ThroughputConfig, run_accuracy, run_throughput
from shim.bench.tracks import build_decoy_track, build_real_track, write_all

__all__ = ["TRACKS", "BenchOptions", "Progress", "Track", "decoy_chunkers", "run_bench", "select_parsers"]

Track = Literal["generated", "real", "decoy"]
TRACKS: tuple[Track, ...] = ("generated", "real", "decoy")
"""generated: this project's mutation corpus and fixtures; real: outputs real models printed; decoy: real prose."""


@dataclass(frozen=True, kw_only=True)
class BenchOptions:
    """What to run. ``quick`` shrinks the corpus, the chunkers and the throughput sizes (for the test suite)."""

    quick: bool = False
    seed: int = 0
    parsers: Sequence[str] = ()
    """Parser names; empty means every parser available here."""
    out: Path = Path("bench-results")
    throughput: bool = True
    tracks: Sequence[Track] = TRACKS
    """Which corpora to measure, in any order; the report keeps the order of `TRACKS`."""
    real_limit: int | None = None
    """Measure only the first N real outputs of each family; None: all of them (``quick``: 2 per family)."""


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


def decoy_chunkers(*, quick: bool = False) -> list[Chunker]:
    """Chunkers for the decoys: whole-message first, then chunkings a stream of prose really arrives in.

    Decoy documents are tens of kilobytes, so the character-at-a-time and every-split-point chunkers of the
    other tracks are left out (they would cost minutes per document and find nothing the others miss).
    """
    chunkers = [Chunker(name="whole", doc="everything in one chunk", split=whole)]
    chunkers.append(Chunker(name="token", doc="BPE pre-token boundaries (GPT-2 pattern)", split=token_like))
    if not quick:
        chunkers.append(Chunker(name="fixed16", doc="16 characters per chunk", split=fixed(16)))
    return chunkers


def _real_cases(limit: int | None) -> list[Case]:
    cases = load_real()
    if limit is None:
        return cases
    seen: dict[str, int] = {}
    kept: list[Case] = []
    for case in cases:
        seen[case.category] = seen.get(case.category, 0) + 1
        if seen[case.category] <= limit:
            kept.append(case)
    return kept


def run_bench(options: BenchOptions, progress: Progress | None = None) -> tuple[dict[str, Any], list[Path]]:
    """Run the benchmark's tracks and write their outputs; return the results dict and the files written.

    Raises:
        ValueError: see `select_parsers`; or a track name is unknown.
    """
    unknown = [t for t in options.tracks if t not in TRACKS]
    if unknown:
        raise ValueError(f"unknown track {unknown[0]!r}; choose from {', '.join(TRACKS)}")
    ran = [t for t in TRACKS if t in options.tracks]
    progress = progress or Progress()
    specs = select_parsers(options.parsers)
    generated = (
        load_corpus(options.seed, variants=1 if options.quick else 4, huge_chars=1_500 if options.quick else 8_000)
        if "generated" in ran
        else []
    )
    real_limit = options.real_limit if options.real_limit is not None else (2 if options.quick else None)
    real = _real_cases(real_limit) if "real" in ran else []
    decoys = load_decoys() if "decoy" in ran else []
    chunkers = make_chunkers(quick=options.quick)
    d_chunkers = decoy_chunkers(quick=options.quick)
    tcfg = ThroughputConfig(small=2_000, repeats=1, cap_s=3.0) if options.quick else ThroughputConfig(cap_s=15.0)
    workloads = 2 if options.throughput else 0
    progress.start(len(specs) * (len(generated) + len(real) + len(decoys) + workloads))

    def step(parser: str, what: Any) -> None:
        progress.step(f"{parser}: {getattr(what, 'id', what)}")

    limit = 5.0 if options.quick else 20.0
    cells = run_accuracy(generated, specs, chunkers, cell_limit_s=limit, on_case=step)
    throughput = run_throughput(specs, tcfg, on_step=step) if options.throughput else {}
    meta = {
        "seed": options.seed,
        "quick": options.quick,
        "chunk_size": tcfg.chunk_size,
        "size_1x": tcfg.small,
        "tracks": ran,
    }
    results = build_results(
        cases=generated, specs=specs, chunkers=chunkers, cells=cells, throughput=throughput, meta=meta
    )
    results["tracks"] = {}
    if real:
        real_cells = run_accuracy(real, specs, chunkers, cell_limit_s=limit, on_case=step)
        results["tracks"]["real"] = build_real_track(
            cases=real, specs=specs, chunkers=chunkers, cells=real_cells, hunts=load_hunts()
        )
    if decoys:
        decoy_cells = run_accuracy(decoys, specs, d_chunkers, cell_limit_s=limit * 3, on_case=step)
        results["tracks"]["decoy"] = build_decoy_track(cases=decoys, specs=specs, cells=decoy_cells)
    return results, write_all(results, options.out)
