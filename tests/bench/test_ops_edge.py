"""shim.bench.ops_edge: huge arguments, truncated streams, decoys."""

from __future__ import annotations

import json

import pytest

from tests.bench.conftest import body, mutants


def test_huge_argument_is_as_large_as_asked_and_strict_json() -> None:
    for m in mutants("huge_argument", 2, huge_chars=5_000):
        assert len(m.calls[0].arguments["content"]) >= 5_000
        assert json.loads(body(m.text)) == m.calls[0].to_dict()


@pytest.mark.parametrize(
    "name", ["cut_mid_string_value", "cut_mid_key", "cut_after_colon", "cut_mid_literal", "cut_mid_name"]
)
def test_truncation_cuts_mid_value_and_expects_one_error_and_no_call(name: str) -> None:
    for m in mutants(name):
        assert m.calls == [] and m.errors == 1
        b = body(m.text)
        with pytest.raises(ValueError):
            json.loads(b)
        # Not merely missing closers: closing every bracket still does not give JSON.
        with pytest.raises(ValueError):
            json.loads(b + "}}")


def test_cut_in_closed_tag_has_a_closing_tag_after_the_cut() -> None:
    for m in mutants("cut_in_closed_tag"):
        assert m.text.endswith("</function_call>") and m.errors == 1


@pytest.mark.parametrize(
    "name",
    [
        "plain_prose",
        "html_markup",
        "comparison_operators",
        "heart_emoticon",
        "tag_name_prefix_word",
        "lone_tag_in_prose",
        "tag_in_inline_code",
        "fenced_package_json",
        "bare_json_unknown_name",
        "prose_narrates_call",
        "ends_in_partial_tag",
    ],
)
def test_decoys_expect_the_whole_text_back_and_no_call(name: str) -> None:
    for m in mutants(name):
        assert m.calls == [] and m.visible == m.text and m.errors == 0


def test_decoys_contain_what_they_are_named_after() -> None:
    assert all("<3" in m.text for m in mutants("heart_emoticon"))
    assert all("<functionality>" in m.text for m in mutants("tag_name_prefix_word"))
    assert all(m.text.endswith(("<func", "<function", "<tool_c")) for m in mutants("ends_in_partial_tag"))
    assert all('"scripts"' in m.text for m in mutants("fenced_package_json"))
