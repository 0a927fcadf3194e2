"""``shim bench``: how robustly tool calls are read out of malformed model streams, for shim and its peers.

Three tracks: generated (:mod:`~shim.bench.corpus`: cases from :mod:`~shim.bench.ops_json`,
:mod:`~shim.bench.ops_stream`, :mod:`~shim.bench.ops_edge` and the recorded fixtures), real and decoy
(:mod:`~shim.bench.real`: quoted model outputs and prose). Data flow: cases -> :mod:`~shim.bench.chunkers` ->
:mod:`~shim.bench.adapters` / :mod:`~shim.bench.baselines` -> :mod:`~shim.bench.metrics` ->
:mod:`~shim.bench.runner` -> :mod:`~shim.bench.report` (generated) and :mod:`~shim.bench.tracks` (real, decoy);
:mod:`~shim.bench.suite` ties them together.
Needs the ``bench`` extra (json-repair, partial-json-parser, matplotlib).
"""

from shim.bench.suite import BenchOptions, run_bench

__all__ = ["BenchOptions", "run_bench"]
