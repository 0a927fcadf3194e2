"""shim.bench.chunkers: every chunking partitions the text exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shim.bench.chunkers import every_split, fixed, make_chunkers, random_coarse, token_like

SAMPLE = 'Sure. <function_call>{"name": "get_weather", "arguments": {"city": "Zürich"}}</function_call> ok'


@given(st.text(max_size=300))
def test_every_chunker_partitions_any_text_exactly(text: str) -> None:
    for chunker in make_chunkers(quick=False):
        for chunks in chunker.split(text):
            assert "".join(chunks) == text
            assert all(chunks) or chunks == [""]


def test_every_split_cuts_once_at_each_point_of_a_small_text() -> None:
    splits = list(every_split(400)("abcd"))
    assert splits == [["a", "bcd"], ["ab", "cd"], ["abc", "d"]]


def test_every_split_spreads_its_limit_over_a_long_text() -> None:
    text = "x" * 10_000
    splits = list(every_split(50)(text))
    assert len(splits) == 50
    assert len({len(a) for a, _ in splits}) == 50
    assert max(len(a) for a, _ in splits) > 9_000


def test_fixed_chunks_have_the_given_size_except_the_last() -> None:
    (chunks,) = fixed(4)("abcdefghij")
    assert chunks == ["abcd", "efgh", "ij"]


def test_token_like_cuts_on_word_and_punctuation_boundaries_with_the_leading_space() -> None:
    (chunks,) = token_like('Sure, call "get_weather" now')
    assert chunks == ["Sure", ",", " call", ' "', "get", "_", "weather", '"', " now"]


def test_random_coarse_is_reproducible_and_differs_between_seeds() -> None:
    a = list(random_coarse((1, 2))(SAMPLE))
    assert a == list(random_coarse((1, 2))(SAMPLE))
    assert a[0] != a[1]
    assert all(1 <= len(c) <= 48 for chunks in a for c in chunks)


def test_quick_chunkers_start_with_the_whole_message() -> None:
    names = [c.name for c in make_chunkers(quick=True)]
    assert names[0] == "whole" and {"char", "token", "random", "splits"} <= set(names)
