"""The real and decoy tracks: scored per family, rendered, and written beside the generated track."""

from __future__ import annotations

import json
from pathlib import Path

from shim.bench.adapters import parser_specs
from shim.bench.chunkers import make_chunkers
from shim.bench.corpus import Case
from shim.bench.real import load_decoys, load_hunts, load_real
from shim.bench.runner import run_accuracy
from shim.bench.suite import BenchOptions, run_bench
from shim.bench.tracks import (
    build_decoy_track,
    build_real_track,
    family_table,
    hunt_table,
    render_decoy_md,
    render_real_md,
)

WHOLE = make_chunkers(quick=True)[:1]


def _subset() -> list[Case]:  # two outputs of each of three families, from before the hunts
    hunted = load_hunts()
    cases = [c for c in load_real() if c.id not in hunted]
    return [c for f in ("hermes", "mistral", "deepseek") for c in [c for c in cases if c.category == f][:2]]


def test_the_real_track_scores_each_family_for_every_parser() -> None:
    cases = _subset()
    specs = [s for n, s in parser_specs().items() if n in ("shim", "regex")]
    cells = run_accuracy(cases, specs, WHOLE)
    track = build_real_track(cases=cases, specs=specs, chunkers=WHOLE, cells=cells)
    assert track["families"] == {"hermes": 2, "mistral": 2, "deepseek": 2}
    assert set(track["by_family"]["shim"]) == {"hermes", "mistral", "deepseek"}
    assert track["by_family"]["shim"]["hermes"]["exact"] == 1.0  # Hermes <tool_call> JSON is read today
    assert track["summary"]["regex"]["cells"] == 6
    rows = family_table(track)
    assert rows[0] == ["family", "outputs", "shim", "regex"] and rows[-1][0] == "**all**"
    md = render_real_md(track)
    assert "## Real track" in md and "| hermes | 2 | 100.0% |" in md


def test_a_real_output_is_read_with_the_tools_its_source_offered() -> None:
    (case,) = [c for c in load_real() if c.id == "real:llama3_json/ollama_bare_json_unoffered_name"]
    specs = [parser_specs()["shim"]]
    track = build_real_track(cases=[case], specs=specs, chunkers=WHOLE, cells=run_accuracy([case], specs, WHOLE))
    assert {t["name"] for t in case.tools or ()} == {"get_temperature", "get_conditions"}
    assert track["summary"]["shim"]["precision"] == 1.0  # `search` is not offered: no call is read


def test_the_real_track_puts_each_hunt_s_first_look_beside_its_score_now() -> None:
    hunts = load_hunts()
    cases = [c for c in load_real() if c.id in hunts][:6]
    specs = [parser_specs()["shim"]]
    track = build_real_track(
        cases=cases, specs=specs, chunkers=WHOLE, cells=run_accuracy(cases, specs, WHOLE), hunts=hunts
    )
    total = track["hunts"]["total"]
    assert list(track["hunts"])[-1] == "total" and total["outputs"] == len(cases)
    first = sum(bool(hunts[c.id]["first_look"]["exact_calls"]) for c in cases)
    assert total["first_exact"] == first and 0 <= total["exact"] <= len(cases)
    rows = hunt_table(track)
    assert rows[-1][0] == "**running total**" and rows[-1][2] == f"{first}/{len(cases)}"
    assert "### Generalisation" in render_real_md(track)


def test_the_decoy_track_counts_calls_errors_and_changed_text() -> None:
    decoys = [d for d in load_decoys() if d.category in ("html_xml", "readme")]
    specs = [parser_specs()["regex"]]
    cells = run_accuracy(decoys, specs, WHOLE)
    track = build_decoy_track(cases=decoys, specs=specs, cells=cells)
    summary = track["summary"]["regex"]
    assert summary["documents"] == len(decoys) and summary["calls"] == 0
    assert summary["documents_passed"] == len(decoys)
    assert "## Decoy track" in render_decoy_md(track)


def test_run_bench_writes_the_real_track_into_results_and_report(tmp_path: Path) -> None:
    options = BenchOptions(quick=True, parsers=["regex"], tracks=["real"], throughput=False, out=tmp_path, real_limit=1)
    results, written = run_bench(options)
    assert [p.name for p in written] == ["results.json", "report.md", "real_by_family.png"]
    stored = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert stored["meta"]["tracks"] == ["real"] and stored["summary"] == results["summary"]
    real = stored["tracks"]["real"]
    assert real["cases"] == len(real["families"]) and set(real["summary"]) == {"regex"}
    assert "## Real track" in (tmp_path / "report.md").read_text(encoding="utf-8")
