# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""A value written whole as one ``<![CDATA[…]]>`` section, in every XML family (`shim.parsing.xml_values`).

CDATA is XML's literal text: the value is what is inside, typed by the schema as any value written as text is.
Web-to-API proxies teach it in their prompts (glm2api's and gxQwen2api's tests: DSML and ``<invoke>`` values in
CDATA); MiniCPM's template writes it; Cline's tool-name XML allows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from shim.events import ToolCallEnd
from shim.parsing.shapes import ToolIndex
from shim.parsing.stream import StreamParser
from shim.parsing.xml_values import cdata_content, typed_value
from tests.parsing.chunking import parse_everywhere
from tests.parsing.test_xml_values import FAMILIES, TOOL

RENDER: dict[str, Callable[[str, str], str]] = {
    **{family: render for family, (render, profile) in FAMILIES.items() if profile is None},
    "dsml": lambda k, v: (
        f'<｜DSML｜function_calls><｜DSML｜invoke name="probe"><｜DSML｜parameter name="{k}">{v}'
        "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>"
    ),
    "dsml, ASCII bars, indented": lambda k, v: (
        f'<|DSML|tool_calls>\n  <|DSML|invoke name="probe">\n    <|DSML|parameter name="{k}">{v}</|DSML|parameter>\n'
        "  </|DSML|invoke>\n</|DSML|tool_calls>"
    ),
    "invoke in tool_calls": lambda k, v: (
        f'<tool_calls><invoke name="probe"><parameter name="{k}">{v}</parameter></invoke></tool_calls>'
    ),
}


def _read(family: str, key: str, value: str) -> Any:
    source = RENDER[family](key, value)
    parser = StreamParser([TOOL])
    events = parser.feed(source) + parser.close()
    calls = [e.arguments for e in events if isinstance(e, ToolCallEnd)]
    assert len(calls) == 1, (family, source, events)
    assert "".join(e.raw for e in events) == source
    return calls[0][key]


@pytest.mark.parametrize(
    ("key", "written", "value"),
    [
        ("string", "<![CDATA[Paris]]>", "Paris"),
        ("string", "<![CDATA[北京 & <surroundings>]]>", "北京 & <surroundings>"),
        ("string", '<![CDATA["quoted"]]>', '"quoted"'),  # literal: no JSON quoting undone
        ("string", "<![CDATA[5]]>", "5"),
        ("loose", "<![CDATA[5]]>", "5"),  # no schema: the text inside
        ("integer", "<![CDATA[5]]>", 5),
        ("number", " <![CDATA[-0.5]]> ", -0.5),
        ("boolean", "<![CDATA[true]]>", True),
        ("array", '<![CDATA[["powershell.exe", "-Command", "pwd"]]]>', ["powershell.exe", "-Command", "pwd"]),
        ("array", "<![CDATA[['a', 'b']]]>", ["a", "b"]),  # a Python literal, as a bare value may be
        ("object", '<![CDATA[{"q": "阿房宫赋", "recency": 365}]]>', {"q": "阿房宫赋", "recency": 365}),
        ("integer", "<![CDATA[five]]>", "five"),  # no integer inside: the text inside
    ],
)
def test_a_value_in_one_cdata_section_is_its_content_typed_by_the_schema_in_every_family(
    key: str, written: str, value: Any
) -> None:
    assert {family: _read(family, key, written) for family in RENDER} == dict.fromkeys(RENDER, value)


@pytest.mark.parametrize(
    ("key", "written", "value"),
    [
        # glm2api: an object's CDATA closed by `]>`; an array's last `]` shared with the closer
        ("object", '<![CDATA[{"q":"x","recency":365}]>', {"q": "x", "recency": 365}),
        ("array", "<![CDATA[[1, 2]>", [1, 2]),
        ("array", '<![CDATA[["a", "b"]]>', ["a", "b"]),
    ],
)
def test_a_damaged_cdata_closer_is_read_where_the_content_is_a_value_of_the_schema_type(
    key: str, written: str, value: Any
) -> None:
    # MiniCPM's reader reads `</param>` inside a section as text (its template's rule), so there a section left
    # without its `]]>` runs on to the end: no damaged closer can be told from text
    families = [f for f in RENDER if f != "minicpm"]
    assert {family: _read(family, key, written) for family in families} == dict.fromkeys(families, value)


