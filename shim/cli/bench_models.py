"""``shim bench --track models``: run BFCL on real models with a progress bar, then write and print the results."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from shim.errors import ShimError

__all__ = ["run_models_track"]


def run_models_track(
    console: Console,
    *,
    out: Path,
    models: Sequence[str],
    configs: Sequence[str],
    categories: Sequence[str],
    limit: int,
    offset: int = 0,
    jobs: int | None = None,
) -> dict[str, Any]:
    """Run the track into ``out`` (resuming from ``out/outputs.jsonl``), write the files, print the tables.

    Raises:
        click.ClickException: bad options, a missing extra or a model that cannot be loaded.
    """
    from shim.bench import models_track as mt

    options = mt.ModelsOptions(
        models=tuple(models) or tuple(mt.PACKAGED),
        configs=tuple(configs) or mt.DEFAULT_CONFIGS,
        categories=tuple(categories) or mt.DEFAULT_CATEGORIES,
        limit=limit if limit > 0 else None,
        offset=offset,
        out=out,
        **({"jobs": jobs} if jobs else {}),
    )
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )

    class _Bar(mt.Progress):
        def __init__(self, bar: Progress) -> None:
            self._bar = bar
            self._task = bar.add_task("loading", total=None)

        def start(self, total: int, done: int) -> None:
            # Questions already answered are not counted as this run's speed: the bar starts at them.
            self._bar.update(self._task, total=total - done, description=f"{done} already done")

        def step(self, label: str) -> None:
            self._bar.update(self._task, advance=1, description=label[:56])

    try:
        with Progress(*columns, console=console, transient=True) as bar:
            track = anyio.run(mt.run_models, options, _Bar(bar))
    except (ShimError, ValueError, ImportError) as exc:
        raise click.ClickException(str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    results = {"meta": {"tracks": ["models"]}, "tracks": {"models": track}}
    (out / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "report.md").write_text("# shim bench: tool use on real models\n\n" + mt.render_models_md(track))
    written = [out / "results.json", out / "report.md", out / "outputs.jsonl"]
    with contextlib.suppress(ImportError):  # matplotlib is the bench extra's; the numbers are in the files above
        written.append(mt.write_models_chart(track, out))
    for model, entry in track["models"].items():
        rows = mt.model_table(entry, track["categories"])
        table = Table(title=f"{model}: BFCL accuracy per category")
        for i, name in enumerate(rows[0]):
            table.add_column(name, justify="left" if i == 0 else "right")
        for row in rows[1:]:
            table.add_row(*row)
        Console().print(table)
    for path in written:
        console.print(f"wrote {path}")
    return track
