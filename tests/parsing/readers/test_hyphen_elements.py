"""A call's elements with ``-`` for ``_`` in a shape key's name (``<tool-name>`` inside ``<tool-use>``), and a closer
that differs from its opener only so (``<tool_name>read_file</tool-name>``): BEACON's ``_parse_tool_calls`` tests,
read by `shim.parsing.readers.xml_elements`, at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

SOURCE = "Sorravit/BEACON:tests/test_parse_tool_calls.py@8abfbb38d18bc78aedc1e0055d0d70858f906042"
TOOLS = [tool("read_file", path="string"), tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "visible", "calls"),
    [
        # The hyphen of the `<tool-use>` tag carried into its elements.
        (
            '<tool-use>\n<tool-name>read_file</tool-name>\n<parameters>{"path": "a.txt"}</parameters>\n</tool-use>',
            "",
            [("read_file", {"path": "a.txt"})],
        ),
        # A closer with `-` for its opener's `_`, and the other way round.
        (
            '<tool_use>\n<tool_name>read_file</tool-name>\n<parameters>{"path": "a.txt"}</parameters>\n</tool_use>',
            "",
            [("read_file", {"path": "a.txt"})],
        ),
        (
            "Checking.\n<tool_call><function-name>get_weather</function_name>"
            "<tool-input><city>Oslo</city><days>2</days></tool-input></tool_call> Done.",
            "Checking. Done.",
            [("get_weather", {"city": "Oslo", "days": 2})],
        ),
        # Hyphenated keys in Anthropic's earlier `<invoke>` form, two calls.
        (
            "<function_calls><invoke><tool-name>read_file</tool-name><parameters><path>b.py</path></parameters>"
            "</invoke><invoke><tool-name>get_weather</tool-name><parameters><city>Rome</city></parameters></invoke>"
            "</function_calls>",
            "",
            [("read_file", {"path": "b.py"}), ("get_weather", {"city": "Rome"})],
        ),
        # An argument's own name keeps its spelling; its closer may differ only by the hyphen.
        (
            '<tool_call><tool_name>read_file</tool_name><arguments>{"path": "x-y.txt"}</arguments></tool_call>',
            "",
            [("read_file", {"path": "x-y.txt"})],
        ),
        (
            "<tool_call><name>get_weather</name><arguments><city>Paris</city><days>3</days></arguments></tool-call>",
            "",
            [("get_weather", {"city": "Paris", "days": 3})],
        ),
    ],
)
def test_hyphens_for_underscores_in_a_calls_elements_read_as_the_keys(
    text: str, visible: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(SOURCE, text, calls, visible=visible, tools=TOOLS))


def test_an_element_closed_by_its_hyphen_twin_keeps_a_hyphenated_argument_name() -> None:
    tools = [tool("tag_file", **{"file-name": "string"})]
    text = "<tool_call><name>tag_file</name><arguments><file-name>a.txt</file_name></arguments></tool_call>"
    check(Real(SOURCE, text, [("tag_file", {"file-name": "a.txt"})], tools=tools))


@pytest.mark.parametrize(
    "text",
    [
        # The form named in prose, quoted, fenced; a tool that was not offered.
        "Write <tool-use><tool-name>NAME</tool-name> to call a tool.",
        "Use `<tool-use><tool-name>read_file</tool-name></tool-use>` to read.",
        'For example:\n```xml\n<tool-use>\n<tool-name>read_file</tool-name>\n<parameters>{"path": "a"}</parameters>\n</tool-use>\n```',
        '<tool-use>\n<tool-name>rm_rf</tool-name>\n<parameters>{"path": "/"}</parameters>\n</tool-use>',
        "<tool_use><tool_name>delete_all</tool-name></tool_use>",
    ],
)
def test_hyphenated_elements_in_prose_or_naming_no_offered_tool_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
