# matplotlib's stubs leave **kwargs untyped, which strict pyright reports on every Axes call.
# pyright: reportUnknownMemberType=false
"""The quoted tracks of the report: what real models printed, per dialect family, and real prose (decoys).

The generated track (``report.build_results``) measures the shapes this project wrote itself; these two
measure what it did not write. Both are built from the same scored cells and rendered from the dicts built
here, which ``results.json`` stores under ``tracks``.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shim.bench.adapters import ParserSpec
from shim.bench.chunkers import Chunker
from shim.bench.corpus import Case
from shim.bench.metrics import CellScore, summarize
from shim.bench.report import bar_groups, failure_entry, md_table, pct

__all__ = [
    "build_decoy_track",
    "build_real_track",
    "decoy_table",
    "family_table",
    "hunt_table",
    "render_decoy_md",
    "render_real_md",
    "write_all",
    "write_real_chart",
]

_FAILURE_LIMIT = 300
_BASELINE_FAILURE_LIMIT = 10


def _grouped(cells: Sequence[CellScore]) -> dict[str, list[CellScore]]:
    grouped: dict[str, list[CellScore]] = defaultdict(list)
    for cell in cells:
        grouped[cell.parser].append(cell)
    return grouped


def build_real_track(
    *,
    cases: Sequence[Case],
    specs: Sequence[ParserSpec],
    chunkers: Sequence[Chunker],
    cells: Sequence[CellScore],
    hunts: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Per parser: the generated track's metrics over all real outputs, per family and per chunker; and, for
    the outputs added by a recorded hunt (``hunts``: see `shim.bench.real.load_hunts`), shim's first-look
    score beside its score now."""
    by_case = {c.id: c for c in cases}
    families = list(dict.fromkeys(c.category for c in cases))
    grouped = _grouped(cells)
    track: dict[str, Any] = {
        "cases": len(cases),
        "families": {f: sum(c.category == f for c in cases) for f in families},
        "provenance": dict(Counter(c.note.split(":", 1)[0] for c in cases)),
        "summary": {},
        "by_family": {},
        "by_chunker": {},
        "cases_passed": {},
        "failures": {},
    }
    for spec in specs:
        mine = grouped.get(spec.name, [])
        track["summary"][spec.name] = summarize(mine)
        track["by_family"][spec.name] = {f: summarize(c for c in mine if c.category == f) for f in families}
        track["by_chunker"][spec.name] = {
            ch.name: summarize(c for c in mine if c.chunker == ch.name) for ch in chunkers
        }
        failing: dict[str, list[CellScore]] = defaultdict(list)
        for cell in mine:
            if not cell.passed:
                failing[cell.case_id].append(cell)
        track["cases_passed"][spec.name] = len(cases) - len(failing)
        limit = _FAILURE_LIMIT if spec.name == "shim" else _BASELINE_FAILURE_LIMIT
        track["failures"][spec.name] = {
            "cases": len(failing),
            "cells": sum(len(v) for v in failing.values()),
            "shown": [failure_entry(v, by_case[k]) for k, v in list(failing.items())[:limit]],
        }
        if spec.name == "shim" and hunts:
            track["hunts"] = _hunt_scores(mine, by_case, hunts)
    return track


def _hunt_scores(
    cells: Sequence[CellScore], by_case: Mapping[str, Case], hunts: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, int]]:
    """Per hunt (and ``total``): outputs, first-look exact calls and all checks, and the same now."""
    exact: dict[str, bool] = defaultdict(lambda: True)
    passed: dict[str, bool] = defaultdict(lambda: True)
    for cell in cells:
        exact[cell.case_id] &= cell.exact
        passed[cell.case_id] &= cell.passed
    scores: dict[str, dict[str, int]] = {}
    for case_id, info in hunts.items():
        if case_id not in by_case:  # a --quick run measures a few outputs per family
            continue
        first: Mapping[str, Any] = info.get("first_look") or {}
        for key in (str(info["hunt"]), "total"):
            row = scores.setdefault(key, dict.fromkeys(("outputs", "first_exact", "first_all", "exact", "all"), 0))
            row["outputs"] += 1
            row["first_exact"] += bool(first.get("exact_calls"))
            row["first_all"] += bool(first.get("all_checks"))
            row["exact"] += exact[case_id]
            row["all"] += passed[case_id]
    if "total" in scores:
        scores["total"] = scores.pop("total")  # last
    return scores


