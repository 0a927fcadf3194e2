"""shim.bench.adapters: every parser behind one seam producing the same event dicts."""

from __future__ import annotations

from shim.bench.adapters import PARSER_NAMES, parser_specs
from shim.bench.metrics import outcome_of
from shim.bench.mutations import TOOLS

CALL = 'Ok. <function_call>{"name": "get_time", "arguments": {}}</function_call>'


def test_every_available_parser_reads_a_clean_call_into_the_same_fold() -> None:
    specs = parser_specs()
    assert set(specs) <= set(PARSER_NAMES) and {"regex", "regex+repair", "hermes-partial"} <= set(specs)
    for spec in specs.values():
        parser = spec.make(TOOLS)
        events = parser.feed(CALL[:4]) + parser.feed(CALL[4:]) + parser.close()
        outcome = outcome_of(events)
        assert outcome.calls == [("get_time", "{}")], spec.name
        assert outcome.text.strip() == "Ok." and outcome.raw == CALL, spec.name
        assert spec.strategy
