# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""DeepSeek V4.1's DSML (`shim.parsing.readers.dsml`): the wrapper named ``calls`` and a blank after the bars
(Xinference's parser tests), and tool-name XML whose tags carry the namespace (pi-free #376), at every split point."""

from __future__ import annotations

import json

import pytest

from tests.parsing.readers.cases import Real, check, tool

XINFERENCE = "written after Xinference's DeepSeek V4.1 tool parser tests (benchmarks/real/dsml/c21_xinf_dsv41_*)"
PIFREE = "written after apmantza/pi-free#376 (benchmarks/real/dsml/b21_pifree376_*)"


def _block(*invokes: str, sep: str = "\n") -> str:
    return f"<｜DSML｜ calls>{sep}" + sep.join(invokes) + f"{sep}</｜DSML｜ calls>"


def _invoke(name: str, **params: object) -> str:
    """Text values with ``string="true"``, any other as JSON with ``string="false"``, as the template writes them."""
    inner = "".join(
        f'<｜DSML｜ parameter name="{k}" string="true">{v}</｜DSML｜ parameter>'
        if isinstance(v, str)
        else f'<｜DSML｜ parameter name="{k}" string="false">{json.dumps(v)}</｜DSML｜ parameter>'
        for k, v in params.items()
    )
    return f'<｜DSML｜ invoke name="{name}">{inner}</｜DSML｜ invoke>'


CASES = [
    Real(XINFERENCE, _block(_invoke("get_time", city="Oslo")), [("get_time", {"city": "Oslo"})]),
    Real(
        XINFERENCE,
        "Looking. " + _block(_invoke("search", q="京都", n=2), _invoke("ping"), sep="") + " Done.",
        [("search", {"q": "京都", "n": 2}), ("ping", {})],
        visible="Looking. Done.",
    ),
    Real(  # two blocks, prose between; ASCII bars
        XINFERENCE,
        _block(_invoke("get_time", city="Rome")).replace("｜", "|")
        + "Next. "
        + _block(_invoke("get_weather", data={"a": [1, None]})),
        [("get_time", {"city": "Rome"}), ("get_weather", {"data": {"a": [1, None]}})],
        visible="Next.",
    ),
    Real(  # the V3.2 names with the V4.1 blank
        XINFERENCE,
        "<｜DSML｜ function_calls>" + _invoke("ns::run", value="001") + "</｜DSML｜ function_calls>",
        [("ns::run", {"value": "001"})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_a_v41_dsml_block_is_read_at_every_split_point(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "Checking. <｜DSML｜ calls>broken</｜DSML｜ calls>",
        "The <｜DSML｜ calls> block wraps the calls.",
        'Write `<｜DSML｜ invoke name="get_time">` inside it.',
    ],
)
def test_a_v41_wrapper_holding_no_invoke_or_named_in_prose_stays_text(text: str) -> None:
    result = check(Real(XINFERENCE, text, [], tools=[tool("get_time", city="string")]), visible=False)
    assert result["text"] == text


WEB = tool("aio-webcontent", url="string", budgetTokens="integer", diff="boolean")
FILES = tool("read_file", path="string")

TOOL_XML = [
    Real(
        PIFREE,
        "<｜DSML｜aio-webcontent>\n <url>https://example.com/a</url>\n <budgetTokens>3000</budgetTokens>\n"
        " <diff>false</diff>\n</｜DSML｜aio-webcontent>",
        [("aio-webcontent", {"url": "https://example.com/a", "budgetTokens": 3000, "diff": False})],
        tools=[WEB, FILES],
    ),
    Real(  # ASCII bars, a blank after them, prose around
        PIFREE,
        "Reading it.\n<|DSML| read_file><path>src/main.py</path></|DSML| read_file>\nThen I will edit.",
        [("read_file", {"path": "src/main.py"})],
        visible="Reading it. Then I will edit.",
        tools=[WEB, FILES],
    ),
    Real(  # another namespace in the bars (GigaChat's), as the DSML rows read any
        PIFREE,
        "<｜GCML｜read_file>\n<path>README.md</path>\n</｜GCML｜read_file>",
        [("read_file", {"path": "README.md"})],
        tools=[FILES],
    ),
]


@pytest.mark.parametrize("case", TOOL_XML, ids=lambda c: c.text[:40])
def test_tool_name_xml_with_the_namespace_on_its_tags_is_read_at_every_split_point(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "<｜DSML｜write_file><path>a.py</path></｜DSML｜write_file>",  # not an offered tool
        "<｜DSML｜read_file><mode>r</mode></｜DSML｜read_file>",  # not a declared parameter
        "The tag <｜DSML｜read_file> opens the call.",  # named in prose
        "Write `<｜DSML｜read_file><path>a.py</path></｜DSML｜read_file>` to read it.",  # an inline code example
    ],
)
def test_namespaced_tool_xml_outside_the_rules_stays_text(text: str) -> None:
    result = check(Real(PIFREE, text, [], tools=[FILES]), visible=False)
    assert result["text"] == text
