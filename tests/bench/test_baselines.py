"""shim.bench.baselines: each baseline behaves as the strategy it is named after, flaws included."""

from __future__ import annotations

from typing import Any

from shim.bench.baselines import HermesPartial, RegexAccumulate, RegexRepair
from shim.bench.metrics import Outcome, outcome_of

CALL = '<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call>'
PARIS = ("get_weather", '{"city": "Paris"}')


def _run(parser: Any, chunks: list[str]) -> Outcome:
    events: list[dict[str, Any]] = []
    for chunk in chunks:
        events += parser.feed(chunk)
    events += parser.close()
    outcome = outcome_of(events)
    assert outcome.raw == "".join(chunks)  # every baseline is lossless by construction
    return outcome


def _chars(text: str) -> list[str]:
    return list(text)


def test_regex_reads_a_strict_tagged_call_and_keeps_the_prose() -> None:
    out = _run(RegexAccumulate(), ["Sure. ", CALL, " Done."])
    assert out.calls == [PARIS] and out.text == "Sure.  Done."


def test_regex_rescans_everything_so_a_tag_split_across_chunks_still_matches() -> None:
    assert _run(RegexAccumulate(), _chars(CALL)).calls == [PARIS]


def test_regex_rejects_lenient_json_and_unknown_tags() -> None:
    single = CALL.replace('"', "'")
    assert _run(RegexAccumulate(), [single]).calls == [] and _run(RegexAccumulate(), [single]).errors == 1
    tool_call = CALL.replace("function_call", "tool_call")
    assert _run(RegexAccumulate(), [tool_call]).text == tool_call


def test_regex_shows_an_unclosed_block_as_text() -> None:
    unclosed = CALL.removesuffix("</function_call>")
    out = _run(RegexAccumulate(), [unclosed])
    assert out.calls == [] and out.text == unclosed


def test_regex_cuts_the_body_at_a_closing_tag_inside_a_string() -> None:
    text = '<function_call>{"name": "w", "arguments": {"s": "a </function_call> b"}}</function_call>'
    out = _run(RegexAccumulate(), [text])
    assert out.calls == [] and out.errors == 1 and '"}}</function_call>' in out.text


def test_regex_repair_reads_lenient_json_that_strict_parsing_rejects() -> None:
    single = "<function_call>{'name': 'get_weather', 'arguments': {'city': 'Paris',},}</function_call>"
    assert _run(RegexRepair(), [single]).calls == [PARIS]


def test_regex_repair_turns_a_truncated_body_into_a_call() -> None:
    # The strategy's known flaw: the repair library completes a value the model never finished.
    cut = '<function_call>{"name": "get_weather", "arguments": {"city": "Par</function_call>'
    assert _run(RegexRepair(), [cut]).calls == [("get_weather", '{"city": "Par"}')]


def test_hermes_partial_reads_both_its_tags_and_streams_the_name_before_the_end() -> None:
    parser = HermesPartial()
    events = parser.feed('<tool_call>{"name": "get_weather", "arguments": {"city": "Pa')
    assert [e["type"] for e in events] == ["tool_call_start"]
    events += parser.feed('ris"}}</tool_call>') + parser.close()
    assert outcome_of(events).calls == [PARIS]


def test_hermes_partial_leaks_a_tag_split_across_chunks_into_the_text() -> None:
    out = _run(
        HermesPartial(),
        ["Hi <function_", 'call>{"name": "get_weather", "arguments": {"city": "Paris"}}', "</function_call>"],
    )
    assert out.calls == [PARIS] and out.text == "Hi <function_"


def test_hermes_partial_parses_an_unclosed_block_at_the_end_of_the_stream() -> None:
    out = _run(HermesPartial(), [CALL[:30], CALL[30:].removesuffix("</function_call>")])
    assert out.calls == [PARIS] and out.text == ""


def test_hermes_partial_makes_an_error_of_lenient_json_and_treats_think_as_text() -> None:
    out = _run(HermesPartial(), [CALL.replace('"', "'")])
    assert out.calls == [] and out.errors == 1
    drafted = _run(HermesPartial(), ["<think>" + CALL + "</think>"])
    assert drafted.calls == [PARIS] and drafted.text == "<think></think>"