def test_entities_inside_cdata_are_its_literal_text() -> None:
    """Tool-name XML takes its CDATA off before it reads the children (Cline's format) and decodes a value escaped
    throughout, as it does for any value; the families whose values are read one at a time keep it literal."""
    families = [f for f in RENDER if f != "tool-name XML"]
    assert {f: _read(f, "string", "<![CDATA[&lt;Esc&gt;]]>") for f in families} == dict.fromkeys(
        families, "&lt;Esc&gt;"
    )


@pytest.mark.parametrize(
    ("key", "written"),
    [
        ("string", "<![CDATA[Paris]>"),  # a damaged closer on text: nothing says where the text ends
        ("object", "<![CDATA[not json]>"),
        ("string", "see <![CDATA[x]]> here"),  # a section inside other text
        ("string", "<![CDATA[a]]> and <![CDATA[b]]>"),  # two sections with text between
        ("loose", "<![CDATA[x]]> tail"),
    ],
)
def test_a_value_that_is_not_wholly_one_cdata_section_stays_as_written(key: str, written: str) -> None:
    tools = ToolIndex([TOOL])
    assert typed_value(tools, "probe", key, written) == written
    assert _read("dsml", key, written) == written
    assert _read("invoke in tool_calls", key, written) == written


def test_cdata_content_is_only_the_inside_of_a_whole_section() -> None:
    assert cdata_content("\n  <![CDATA[a\nb]]>\n") == "a\nb"
    assert cdata_content("<![CDATA[]]>") == ""
    assert cdata_content("<![CDATA[a]]>b]]>") is None
    assert cdata_content("x<![CDATA[a]]>") is None
    assert cdata_content("<![CDATA[a") is None


_SHELL = {
    "name": "shell",
    "inputSchema": {
        "type": "object",
        "properties": {"command": {"type": "array", "items": {"type": "string"}}, "workdir": {"type": "string"}},
    },
}


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            '<|DSML|tool_calls><|DSML|invoke name="shell"><|DSML|parameter name="command"><![CDATA[["ls", "-la"]]]>'
            '</|DSML|parameter><|DSML|parameter name="workdir"><![CDATA[C:\\x]]></|DSML|parameter></|DSML|invoke>'
            "</|DSML|tool_calls>",
            "",
        ),
        (
            'Listing. <tool_calls>\n  <invoke name="shell">\n    <parameter name="command"><![CDATA[["ls", "-la"]]]>'
            '</parameter>\n    <parameter name="workdir"><![CDATA[C:\\x]]></parameter>\n  </invoke>\n</tool_calls> ok',
            "Listing. ok",
        ),
        (
            "<tool_call>\n<function=shell>\n<parameter=command>\n<![CDATA[['ls', '-la']]]>\n</parameter>\n"
            "<parameter=workdir>\n<![CDATA[C:\\x]]>\n</parameter>\n</function>\n</tool_call>",
            "",
        ),
        (
            '<shell>\n<command><![CDATA[["ls", "-la"]]]></command>\n<workdir><![CDATA[C:\\x]]></workdir>\n</shell>',
            "",
        ),
        (
            '<function name="shell"><param name="command"><![CDATA[["ls", "-la"]]]></param>'
            '<param name="workdir"><![CDATA[C:\\x]]></param></function>',
            "",
        ),
    ],
)
def test_cdata_values_read_the_same_at_every_split_point(text: str, visible: str) -> None:
    result = parse_everywhere(text, [_SHELL], seeds=5)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [
        ("shell", {"command": ["ls", "-la"], "workdir": "C:\\x"})
    ]
    assert " ".join(result["text"].split()) == visible
    assert result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        "Wrap each value in <![CDATA[…]]> so that markup inside it stays text.",
        'Use `<parameter name="command"><![CDATA[["ls"]]]></parameter>` for a list.',
        "<rm_rf>\n<path><![CDATA[/]]></path>\n</rm_rf>",  # tool-name XML of a tool not offered
    ],
)
def test_cdata_in_prose_or_in_a_call_of_a_tool_not_offered_makes_no_call(text: str) -> None:
    result = parse_everywhere(text, [_SHELL], seeds=5)
    assert result["calls"] == []
