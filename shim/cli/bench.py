"""``shim bench``: measure how robustly tool calls are read out of malformed streams, shim against its peers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from shim.bench.adapters import PARSER_NAMES
from shim.bench.report import category_table, run_label, summary_cells
from shim.bench.suite import TRACKS, BenchOptions, Track, run_bench
from shim.bench.suite import Progress as BenchProgress
from shim.bench.tracks import decoy_table, family_table

__all__ = ["bench"]


class _RichProgress(BenchProgress):
    def __init__(self, bar: Progress) -> None:
        self._bar = bar
        self._task = bar.add_task("starting", total=None)

    def start(self, total: int) -> None:
        self._bar.update(self._task, total=total)

    def step(self, label: str) -> None:
        self._bar.update(self._task, advance=1, description=label[:48])


def _rows_table(title: str, rows: list[list[str]]) -> Table:
    head, *body = rows
    table = Table(title=title)
    for i, name in enumerate(head):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in body:
        table.add_row(*(cell.replace("**", "") for cell in row))
    return table


def _print_tracks(console: Console, results: dict[str, Any]) -> None:
    tracks: dict[str, Any] = results.get("tracks", {})
    if "real" in tracks:
        real = tracks["real"]
        title = f"Real track: exact-match calls per dialect family ({real['cases']} quoted model outputs)"
        console.print(_rows_table(title, family_table(real)))
    if "decoy" in tracks:
        decoy = tracks["decoy"]
        rows = decoy_table(decoy)
        title = f"Decoy track: {decoy['documents']} documents, {decoy['characters']:,} characters of real prose"
        console.print(_rows_table(title, rows))


def _print_tables(console: Console, results: dict[str, Any]) -> None:
    console.print(f"[bold]shim bench · {run_label(results['meta'])}[/]")
    if "generated" not in results["meta"].get("tracks", ["generated"]):
        _print_tracks(console, results)
        return
    console.print(_rows_table("Exact-match calls by category (case x chunker cells)", category_table(results)))

    checks = Table(title="All checks per parser")
    for name in ("parser", "exact", "prec.", "recall", "text ok", "lost", "leak", "invariant", "raw", "crash"):
        checks.add_column(name, justify="left" if name == "parser" else "right")
    for name, s in results["summary"].items():
        keys = ["exact", "precision", "recall", "text_ok", "text_lost", "tag_leak", "invariant", "raw_ok", "crashes"]
        checks.add_row(name, *summary_cells(s, keys))
    console.print(checks)

    if results["throughput"]:
        label = "quick run, small streams: " if results["meta"].get("quick") else ""
        speed = Table(title=f"Throughput ({label}scaling: cost per byte at 10x size / at 1x; 1 = linear)")
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
    _print_tracks(console, results)


@click.command()
@click.option(
    "--quick",
    is_flag=True,
    help="A small version of every track: one variant per failure mode, fewer chunkings, 2 kB streams "
    "(a smoke test; its timings are not the full run's).",
)
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
@click.option(
    "--track",
    "tracks",
    multiple=True,
    type=click.Choice([*TRACKS, "models", "all"]),
    default=("all",),
    show_default=True,
    help="Which corpus to measure (repeatable): generated mutations, real model outputs, real prose decoys; "
    "models: BFCL questions answered by real models (slow, never part of 'all').",
)
@click.option(
    "-m", "--model", "models", multiple=True, help="models track: a packaged model or a backend spec (repeatable)."
)
@click.option("--config", "configs", multiple=True, help="models track: a configuration to run (repeatable).")
@click.option(
    "--category",
    "categories",
    multiple=True,
    help=(
        "models track: a BFCL category (repeatable; default: simple_python, multiple, parallel, irrelevance, "
        "live_simple, live_irrelevance)."
    ),
)
@click.option("--limit", type=int, default=5, show_default=True, help="models track: questions per category.")
@click.option(
    "--offset",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="models track: start at this question of each category (tune on questions a report does not score).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="models track: models asked at once, one core each [default: the number of cores].",
)
def bench(
    parsers: tuple[str, ...],
    quick: bool,
    out: Path,
    seed: int,
    no_throughput: bool,
    tracks: tuple[str, ...],
    models: tuple[str, ...],
    configs: tuple[str, ...],
    categories: tuple[str, ...],
    limit: int,
    offset: int,
    jobs: int | None,
) -> None:
    """Benchmark tool-call parsing on malformed model streams, on real model outputs and on real prose.

    Three tracks. generated: cases made from clean calls by named mutation operators (lenient JSON, call
    shapes, tag dialects, several calls, reasoning drafts, truncation, decoys) plus the recorded fixtures.
    real: 200+ outputs real models printed, quoted from peers' parser tests and issue threads, scored per
    dialect family. decoy: over 1 MB of real prose (docs that explain tool calling, code, HTML, chat) that
    must yield no call and no error. Every parser reads every case under every chunker (whole, 1 char, fixed,
    token-like, random, every split point) and is scored on calls, visible text, losslessness and chunk
    invariance; then each is timed on 1x and 10x streams.

    \b
    Examples:
      shim bench --quick --out /tmp/bench && open /tmp/bench/report.md
      shim bench --track real --no-throughput
      shim bench --track models --limit 5 --out /tmp/bfcl   # BFCL on the packaged models (shim[models])
    """
    console = Console(stderr=True)
    if "models" in tracks:
        from shim.cli.bench_models import run_models_track

        run_models_track(
            console,
            out=out,
            models=models,
            configs=configs,
            categories=categories,
            limit=limit,
            offset=offset,
            jobs=jobs,
        )
        if set(tracks) == {"models"}:
            return
    chosen: list[Track] = list(TRACKS) if "all" in tracks else [t for t in TRACKS if t in tracks]
    options = BenchOptions(
        quick=quick, seed=seed, parsers=parsers, out=out, throughput=not no_throughput, tracks=chosen
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=console, transient=True) as bar:
            results, written = run_bench(options, _RichProgress(bar))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    _print_tables(Console(), results)
    for path in written:
        console.print(f"wrote {path}")
