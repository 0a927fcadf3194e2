"""Run the parse-robustness benchmark and refresh ``benchmarks/RESULTS.md`` (what the README table quotes).

    python benchmarks/run_bench.py            # full run: a few minutes on two cores
    python benchmarks/run_bench.py --quick    # the test suite's size, well under a minute

Same engine as ``shim bench`` (``shim.bench``); this script also copies the Markdown report to
``benchmarks/RESULTS.md`` with its chart links pointing into ``benchmarks/results/``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shim.bench import BenchOptions, run_bench

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small corpus and streams (the test suite's run)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the generated corpus (default 0)")
    ap.add_argument("--parser", action="append", default=[], help="only this parser (repeatable)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="folder for results.json, report, charts")
    args = ap.parse_args()
    options = BenchOptions(quick=args.quick, seed=args.seed, parsers=args.parser, out=args.out)
    _, written = run_bench(options)
    report = (args.out / "report.md").read_text(encoding="utf-8")
    rel = args.out.resolve().relative_to(HERE) if args.out.resolve().is_relative_to(HERE) else args.out.resolve()
    for png in ("accuracy_by_category.png", "throughput.png"):
        report = report.replace(f"]({png})", f"]({rel.as_posix()}/{png})")
    (HERE / "RESULTS.md").write_text(report, encoding="utf-8")
    for path in [*written, HERE / "RESULTS.md"]:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
