"""``shim bench --quick``: the report is produced and well formed (nothing here measures time)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from shim.cli import main


def test_bench_quick_writes_results_report_and_charts(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    result = CliRunner().invoke(main, ["bench", "--quick", "--track", "generated", "--out", str(out)])
    assert result.exit_code == 0, result.output

    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    parsers = list(results["parsers"])
    assert {"regex", "regex+repair", "hermes-partial"} <= set(parsers)
    assert results["meta"]["quick"] is True and results["meta"]["fixtures"] >= 12
    for name in parsers:
        summary = results["summary"][name]
        assert summary["cells"] == results["meta"]["cases"] * len(results["chunkers"])
        assert 0.0 <= summary["exact"] <= 1.0 and 0.0 <= summary["recall"] <= 1.0
        assert set(results["by_category"][name]) == set(results["categories"])
        assert set(results["throughput"][name]) == {"mixed", "huge_arg"}
        assert len(results["fixtures"][name]) == results["meta"]["fixtures"]

    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# shim bench")
    for heading in ("## Exact-match calls by category", "## All checks", "## Throughput", "## Fixtures"):
        assert heading in report
    table = [line for line in report.splitlines() if line.startswith("| category |")]
    assert table and all(p in table[0] for p in parsers)

    for png in ("accuracy_by_category.png", "throughput.png"):
        assert (out / png).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert "Exact-match calls by category" in result.output

    # A quick run's timings must not pass for the full run's: the title, the throughput section and the
    # printed tables say which run this is.
    assert report.splitlines()[0].endswith(
        "(quick run: small inputs, 2,000-character streams; not the full run's numbers)"
    )
    throughput = report.split("## Throughput", 1)[1].split("##", 1)[0]
    assert "This is the quick run" in throughput
    assert "quick run" in result.stdout.lstrip().splitlines()[0]


def test_bench_measures_only_the_parsers_asked_for(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["bench", "--quick", "--no-throughput", "--parser", "regex", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert list(results["parsers"]) == ["regex"] and results["throughput"] == {}


def test_bench_rejects_an_unknown_parser(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["bench", "--parser", "nope", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "nope" in result.output


def test_bench_real_and_decoy_tracks_print_their_tables_and_store_them(tmp_path: Path) -> None:
    args = ["bench", "--quick", "--no-throughput", "--parser", "regex", "--track", "real", "--track", "decoy"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["meta"]["tracks"] == ["real", "decoy"] and set(results["tracks"]) == {"real", "decoy"}
    assert (
        results["tracks"]["decoy"]["documents"] >= 30 and results["tracks"]["decoy"]["summary"]["regex"]["calls"] == 0
    )
    assert "Real track:" in result.output  # rich wraps long titles in a narrow terminal
    assert "Decoy track" in result.output and "Exact-match calls by category" not in result.output
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Real track" in report and "## Decoy track" in report and "## Throughput" not in report
