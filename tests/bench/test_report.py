"""shim.bench.report: the results dict, the bar and the Markdown, from hand-built cells."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shim.bench.adapters import ParserSpec
from shim.bench.baselines import RegexAccumulate
from shim.bench.chunkers import make_chunkers
from shim.bench.corpus import Case
from shim.bench.metrics import CellScore
from shim.bench.mutations import Call
from shim.bench.report import build_results, category_table, render_markdown, write_outputs

CASES = [
    Case(id="a#0", category="clean", operator="a", source="generated", text="<x>", calls=[Call(name="f")], visible=""),
    Case(id="b#0", category="decoys", operator="b", source="fixture", text="a < b", calls=[], visible="a < b"),
]
SPECS = [ParserSpec(name=n, strategy=f"{n} strategy", make=RegexAccumulate) for n in ("shim", "regex")]
CHUNKERS = make_chunkers(quick=True)[:1]


def _cell(parser: str, case: Case, *, exact: bool) -> CellScore:
    cell = CellScore(parser=parser, case_id=case.id, category=case.category, source=case.source, chunker="whole")
    cell.runs, cell.exact, cell.tp, cell.fn = 1, exact, int(exact and bool(case.calls)), int(not exact)
    if not exact:
        cell.example = {"calls": [], "text": "<x>", "errors": 0}
    return cell


def _results(shim_exact_on_clean: bool) -> dict[str, Any]:
    cells = [
        _cell("shim", CASES[0], exact=shim_exact_on_clean),
        _cell("shim", CASES[1], exact=True),
        _cell("regex", CASES[0], exact=True),
        _cell("regex", CASES[1], exact=True),
    ]
    meta = {"seed": 0, "quick": True, "chunk_size": 16, "size_1x": 100}
    return build_results(cases=CASES, specs=SPECS, chunkers=CHUNKERS, cells=cells, throughput={}, meta=meta)


def test_the_bar_holds_when_shim_is_exact_and_never_behind() -> None:
    bar = _results(True)["bar"]
    assert bar["exact_at_least_99"] and bar["not_behind_any_baseline"] and bar["behind_in"] == []


def test_the_bar_names_the_category_where_a_baseline_is_ahead() -> None:
    bar = _results(False)["bar"]
    assert not bar["exact_at_least_99"] and bar["behind_in"] == ["clean (behind regex)"]


def test_the_category_table_has_a_row_per_category_and_a_total() -> None:
    rows = category_table(_results(False))
    assert rows[0] == ["category", "cases", "shim", "regex"]
    assert rows[1] == ["clean", "1", "0.0%", "100.0%"] and rows[-1][0] == "**all**"


def test_the_markdown_lists_shim_failures_with_their_input_and_fixture_results() -> None:
    results = _results(False)
    md = render_markdown(results)
    assert "## Failing cases for shim (1 cases, 1 cells)" in md and '`"<x>"`' in md
    assert "| b#0 | pass | pass |" in md.replace("fixture:", "")
    assert "## Throughput" not in md  # none was measured


def test_outputs_are_written_without_a_throughput_chart_when_none_was_measured(tmp_path: Path) -> None:
    written = write_outputs(_results(True), tmp_path)
    assert [p.name for p in written] == ["results.json", "report.md", "accuracy_by_category.png"]
