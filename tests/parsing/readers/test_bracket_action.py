"""Bracket actions, ``Action 1: Search[entity]`` / ``click[Buy Now]`` (`shim.parsing.readers.bracket_action`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

REACT = "ysymyth/ReAct:FEVER.ipynb@6bdb3a1fd38b8188fc7ba4102969fe483df8fdc9"
FEVER = [tool("Search", entity="string"), tool("Lookup", keyword="string"), tool("Finish", answer="string")]
WEBSHOP = [tool("search", query="string"), tool("click", target="string"), tool("think", thought="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("I should search.\nAction 1: Search[Paramore]", [("Search", {"entity": "Paramore"})], "I should search."),
        ("Action: Finish[NOT ENOUGH INFO]\n", [("Finish", {"answer": "NOT ENOUGH INFO"})], ""),
        ("So it is false.\nAction 2:  Finish[REFUTES]  \r\n", [("Finish", {"answer": "REFUTES"})], "So it is false."),
        (
            "Another source.\nAction 3: \n\nFinish[NOT ENOUGH INFO]",
            [("Finish", {"answer": "NOT ENOUGH INFO"})],
            "Another source.",
        ),
        (
            "Look it up.\n  Action 12:Lookup[masterwork of filmmaking]",
            [("Lookup", {"keyword": "masterwork of filmmaking"})],
            "Look it up.",
        ),
        ("Action 1: Search[List [A] of songs]", [("Search", {"entity": "List [A] of songs"})], ""),
        (
            "Thought 1: I look.\nAction 1: Search[Eric Church]\nObservation 1: …",
            [("Search", {"entity": "Eric Church"})],
            "Thought 1: I look.\nObservation 1: …",
        ),
    ],
)
def test_an_action_label_then_an_offered_tool_with_its_argument_in_brackets_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(REACT, text, calls, visible=visible, tools=FEVER))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "search[long clip-in hair extension natural looking]",
            [("search", {"query": "long clip-in hair extension natural looking"})],
        ),
        ("click[Buy Now]", [("click", {"target": "Buy Now"})]),
        ("  click[natural black #1b]\n", [("click", {"target": "natural black #1b"})]),
        ("think[B08 is cheap. I can check it.]", [("think", {"thought": "B08 is cheap. I can check it."})]),
    ],
)
def test_an_offered_tool_with_its_argument_in_brackets_opening_the_message_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(REACT, text, calls, visible="", tools=WEBSHOP))


def test_the_output_ending_inside_the_brackets_is_a_call_cut_off_not_text() -> None:
    check(
        Real(
            REACT,
            "think[For long clip-in hair extension, the options are 'black', 'brown',",
            [],
            errors=1,
            tools=WEBSHOP,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "I will search[Paramore] next.",  # mid-line, no label
        "Then:\nsearch[Paramore]",  # no label, not opening the message
        "click[here](https://example.com) to buy.",  # a Markdown link
        "search[Paramore] and then click[Buy Now]",  # more on the line: prose
        "Action 1: Search[Paramore\nand more]",  # a bracket left open at the line's end
        "Action 1: Fetch[Paramore]",  # no such tool
        "For example:\nAction 1: Search[Paramore]",  # presented as an example
        "```\nAction 1: Search[Paramore]\n```",  # shown in a fence
        "Action 1: Search [Paramore]",  # the bracket not glued to the name
    ],
)
def test_bracket_forms_in_prose_stay_text(text: str) -> None:
    check(Real(REACT, text, [], visible=text, tools=[*FEVER, *WEBSHOP]))


@pytest.mark.parametrize(
    "tools",
    [
        None,
        [tool("search", query="string", limit="integer")],  # two parameters, none required: which one?
        [tool("search", limit="integer")],  # no string to hold the bracket's content
    ],
)
def test_without_an_offered_tool_taking_one_string_a_bracket_action_stays_text(tools: list[Any] | None) -> None:
    text = "search[Paramore]"
    check(Real(REACT, text, [], visible=text, tools=tools))


def test_mistral_args_token_after_a_name_is_mistrals_call_not_a_bracket_action() -> None:
    text = 'Search[ARGS]{"entity": "literal [TOOL_CALLS] marker"}'
    check(Real(REACT, text, [("Search", {"entity": "literal [TOOL_CALLS] marker"})], tools=FEVER))


def test_a_tool_of_no_parameters_is_called_with_empty_brackets_only() -> None:
    tools = [*FEVER, tool("reset")]
    check(Real(REACT, "Start over.\nAction 4: reset[]", [("reset", {})], visible="Start over.", tools=tools))
    check(Real(REACT, "Action 4: reset[all]", [], visible="Action 4: reset[all]", tools=tools))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('Action: search[{"query": "red shoes"}]', [("search", {"query": "red shoes"})]),
        ("Action 2: Search[{'entity': 'Paramore'}]\n", [("Search", {"entity": "Paramore"})]),
        ('click[{ "target" : "Buy Now" }]', [("click", {"target": "Buy Now"})]),
    ],
)
def test_a_json_object_of_the_tools_own_parameters_in_the_brackets_is_its_arguments(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written", text, calls, tools=[*FEVER, *WEBSHOP]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # Keys the tool does not declare: the object is the one string's value, as written.
        ('Action: search[{"q": "red shoes"}]', [("search", {"query": '{"q": "red shoes"}'})]),
        ('think[{"plan": 1}]', [("think", {"thought": '{"plan": 1}'})]),
    ],
)
def test_an_object_of_other_keys_in_the_brackets_stays_the_strings_value(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written", text, calls, tools=[*FEVER, *WEBSHOP]))
