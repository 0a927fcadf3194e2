"""A command and its one string argument alone on a line (`shim.parsing.readers.command_argument`), at every split
point: MedAgentBench's ``GET url`` / ``POST url`` + payload, and any tool shaped the same."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool


def _post(name: str, key: str, payload: str) -> dict[str, Any]:
    """A tool of one required string and one object parameter (MedAgentBench's ``POST``)."""
    schema = {
        "type": "object",
        "properties": {key: {"type": "string"}, payload: {"type": "object"}},
        "required": [key, payload],
    }
    return {"name": name, "inputSchema": schema}


TOOLS = [
    tool("GET", url="string"),
    _post("POST", "url", "payload"),
    tool("FINISH", answers="array"),
    tool("read_file", path="string"),
    _post("write_record", "path", "record"),
    tool("search", query="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            "GET http://h:8080/fhir/Patient?identifier=S1",
            [("GET", {"url": "http://h:8080/fhir/Patient?identifier=S1"})],
            "",
        ),
        ("GET /api/items?id=3  \n", [("GET", {"url": "/api/items?id=3"})], ""),
        ("read_file src/main.py", [("read_file", {"path": "src/main.py"})], ""),
        (
            "Let me look it up.\nread_file ./notes/2024.md\nThen I answer.",
            [("read_file", {"path": "./notes/2024.md"})],
            "Let me look it up.\n\nThen I answer.",
        ),
        ("search café-été", [("search", {"query": "café-été"})], ""),
        (
            'POST http://h/fhir/Observation\n{"resourceType": "Observation", "status": "final"}',
            [
                (
                    "POST",
                    {"url": "http://h/fhir/Observation", "payload": {"resourceType": "Observation", "status": "final"}},
                )
            ],
            "",
        ),
        (
            "write_record /tmp/a.json\n\n{\n  'name': 'Zoë',\n  \"tags\": [1, 2],\n}\n",
            [("write_record", {"path": "/tmp/a.json", "record": {"name": "Zoë", "tags": [1, 2]}})],
            "",
        ),
        ("POST http://h/fhir/ServiceRequest", [("POST", {"url": "http://h/fhir/ServiceRequest"})], ""),
        (
            'POST http://h/x\n{"a": {"b": "}"}}\nFINISH([-1])',
            [("POST", {"url": "http://h/x", "payload": {"a": {"b": "}"}}}), ("FINISH", {"answers": [-1]})],
            "",
        ),
        (
            "GET http://h/a?x=1\nGET http://h/b?y=2",
            [("GET", {"url": "http://h/a?x=1"}), ("GET", {"url": "http://h/b?y=2"})],
            "",
        ),
        (
            "```tool_code\nGET http://h/Observation?code=GLU\n```",
            [("GET", {"url": "http://h/Observation?code=GLU"})],
            "",
        ),
        (
            '```tool_code\nPOST http://h/ServiceRequest\n{\n    "status": "active"\n}\n```\n',
            [("POST", {"url": "http://h/ServiceRequest", "payload": {"status": "active"}})],
            "",
        ),
    ],
)
def test_an_offered_tools_name_then_one_argument_alone_on_a_line_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Get the patient's record first.",  # the name as an English word, another case
        "POST requests are used to create resources.",  # a sentence beginning with the name
        "GET requests",  # a word after the name: a phrase
        "search for.",  # sentence punctuation at the end
        "I would send a GET http://h/fhir/Patient to find it.",  # the name inside a sentence
        "The server is at http://h:8080/fhir/ and answers.",  # a URL in prose
        "GET http://h/a and then read it",  # words after the argument
        "DELETE http://h/fhir/Patient/1",  # no offered tool
        "Code:\n    GET http://h/fhir/Patient",  # indented: a line of code
        "For example:\nGET http://h/fhir/Patient?id=1",  # presented as an example
        "```\nGET http://h/fhir/Patient?id=1\n```",  # a fence of code shown
        "Run `GET /api/items` to list them.",  # inline code
        "FINISH http://h/x",  # a tool of no string parameter
    ],
)
def test_a_command_without_that_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_a_payload_that_is_not_json_is_an_error_not_text() -> None:
    check(Real("written", 'POST http://h/x\n{"a": ]} and more\nDone.', [], visible="Done.", tools=TOOLS, errors=1))


def test_a_payload_cut_off_by_the_token_limit_is_an_error() -> None:
    check(Real("written", 'POST http://h/x\n{"a": "b', [], visible="", tools=TOOLS, errors=1))