def hunt_table(track: dict[str, Any]) -> list[list[str]]:
    """Rows of first-look and current scores per hunt of new sources (header first)."""
    rows = [["new source", "outputs", "first look: exact calls", "first look: all checks", "now: exact", "now: all"]]
    for hunt, r in track.get("hunts", {}).items():
        n = r["outputs"]
        name = "**running total**" if hunt == "total" else hunt
        scores = [f"{r[k]}/{n}" for k in ("first_exact", "first_all", "exact", "all")]
        rows.append([name, str(n), *scores])
    return rows


def build_decoy_track(
    *, cases: Sequence[Case], specs: Sequence[ParserSpec], cells: Sequence[CellScore]
) -> dict[str, Any]:
    """Per parser: calls read out of prose, error events, and documents whose text did not stay visible."""
    grouped = _grouped(cells)
    kinds = list(dict.fromkeys(c.category for c in cases))
    track: dict[str, Any] = {
        "documents": len(cases),
        "characters": sum(len(c.text) for c in cases),
        "kinds": {k: sum(c.category == k for c in cases) for k in kinds},
        "summary": {},
        "failures": {},
    }
    for spec in specs:
        mine = grouped.get(spec.name, [])
        bad: dict[str, list[CellScore]] = defaultdict(list)
        for cell in mine:
            if not cell.passed:
                bad[cell.case_id].append(cell)
        track["summary"][spec.name] = {
            "documents": len({c.case_id for c in mine}),
            "calls": sum(c.fp for c in mine),
            "documents_with_calls": len({c.case_id for c in mine if c.fp}),
            "documents_with_errors": len({c.case_id for c in mine if c.errors_ok is False}),
            "documents_text_changed": len({c.case_id for c in mine if not c.text_ok}),
            "crashes": sum(c.crashes for c in mine),
            "timeouts": sum(c.timeouts for c in mine),
            "documents_passed": len({c.case_id for c in mine}) - len(bad),
        }
        track["failures"][spec.name] = [
            {
                "document": k,
                "chunkers": [c.chunker for c in v],
                "calls": sum(c.fp for c in v),
                "got": next((c.example for c in v if c.example is not None), None),
            }
            for k, v in list(bad.items())[: _FAILURE_LIMIT if spec.name == "shim" else _BASELINE_FAILURE_LIMIT]
        ]
    return track


def family_table(track: dict[str, Any]) -> list[list[str]]:
    """Rows of exact-match calls per dialect family (header first): the README's headline table."""
    parsers = list(track["summary"])
    rows = [["family", "outputs", *parsers]]
    for family, n in track["families"].items():
        rows.append([family, str(n), *(pct(track["by_family"][p][family]["exact"]) for p in parsers)])
    rows.append(["**all**", str(track["cases"]), *(pct(track["summary"][p]["exact"]) for p in parsers)])
    return rows


def render_real_md(track: dict[str, Any]) -> str:
    """The real track's section of the report."""
    parsers = list(track["summary"])
    prov = ", ".join(f"{n} {t}" for t, n in sorted(track["provenance"].items()))
    checks = [["parser", "exact calls", "text ok", "text lost", "tag leak", "chunk-invariant", "raw lossless", "all"]]
    for name, s in track["summary"].items():
        checks.append(
            [
                name,
                pct(s["exact"]),
                pct(s["text_ok"]),
                str(s["text_lost"]),
                str(s["tag_leak"]),
                pct(s["invariant"]),
                pct(s["raw_ok"]),
                f"{pct(s['passed'])} ({track['cases_passed'][name]}/{track['cases']} outputs)",
            ]
        )
    parts = [
        "## Real track: what real models printed",
        f"{track['cases']} outputs quoted byte for byte from `benchmarks/real/` ({prov}; see its README), "
        f"in {len(track['families'])} dialect families, each offered the tools its source offered. "
        "Exact-match calls per family (case x chunker cells):",
        md_table(family_table(track)),
        "![real track by family](real_by_family.png)",
        "### All checks on the real track",
        md_table(checks),
    ]
    if track.get("hunts"):
        parts += [
            "### Generalisation: sources shim had never seen",
            "Each hunt added real outputs from sources not mined before; the first look is what shim read *before* "
            "any change made for them (recorded in each sidecar), the honest measure of how it reads formats it "
            "has not seen. Cases pass a column only under every chunker.",
            md_table(hunt_table(track)),
        ]
    if "shim" in track["failures"]:
        fail = track["failures"]["shim"]
        parts.append(f"### Real outputs shim does not read yet ({fail['cases']} outputs, {fail['cells']} cells)")
        parts += [_failure_line(f) for f in fail["shown"]] or ["None."]
    return "\n\n".join(parts) + ("\n" if parsers else "")


