"""Throughput and scaling of every parser ``shim bench`` measures, on streams you size yourself.

    python benchmarks/throughput.py                          # 10 KB and 100 KB, 16-char chunks, all parsers
    python benchmarks/throughput.py --small 100000 --chunk 4 --parser shim

Prints MB/s and microseconds per chunk at 1x and 10x the size, and the scaling ratio (cost per byte at 10x
over cost per byte at 1x: 1.0 is linear, about 10 is quadratic) for two streams: prose with many small
calls, and one call with one huge argument. Runs longer than ``--cap`` seconds are stopped and their ratio
marked as a lower bound. For shim's parser alone at 1-16 character chunks up to 10 MB see
``parser_throughput.py``.
"""

from __future__ import annotations

import argparse

from shim.bench.runner import ThroughputConfig, run_throughput
from shim.bench.suite import select_parsers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", type=int, default=10_000, help="1x stream size in characters (default 10000)")
    ap.add_argument("--chunk", type=int, default=16, help="characters per chunk (default 16)")
    ap.add_argument("--cap", type=float, default=30.0, help="seconds before a run is stopped (default 30)")
    ap.add_argument("--parser", action="append", default=[], help="only this parser (repeatable)")
    args = ap.parse_args()
    cfg = ThroughputConfig(small=args.small, chunk_size=args.chunk, cap_s=args.cap)
    results = run_throughput(select_parsers(args.parser), cfg)
    print(f"{'parser':<16} {'stream':<9} {'MB/s 1x':>9} {'us/chunk':>9} {'MB/s 10x':>9} {'scaling':>8}")
    for name, per in results.items():
        for workload, m in per.items():
            bound = ">=" if m["scaling_is_lower_bound"] else ""
            print(
                f"{name:<16} {workload:<9} {m['small']['mb_per_s']:>9.3f} {m['small']['us_per_chunk']:>9.1f} "
                f"{m['large']['mb_per_s']:>9.3f} {bound + format(m['scaling'], '.2f'):>8}"
            )


if __name__ == "__main__":
    main()
