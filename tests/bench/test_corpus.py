"""shim.bench.corpus: deterministic generation, coverage of the issue's failure modes, fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shim.bench.corpus import OPERATORS, TOOLS, fixtures_dir, generate, load_corpus, load_fixtures

CATEGORIES = {
    "clean",
    "lenient_json",
    "shapes",
    "tags",
    "dialects",
    "multi",
    "reasoning",
    "strings",
    "unicode",
    "huge",
    "truncation",
    "decoys",
    "beyond_spec",
    "compound",
}


def test_generation_is_deterministic_from_the_seed() -> None:
    a = [c.to_dict() for c in generate(7, variants=2, huge_chars=500)]
    assert a == [c.to_dict() for c in generate(7, variants=2, huge_chars=500)]
    assert a != [c.to_dict() for c in generate(8, variants=2, huge_chars=500)]


def test_every_operator_is_documented_and_every_category_is_covered() -> None:
    assert {op.category for op in OPERATORS} == CATEGORIES
    assert len({op.name for op in OPERATORS}) == len(OPERATORS)
    assert all(op.doc for op in OPERATORS)


def test_prose_wrapped_variants_expect_the_prose_as_visible_text() -> None:
    cases = {c.id: c for c in generate(0, variants=2, huge_chars=500)}
    wrapped = cases["clean_compact#1"]
    assert not wrapped.text.startswith("<function_call>")
    prefix = wrapped.text.split("<function_call>")[0].strip()
    assert wrapped.visible.strip().startswith(prefix)


def test_truncation_cases_never_get_prose_after_the_cut() -> None:
    for case in generate(0, variants=4, huge_chars=500):
        if case.category == "truncation" and case.operator != "cut_in_closed_tag":
            assert not case.text.endswith((".", "result."))


def test_every_fixture_has_a_sidecar_saying_where_it_is_seen() -> None:
    cases = load_fixtures()
    assert len(cases) >= 12
    for case in cases:
        assert case.category in CATEGORIES and case.note


def test_a_fixture_without_sidecar_is_refused(tmp_path: Path) -> None:
    (tmp_path / "lonely.txt").write_text("hi", encoding="utf-8")
    with pytest.raises(ValueError, match="sidecar"):
        load_fixtures(tmp_path)


def test_fixtures_are_read_byte_exact(tmp_path: Path) -> None:
    (tmp_path / "crlf.txt").write_bytes(b"a\r\nb")
    meta = {"category": "decoys", "seen_in": "test", "calls": [], "visible": "a b"}
    (tmp_path / "crlf.json").write_text(json.dumps(meta), encoding="utf-8")
    (case,) = load_fixtures(tmp_path)
    assert case.text == "a\r\nb"


def test_the_corpus_holds_generated_cases_and_fixtures() -> None:
    corpus = load_corpus(0, variants=1, huge_chars=500)
    assert {c.source for c in corpus} == {"generated", "fixture"}
    assert fixtures_dir().is_dir()


def test_every_case_expects_known_tools_and_visible_text_taken_from_its_input() -> None:
    for case in generate(3, variants=4, huge_chars=500):
        assert all(call.name in TOOLS for call in case.calls), case.id
        rest = case.text
        for word in case.visible.split():  # the visible words appear in the input, in order
            at = rest.find(word)
            assert at >= 0, (case.id, word)
            rest = rest[at + len(word) :]


def test_operators_that_must_be_the_whole_message_never_get_prose() -> None:
    whole = {op.name for op in OPERATORS if not op.wrap}
    for case in generate(0, variants=4, huge_chars=500):
        if case.operator in whole and case.category not in ("decoys", "compound"):
            assert not case.text.startswith(("Let me", "Sure", "I need", "One moment", "Okay")), case.id
