"""The values a request names, which a small model's further calls are steered toward."""

from __future__ import annotations

from shim.request_values import (
    asks_for_several,
    further_values,
    grounded,
    named_choices,
    request_values,
    span_continuations,
)
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


def test_a_value_that_starts_a_span_of_the_request_continues_through_its_capitalised_words_and_commas() -> None:
    address = "I need a ride from 2020 Addison Street, Berkeley, CA, USA, and I can wait 600 seconds."
    assert span_continuations(address, "Berkeley") == (", CA, USA",)  # up to ", and": a lowercase word ends it
    assert span_continuations(address, "2020") == (" Addison Street, Berkeley, CA, USA",)
    assert span_continuations(address, "Add") == ("ison Street, Berkeley, CA, USA",)  # a word begun is finished
    assert span_continuations("a trip to New York, NY in December", "New") == (" York, NY",)
    assert span_continuations("in Bangkok, Thailand. I prefer", "Bangkok") == (", Thailand",)  # a sentence ends it
    assert span_continuations("Im at Riga, Latvia, Can you tell me", "Riga") == (", Latvia",)  # "Can": a common word
    assert span_continuations("in seasons 2017, 2018 and 2019", "2017") == ()  # numbers after commas: a list


def test_a_value_that_is_no_span_s_start_or_already_whole_has_no_continuation() -> None:
    request = "What's the weather in Tel Aviv, and in Fahrenheit?"
    assert span_continuations(request, "Tel Aviv") == ()  # whole already
    assert span_continuations(request, "Aviv") == ()  # whole from where it starts
    assert span_continuations(request, "el Aviv") == ()  # not at a word's start
    assert span_continuations(request, "London") == ()  # not in the request
    assert span_continuations(request, " ") == ()
    quoted = "Exports of my bot 'my-bot-id', version 'v2'."
    assert span_continuations(quoted, "my-bot") == ("-id",)  # a closing quote is not part of a word
    assert span_continuations(quoted, "my-bot-id") == ()


def test_a_value_that_starts_several_spans_has_each_continuation_once() -> None:
    flights = "A flight on May 3rd 2022, and another on May 18th 2022, and one more on May 3rd 2022."
    assert span_continuations(flights, "May ") == ("3rd 2022", "18th 2022")


def test_the_choices_of_an_enumeration_the_request_names_as_whole_words_come_out_by_parameter() -> None:
    weather = ToolSpec(
        name="get_current_weather",
        description="The weather.",
        input_schema={
            "type": "object",
            "properties": {
                "location": {"type": "string"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                "days": {"type": "integer", "enum": [1, 2]},
            },
        },
    )
    assert named_choices("The weather in Boston in Fahrenheit?", [weather]) == (("unit", ("fahrenheit",)),)
    assert named_choices("The weather in Boston in fahr?", [weather]) == ()  # a whole word, not a prefix
    assert named_choices("The weather in Boston?", [weather]) == ()


def test_a_further_call_takes_the_request_s_next_values_of_each_kind_in_the_places_of_the_call_before() -> None:
    flights = "Book a flight from San Francisco to Tokyo on May 3rd 2022 and another from Tokyo to Sydney on May 18th."
    first = {"departure_city": "San Francisco", "destination_city": "Tokyo", "date": "May 3rd 2022"}
    # Both cities and the date change: "May" is the start of the next date ("May 3rd 2022" spans three values).
    assert further_values(flights, first) == {"departure_city": "Tokyo", "destination_city": "Sydney", "date": "May"}
    bmi = "The BMI of a person 6 feet tall weighing 80 kg and of another 5.6 feet tall weighing 60 kg"
    assert further_values(bmi, {"height": 6, "weight": 80}) == {"height": "5.6", "weight": "60"}
    assert further_values("The factorial of 5, 10 and 15.", {"n": 10}) == {"n": "15"}


def test_fewer_new_values_than_arguments_change_the_last_ones_and_the_others_keep_their_values() -> None:
    cases = "Cases against 'Dara Inc' filed in 2019, also those filed in 2018 against the same company."
    assert further_values(cases, {"company_name": "Dara Inc", "year": 2019}) == {
        "company_name": "Dara Inc",
        "year": "2018",
    }
    stores = "The price of a Yamaha P125 piano in Berlin and Madrid."
    assert further_values(stores, {"instrument": "Yamaha P125", "city": "Berlin"}) == {
        "instrument": "Yamaha P125",
        "city": "Madrid",
    }


def test_an_argument_whose_value_the_request_does_not_hold_is_left_to_the_model() -> None:
    empires = "The religious history of the Persian Empire and the Mauryan Empire."
    # "Persia" is part of a value of the request; true and the years are not in it.
    assert further_values(empires, {"empire_name": "Persia", "include_influences": True, "years": [1, 2]}) == {
        "empire_name": "Mauryan Empire"
    }
    assert further_values("Tell me about it.", {"topic": "history"}) == {}
    route = "From San Francisco to Los Angeles with stops at Santa Barbara and Monterey."
    stops = {"start": "San Francisco", "end": "Los Angeles", "stops": ["Santa Barbara", "Monterey"]}
    assert further_values(route, stops) == {}  # the array's items are used too: nothing is left
    # Nothing named after the values the call used: "Pop" is left to the model (and to the unused-value bonus).
    assert (
        further_values(
            "The most played Pop song, and the most played Rock song in Australia.",
            {
                "genre": "Rock",
                "region": "Australia",
            },
        )
        == {}
    )


def test_a_call_is_grounded_when_the_request_holds_every_required_number_and_shares_a_word_with_each_string() -> None:
    tool = ToolSpec(
        name="potential",
        description="The potential.",
        input_schema={
            "type": "object",
            "properties": {
                "charge": {"type": "number"},
                "count": {"type": "integer"},
                "medium": {"type": "string"},
                "unit": {"type": "string"},
                "exact": {"type": "boolean"},
            },
            "required": ["charge", "count", "medium", "exact"],
        },
    )
    request = "The potential of three charges of 1e-9 in dry Vacuum"
    assert grounded(request, {"charge": 1e-09, "count": 3, "medium": "vacuum", "exact": True}, tool)
    assert grounded(request, {"charge": 1e-09, "count": 3, "medium": "vacuum", "unit": "volts"}, tool)  # optional
    assert not grounded(request, {"charge": 2.5, "count": 3, "medium": "vacuum"}, tool)  # a number made up
    assert not grounded(request, {"charge": 1e-09, "count": 3, "medium": "water"}, tool)  # a string made up
    assert grounded("A 5% rate", {"charge": 0.05, "count": 5, "medium": "5%"}, tool)  # a share, a number in text
