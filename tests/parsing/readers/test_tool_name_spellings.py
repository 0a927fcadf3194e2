"""An offered tool's name with a chat template's namespace before it (``functions.NAME``, ``default_api.NAME``), as
models copy it into whatever form they write (`shim.parsing.readers.tool_xml.tool_name_pattern`, the one spelling of
offered names in every name-led opener): the call of the tool, in every form; a namespaced name of no offered tool
stays text."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_weather", city="string"), tool("search", query="string")]
CALL = [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize(
    "text",
    [
        'Action: functions.get_weather\nAction Input: {"city": "Paris"}',
        '```json\n[default_api.get_weather(city="Paris")]\n```',
        '<tool_name>functions.get_weather</tool_name><arguments>{"city": "Paris"}</arguments>',
        '@default_api.get_weather {"city": "Paris"}',
        'functions.get_weather\n{"city": "Paris"}',
        "tool: functions.get_weather\ncity: Paris",
        "<functions.get_weather>\n<city>Paris</city>\n</functions.get_weather>",
    ],
)
def test_a_templates_namespace_before_an_offered_name_is_the_tools_call_in_every_form(text: str) -> None:
    check(Real("written: namespaced names in name-led forms", text, CALL, visible="", tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Action: functions.lookup\nAction Input: {"city": "Paris"}',  # no offered tool
        '@default_api.lookup {"city": "Paris"}',
        "tool: functions.lookup\ncity: Paris",
        'For example:\nAction: functions.get_weather\nAction Input: {"city": "Paris"}',  # presented
    ],
)
def test_a_namespaced_name_of_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
