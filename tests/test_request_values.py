"""The values a request names, which a small model's further calls are steered toward."""

from __future__ import annotations

from shim.request_values import asks_for_several, request_values
from shim.types import ToolSpec


def test_numbers_quoted_text_and_capitalised_names_come_out_in_order_without_repeats() -> None:
    assert request_values("Find the factorial of 5,10 and 15.") == ("5", "10", "15")
    assert request_values("Play songs from the artists Taylor Swift and Maroon 5, for 20 and 15 minutes.") == (
        "Taylor Swift",
        "Maroon 5",
        "5",
        "20",
        "15",
    )
    assert request_values("Ratings on Netflix for 'Friends', and Hulu for 'The Office'") == (
        "Netflix",
        "Friends",
        "Hulu",
        "The Office",
        "Office",
    )


def test_thousands_separators_go_and_a_sentence_s_first_word_is_no_name() -> None:
    assert request_values("Calculate the payment for a loan of $400,000 at 4%.") == ("400000", "4")
    assert request_values("Compute it. Then Predict the price in New York") == ("New York",)


def test_a_request_asks_for_several_by_more_numbers_than_a_call_holds_a_word_or_names_joined_by_and() -> None:
    pair = ToolSpec(
        name="math_pythagoras",
        description="Hypotenuse from two sides.",
        input_schema={"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
    )
    songs = ToolSpec(name="play", description="", input_schema={"properties": {"artist": {"type": "string"}}})
    assert asks_for_several("Compute the Pythagorean Theorem of two side lengths: 3 and 4, 5 and 12.", [pair])
    assert not asks_for_several("Compute the hypotenuse of sides 3 and 4.", [pair])
    assert not asks_for_several("Sort [5, 3, 4, 1, 2].", [pair])  # a list is one value
    assert asks_for_several("Play Taylor Swift and Maroon 5.", [songs])
    assert asks_for_several("Play some jazz, and also some rock.", [songs])
    assert not asks_for_several("Play some jazz.", [songs])
