"""``shim bench``: measure how robustly tool calls are read out of malformed streams, shim against its peers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from shim.bench.adapters import PARSER_NAMES
from shim.bench.report import category_table
from shim.bench.suite import BenchOptions, run_bench
from shim.bench.suite import Progress as BenchProgress

__all__ = ["bench"]


class _RichProgress(BenchProgress):
    def __init__(self, bar: Progress) -> None:
        self._bar = bar
        self._task = bar.add_task("starting", total=None)

    def start(self, total: int) -> None:
        self._bar.update(self._task, total=total)

    def step(self, label: str) -> None:
        self._bar.update(self._task, advance=1, description=label[:48])


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def _print_tables(console: Console, results: dict[str, Any]) -> None:
    head, *rows = category_table(results)
    table = Table(title="Exact-match calls by category (case x chunker cells)")
    for i, name in enumerate(head):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*(cell.replace("**", "") for cell in row))
    console.print(table)

    checks = Table(title="All checks per parser")
    for name in ("parser", "exact", "prec.", "recall", "text ok", "lost", "leak", "invariant", "raw", "crash"):
        checks.add_column(name, justify="left" if name == "parser" else "right")
    for name, s in results["summary"].items():
        checks.add_row(
            name,
            _pct(s["exact"]),
            _pct(s["precision"]),
            _pct(s["recall"]),
            _pct(s["text_ok"]),
            str(s["text_lost"]),
            str(s["tag_leak"]),
            _pct(s["invariant"]),
            _pct(s["raw_ok"]),
            str(s["crashes"]),
        )
    console.print(checks)

    if results["throughput"]:
        speed = Table(title="Throughput (scaling: cost per byte at 10x size / at 1x; 1 = linear)")
        for name in ("parser", "workload", "MB/s", "µs/chunk", "scaling 10x"):
            speed.add_column(name, justify="left" if name in ("parser", "workload") else "right")
        for name, per in results["throughput"].items():
            for workload, m in per.items():
                bound = "≥" if m["scaling_is_lower_bound"] else ""
                speed.add_row(
                    name,
                    workload,
                    f"{m['small']['mb_per_s']:.3f}",
                    f"{m['small']['us_per_chunk']:.1f}",
                    f"{bound}{m['scaling']:.2f}",
                )
        console.print(speed)


@click.command()
@click.option("--quick", is_flag=True, help="One variant per failure mode, fewer chunkings, small streams (<1 min).")
@click.option(
    "--parser",
    "parsers",
    multiple=True,
    type=click.Choice(PARSER_NAMES),
    help="Measure only this parser (repeatable). Default: all of them.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("bench-results"),
    show_default=True,
    help="Folder for results.json, report.md and the PNG charts.",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the generated corpus.")
@click.option("--no-throughput", is_flag=True, help="Skip the throughput and scaling measurement.")
def bench(parsers: tuple[str, ...], quick: bool, out: Path, seed: int, no_throughput: bool) -> None:
    """Benchmark tool-call parsing on malformed model streams.

    Generates cases from clean calls through named mutation operators (lenient JSON, call shapes, tag
    dialects, several calls, reasoning drafts, truncation, decoys), adds the recorded fixtures, feeds each
    to every parser under every chunker (whole, 1 char, fixed, token-like, random, every split point) and
    scores calls, visible text, losslessness and chunk invariance; then times each parser on 1x and 10x
    streams.

    \b
    Example:
      shim bench --quick --out /tmp/bench && open /tmp/bench/report.md
    """
    console = Console(stderr=True)
    options = BenchOptions(quick=quick, seed=seed, parsers=parsers, out=out, throughput=not no_throughput)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=console, transient=True) as bar:
            results, written = run_bench(options, _RichProgress(bar))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    _print_tables(Console(), results)
    for path in written:
        console.print(f"wrote {path}")
