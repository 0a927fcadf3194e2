"""ReAct's labels as list items (``- Action: NAME`` / ``- Action Input: …``) and the tool's name on the line after
its label (``Action:`` then ``NAME``): variants at every split point, and prose that must stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.test_react import SEARCH, WEATHER


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            " I should search.\n- Action: search\n- Action Input: Nvidia market cap\n- Observation: it is big",
            [("search", {"query": "Nvidia market cap"})],
            " I should search.\n- Observation: it is big",
        ),
        (
            '* Thought: 查天气\n* Action: get_weather\n* Action Input: {"city": "北京", "days": 2}\n',
            [("get_weather", {"city": "北京", "days": 2})],
            "* Thought: 查天气\n",
        ),
        (
            "- Action: search\nAction Input: ok\n",
            [("search", {"query": "ok"})],
            "",
        ),
        (
            'I should use the tool.\n\nAction: \nget_weather\n\nAction Input: \n{"city": "Lyon"}\n\nObservation:',
            [("get_weather", {"city": "Lyon"})],
            "I should use the tool.\n\n\n\nObservation:",
        ),
        (
            "Action:\n  search\nAction Input: pasta recipes",
            [("search", {"query": "pasta recipes"})],
            "",
        ),
    ],
)
def test_bulleted_labels_and_a_name_on_its_own_line_are_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert _calls(result) == calls
    assert " ".join(result["text"].split()) == " ".join(visible.split())


@pytest.mark.parametrize(
    "text",
    [
        "- Action: search the web\n- Action Input: pasta",  # a phrase, no offered name
        "- Action: delete_files\n- Action Input: /",  # a tool that was not offered
        "Action:\nsearch for it later, then answer.\nAction Input: x",  # the next line is a sentence
        "The plan:\n- Action: search\n- Result: found",  # no input label
        "Use this format:\n- Action: search\n- Action Input: the query",  # the format shown
    ],
)
def test_react_lookalikes_stay_text(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER], every_split=False)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '**Thought:** I need the weather.\n**Action:** get_weather\n**Action Input:** {"city": "Paris"}',
            [("get_weather", {"city": "Paris"})],
            "**Thought:** I need the weather.",
        ),
        (
            "__Action__: search\n__Action Input__: pasta recipes\n",
            [("search", {"query": "pasta recipes"})],
            "",
        ),
        (
            'Checking now.\n**Tool call:** get_weather\n**Arguments:**\n{"city": "Lyon", "days": 2}',
            [("get_weather", {"city": "Lyon", "days": 2})],
            "Checking now.",
        ),
        (
            'Function call: search\nParams: {"query": "Nvidia"}',
            [("search", {"query": "Nvidia"})],
            "",
        ),
    ],
)
def test_labels_in_markdown_bold_and_a_call_label_are_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert _calls(result) == calls
    assert " ".join(result["text"].split()) == " ".join(visible.split())


@pytest.mark.parametrize(
    "text",
    [
        "**Action:** search the web\n**Action Input:** pasta",  # a phrase, no offered name
        "**Tool call:** delete_files\n**Arguments:** {}",  # a tool that was not offered
        "Use this format:\n**Action:** search\n**Action Input:** the query",  # the format shown
        "**Action**: search is what I would do, then answer.",  # no input label
    ],
)
def test_bold_react_lookalikes_stay_text(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER], every_split=False)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ('Action: get_weather {"city": "Paris"}', [("get_weather", {"city": "Paris"})], ""),
        (
            'Thought: I need the weather.\nAction: get_weather {"city": "Oslo", "days": 2}\nObservation:',
            [("get_weather", {"city": "Oslo", "days": 2})],
            "Thought: I need the weather.\n\nObservation:",
        ),
        ('Tool: search {"query": "cats"}\n', [("search", {"query": "cats"})], "\n"),
        ('**Function:** get_weather {"city": "Rome"}', [("get_weather", {"city": "Rome"})], ""),
        ('I will look.\nAction: search\n{"query": "Nvidia"}', [("search", {"query": "Nvidia"})], "I will look.\n"),
        ('Call: get_weather\nArguments: {"city": "Lima"}', [("get_weather", {"city": "Lima"})], ""),
        # A Gemma 4 call with its tokens stripped, the word in any case and JSON arguments: `gemma4`'s
        ('Call: get_weather {"city": "Kyiv"}', [("get_weather", {"city": "Kyiv"})], ""),
        ('Sure.\nCALL: search {"query": "pasta"}', [("search", {"query": "pasta"})], "Sure.\n"),
    ],
)
def test_a_json_object_right_after_the_labelled_name_is_its_input(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER])
    assert _calls(result) == calls
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        'Action: lookup {"city": "Paris"}',  # a tool that was not offered
        "Action: search {cats and dogs}",  # braces around no JSON: no object, and no input label
        'Action: search "cats"',  # a string with no input label
        'For example:\nAction: get_weather {"city": "Paris"}',  # the format shown
        'Call: lookup {"city": "Paris"}',
        'The docs write Tool: get_weather {"city": "Paris"} for it.',  # the label mid-sentence
    ],
)
def test_without_an_offered_name_and_an_object_the_line_stays_text(text: str) -> None:
    result = parse_everywhere(text, [SEARCH, WEATHER], every_split=False)
    assert result["calls"] == []
    assert result["text"] == text
