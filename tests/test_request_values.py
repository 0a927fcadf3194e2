"""The values a request names, which a small model's further calls are steered toward."""

from __future__ import annotations

from shim.request_values import request_values


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
