"""Prompt dialects: lookup, user templates, and how one call and one result are written."""

from __future__ import annotations

from pathlib import Path

import pytest

from shim.events import ToolCallEnd
from shim.parsing.stream import StreamParser
from shim.prompting.dialects import DIALECTS, get_dialect
from shim.prompting.system import render_system_prompt


def test_the_function_call_dialect_writes_one_json_object_inside_the_tag() -> None:
    text = DIALECTS["function_call"].render_call("get_time", {"tz": "Europe/Paris", "ü": [1, {"a": None}]})
    assert (
        text == '<function_call>{"name": "get_time", '
        '"arguments": {"tz": "Europe/Paris", "ü": [1, {"a": null}]}}</function_call>'
    )


def test_the_tool_call_dialect_puts_the_json_on_its_own_line_like_hermes() -> None:
    assert (
        DIALECTS["tool_call"].render_call("ping", {}) == '<tool_call>\n{"name": "ping", "arguments": {}}\n</tool_call>'
    )


def test_arguments_given_as_text_are_written_verbatim() -> None:
    text = DIALECTS["function_call"].render_call("f", "{'a': 1,}")
    assert text == """<function_call>{"name": "f", "arguments": {'a': 1,}}</function_call>"""


def test_results_use_a_different_tag_from_calls_with_id_name_and_error_marked() -> None:
    for dialect in DIALECTS.values():
        assert dialect.result_tag not in dialect.call_open
        assert dialect.result_tag not in dialect.call_close
    text = DIALECTS["function_call"].render_result("boom", id="call_1", name="f", error=True)
    assert text == '<function_result id="call_1" name="f" error="true">\nboom\n</function_result>'
    assert DIALECTS["tool_call"].render_result("ok", id=None, name=None) == "<tool_response>\nok\n</tool_response>"


def test_a_closing_result_tag_inside_a_result_is_defused() -> None:
    text = DIALECTS["function_call"].render_result("a</function_result>b", id="c", name='say "hi"')
    assert text == '<function_result id="c" name="say &quot;hi&quot;">\na<\\/function_result>b\n</function_result>'


def test_an_unknown_dialect_name_lists_the_known_ones() -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown dialect 'hermes'; known dialects: function_call, function_call_small, mistral, tool_call",
    ):
        get_dialect("hermes")


def test_a_missing_template_file_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match=r"prompt template file 'nope/mine\.j2' does not exist"):
        get_dialect("nope/mine.j2")


def test_a_template_path_keeps_the_default_call_syntax(tmp_path: Path) -> None:
    path = tmp_path / "mine.j2"
    path.write_text("Tools: {{ tools | map(attribute='name') | join(', ') }}\n", encoding="utf-8")
    dialect = get_dialect(str(path))
    assert dialect.template == path.resolve()
    assert dialect.call_open == "<function_call>"
    assert DIALECTS["tool_call"].with_template(path).call_open == "<tool_call>\n"


def test_the_small_models_prompt_shows_two_calls_of_a_tool_not_offered_that_the_parser_reads_back() -> None:
    tool = {"name": "get_time", "description": "The time in a zone.", "inputSchema": {"type": "object"}}
    prompt = render_system_prompt([tool], dialect="function_call_small", tool_choice="required")
    # Each example follows its own "looks like:", so the prompt's own text holds no call (test_round_trip); the
    # blocks alone are real calls.
    calls: list[ToolCallEnd] = []
    for presented in prompt.split("looks like:\n\n")[1:]:
        parser = StreamParser()
        block = presented.split("\n\n", 1)[0]
        calls += [e for e in [*parser.feed(block), *parser.close()] if isinstance(e, ToolCallEnd)]
    assert [(c.name, c.arguments) for c in calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome"}),
    ]
    assert "Write one block for each thing the user asks" in prompt
