"""ReAct inputs at the edges: no input label at the message's end, a raw input for a parameter named ``input``,
an object that is no object of the tool's parameters, single quotes, an input going on over a blank line to the
end. Variants at every split point, and prose that must stay text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.test_react import SEARCH, WEATHER

DOCKER: dict[str, Any] = {"name": "docker", "inputSchema": {"type": "object", "properties": {}}}
STATUS: dict[str, Any] = {"name": "status", "inputSchema": {"type": "object"}}
EXEC: dict[str, Any] = {
    "name": "exec",
    "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}, "input": {"type": "string"}}},
}
FETCH: dict[str, Any] = {
    "name": "requests_get",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
_NONE: dict[str, Any] = {}
TOOLS = [SEARCH, WEATHER, DOCKER, STATUS, EXEC, FETCH]


def _read(text: str) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    result = parse_everywhere(text, TOOLS)
    assert result["errors"] == []
    return [(c["name"], c["arguments"]) for c in result["calls"]], result["text"]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        # antbot's tests (corpus: react/a31_antbot_no_input): the model stopped after the name line
        ("Thought: Let me check.\nAction: docker\n", ("docker", _NONE), "Thought: Let me check.\n\n"),
        ("Action: status", ("status", _NONE), ""),
        ("I will look.\n**Action:** docker  \n\n", ("docker", _NONE), "I will look.\n  \n\n"),
    ],
)
def test_an_action_line_ending_the_message_calls_a_tool_that_takes_nothing(
    text: str, call: tuple[str, dict[str, Any]], visible: str
) -> None:
    calls, shown = _read(text)
    assert calls == [call]
    assert " ".join(shown.split()) == " ".join(visible.split())


@pytest.mark.parametrize(
    "text",
    [
        "Thought: x\nAction: docker\nObservation: it ran",  # text after it: no call
        "Action: docker is the tool I would use.",  # a sentence
        "Action: search\n",  # a tool that takes arguments
        "Action: get_weather",
        "Action: kubectl\n",  # no offered tool
    ],
)
def test_an_action_line_alone_otherwise_stays_text(text: str) -> None:
    assert _read(text) == ([], text)


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # antbot's tests (corpus: react/a31_antbot_raw_input): a raw input for a tool of several parameters, one
        # named for the input label
        (
            "Thought: Let me run this.\nAction: exec\nAction Input: list all files",
            ("exec", {"input": "list all files"}),
        ),
        ('Action: exec\nAction Input: "ls -la"\n', ("exec", {"input": "ls -la"})),
        # its own parameters as an object are still the arguments
        ('Action: exec\nAction Input: {"command": "pwd"}', ("exec", {"command": "pwd"})),
    ],
)
def test_a_raw_input_is_the_value_of_a_parameter_named_input(text: str, call: tuple[str, dict[str, Any]]) -> None:
    assert _read(text)[0] == [call]


def test_a_raw_input_for_several_parameters_none_named_input_stays_text() -> None:
    text = "Action: get_weather\nAction Input: Paris for two days"
    assert _read(text) == ([], text)


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # gpt-4 in LangChain's OpenAPI planner (corpus: react/c31_nb_openapi_a2_action): an object of more keys
        # than the tool of one string takes is that string, as written
        (
            'Action: requests_get\nAction Input: {"url": "https://x.test/a?q=1", "output_instructions": "the id"}',
            ("requests_get", {"text": '{"url": "https://x.test/a?q=1", "output_instructions": "the id"}'}),
        ),
        (
            'Action: search\nAction Input: {"q": "cats", "limit": 3}\n',
            ("search", {"query": '{"q": "cats", "limit": 3}'}),
        ),
        # the tool's own parameter as an object, or one key in its place (a misnamed parameter): the arguments
        ('Action: requests_get\nAction Input: {"text": "hello"}', ("requests_get", {"text": "hello"})),
        ('Action: search\nAction Input: {"q": "cats"}', ("search", {"q": "cats"})),
        # a tool of two parameters takes the object as its arguments
        (
            'Action: get_weather\nAction Input: {"town": "Oslo", "when": 2}',
            ("get_weather", {"town": "Oslo", "when": 2}),
        ),
    ],
)
def test_an_object_that_cannot_be_the_arguments_of_a_tool_of_one_string_is_that_string(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    assert _read(text)[0] == [call]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        # Eden AI's LangChain notebook (corpus: react/c31_nb_edenai_a*): the input in single quotes
        ("Thought: scan it\nAction: search\nAction Input: 'i want to slap you'", "i want to slap you"),
        ("Action: search\nAction Input:  'Nvidia'  \nObservation:", "Nvidia"),
        # a quote inside: the quotes are the text's own
        ("Action: search\nAction Input: 'it's' here'", "'it's' here'"),
        ("Action: search\nAction Input: don't stop", "don't stop"),
    ],
)
def test_a_string_input_in_single_quotes_is_the_text_inside_them(text: str, query: str) -> None:
    assert _read(text)[0] == [("search", {"query": query})]


@pytest.mark.parametrize(
    ("text", "query", "visible"),
    [
        # gpt-3.5's GitLab agent (corpus: react/c31_nb_gitlab_a2_action): a name, a blank line, the contents
        (
            " I need the file.\nAction: search\nAction Input: game.html\n\ntest contents",
            "game.html\n\ntest contents",
            " I need the file.\n",
        ),
        ("Action: search\nAction Input: one\n\n\ntwo\nthree\n", "one\n\n\ntwo\nthree", ""),
        # a label after the blank line ends the input there
        ("Action: search\nAction Input: one\n\nObservation: two", "one", "\n\nObservation: two"),
        ("Action: search\nAction Input: one\n\ntwo\nThought: next", "one", "\n\ntwo\nThought: next"),
        ("Action: search\nAction Input: one\n\n", "one", "\n\n"),
    ],
)
def test_a_string_input_goes_on_over_a_blank_line_to_the_end_of_the_message(
    text: str, query: str, visible: str
) -> None:
    calls, shown = _read(text)
    assert calls == [("search", {"query": query})]
    assert " ".join(shown.split()) == " ".join(visible.split())


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # PraisonAI/crewAI's prompt lists the tools as [NAME] and Llama copies the brackets (corpus:
        # react/a32_nb_praison_book_a0_action); backticks and quotes are the same pair of markup
        ('Action: [search]  \nAction Input: {"query": "tree of life"}  ', ("search", {"query": "tree of life"})),
        ("Thought: look it up\nAction: `search`\nAction Input: tree of life", ("search", {"query": "tree of life"})),
        ('Action: "get_weather"\nAction Input: {"city": "Oslo"}', ("get_weather", {"city": "Oslo"})),
        ("Action: 'search'\nAction Input: pears", ("search", {"query": "pears"})),
        ("Action: [docker]\n", ("docker", _NONE)),
    ],
)
def test_an_action_name_in_brackets_backticks_or_quotes_is_the_tool_and_the_pair_is_markup(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    calls, shown = _read(text)
    assert calls == [call]
    assert "[" not in shown and "`" not in shown and '"' not in shown


@pytest.mark.parametrize(
    "text",
    [
        "Action: [search\nAction Input: pears",  # the bracket never closes
        "Action: [search]]\nAction Input: pears",
        'Action: `search"\nAction Input: pears',  # two different marks
        "Action: [kubectl]\nAction Input: get pods",  # no offered tool
        "Action: [search] is what I would pick.",
    ],
)
def test_a_wrapped_action_name_that_does_not_close_as_it_opened_stays_text(text: str) -> None:
    calls, shown = _read(text)
    assert calls == [] and shown == text
