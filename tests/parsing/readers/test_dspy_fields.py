"""DSPy ReAct's ``[[ ## next_tool_name ## ]]`` / ``[[ ## next_tool_args ## ]]`` fields (`shim.parsing.readers.dspy_fields`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

DSPY = "stanfordnlp/dspy:docs/docs/tutorials/customer_service_agent/index.ipynb"
USER_INFO = {"name": "get_user_info", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}
TOOLS = [USER_INFO, tool("fetch_flight_info", date="object", origin="string"), tool("finish")]
THOUGHT = "[[ ## next_thought ## ]]\nI need Adam's profile.\n\n"
DONE = "\n\n[[ ## completed ## ]]"


@pytest.mark.parametrize(
    ("fields", "calls"),
    [
        (
            '[[ ## next_tool_name ## ]]\nget_user_info\n\n[[ ## next_tool_args ## ]]\n{"name": "Adam"}',
            [("get_user_info", {"name": "Adam"})],
        ),
        ("[[ ## next_tool_name ## ]]\nfinish\n\n[[ ## next_tool_args ## ]]\n{}", [("finish", {})]),
        (
            '[[ ## next_tool_name ## ]]\n"fetch_flight_info"\n[[ ## next_tool_args ## ]]\n'
            '{"date":{"year":2025,"month":9},"origin":"SFO"}',
            [("fetch_flight_info", {"date": {"year": 2025, "month": 9}, "origin": "SFO"})],
        ),
        (
            "[[ ## tool_name ## ]]\r\nget_user_info\r\n\r\n[[ ## tool_args ## ]]\r\n{'name': 'Adam',}",
            [("get_user_info", {"name": "Adam"})],
        ),
    ],
)
def test_the_tool_name_field_then_the_tool_args_field_is_a_call(
    fields: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real(DSPY, THOUGHT + fields + DONE, calls, visible=THOUGHT + DONE, tools=TOOLS))


@pytest.mark.parametrize(
    "fields",
    [
        '[[ ## next_tool_name ## ]]\nbook_flight\n\n[[ ## next_tool_args ## ]]\n{"name": "Adam"}',  # not offered
        "[[ ## next_tool_name ## ]]\nget_user_info\n\n[[ ## next_tool_args ## ]]\nAdam",  # no JSON object
        '[[ ## next_tool_name ## ]]\nget_user_info\n\n[[ ## next_thought ## ]]\n{"name": "Adam"}',  # no args field
        '[[ ## next_tool_args ## ]]\n{"name": "Adam"}',  # no name field
        "[[ ## next_tool_name ## ]]\nget_user_info is next\n\n[[ ## next_tool_args ## ]]\n{}",  # the name in a sentence
        '```\n[[ ## next_tool_name ## ]]\nget_user_info\n\n[[ ## next_tool_args ## ]]\n{"name": "Adam"}\n```',
    ],
)
def test_field_headers_without_that_evidence_stay_text(fields: str) -> None:
    text = THOUGHT + fields + DONE
    check(Real(DSPY, text, [], visible=text, tools=TOOLS))


def test_arguments_that_are_not_an_object_are_text() -> None:
    text = '[[ ## next_tool_name ## ]]\nget_user_info\n\n[[ ## next_tool_args ## ]]\n{"name" "Adam"}\n'
    check(Real(DSPY, text, [], visible=text, tools=TOOLS))
