# matplotlib's stubs leave **kwargs untyped, which strict pyright reports on every Axes call.
# pyright: reportUnknownMemberType=false
"""Turn scored cells and timings into ``results.json``, ``report.md`` and PNG charts.

`build_results` is the single source: the Markdown, the charts and the terminal tables are all rendered from
the dict it returns (and that ``results.json`` stores), so they cannot disagree.
"""

from __future__ import annotations

import json
import os
import platform
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shim.__about__ import __version__
from shim.bench.adapters import ParserSpec
from shim.bench.chunkers import Chunker
from shim.bench.corpus import Case
from shim.bench.metrics import CellScore, summarize

__all__ = [
    "bar_groups",
    "build_results",
    "category_table",
    "failure_entry",
    "md_table",
    "pct",
    "render_markdown",
    "summary_cells",
    "write_charts",
    "write_outputs",
]

# Failing cases listed per parser: all of shim's (up to a sanity limit), a sample of each baseline's (they fail
# hundreds, and results.json must stay small enough to keep in the repository).
_FAILURE_LIMIT = 300
_BASELINE_FAILURE_LIMIT = 25
_BEYOND_SPEC = "beyond_spec"  # shapes issue 2 does not require; shown, but not part of issue 8's bar


def _abridge(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit // 2] + f"…[{len(text) - limit} chars]…" + text[-limit // 2 :]


def build_results(
    *,
    cases: Sequence[Case],
    specs: Sequence[ParserSpec],
    chunkers: Sequence[Chunker],
    cells: Sequence[CellScore],
    throughput: dict[str, dict[str, Any]],
    meta: dict[str, Any],
) -> dict[str, Any]:
    """Everything the report shows, as plain JSON data."""
    by_case = {c.id: c for c in cases}
    grouped: dict[str, list[CellScore]] = defaultdict(list)
    for cell in cells:
        grouped[cell.parser].append(cell)
    categories = list(dict.fromkeys(c.category for c in cases))
    results: dict[str, Any] = {
        "meta": {
            **meta,
            "shim_version": __version__,
            "python": platform.python_version(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
            "cases": len(cases),
            "generated_cases": sum(c.source == "generated" for c in cases),
            "fixtures": sum(c.source == "fixture" for c in cases),
        },
        "parsers": {s.name: s.strategy for s in specs},
        "chunkers": {c.name: c.doc for c in chunkers},
        "categories": categories,
        "summary": {},
        "by_category": {},
        "by_chunker": {},
        "fixtures": {},
        "failures": {},
        "throughput": throughput,
    }
    for spec in specs:
        mine = grouped.get(spec.name, [])
        results["summary"][spec.name] = summarize(mine)
        results["by_category"][spec.name] = {cat: summarize(c for c in mine if c.category == cat) for cat in categories}
        results["by_chunker"][spec.name] = {
            ch.name: summarize(c for c in mine if c.chunker == ch.name) for ch in chunkers
        }
        per_fixture: dict[str, bool] = {}
        for cell in mine:
            if cell.source == "fixture":
                per_fixture[cell.case_id] = per_fixture.get(cell.case_id, True) and cell.passed
        results["fixtures"][spec.name] = per_fixture
        failing: dict[str, list[CellScore]] = defaultdict(list)
        for cell in mine:
            if not cell.passed:
                failing[cell.case_id].append(cell)
        limit = _FAILURE_LIMIT if spec.name == "shim" else _BASELINE_FAILURE_LIMIT
        results["failures"][spec.name] = {
            "cells": sum(len(v) for v in failing.values()),
            "cases": len(failing),
            "shown": [failure_entry(v, by_case[k]) for k, v in list(failing.items())[:limit]],
        }
    results["bar"] = _bar(results)
    return results


def failure_entry(cells: list[CellScore], case: Case) -> dict[str, Any]:
    """One failing case for the report: which checks failed under which chunkers, input, expected, got."""
    failed: dict[str, None] = {}
    for cell in cells:
        for check in ("exact", "text_ok", "raw_ok", "invariant"):
            if not getattr(cell, check):
                failed[check] = None
        if cell.errors_ok is False:
            failed["errors"] = None
        if cell.crashes:
            failed["crash"] = None
        if cell.timeouts:
            failed["timeout"] = None
    return {
        "case": case.id,
        "category": case.category,
        "chunkers": [c.chunker for c in cells],
        "failed": list(failed),
        "input": _abridge(case.text),
        "expected": {"calls": [c.to_dict() for c in case.calls], "visible": case.visible, "errors": case.errors},
        "got": next((c.example for c in cells if c.example is not None), None),
    }


def _bar(results: dict[str, Any]) -> dict[str, Any] | None:
    """Issue 8's bar for shim's parser: >= 99% exact calls, no lost text, full invariance, ahead everywhere."""
    if "shim" not in results["summary"]:
        return None
    in_spec = [c for c in results["categories"] if c != _BEYOND_SPEC]
    weights = {c: results["by_category"]["shim"][c]["cells"] for c in in_spec}
    total = sum(weights.values())
    exact = sum((results["by_category"]["shim"][c]["exact"] or 0.0) * w for c, w in weights.items()) / max(total, 1)
    lost = sum(results["by_category"]["shim"][c]["text_lost"] for c in in_spec)
    invariant = all(results["by_category"]["shim"][c]["invariant"] in (1.0, None) for c in in_spec)
    behind: list[str] = []
    for cat in in_spec:
        own = results["by_category"]["shim"][cat]["exact"] or 0.0
        for name, per in results["by_category"].items():
            if name != "shim" and (per[cat]["exact"] or 0.0) > own:
                behind.append(f"{cat} (behind {name})")
    return {
        "scope": f"every category except {_BEYOND_SPEC!r}",
        "exact": round(exact, 4),
        "exact_at_least_99": exact >= 0.99,
        "no_lost_text": lost == 0,
        "fully_chunk_invariant": invariant,
        "not_behind_any_baseline": not behind,
        "behind_in": behind,
    }


# --- rendering ------------------------------------------------------------------------------------------


def pct(value: float | None) -> str:
    """A share as the reports print it (``n/a`` where nothing was scored)."""
    return "n/a" if value is None else f"{value * 100:.1f}%"


_COUNTS = frozenset({"text_lost", "tag_leak", "crashes", "timeouts"})


def summary_cells(summary: dict[str, Any], keys: list[str]) -> list[str]:
    """The cells of one parser's summary, in the order of ``keys``: shares as percentages, counts as numbers."""
    return [str(summary[k]) if k in _COUNTS else pct(summary[k]) for k in keys]


def bar_groups(ax: Any, groups: list[str], series: dict[str, list[float]], *, rotation: int = 0) -> None:
    """One bar per series within each group, side by side, with the groups' names under them."""
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        ax.bar([x + i * width for x in range(len(groups))], values, width, label=name)
    ticks = [x + width * (len(series) - 1) / 2 for x in range(len(groups))]
    ax.set_xticks(ticks, groups, rotation=rotation, ha="right" if rotation else "center")


def _two(summary: dict[str, Any], first: str, second: str) -> str:
    return f"{pct(summary[first])} / {pct(summary[second])}"


def category_table(results: dict[str, Any]) -> list[list[str]]:
    """Rows of exact-match calls by category (header row first); the README table."""
    parsers = list(results["parsers"])
    rows = [["category", "cases", *parsers]]
    for cat in results["categories"]:
        cases = results["by_category"][parsers[0]][cat]["cases"] if parsers else 0
        rows.append([cat, str(cases), *(pct(results["by_category"][p][cat]["exact"]) for p in parsers)])
    rows.append(["**all**", str(results["meta"]["cases"]), *(pct(results["summary"][p]["exact"]) for p in parsers)])
    return rows


def md_table(rows: list[list[str]]) -> str:
    """A Markdown table from rows (header row first)."""
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
    return "\n".join(lines)


def _overall_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = [
        [
            "parser",
            "exact calls",
            "precision",
            "recall",
            "text ok",
            "text lost",
            "tag leak",
            "chunk-invariant",
            "raw lossless",
            "errors ok",
            "crashes",
            "timeouts",
            "all checks",
        ]
    ]
    keys = ["exact", "precision", "recall", "text_ok", "text_lost", "tag_leak", "invariant", "raw_ok", "errors_ok"]
    for name, s in results["summary"].items():
        rows.append([name, *summary_cells(s, [*keys, "crashes", "timeouts", "passed"])])
    return rows


def _throughput_rows(results: dict[str, Any]) -> list[list[str]]:
    tp = results["throughput"]
    rows = [["parser", "workload", "MB/s (1x)", "µs/chunk (1x)", "MB/s (10x)", "scaling 10x"]]
    for name, per in tp.items():
        for workload, m in per.items():
            bound = "≥" if m["scaling_is_lower_bound"] else ""
            rows.append(
                [
                    name,
                    workload,
                    f"{m['small']['mb_per_s']:.3f}",
                    f"{m['small']['us_per_chunk']:.1f}",
                    f"{m['large']['mb_per_s']:.3f}",
                    f"{bound}{m['scaling']:.2f}",
                ]
            )
    return rows


def run_label(meta: dict[str, Any]) -> str:
    """What a run measured, for every title: ``--quick`` shrinks the corpus and the streams, so its
    throughput and scaling are dominated by fixed per-stream costs and cannot stand for the full run's."""
    if not meta.get("quick"):
        return "full run"
    return f"quick run: small inputs, {meta.get('size_1x', 0):,}-character streams; not the full run's numbers"


def render_markdown(results: dict[str, Any]) -> str:
    """The Markdown report."""
    meta = results["meta"]
    parts = [
        f"# shim bench: tool-call parsing on malformed streams ({run_label(meta)})",
        f"shim {meta['shim_version']}, Python {meta['python']}, seed {meta['seed']}, "
        f"{'quick' if meta['quick'] else 'full'} run: {meta['cases']} cases ({meta['generated_cases']} generated, "
        f"{meta['fixtures']} fixtures) x {len(results['chunkers'])} chunkers, on {meta['machine']} "
        "(timings are noisy when other work shares the CPUs; accuracy is deterministic).",
        "A cell is one case under one chunker; it passes a check only if every chunking of that chunker passes.",
        "## Parsers",
        "\n".join(f"- **{name}**: {strategy}" for name, strategy in results["parsers"].items()),
        "## Exact-match calls by category",
        md_table(category_table(results)),
        "![accuracy by category](accuracy_by_category.png)",
        "## All checks",
        md_table(_overall_rows(results)),
        "## By chunker (exact-match calls / all checks passed)",
        "The whole-message run is each parser's reference for chunk invariance, so it always counts as invariant.",
        md_table(
            [["chunker", *results["parsers"]]]
            + [
                [
                    f"{ch} ({results['chunkers'][ch]})",
                    *(_two(results["by_chunker"][p][ch], "exact", "passed") for p in results["parsers"]),
                ]
                for ch in results["chunkers"]
            ]
        ),
    ]
    if results["throughput"]:
        parts += [
            "## Throughput",
            f"Streams of {meta['size_1x']:,} and 10x that many characters in chunks of {meta['chunk_size']}; "
            "scaling is cost per byte at 10x over cost per byte at 1x (1 = linear, about 10 = quadratic; "
            "≥ marks a run stopped at the time cap, whose ratio is a lower bound)."
            + (
                " This is the quick run: at this size fixed per-stream costs dominate, so compare parsers with "
                "the full run (`shim bench`), not with these numbers."
                if meta.get("quick")
                else ""
            ),
            md_table(_throughput_rows(results)),
            "![throughput and scaling](throughput.png)",
        ]
    parts += ["## Fixtures (all checks, every chunker)", _fixture_table(results)]
    if results["bar"] is not None:
        bar = results["bar"]
        parts += [
            "## The bar (issue 8)",
            f"Over {bar['scope']}:\n"
            f"- at least 99% exact-match calls: {'yes' if bar['exact_at_least_99'] else 'NO'} "
            f"({bar['exact'] * 100:.1f}%)\n"
            f"- no lost text: {'yes' if bar['no_lost_text'] else 'NO'}\n"
            f"- full chunk invariance: {'yes' if bar['fully_chunk_invariant'] else 'NO'}\n"
            f"- not behind any baseline in any category: {'yes' if bar['not_behind_any_baseline'] else 'NO'}"
            + (f" ({', '.join(bar['behind_in'])})" if bar["behind_in"] else ""),
        ]
    if "shim" in results["failures"]:
        fail = results["failures"]["shim"]
        parts.append(f"## Failing cases for shim ({fail['cases']} cases, {fail['cells']} cells)")
        parts += [_failure_md(f) for f in fail["shown"]] or ["None."]
    return "\n\n".join(parts) + "\n"


def _failure_md(f: dict[str, Any]) -> str:
    got: dict[str, Any] = f["got"] or {}
    shown = {k: got.get(k) for k in ("calls", "text", "errors", "crash", "timeout") if k in got}
    return (
        f"- `{f['case']}` ({f['category']}; failed {', '.join(f['failed'])}; chunkers {', '.join(f['chunkers'])})\n"
        f"  - input: `{json.dumps(f['input'], ensure_ascii=False)}`\n"
        f"  - expected: `{json.dumps(f['expected'], ensure_ascii=False)}`\n"
        f"  - got: `{json.dumps(shown, ensure_ascii=False)}`"
    )


def _fixture_table(results: dict[str, Any]) -> str:
    parsers = list(results["parsers"])
    ids = list(dict.fromkeys(fid for p in parsers for fid in results["fixtures"][p]))
    rows = [["fixture", *parsers]]
    rows += [
        [fid.removeprefix("fixture:"), *("pass" if results["fixtures"][p].get(fid) else "FAIL" for p in parsers)]
        for fid in ids
    ]
    return md_table(rows)


def write_charts(results: dict[str, Any], out: Path) -> list[Path]:
    """``accuracy_by_category.png`` and ``throughput.png`` (matplotlib, Agg backend: no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cats = list(results["categories"])
    fig, ax = plt.subplots(figsize=(max(8, len(cats) * 0.9), 4.5))
    series = {p: [(results["by_category"][p][c]["exact"] or 0.0) * 100 for c in cats] for p in results["parsers"]}
    bar_groups(ax, cats, series, rotation=30)
    ax.set_ylabel("exact-match calls (% of case x chunker cells)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Tool calls read exactly, by failure category ({run_label(results['meta'])})", fontsize="medium")
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    paths = [out / "accuracy_by_category.png"]
    fig.savefig(paths[0], dpi=110)
    plt.close(fig)

    tp = results["throughput"]
    if not tp:  # --no-throughput: nothing to draw
        return paths
    workloads = list(next(iter(tp.values())).keys())
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4))
    fig.suptitle(run_label(results["meta"]), fontsize="medium")
    bar_groups(left, workloads, {name: [tp[name][w]["large"]["mb_per_s"] for w in workloads] for name in tp})
    bar_groups(right, workloads, {name: [tp[name][w]["scaling"] for w in workloads] for name in tp})
    left.set_yscale("log")
    left.set_ylabel("MB/s at 10x size (log)")
    left.set_title("Throughput")
    right.axhline(1.0, color="grey", linestyle="--", linewidth=1)
    right.set_ylabel("cost per byte, 10x / 1x")
    right.set_title("Scaling when the stream grows 10x")
    right.legend(fontsize="small")
    fig.tight_layout()
    paths.append(out / "throughput.png")
    fig.savefig(paths[1], dpi=110)
    plt.close(fig)
    return paths


def write_outputs(results: dict[str, Any], out: Path) -> list[Path]:
    """Write ``results.json``, ``report.md`` and the charts into ``out``; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "results.json"
    json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path = out / "report.md"
    md_path.write_text(render_markdown(results), encoding="utf-8")
    return [json_path, md_path, *write_charts(results, out)]
