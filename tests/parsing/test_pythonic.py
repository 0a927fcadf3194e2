"""Python-style call lists (`shim.parsing.pythonic`): tool names Python cannot spell (``web-search``, MCP's
hyphenated names) and one object literal as the arguments; prose stays text."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.pythonic import parse_pythonic
from tests.parsing.readers.cases import Real, check

TOOLS = ["web-search", "fs.read_file", "get_weather"]


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        ('[web-search(query="x")]', [("web-search", {"query": "x"})]),
        (
            '[web-search(query="a-b(c)"), get-weather-now(city="Paris")]',
            [("web-search", {"query": "a-b(c)"}), ("get-weather-now", {"city": "Paris"})],
        ),
        ("[fs.read_file(path='a')]", [("fs.read_file", {"path": "a"})]),
        ('[get_weather({"city": "Paris"})]', [("get_weather", {"city": "Paris"})]),
        ("[get_weather({})]", [("get_weather", {})]),
    ],
)
def test_hyphenated_names_and_an_object_argument_are_read(source: str, calls: list) -> None:
    assert parse_pythonic(source) == calls


@pytest.mark.parametrize(
    "source", ["[a - b(c=1)]", "[get_weather({1: 2})]", "[get_weather({'a': 1}, b=2)]", "[x-(y=1)]"]
)
def test_expressions_that_are_not_one_call_each_are_refused(source: str) -> None:
    assert parse_pythonic(source) is None


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('[web-search(query="x")]', [("web-search", {"query": "x"})]),
        ('I will search.\n[web-search(query="x")]', [("web-search", {"query": "x"})]),
        (
            '[web-search(query="x"), get_weather(city="Paris")]',
            [("web-search", {"query": "x"}), ("get_weather", {"city": "Paris"})],
        ),
        ('web-search(query="x")', [("web-search", {"query": "x"})]),
        ('get_weather({"city": "Paris"})', [("get_weather", {"city": "Paris"})]),
    ],
)
def test_untagged_calls_of_hyphenated_tools_are_read_at_every_split(text: str, calls: list) -> None:
    check(Real("written: ToolACE-style lists naming MCP tools", text, calls, tools=TOOLS), visible=False)


@pytest.mark.parametrize(
    "text",
    [
        "x = web-search(query='x')",
        'See [web-search(query="x")](http://example.com)',
        "a-b(c=1) is how you write it",
        'Run it as\n```python\nweb-search(query="x")\n```',  # a fence after prose shows code
    ],
)
def test_hyphenated_calls_in_prose_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def _order(name: str) -> list[str]:
    return {"click": ["bid", "button"], "create_file": ["path", "content"]}.get(name, [])


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        ("[click('81')]", [("click", {"bid": "81"})]),
        ("[click('81', 'left')]", [("click", {"bid": "81", "button": "left"})]),
        ("[click('81', button='left')]", [("click", {"bid": "81", "button": "left"})]),
        ("[create_file('a.java', 'class A {\n}')]", [("create_file", {"path": "a.java", "content": "class A {\n}"})]),
        ("[create_file(path='a', content='x\r\ny')]", [("create_file", {"path": "a", "content": "x\r\ny"})]),
        ('[create_file("""a\nb""", "c")]', [("create_file", {"path": "a\nb", "content": "c"})]),
    ],
)
def test_positional_arguments_bind_to_the_tools_parameters_in_order_and_strings_may_span_lines(
    source: str, calls: list
) -> None:
    assert parse_pythonic(source, _order) == calls


@pytest.mark.parametrize(
    "source",
    [
        "[click('81', 'left', 'extra')]",  # more than the tool declares
        "[click('81', bid='82')]",  # a name given twice
        "[click(*args)]",  # not a literal
        "[unknown('x')]",  # a tool with no declared parameters
    ],
)
def test_positional_arguments_that_cannot_bind_are_refused(source: str) -> None:
    assert parse_pythonic(source, _order) is None


def test_positional_arguments_are_refused_without_the_tools_parameters() -> None:
    assert parse_pythonic("[click('81')]") is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[f(path='C:\\temp\nnotes')]", "C:\\temp\nnotes"),  # a template printing the value as it is
        ("[f(path='it\\'s\nhere')]", "it's\nhere"),  # its own quote written with a backslash
        ('[f(path="a\\\\b\r\nc")]', "a\\\\b\r\nc"),
    ],
)
def test_a_quoted_value_with_a_raw_line_break_keeps_its_backslashes_as_written(text: str, value: str) -> None:
    assert parse_pythonic(text) == [("f", {"path": value})]


def test_a_quoted_value_on_one_line_reads_its_escapes_as_python_does() -> None:
    assert parse_pythonic("[f(path='a\\tb\\n')]") == [("f", {"path": "a\tb\n"})]


# BFCL's prompt mode (Qwen2.5 1.5B): brackets damaged at the end of a call list, set right as lenient JSON does.
@pytest.mark.parametrize(
    ("source", "calls"),
    [
        (  # a closer that skips an open list closes it too; the closer of nothing after the list is stray
            '[get_weather(city="a", days=["x", "y"]),\n get_weather(city="b", days=["x", "y")]]',
            [("get_weather", {"city": "a", "days": ["x", "y"]}), ("get_weather", {"city": "b", "days": ["x", "y"]})],
        ),
        ('[get_weather(city="a", opts={"u": "c")]', [("get_weather", {"city": "a", "opts": {"u": "c"}})]),
        ('[get_weather(city="a"))]', [("get_weather", {"city": "a"})]),
        (  # the call's `)` written before its last keyword arguments, left in the list
            '[get_weather(city="a", days=[1, 2]), unit="c"]',
            [("get_weather", {"city": "a", "days": [1, 2], "unit": "c"})],
        ),
        (
            '[web-search(query="x"), get_weather(city="(b)"), unit="c", lang="en"]',
            [("web-search", {"query": "x"}), ("get_weather", {"city": "(b)", "unit": "c", "lang": "en"})],
        ),
    ],
)
def test_damaged_brackets_at_a_call_lists_end_are_set_right(source: str, calls: list) -> None:
    assert parse_pythonic(source) == calls


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        # ToolACE-8B (tau-bench trajectories): values written bare
        ("[find_user(email=johndoe@example.com)]", [("find_user", {"email": "johndoe@example.com"})]),
        ("[find_user(first_name=John, zip=12345r)]", [("find_user", {"first_name": "John", "zip": "12345r"})]),
        # Snowflake Arctic (BFCL results): one bare value among quoted ones and literals
        (
            '[shows(service=Netflix, titles=["Friends"], sort=True, n=3)]',
            [("shows", {"service": "Netflix", "titles": ["Friends"], "sort": True, "n": 3})],
        ),
        ("[get_weather(city=New York, unit=celsius)]", [("get_weather", {"city": "New York", "unit": "celsius"})]),
        (
            "[open(url=https://example.com/a?b, day=2024-01-02)]",
            [("open", {"url": "https://example.com/a?b", "day": "2024-01-02"})],
        ),
        ("[f(a=None, b=-2.5)]", [("f", {"a": None, "b": -2.5})]),  # literals stay literals
    ],
)
def test_bare_values_of_a_lenient_list_are_the_text_they_spell(source: str, calls: list) -> None:
    assert parse_pythonic(source, lenient=True) == calls


@pytest.mark.parametrize(
    "source",
    [
        '[get_weather(city="a"), unit="c", get_weather(city="b")]',  # a call after the keyword: not that damage
        '[get_weather(city="a"), unit == "c"]',  # a comparison, not a keyword
        '[get_weather(city="a", days=["x", "y")',  # still open: cut off, not damaged
        '[get_weather(city="a)]',  # a quote left open
        '[unit="c"]',  # a keyword and no call
    ],
)
def test_brackets_no_repair_sets_right_stay_refused(source: str) -> None:
    assert parse_pythonic(source) is None


def test_a_damaged_call_list_opening_the_message_is_read_at_every_split() -> None:
    text = '[get_weather(city="Paris", days=["mon", "tue")]]'
    check(Real("written", text, [("get_weather", {"city": "Paris", "days": ["mon", "tue"]})], tools=TOOLS))


@pytest.mark.parametrize(
    "source",
    ["[f(a=x + 1)]", "[f(a=foo(1))]", "[f(a=b c + d)]", "[f(a=x[0])]", "[f(a=1 if b else 2)]", "[f(a=lambda: 1)]"],
)
def test_expressions_are_no_bare_values(source: str) -> None:
    assert parse_pythonic(source, lenient=True) is None


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        (
            "['gcd(num1=96, num2=128)', 'lcm(num1=15, num2=25)']",
            [("gcd", {"num1": 96, "num2": 128}), ("lcm", {"num1": 15, "num2": 25})],
        ),
        ('["f(a=Netflix)", \n"f(a=\'Hulu\')"]', [("f", {"a": "Netflix"}), ("f", {"a": "Hulu"})]),
        ("[' f(a=1) ']", [("f", {"a": 1})]),
    ],
)
def test_a_list_of_strings_each_one_call_is_those_calls_when_lenient(source: str, calls: list) -> None:
    assert parse_pythonic(source, lenient=True) == calls
    assert parse_pythonic(source) is None


@pytest.mark.parametrize(
    "source", ["['f(a=1)', 'hello']", "['f(a=1); f(a=2)']", "['f(a=1), f(a=2)']", "['f(a=1)', 5]", "['[f(a=1)]']"]
)
def test_a_list_of_strings_that_are_not_one_call_each_is_refused(source: str) -> None:
    assert parse_pythonic(source, lenient=True) is None


GCD = [
    "gcd",
    "lcm",
    {"name": "find_user", "inputSchema": {"type": "object", "properties": {"email": {"type": "string"}}}},
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "['gcd(num1=96, num2=128)', 'lcm(num1=15, num2=25)']",
            [("gcd", {"num1": 96, "num2": 128}), ("lcm", {"num1": 15, "num2": 25})],
        ),
        ('\n\n["gcd(num1=96, num2=128)"]', [("gcd", {"num1": 96, "num2": 128})]),
        ("[find_user(email=jo@example.com)]", [("find_user", {"email": "jo@example.com"})]),
        ("```\n[find_user(email=jo@example.com)]\n```", [("find_user", {"email": "jo@example.com"})]),
    ],
)
def test_a_lenient_list_opening_the_message_is_read_at_every_split(text: str, calls: list) -> None:
    check(Real("written: BFCL result files' lists", text, calls, tools=GCD))


@pytest.mark.parametrize(
    "text",
    [
        "Try [find_user(email=jo@example.com)] next.",
        "Then run ['gcd(num1=96, num2=128)'] and see.",
        "find_user(mail=jo@example.com)",  # a bare call keeps Python's reading (the key no declared string)
        "['gcd(num1=96, num2=128)', 'a note']",
        "[delete_all(path=root)]",  # not offered
    ],
)
def test_bare_values_and_call_strings_elsewhere_stay_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=GCD))
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # Mixtral 8x7B in BFCL's results escapes the name's underscore as Markdown does.
        ("[get\\_weather(city='Paris')]", [("get_weather", {"city": "Paris"})]),
        ("[fs\\.read\\_file(path='a')]", [("fs.read_file", {"path": "a"})]),
        (
            "[web\\-search(query='x'), get\\_weather(city='Oslo')]",
            [("web-search", {"query": "x"}), ("get_weather", {"city": "Oslo"})],
        ),
        # A backslash inside a string value is the value's own.
        ("[get\\_weather(city='a\\\\_b')]", [("get_weather", {"city": "a\\_b"})]),
    ],
)
def test_a_name_escaped_as_markdown_escapes_it_is_the_offered_tool(text: str, calls: list) -> None:
    check(Real("written: Markdown escapes in a name", text, calls, tools=TOOLS))


@pytest.mark.parametrize("text", ["[other\\_tool(city='Paris')]", "See [get\\_weather] in the docs.", "a \\_ b"])
def test_an_escaped_name_of_no_offered_tool_or_no_call_stays_text(text: str) -> None:
    check(Real("written: escapes in prose", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # Mistral NeMo in BFCL's results: the name quoted, the call over lines
            "[\n  'fs.read_file'(\n    path='a.txt'\n  )\n]",
            [("fs.read_file", {"path": "a.txt"})],
        ),
        (  # double quotes, a hyphenated name, two calls, a fence around the list
            '```\n["web-search"(query="ä ö"), "get_weather"(city="Oslo")]\n```',
            [("web-search", {"query": "ä ö"}), ("get_weather", {"city": "Oslo"})],
        ),
        (
            "['get_weather'(city='Lima'), get_weather(city='Quito')]",
            [  # one quoted, one not
                ("get_weather", {"city": "Lima"}),
                ("get_weather", {"city": "Quito"}),
            ],
        ),
    ],
)
def test_a_quoted_name_before_its_parentheses_in_the_messages_call_list_is_the_tool(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: BFCL result files, Mistral NeMo's quoted name", text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Never write ['get_weather'(city='Lima')]: a string is not callable.",  # after prose
        "['delete_all'(path='/')]",  # no offered tool
        "['get_weather'(city='Lima'), 'a note']",  # more than calls
        "['get weather'(city='Lima')]",  # no name a tool has
    ],
)
def test_a_quoted_name_in_prose_or_of_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