def _failure_line(f: dict[str, Any]) -> str:
    got: dict[str, Any] = f["got"] or {}
    shown = {k: got.get(k) for k in ("calls", "text", "crash") if k in got}
    return (
        f"- `{f['case']}` (failed {', '.join(f['failed'])}; chunkers {', '.join(f['chunkers'])})\n"
        f"  - expected: `{json.dumps(f['expected']['calls'], ensure_ascii=False)}`\n"
        f"  - got: `{json.dumps(shown, ensure_ascii=False)}`"
    )


def decoy_table(track: dict[str, Any]) -> list[list[str]]:
    """Rows of the decoy track per parser (header first)."""
    rows = [["parser", "calls read", "docs with calls", "docs with errors", "docs with text changed", "docs passed"]]
    for name, s in track["summary"].items():
        rows.append(
            [
                name,
                str(s["calls"]),
                str(s["documents_with_calls"]),
                str(s["documents_with_errors"]),
                str(s["documents_text_changed"]),
                f"{s['documents_passed']}/{s['documents']}",
            ]
        )
    return rows


def render_decoy_md(track: dict[str, Any]) -> str:
    """The decoy track's section of the report."""
    rows = decoy_table(track)
    kinds = ", ".join(f"{n} {k}" for k, n in track["kinds"].items())
    parts = [
        "## Decoy track: prose stays prose",
        f"{track['documents']} documents, {track['characters']:,} characters of real prose quoted from public "
        f"sources ({kinds}; see `benchmarks/decoys/README.md`), each with the tool names a user might offer "
        "while pasting it. A document passes with zero calls, zero error events and every character visible.",
        md_table(rows),
    ]
    shown = track["failures"].get("shim", [])
    if shown:
        parts.append("### Decoys shim misreads")
        parts += [_decoy_line(f) for f in shown]
    return "\n\n".join(parts) + "\n"


def _decoy_line(f: dict[str, Any]) -> str:
    got: dict[str, Any] = f["got"] or {}
    shown = {k: got.get(k) for k in ("calls", "errors", "crash", "timeout") if k in got}
    return f"- `{f['document']}` (chunkers {', '.join(f['chunkers'])}): got `{json.dumps(shown, ensure_ascii=False)}`"


def write_real_chart(track: dict[str, Any], out: Path) -> Path:
    """``real_by_family.png``: exact-match calls per family and parser."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fams = list(track["families"])
    fig, ax = plt.subplots(figsize=(max(8, len(fams) * 0.6), 4.5))
    series = {p: [(track["by_family"][p][f]["exact"] or 0.0) * 100 for f in fams] for p in track["summary"]}
    bar_groups(ax, fams, series, rotation=40)
    ax.set_ylabel("exact-match calls (% of cells)")
    ax.set_ylim(0, 105)
    ax.set_title("Real model outputs read exactly, by dialect family")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    path = out / "real_by_family.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_all(results: dict[str, Any], out: Path) -> list[Path]:
    """Write ``results.json``, ``report.md`` (every track run) and the charts into ``out``; return the paths."""
    from shim.bench.report import render_markdown, write_charts

    out.mkdir(parents=True, exist_ok=True)
    ran = results["meta"].get("tracks", ["generated"])
    tracks: dict[str, Any] = results.get("tracks", {})
    parts: list[str] = []
    charts: list[Path] = []
    if "generated" in ran:
        parts.append(render_markdown(results))
        charts += write_charts(results, out)
    else:
        parts.append(f"# shim bench: tool-call parsing, tracks {', '.join(ran)}\n")
    if "real" in tracks:
        parts.append(render_real_md(tracks["real"]))
        charts.append(write_real_chart(tracks["real"], out))
    if "decoy" in tracks:
        parts.append(render_decoy_md(tracks["decoy"]))
    json_path = out / "results.json"
    json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path = out / "report.md"
    md_path.write_text("\n".join(parts), encoding="utf-8")
    return [json_path, md_path, *charts]
