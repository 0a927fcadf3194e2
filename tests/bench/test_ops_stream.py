"""shim.bench.ops_stream: tag variants, dialects, several calls, reasoning drafts, strings, unicode."""

from __future__ import annotations

import json
import re

from tests.bench.conftest import body, mutants


def test_tag_operators_use_their_tag_around_strict_json() -> None:
    for name, tag in (
        ("tag_tool_call", "tool_call"),
        ("tag_functioncall", "functioncall"),
        ("tag_tool", "tool"),
        ("tag_upper_case", "FUNCTION_CALL"),
        ("tag_mixed_case", "Function_Call"),
    ):
        for m in mutants(name):
            assert m.text.startswith(f"<{tag}>") and m.text.endswith(f"</{tag}>")
            assert json.loads(body(m.text, tag)) == m.calls[0].to_dict()


def test_inner_whitespace_puts_a_space_before_both_closing_brackets() -> None:
    for m in mutants("tag_inner_whitespace"):
        assert m.text.startswith("<function_call >") and m.text.endswith("</function_call >")


def test_missing_closing_tag_leaves_complete_json_without_a_closer() -> None:
    for m in mutants("missing_closing_tag_at_end"):
        assert "</" not in m.text and json.loads(m.text.removeprefix("<function_call>")) == m.calls[0].to_dict()
    for m in mutants("missing_closing_tag_text_follows"):
        assert "</" not in m.text and m.text.endswith(m.visible) and m.visible


def test_duplicated_tags_write_one_tag_twice() -> None:
    for m in mutants("duplicated_opening_tag"):
        assert m.text.count("<function_call>") == 2 and m.text.count("</function_call>") == 1
    for m in mutants("duplicated_closing_tag"):
        assert m.text.count("<function_call>") == 1 and m.text.count("</function_call>") == 2


def test_qwen3_coder_writes_one_parameter_block_per_argument() -> None:
    for m in mutants("qwen3_coder_xml"):
        (call,) = m.calls
        assert m.text.startswith("<tool_call>\n<function=get_weather>")
        found = dict(re.findall(r"<parameter=(\w+)>\n(.*?)\n</parameter>", m.text))
        assert found == call.arguments


def test_bracket_dialects_wrap_strict_json() -> None:
    for m in mutants("tool_request_brackets"):
        inner = m.text.removeprefix("[TOOL_REQUEST]").removesuffix("[END_TOOL_REQUEST]")
        assert json.loads(inner) == m.calls[0].to_dict()
    for m in mutants("tool_calls_list_two"):
        assert json.loads(m.text.removeprefix("[TOOL_CALLS]")) == [c.to_dict() for c in m.calls]


def test_whole_message_dialects_are_the_whole_message() -> None:
    for m in mutants("bare_json_message"):
        assert json.loads(m.text) == m.calls[0].to_dict() and m.visible == ""
    for m in mutants("fenced_json_message"):
        assert m.text.startswith("```json\n") and json.loads(m.text[8:-4]) == m.calls[0].to_dict()


def test_several_calls_operators_expect_every_call_in_order() -> None:
    for m in mutants("array_in_tag"):
        assert json.loads(body(m.text)) == [c.to_dict() for c in m.calls]
    for m in mutants("glued_objects"):
        assert "}}{" in m.text and len(m.calls) == 2
    for m in mutants("sequential_tags"):
        assert m.text.count("<function_call>") == len(m.calls) >= 2


def test_a_call_only_in_think_expects_no_call_and_only_the_answer_as_text() -> None:
    for m in mutants("call_only_in_think"):
        assert "<function_call>" in m.text.split("</think>")[0] and m.calls == []
        assert m.text.endswith(m.visible)


def test_think_draft_then_call_expects_only_the_call_after_the_think_block() -> None:
    for m in mutants("think_draft_then_call"):
        after = m.text.split("</think>")[1]
        assert json.loads(body(after)) == m.calls[0].to_dict()


def test_string_operators_put_markup_inside_a_valid_string_value() -> None:
    for name, needle in (
        ("closing_tag_in_string", "</function_call>"),
        ("opening_tag_in_string", "<function_call>"),
        ("braces_in_string", "{"),
    ):
        for m in mutants(name):
            content = m.calls[0].arguments["content"]
            assert needle in content
            start = m.text.index(">") + 1
            assert json.loads(m.text[start : -len("</function_call>")]) == m.calls[0].to_dict()


def test_unicode_escaped_is_ascii_only_and_decodes_to_the_expected_value() -> None:
    for m in mutants("unicode_escaped"):
        assert m.text.isascii() and not m.calls[0].arguments["city"].isascii()
