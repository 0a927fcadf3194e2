"""Run the parse-robustness benchmark, refresh ``benchmarks/RESULTS.md`` and the README's benchmark tables.

    python benchmarks/run_bench.py                    # every track: a few minutes on two cores
    python benchmarks/run_bench.py --quick            # the test suite's size, about a minute
    python benchmarks/run_bench.py --track real       # only the real model outputs

Same engine as ``shim bench`` (``shim.bench``); this script also copies the Markdown report to
``benchmarks/RESULTS.md`` with its chart links pointing into ``benchmarks/results/``, and rewrites the tables
between the ``<!-- bench:... -->`` markers of ``README.md`` (the real track per family, the decoy line) from
the same ``results.json``. ``--print`` prints them instead of touching the README.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from shim.bench import BenchOptions, run_bench
from shim.bench.report import md_table
from shim.bench.suite import TRACKS
from shim.bench.tracks import family_table

HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"


def readme_blocks(results: dict[str, Any]) -> dict[str, str]:
    """The README's generated blocks, by marker name."""
    blocks: dict[str, str] = {}
    tracks: dict[str, Any] = results.get("tracks", {})
    if "real" in tracks:
        blocks["real-table"] = md_table(family_table(tracks["real"]))
    if "decoy" in tracks:
        d = tracks["decoy"]
        lines = [
            f"- **{name}**: {s['calls']} calls read, {s['documents_with_errors']} documents with error events, "
            f"{s['documents_text_changed']} with text changed; {s['documents_passed']}/{s['documents']} pass"
            for name, s in d["summary"].items()
        ]
        blocks["decoy-summary"] = "\n".join(lines)
    return blocks


def update_readme(blocks: dict[str, str], readme: Path = README) -> list[str]:
    """Replace each ``<!-- bench:NAME -->…<!-- /bench:NAME -->`` block; return the names replaced."""
    text = readme.read_text(encoding="utf-8")
    done: list[str] = []
    for name, body in blocks.items():
        pattern = re.compile(rf"(<!-- bench:{name} -->\n).*?(\n<!-- /bench:{name} -->)", re.S)
        text, n = pattern.subn(lambda m, b=body: m.group(1) + b + m.group(2), text)
        if n:
            done.append(name)
    readme.write_text(text, encoding="utf-8")
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small corpus and streams (the test suite's run)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the generated corpus (default 0)")
    ap.add_argument("--parser", action="append", default=[], help="only this parser (repeatable)")
    ap.add_argument("--track", action="append", choices=TRACKS, help="only this track (repeatable; default all)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="folder for results.json, report, charts")
    ap.add_argument("--print", dest="print_only", action="store_true", help="print the README blocks, do not edit")
    args = ap.parse_args()
    options = BenchOptions(
        quick=args.quick, seed=args.seed, parsers=args.parser, out=args.out, tracks=args.track or TRACKS
    )
    results, written = run_bench(options)
    report = (args.out / "report.md").read_text(encoding="utf-8")
    rel = args.out.resolve().relative_to(HERE) if args.out.resolve().is_relative_to(HERE) else args.out.resolve()
    for png in ("accuracy_by_category.png", "throughput.png", "real_by_family.png"):
        report = report.replace(f"]({png})", f"]({rel.as_posix()}/{png})")
    (HERE / "RESULTS.md").write_text(report, encoding="utf-8")
    for path in [*written, HERE / "RESULTS.md"]:
        print(f"wrote {path}")
    blocks = readme_blocks(results)
    if args.print_only:
        for name, body in blocks.items():
            print(f"\n<!-- bench:{name} -->\n{body}\n<!-- /bench:{name} -->")
    else:
        for name in update_readme(blocks):
            print(f"updated README block {name!r}")


if __name__ == "__main__":
    main()
