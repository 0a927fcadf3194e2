"""shim.bench.suite: parser selection."""

from __future__ import annotations

import pytest

from shim.bench.suite import select_parsers


def test_parsers_come_in_report_order_whatever_order_they_are_asked_in() -> None:
    assert [s.name for s in select_parsers(["regex", "hermes-partial"])] == ["hermes-partial", "regex"]


def test_no_names_selects_every_available_parser() -> None:
    assert {"regex", "regex+repair", "hermes-partial"} <= {s.name for s in select_parsers([])}


def test_an_unknown_parser_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="choose from"):
        select_parsers(["nope"])
