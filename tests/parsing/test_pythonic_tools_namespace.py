"""A ``tools.`` namespace before an offered tool's name in a Python-style call (``tools.get_weather(city="Paris")``:
Gemini 2.5 Flash leaking its tool code, Maliev.ChatbotService's LeakedToolCallParser tests), read as a template's
``functions.`` or ``default_api.`` is (`shim.parsing.readers.pythonic_calls`), at every split point. The name after
it is matched as any other: no underscores dropped (``tools.quotecalculateestimate()`` stays text)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

SOURCE = (
    "MALIEV-Co-Ltd/Maliev.ChatbotService:Maliev.ChatbotService.Tests/Unit/LeakedToolCallParserTests.cs"
    "@cbce29b7e8ee53e28a17bfd25496259dc40eb9c8"
)
TOOLS = [
    tool("quote_calculate_estimate"),
    tool("get_weather", city="string", days="integer"),
    tool("read_file", path="string"),
]
NO_ARGUMENTS: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        ("tools.quote_calculate_estimate()", "", [("quote_calculate_estimate", NO_ARGUMENTS)]),
        ('Sure.\ntools.get_weather(city="Paris", days=2)\n', "Sure.", [("get_weather", {"city": "Paris", "days": 2})]),
        # Under a call label, in a list after text, several calls.
        ("Call: tools.read_file(path='a.txt')", "", [("read_file", {"path": "a.txt"})]),
        ("Voilà : [tools.get_weather(city='Lyon')]", "Voilà :", [("get_weather", {"city": "Lyon"})]),
        (
            'tools.read_file(path="a.py")\ntools.read_file(path="b.py")',
            "",
            [("read_file", {"path": "a.py"}), ("read_file", {"path": "b.py"})],
        ),
        # The name's own spelling variants as without the namespace (`-` for `_`).
        ('tools.get-weather(city="Oslo")', "", [("get_weather", {"city": "Oslo"})]),
    ],
)
def test_a_tools_namespace_before_an_offered_name_is_taken_off(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(SOURCE, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # In prose, assigned, another namespace, a tool that was not offered, a name missing its underscores.
        'Use tools.get_weather(city="Paris") to check the weather.',
        'x = tools.get_weather(city="Paris")',
        'mytools.get_weather(city="Paris")',
        'tools.delete_everything(target="all")',
        "tools.quotecalculateestimate()",
        'Example:\n```python\ntools.get_weather(city="Paris")\n```',
    ],
)
def test_a_tools_namespace_in_prose_or_before_no_offered_name_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
