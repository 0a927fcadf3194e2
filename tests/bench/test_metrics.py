"""shim.bench.metrics: scores computed on hand-built event lists."""

from __future__ import annotations

from typing import Any

from shim.bench.corpus import Case
from shim.bench.metrics import CellScore, canonical, fold_ws, outcome_of, score_run, summarize
from shim.bench.mutations import Call

TEXT = 'Hi.\n<function_call>{"name": "get_time"}</function_call>\nBye.'
CASE = Case(
    id="c",
    category="clean",
    operator="op",
    source="generated",
    text=TEXT,
    calls=[Call(name="get_time", arguments={})],
    visible="Hi. Bye.",
)


def _events(name: str = "get_time", args: dict[str, Any] | None = None, *, text: str = "Bye.") -> list[dict[str, Any]]:
    block = '<function_call>{"name": "get_time"}</function_call>\n'
    return [
        {"type": "text", "text": "Hi.\n", "raw": "Hi.\n"},
        {"type": "tool_call_start", "id": "call_" + "a" * 24, "name": name, "raw": ""},
        {"type": "tool_call_end", "id": "call_" + "a" * 24, "name": name, "arguments": args or {}, "raw": block},
        {"type": "text", "text": text, "raw": "Bye."},
    ]


def test_a_perfect_stream_passes_every_check() -> None:
    run = score_run(CASE, outcome_of(_events()))
    assert run.exact and run.text_ok and run.raw_ok and run.invariant and run.errors_ok
    assert (run.tp, run.fp, run.fn, run.lost, run.leaked) == (1, 0, 0, 0, 0)


def test_wrong_arguments_count_as_one_false_positive_and_one_false_negative() -> None:
    run = score_run(CASE, outcome_of(_events(args={"tz": "UTC"})))
    assert not run.exact and (run.tp, run.fp, run.fn) == (0, 1, 1)


def test_arguments_compare_by_json_value_not_python_equality() -> None:
    assert canonical("f", {"a": 1}) != canonical("f", {"a": True})
    assert canonical("f", {"b": 1, "a": 2}) == canonical("f", {"a": 2, "b": 1})


def test_visible_text_is_compared_after_folding_whitespace() -> None:
    assert fold_ws("  Hi.\n\n  Bye. ") == "Hi. Bye."
    assert score_run(CASE, outcome_of(_events(text="\n\nBye.\n"))).text_ok


def test_missing_text_is_lost_and_markup_in_text_is_leaked() -> None:
    lost = score_run(CASE, outcome_of(_events(text="")))
    assert not lost.text_ok and lost.lost == len(" Bye.") and lost.leaked == 0
    leaked = score_run(CASE, outcome_of(_events(text="</function_call> Bye.")))
    assert leaked.lost == 0 and leaked.leaked == 2  # the markup characters "<" and ">"
    assert not leaked.text_ok


def test_raw_that_does_not_rebuild_the_input_fails_the_lossless_check() -> None:
    events = _events()
    events[3] = {**events[3], "raw": "Bye!"}
    assert not score_run(CASE, outcome_of(events)).raw_ok


def test_a_different_result_from_the_whole_message_run_breaks_chunk_invariance() -> None:
    reference = outcome_of(_events())
    assert score_run(CASE, outcome_of(_events()), reference).invariant
    assert not score_run(CASE, outcome_of(_events(text="Bye")), reference).invariant


def test_a_malformed_event_counts_as_a_crash() -> None:
    outcome = outcome_of([{"type": "tool_call_end", "id": "x", "raw": ""}])
    assert outcome.crash and "malformed" in outcome.crash
    assert score_run(CASE, outcome).crash


def test_expected_errors_are_scored_only_when_the_case_states_them() -> None:
    err = [{"type": "error", "id": None, "message": "cut", "raw": TEXT}]
    case = Case(
        id="t", category="truncation", operator="op", source="generated", text=TEXT, calls=[], visible="", errors=1
    )
    assert score_run(case, outcome_of(err)).errors_ok is True
    unscored = Case(**{**case.__dict__, "errors": None})
    assert score_run(unscored, outcome_of(err)).errors_ok is None


def test_a_cell_passes_only_if_every_run_passes_and_summaries_count_cells() -> None:
    cell = CellScore(parser="p", case_id="c", category="clean", source="generated", chunker="splits")
    cell.add(score_run(CASE, outcome_of(_events())))
    assert cell.passed
    cell.add(score_run(CASE, outcome_of(_events(text=""))))
    assert not cell.passed and cell.runs == 2 and cell.tp == 2
    good = CellScore(parser="p", case_id="d", category="clean", source="generated", chunker="whole")
    good.add(score_run(CASE, outcome_of(_events())))
    summary = summarize([cell, good])
    assert summary["cells"] == 2 and summary["exact"] == 1.0 and summary["text_ok"] == 0.5
    assert summary["text_lost"] == 1 and summary["passed"] == 0.5
