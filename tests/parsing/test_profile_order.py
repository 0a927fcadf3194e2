"""A profile's preferred rows go first, but never make a broad opener shadow a narrower one (`shim.parsing.tags.Markers`):
where a row the profile moved ahead matches and a row it overtook matches a longer opener at the same place, the
narrower row reads, as in the default table; where both match the same text, the profile's row reads. Each text is
read at every split point under the profile and gives the default table's result."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.readers import DEFAULT_DIALECTS, Dialect
from shim.profiles import get_profile
from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import fold, tool

TOOLS = [
    tool("Read", file_path="string"),
    tool("bash", command="string"),
    tool("GET", url="string"),
    tool("read_file", path="string"),
    tool("get_weather", city="string"),
]


def _first(*names: str) -> list[Dialect]:
    """The table with ``names`` moved ahead, as a profile orders it."""
    by_name = {d.name: d for d in DEFAULT_DIALECTS}
    return [by_name[n] for n in names] + [d for d in DEFAULT_DIALECTS if d.name not in names]


BARE_JSON_FIRST = _first("bare_json")
"""A profile that prefers a bare JSON object (``(?=\\{)``, an empty opener) to every other row."""
TOOL_CODE_FIRST = _first("tool_code", "tool_code_call", "pythonic")
"""The Gemma 3 profiles' rows, without the command fence row listed ahead of its Python-call row."""


def _as_default(text: str, **profile: Any) -> dict[str, Any]:
    """The result under ``profile`` (``dialects=`` or ``profile=``) at every split point: the default table's."""
    result = parse_everywhere(text, TOOLS, **profile)
    assert result == parse_everywhere(text, TOOLS)
    return result


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Qwen3-Coder's opener fused with a JSON brace (q27's survey): `{` opens a bare JSON object too.
        (
            'Let me try the file tools.\n\n{"function="Read">\n<parameter=file_path>\n/w/.git/HEAD\n</parameter>\n'
            "</function>",
            [("Read", {"file_path": "/w/.git/HEAD"})],
            "Let me try the file tools.",
        ),
        (
            '{"function=bash>\n<parameter=command>\nls -la /tmp\n</parameter>\n</function>',
            [("bash", {"command": "ls -la /tmp"})],
            "",
        ),
        (
            'Voilà :\n{"function="bash">  <parameter=command>echo "été"</parameter></function>\nFini.',
            [("bash", {"command": 'echo "été"'})],
            "Voilà : Fini.",
        ),
    ],
)
@pytest.mark.parametrize("rows", [BARE_JSON_FIRST, None], ids=["bare_json_first", "llama3"])
def test_a_profile_that_prefers_a_bare_json_object_still_reads_a_fused_xml_opener(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str, rows: list[Dialect] | None
) -> None:
    profile: dict[str, Any] = {"dialects": rows} if rows is not None else {"profile": get_profile("llama3")}
    result = _as_default(text, **profile)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert fold(result["text"]) == fold(visible)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # Gemma 3 writes a command in its ```tool_code fence (MedAgentBench): the fence's command row is narrower.
        (
            "```tool_code\nGET http://h/fhir/Observation?code=GLU\n```",
            [("GET", {"url": "http://h/fhir/Observation?code=GLU"})],
        ),
        ("Je regarde.\n```tool_code\n  read_file ./notes/2024.md\n```\n", [("read_file", {"path": "./notes/2024.md"})]),
        # Both rows open the fence; only the Python-call row reads a call: the profile's row, as preferred.
        ('```tool_code\nget_weather(city="Paris")\n```', [("get_weather", {"city": "Paris"})]),
        ("```tool_code\nprint(get_weather(city='Zürich'))\n```", [("get_weather", {"city": "Zürich"})]),
    ],
)
@pytest.mark.parametrize("rows", [TOOL_CODE_FIRST, None], ids=["tool_code_first", "gemma3"])
def test_a_profile_that_prefers_the_tool_code_fence_still_reads_a_command_in_it(
    text: str, calls: list[tuple[str, dict[str, Any]]], rows: list[Dialect] | None
) -> None:
    profile: dict[str, Any] = {"dialects": rows} if rows is not None else {"profile": get_profile("gemma3")}
    result = _as_default(text, **profile)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls


@pytest.mark.parametrize(
    "text",
    [
        '{"function=bash> is how it drifts',
        '{"function=grep>\n<parameter=command>\nls\n</parameter>\n</function>',  # no offered tool
        '{"name": "bash", "note": "<parameter=command> is a tag"}',
        "```tool_code\nDELETE http://h/fhir/Patient/1\n```",  # no offered tool
        "```tool_code\nGET requests list resources\n```",  # words after the argument
        "For example:\n```tool_code\nGET http://h/fhir/Patient?id=1\n```",
    ],
)
@pytest.mark.parametrize("rows", [BARE_JSON_FIRST, TOOL_CODE_FIRST], ids=["bare_json_first", "tool_code_first"])
def test_prose_with_a_narrower_rows_shape_reads_under_a_profile_as_under_the_table(
    text: str, rows: list[Dialect]
) -> None:
    _as_default(text, dialects=rows)
