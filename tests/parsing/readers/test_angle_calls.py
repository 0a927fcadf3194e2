"""Pythonic calls between a bare ``<`` and ``>`` (`shim.parsing.readers.angle_calls`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

BFCL = (
    "HuanzhiMao/gorilla:berkeley-function-call-leaderboard/result/BitAgent_BitAgent-8B/prompt_variation"
    "@143abef66338efe3476f60db7559546092be067e"
)
TOOLS: list[Any] = [
    tool("get_weather", city="string", unit="string"),
    tool("Shop.change_drink", drink_id="string", prefs="object"),
]
PARIS = ("get_weather", {"city": "Paris"})
LIMA = ("get_weather", {"city": "Lima", "unit": "metric"})


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # one bracket around a run of calls (BitAgent-8B asked for <TOOLCALL>[…]</TOOLCALL>)
        ('<get_weather(city="Paris"), get_weather(city="Lima", unit="metric")>', [PARIS, LIMA], ""),
        ('<get_weather(city="Paris")>', [PARIS], ""),
        # variant: the list's own brackets kept inside
        ("<[get_weather(city='Paris'),get_weather(city='Lima', unit='metric')]>\n", [PARIS, LIMA], "\n"),
        # one bracket around each call, glued or on the next line
        ('<get_weather(city="Paris")><get_weather(city="Lima", unit="metric")>', [PARIS, LIMA], ""),
        ('<get_weather(city="Paris")>\n<get_weather(city="Lima", unit="metric")>\n', [PARIS, LIMA], "\n"),
        # variant: the last `>` left out where the output ends after a complete call
        (
            '<get_weather(city="Paris")><Shop.change_drink(drink_id="1", prefs={"size": "large"})',
            [PARIS, ("Shop.change_drink", {"drink_id": "1", "prefs": {"size": "large"}})],
            "",
        ),
        # variant: after a line of prose, with the model's end-of-turn token
        ('Checking both.\n<get_weather(city="Paris")><|eot_id|>', [PARIS], "Checking both."),
    ],
)
def test_calls_between_a_bare_angle_bracket_pair_are_calls(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(BFCL, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<get_weather(city="Paris")> returns the forecast.',  # text after the `>` on its line: named in prose
        'Use <get_weather(city="Paris")> to ask.',  # inside a sentence
        '<get_weather(city="Par',  # cut off inside the call
        '<get_weather(city="Paris"), get_weather(city="Li',  # cut off inside the second
        "<forecast(city='Paris')>",  # no offered tool
        '<get_weather(city="Paris")]>',  # a list's `]` with no `[`
        "<get_weather(city=base + 'x')>",  # not a literal: code
        '```python\n<get_weather(city="Paris")>\n```',  # code shown in a fence
        'For example:\n<get_weather(city="Paris")>',  # presented as an example
    ],
)
def test_angle_brackets_without_the_evidence_of_a_call_stay_text(text: str) -> None:
    check(Real(BFCL, text, [], visible=text, tools=TOOLS))


LEECODE = "lee-code text tool-call parser tests (TypeScript), hunt 20c"


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('<get_weather(city: "Paris")/>', [PARIS], ""),  # a self-closing tag, `key: value` as a signature writes it
        (  # variant: two keys, single quotes, a blank before `/>`, prose in Spanish before it on its own line
            "Consulto el tiempo.\n<get_weather(city: 'Lima', unit: 'metric') />",
            [LIMA],
            "Consulto el tiempo.",
        ),
        ('<get_weather(city: "Paris")/>\n<get_weather(city: "Lima", unit: "metric")/>', [PARIS, LIMA], ""),
    ],
)
def test_a_self_closing_angle_call_with_signature_style_arguments_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(LEECODE, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<get_weather(city: "Paris")/> returns the forecast.',  # prose after it on its line
        '<get_forecast(city: "Paris")/>',  # not an offered tool
        'Write `<get_weather(city: "Paris")/>` to ask.',  # inline code
        '<get_weather(city: "Paris"',  # cut off
    ],
)
def test_a_self_closing_angle_call_without_the_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
