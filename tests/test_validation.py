"""The one owner of JSON-schema checks: cached validators, one path format and one message for the model,
whichever part of shim (router, agent, structured output, server) found the fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shim.agent import Agent
from shim.backends import get_backend
from shim.constrain.structured import StructuredOutput
from shim.types import ToolCall
from shim.validation import MAX_SHOWN_ERRORS, arguments_message, schema_check, schema_problem

ADD: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "tags": {"type": "array"}},
    "required": ["a", "b"],
}


def test_equal_schemas_share_one_compiled_check() -> None:
    assert schema_check(ADD) is schema_check(json.loads(json.dumps(ADD)))
    assert schema_check(ADD) is not schema_check({**ADD, "required": ["a"]})


def test_violations_are_sorted_by_path_and_say_where_in_one_format() -> None:
    violations = schema_check(ADD).violations({"a": "one", "tags": {"x": 1}})
    assert [str(v) for v in violations] == [
        "at the top level: 'b' is a required property",
        "at '$.a': 'one' is not of type 'integer'",
        "at '$.tags': {'x': 1} is not of type 'array'",
    ]
    nested = schema_check({"type": "array", "items": {"type": "object", "required": ["name"]}})
    assert [v.where for v in nested.violations([{"name": 1}, {}])] == ["'$[1]'"]


def test_a_schema_that_is_itself_invalid_names_its_fault_and_accepts_every_value() -> None:
    broken = {"type": "object", "properties": {"a": {"type": "integr"}}}
    assert schema_problem(broken) is not None and "integr" in str(schema_problem(broken))
    assert schema_check(broken).violations({"a": [1, 2]}) == []
    assert schema_problem(ADD) is None


def test_a_reference_that_cannot_be_resolved_does_not_crash_a_check() -> None:
    dangling = {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}
    assert schema_check(dangling).violations({"a": 1}) == []


def test_the_model_s_message_lists_at_most_five_faults_says_what_to_do_and_quotes_the_schema() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(8)}}
    violations = schema_check(wide).violations({f"p{i}": "x" for i in range(8)})
    message = arguments_message("wide", wide, violations)
    assert message.startswith("Invalid arguments for tool 'wide':\n- at '$.p0': 'x' is not of type 'integer'\n")
    assert message.count("\n- at ") == MAX_SHOWN_ERRORS
    assert "Fix the arguments to match the input schema and call the tool again. Input schema: {" in message


def test_an_external_tool_gets_the_same_message_as_a_routed_tool_for_the_same_fault(tmp_path: Path) -> None:
    # Before: the agent said "Fix them and call it again." and joined paths with "/", the router quoted the
    # schema and wrote '$.a'; a model saw two wordings for one fault depending on who ran the tool.
    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"response": "unused"}\n', encoding="utf-8")
    agent = Agent(get_backend(f"replay:{turns}"), external_tools=[{"name": "add", "inputSchema": ADD}])
    problem = agent.external.problem(ToolCall(id="c1", name="add", arguments={"a": "one"}))
    assert problem == arguments_message("add", ADD, schema_check(ADD).violations({"a": "one"}))
    assert agent.external.problem(ToolCall(id="c2", name="add", arguments={"a": 1, "b": 2})) is None


def test_structured_output_reports_the_first_fault_in_the_same_path_format() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert StructuredOutput(schema=schema).check({"n": "many"}) == (None, "at '$.n': 'many' is not of type 'integer'")
