"""Fenced pythonic call lists (`shim.parsing.readers.pythonic_list`): a list written one call a line, and the calls
written as the list's strings, at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

GEMMA3_BFCL = "aaronwu901225main/pythonic-function-calling-data BFCL v4 results, gemma-3-1b-it (benchmarks/real a27_*)"

TOOLS = [
    tool("get_weather", city="string", unit="string"),
    tool("FireBirdUtils.getViewSourceWithHeader", monitor="string", view="string", source="string"),
    tool("ChaDri.change_drink", drink_id="string", new_preferences="object"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Gemma 3 1B: a Python fence opening the message, the list one call a line with a trailing comma
            '```python\n[\n    FireBirdUtils.getViewSourceWithHeader(monitor="dbMonitor", view="EmployeeView", '
            "source=\"SELECT * FROM Employee WHERE status = 'active'\"),\n]\n```",
            [
                (
                    "FireBirdUtils.getViewSourceWithHeader",
                    {
                        "monitor": "dbMonitor",
                        "view": "EmployeeView",
                        "source": "SELECT * FROM Employee WHERE status = 'active'",
                    },
                )
            ],
            "",
        ),
        (  # variant: two calls, two-space indentation, `py`, CRLF line ends, words after the fence
            "```py\r\n[\r\n  get_weather(city='Lima'),\r\n  get_weather(city='Quito', unit='celsius'),\r\n]\r\n```\r\nDone.",
            [("get_weather", {"city": "Lima"}), ("get_weather", {"city": "Quito", "unit": "celsius"})],
            "Done.",
        ),
        (  # variant: a fence with no language, the list's closing bracket on the call's line, no trailing comma
            "```\n[\n\tget_weather(city='Zürich')]\n```",
            [("get_weather", {"city": "Zürich"})],
            "",
        ),
    ],
)
def test_a_fenced_call_list_written_one_call_a_line_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(GEMMA3_BFCL, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Gemma 3 1B: a JSON fence holding a JSON list whose item is the pythonic call as a string
            "```json\n[\n  \"ChaDri.change_drink(drink_id='1234', new_preferences={'size': 'medium', "
            "'temperature': 'hot'})\"\n]\n```",
            [
                (
                    "ChaDri.change_drink",
                    {"drink_id": "1234", "new_preferences": {"size": "medium", "temperature": "hot"}},
                )
            ],
            "",
        ),
        (  # variant: single-quoted items on one line, two calls, a fence with no language, after prose
            "Here you go:\n```\n['get_weather(city=\"Oslo\")', 'get_weather(city=\"Bergen\")']\n```",
            [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Bergen"})],
            "Here you go:",
        ),
        (  # variant: a call string with its value bare and a trailing comma after the item
            '```json\n[\n    "get_weather(city=Lima)",\n]\n```\nok',
            [("get_weather", {"city": "Lima"})],
            "ok",
        ),
    ],
)
def test_a_fenced_list_of_call_strings_of_offered_tools_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(GEMMA3_BFCL, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '```json\n[\n  "Check the weather in Lima.",\n  "Then report back."\n]\n```',  # sentences
        '```json\n["ls -la", "git status"]\n```',  # shell commands
        "```json\n[\n  \"lookup(city='Oslo')\"\n]\n```",  # a tool not offered
        '```json\n["get_weather(city=\'Oslo\')", "then relax"]\n```',  # a call beside a sentence
        "Write [\"get_weather(city='Oslo')\"] to call it.",  # mid-prose
        "Like this:\n```python\n[\n    get_weather(city='Lima'),\n]\n```",  # a Python fence after prose: code
        "```python\n[\n    get_weather(city='Lima'),\n]\nprint('done')\n```",  # more than the list: code
    ],
)
def test_a_fenced_list_of_other_strings_or_code_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


_DAMAGED_TOOLS = [
    *TOOLS,
    tool("requests.get", url="string", headers="object"),
    tool("ControlAppliance.execute", command="string"),
    tool("write", path="string", content="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # Gemma 3 1B: the call's own double quotes end the item's string early; the URL is positional
            '```json\n[\n  "requests.get("https://www.torontotrade.com/api/stock/12345")\n]\n```',
            [("requests.get", {"url": "https://www.torontotrade.com/api/stock/12345"})],
            "",
        ),
        (  # Gemma 3 4B: the item opens with a double quote and closes with a single one; Korean value
            "```json\n[\n  \"ControlAppliance.execute(command='거실, 에어컨, 실행하고.')'\n]\n```",
            [("ControlAppliance.execute", {"command": "거실, 에어컨, 실행하고."})],
            "",
        ),
        (  # variant: no fence, opening the message; a damaged item, then a sound one, commas after each
            '[\n  "get_weather(city="Lima", unit="celsius")",\n  "get_weather(city=\'Quito\')",\n]\nDone.',
            [("get_weather", {"city": "Lima", "unit": "celsius"}), ("get_weather", {"city": "Quito"})],
            "Done.",
        ),
        (  # variant: single quotes inside single quotes, a fence with no language, the list's bracket on the line
            "```\n['get_weather(city='Oslo')']\n```",
            [("get_weather", {"city": "Oslo"})],
            "",
        ),
        (  # a sound item whose value spans lines is still one string (its line holds no whole call)
            "```json\n[\n  \"write(path='a.txt', content='one\ntwo')\"\n]\n```",
            [("write", {"path": "a.txt", "content": "one\ntwo"})],
            "",
        ),
    ],
)
def test_a_list_of_call_strings_with_damaged_quotes_is_read_one_item_a_line(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(GEMMA3_BFCL, text, calls, visible=visible, tools=_DAMAGED_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '```json\n[\n  "get_weather(city="Lima""\n]\n```',  # the call's brackets never balance
        '```json\n[\n  "lookup(q="x")"\n]\n```',  # a tool not offered
        '```json\n[\n  "get_weather(city="Lima") and then some"\n]\n```',  # more than the call on its line
        '```json\n[\n  "get_weather(city="Lima")",\n  "Then tell me."\n]\n```',  # beside a sentence
        'Use ["get_weather(city="Lima")"] here.',  # mid-prose
        "Example:\n[\n  \"get_weather(city='Lima')'\n]",  # after prose, no fence: not the message's call block
    ],
)
def test_a_damaged_call_string_that_is_not_one_whole_offered_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_DAMAGED_TOOLS))
