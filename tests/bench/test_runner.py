"""shim.bench.runner: crashes and timeouts are recorded, cells are scored, workloads are valid streams."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from shim.bench.adapters import ParserSpec, parser_specs
from shim.bench.chunkers import make_chunkers
from shim.bench.corpus import Case, generate
from shim.bench.mutations import Call
from shim.bench.runner import ThroughputConfig, huge_workload, mixed_workload, run_accuracy, run_throughput, stream


class _Exploding:
    def __init__(self, tools: Sequence[Any] = ()) -> None:
        del tools

    def feed(self, chunk: str) -> list[dict[str, Any]]:
        if "{" in chunk:
            raise RuntimeError("boom")
        return [{"type": "text", "text": chunk, "raw": chunk}]

    def close(self) -> list[dict[str, Any]]:
        return []


EXPLODING = ParserSpec(name="exploding", strategy="raises on a brace", make=_Exploding)


def test_a_parser_that_raises_is_recorded_as_a_crash_with_the_events_so_far() -> None:
    outcome = stream(EXPLODING, ["hi ", "{x}"])
    assert outcome.crash == "RuntimeError: boom" and outcome.text == "hi "


def test_a_deadline_in_the_past_stops_the_stream_as_a_timeout() -> None:
    outcome = stream(EXPLODING, ["a", "b", "c"], deadline=0.0)
    assert outcome.timeout and outcome.text == "a"


def test_accuracy_yields_one_cell_per_parser_case_and_chunker() -> None:
    cases = generate(0, variants=1, huge_chars=300)[:5]
    specs = [parser_specs()["regex"], EXPLODING]
    chunkers = make_chunkers(quick=True)
    seen: list[str] = []
    cells = run_accuracy(cases, specs, chunkers, on_case=lambda p, c: seen.append(p))
    assert len(cells) == len(cases) * len(specs) * len(chunkers)
    assert seen.count("regex") == len(cases)
    assert any(c.crashes for c in cells if c.parser == "exploding")
    regex_clean = [c for c in cells if c.parser == "regex" and c.case_id == "clean_compact#0"]
    assert all(c.passed for c in regex_clean)


def test_workloads_have_the_requested_size_and_hold_valid_calls() -> None:
    assert len(mixed_workload(5_000)) == 5_000 and "<function_call>" in mixed_workload(5_000)
    text = huge_workload(5_000)
    assert 4_990 <= len(text) <= 5_000
    assert json.loads(text[len("<function_call>") : -len("</function_call>")])["name"] == "write_file"


def test_throughput_reports_both_sizes_and_a_scaling_ratio_per_workload() -> None:
    cfg = ThroughputConfig(small=500, factor=2, repeats=1, cap_s=2.0)
    results = run_throughput([parser_specs()["regex"]], cfg)
    for workload in ("mixed", "huge_arg"):
        m = results["regex"][workload]
        assert m["small"]["bytes"] == 500 or m["small"]["bytes"] >= 490
        assert m["scaling"] > 0 and m["large"]["bytes"] > m["small"]["bytes"]


def test_a_case_whose_prompt_opened_reasoning_is_read_as_reasoning_by_shim_at_every_split() -> None:
    """A case's ``starts_in_reasoning`` reaches a parser that has the setting, as a model's profile would."""
    text = 'plan: look it up</think>Checking.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    case = Case(
        id="real:x/opened",
        category="x",
        operator="opened",
        source="real",
        text=text,
        calls=[Call(name="get_weather", arguments={"city": "Paris"})],
        visible="Checking.",
        errors=None,
        starts_in_reasoning=True,
    )
    cells = run_accuracy([case], [parser_specs()["shim"]], make_chunkers(quick=True))
    assert cells and all(c.passed for c in cells)
    told = stream(parser_specs()["shim"], [text], in_reasoning=True)
    untold = stream(parser_specs()["shim"], [text])
    assert told.text == "Checking." and untold.text == "plan: look it upChecking."
    assert (
        stream(parser_specs()["regex"], [text], in_reasoning=True).text == stream(parser_specs()["regex"], [text]).text
    )
