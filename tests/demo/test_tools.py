"""The demo tools as plain Python: number formatting, unit aliases, the expression evaluator's limits."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from shim.demo.tools import DemoToolError, DemoTools, format_number


@pytest.mark.parametrize(
    ("value", "text"),
    [(391, "391"), (4.0, "4"), (16.0934, "16.09"), (0.30479, "0.3048"), (-40.0, "-40"), (2.5e-7, "2.5e-07")],
)
def test_numbers_are_written_the_way_a_person_would(value: float, text: str) -> None:
    assert format_number(value) == text


def test_units_accept_names_and_plurals_as_well_as_symbols() -> None:
    tools = DemoTools()
    assert tools.convert_units(2, "kilometers", "Miles") == "1.24 mi"
    assert tools.convert_units(212, "°F", "celsius") == "100 C"
    assert tools.convert_units(1, "gallon", "l") == "3.79 l"


def test_huge_powers_are_refused_instead_of_hanging() -> None:
    with pytest.raises(DemoToolError, match="exponent"):
        DemoTools().calculate("9 ** 9 ** 9")
    assert DemoTools().calculate("2^10") == "1024"


def test_a_fixed_clock_given_in_code_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIM_DEMO_NOW", "2030-01-01T00:00:00Z")
    fixed = DemoTools(now=datetime(2026, 1, 2, 3, 4, tzinfo=timezone.utc))
    assert fixed.get_time("Asia/Tokyo") == "2026-01-02 12:04"
    assert DemoTools().get_time("UTC") == "2030-01-01 00:00"
