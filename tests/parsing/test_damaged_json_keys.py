"""A JSON call whose punctuation is damaged around a key, as Llama 3.2 3B writes it on Ollama (llama-stack's recorded
integration tests): a key closed by the other quote, ``>`` ``(`` ``=`` or a blank and a quote where ``":`` belongs, a
comma after the name key, a stray quote glued after a closer, the arguments as a list holding one object. The grammar
(`lenient_json`) and the streaming scanner (`json_scan`) read each the same way, untagged and inside a call tag."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing import lenient_json
from shim.parsing.json_scan import JsonScanner, Status
from tests.parsing.chunking import parse_everywhere

TOOLS = [
    {
        "name": "get_weather",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "array"}}},
    }
]
PARIS = [("get_weather", {"city": "Paris"})]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


DAMAGED = [
    # a key closed by the other quote before its colon
    """{"name":"get_weather","parameters':{'city':'Paris'}}""",
    """{"name": "get_weather", "arguments": {"city': "Paris"}}""",
    """{'name": "get_weather", 'arguments": {'city': 'Paris'}}""",
    # `>`, `(` or `=` where the key's `":` belongs, before an object or a list
    """{"name":"get_weather","parameters>{"city":"Paris"}}""",
    """{"name":"get_weather","parameters( {"city": "Paris"}}""",
    """{"name": "get_weather", "arguments=[{"city": "Paris"}]}""",
    # the colon left out before an object (with a blank and a quote where `":` belongs)
    """{"name":"get_weather","parameters "{"city": "Paris"}}""",
    """{"name": "get_weather", "arguments" {"city": "Paris"}}""",
    # a comma where the name key's colon belongs
    """{"name","get_weather","parameters":{"city":"Paris"}}""",
    """{'tool_name', 'get_weather', 'parameters': {'city': 'Paris'}}""",
    # a stray quote glued after a closer, only closers after it
    """{"name":"get_weather","parameters":{"city":"Paris"}}\"""",
    """{"name":"get_weather","parameters(({"city":"Paris"}\"""".replace("((", "("),
    # the arguments as a list holding the one object
    """{"name":"get_weather","parameters":[{"city":"Paris"}]}""",
]


@pytest.mark.parametrize("text", DAMAGED)
def test_a_call_damaged_around_a_key_is_read_whole_with_no_markup_left(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == PARIS
    assert (result["text"], result["errors"]) == ("", [])


@pytest.mark.parametrize("text", DAMAGED)
def test_a_call_damaged_around_a_key_inside_a_call_tag_streams_the_same_arguments(text: str) -> None:
    result = parse_everywhere(f"<tool_call>{text}</tool_call>", TOOLS, seeds=5)
    assert _calls(result) == PARIS
    assert result["text"] == ""


def test_a_stray_quote_inside_the_arguments_before_their_closers_is_dropped() -> None:
    text = """{"name":"get_weather", "parameters": {"days':[1, "two", 3.5, true]"}}"""
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("get_weather", {"days": [1, "two", 3.5, True]})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        'Use {"name", "city"} as the columns.',  # a set literal in prose: no offered tool
        'A nested map {"a" {"b": 1}} is shown here.',  # no call's shape
        '{"name":"lookup","parameters>{"city":"Paris"}}',  # damaged, but no offered tool
        '{"name":"get_weather","parameters":[{"city":"Paris"},{"city":"Rome"}]}',  # which object would be a guess
        '{"name": "get_weather", "arguments": {"city": "Paris"}, "',  # cut inside a key: no call
        "The key \"parameters>\" means more than; {'it's': 1} is no JSON.",
    ],
)
def test_prose_and_json_that_is_no_damaged_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("""{"data':[1, "x"]}""", {"data": [1, "x"]}),
        ("""{'data": 1}""", {"data": 1}),
        ("""{"p>{"q": 1}}""", {"p": {"q": 1}}),
        ("""{"p( [1]}""", {"p": [1]}),
        ("""{"p={"q": 1}}""", {"p": {"q": 1}}),
        ("""{"p" {"q": 1}}""", {"p": {"q": 1}}),
        ("""{"p "[1]}""", {"p ": [1]}),
        ("""{"name", "f", "a": 1}""", {"name": "f", "a": 1}),
        ("""{"a": [1]"}""", {"a": [1]}),
        ("""{"a": {"b": 1}" """, {"a": {"b": 1}}),
        ("""{"a": {"b": 1}}\"""", {"a": {"b": 1}}),
        ("""{"a": "it's: here"}""", {"a": "it's: here"}),  # a value's own quote and colon
        ("""{'a': "}"}""", {"a": "}"}),  # a quote before a closer that opens a string
        ("""{"a>b": 1}""", {"a>b": 1}),  # `>` inside a key with its colon
    ],
)
def test_the_grammar_and_the_scanner_read_a_damaged_key_alike(text: str, expected: Any) -> None:
    assert lenient_json.loads(text) == expected
    for size in (1, 2, 3, len(text)):
        scanner = JsonScanner(stop_chars="", capture=False)
        pos, status = 0, Status.MORE
        for start in range(0, len(text), size):
            chunk = text[pos : start + size]
            used, status = scanner.feed(chunk, 0, final=start + size >= len(text))
            pos += used
            if status is not Status.MORE:
                break
        assert status is Status.DONE or scanner.completable(), (size, scanner.error)


@pytest.mark.parametrize(
    "text",
    [
        """{"a": 1, \"""",  # cut inside a key: the quote opens it, no stray
        """{"a" 1}""",  # the colon left out before a scalar is not read
        """{"a", 1}""",  # a comma for a colon only after a call's name key
        """{"a": {"b": 1}}" and more""",  # a quote with text after it is no stray
        """{"a': 1 and more""",  # a mismatched key read, then a value that is no JSON
    ],
)
def test_damage_outside_the_rules_is_still_not_json(text: str) -> None:
    with pytest.raises(lenient_json.LenientJSONError):
        lenient_json.loads(text)
