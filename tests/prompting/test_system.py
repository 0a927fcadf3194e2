"""The system prompt: golden files (reviewed text), merging, tool choice, compact mode, templates."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from shim.prompting import COMPACT_THRESHOLD, render_system_prompt

GOLDEN = Path(__file__).parent.parent / "golden" / "prompts"
TOOLS: list[dict[str, Any]] = json.loads((GOLDEN / "tools.json").read_text(encoding="utf-8"))
EDGE_TOOLS: list[dict[str, Any]] = json.loads((GOLDEN / "edge_tools.json").read_text(encoding="utf-8"))
SYSTEM = "You are a careful assistant. Answer in English."


def assert_golden(name: str, text: str) -> None:
    """Compare with ``tests/golden/prompts/<name>.txt``, a file a person has read and approved.

    ``SHIM_UPDATE_GOLDEN=1`` rewrites it, and the test still fails so the change gets reviewed (git diff).
    """
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("SHIM_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
        pytest.fail(f"rewrote {path}; review it with git diff, then run again without SHIM_UPDATE_GOLDEN")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), str(path), "rendered"))
        pytest.fail(f"the prompt differs from the reviewed golden file:\n{diff}")


@pytest.mark.parametrize(
    ("name", "tools", "options"),
    [
        ("function_call_full", TOOLS, {"system": SYSTEM}),
        ("function_call_compact", TOOLS, {"compact": True}),
        ("function_call_required", TOOLS, {"tool_choice": "required", "compact": True}),
        (
            "function_call_named",
            TOOLS,
            {"tool_choice": {"type": "function", "function": {"name": "write_file"}}},
        ),
        ("tool_call_full", TOOLS, {"dialect": "tool_call", "system": SYSTEM}),
        ("tool_call_compact", TOOLS, {"dialect": "tool_call", "compact": True}),
        ("edge_cases_full", EDGE_TOOLS, {}),
        ("edge_cases_compact", EDGE_TOOLS, {"compact": True}),
    ],
)
def test_rendered_prompts_match_the_reviewed_golden_files(
    name: str, tools: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    assert_golden(name, render_system_prompt(tools, **options))


def to_openai(tool: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": tool["name"],
            "description": tool["description"],
            "parameters": tool["inputSchema"],
        },
    }


def test_mcp_and_openai_tool_definitions_render_the_same() -> None:
    # OpenAI tools carry no title or annotations, so compare against MCP entries without them.
    bare = [{k: v for k, v in t.items() if k not in ("title", "annotations")} for t in TOOLS]
    assert render_system_prompt(bare) == render_system_prompt([to_openai(t) for t in TOOLS])


def test_the_callers_system_message_comes_first_word_for_word() -> None:
    system = "  Line one.\n\n  Indented line two.\n"
    prompt = render_system_prompt(TOOLS, system=system)
    assert prompt.startswith("Line one.\n\n  Indented line two.\n\n# Tools\n")


def test_tool_choice_none_leaves_only_the_callers_system_message() -> None:
    assert render_system_prompt(TOOLS, tool_choice="none", system=SYSTEM) == SYSTEM
    assert render_system_prompt(TOOLS, tool_choice="none") == ""
    assert render_system_prompt(TOOLS, tool_choice={"type": "none"}) == ""


def test_no_tools_leaves_only_the_callers_system_message() -> None:
    assert render_system_prompt([], system=SYSTEM) == SYSTEM


def test_required_with_no_tools_is_an_error() -> None:
    with pytest.raises(ValueError, match="tool_choice 'required' needs at least one tool"):
        render_system_prompt([], tool_choice="required")


@pytest.mark.parametrize(
    "choice",
    [
        "search_issues",
        {"type": "function", "function": {"name": "search_issues"}},
        {"type": "function", "name": "search_issues"},
        {"type": "tool", "name": "search_issues"},
    ],
)
def test_a_named_tool_choice_lists_only_that_tool_and_demands_a_call_to_it(choice: Any) -> None:
    prompt = render_system_prompt(TOOLS, tool_choice=choice)
    assert "- In this reply you must call the tool search_issues." in prompt
    assert "## search_issues" in prompt
    assert "get_current_time" not in prompt
    assert (
        '<function_call>{"name": "search_issues", '
        '"arguments": {"repo": "octocat/hello-world"}}</function_call>' in prompt
    )


def test_a_named_tool_choice_for_an_unknown_tool_lists_the_tools() -> None:
    with pytest.raises(
        ValueError,
        match=r"tool_choice names the tool 'nope', which is not among the tools "
        r"\('get_current_time', 'search_issues'",
    ):
        render_system_prompt(TOOLS, tool_choice={"type": "function", "function": {"name": "nope"}})


def test_required_and_anthropic_any_demand_a_call() -> None:
    for choice in ("required", "any", {"type": "any"}):
        assert "you must call at least one tool" in render_system_prompt(TOOLS, tool_choice=choice)


def test_auto_tells_the_model_to_call_only_when_needed() -> None:
    assert "Call a tool only when you need its result to answer" in render_system_prompt(TOOLS)


def test_an_unrecognised_tool_choice_object_is_an_error() -> None:
    with pytest.raises(ValueError, match="is neither a mode nor"):
        render_system_prompt(TOOLS, tool_choice={"foo": 1})


def test_many_tools_switch_to_compact_mode_unless_told_otherwise() -> None:
    many = [
        {"name": f"tool_{i}", "description": "Do a thing.", "inputSchema": {"type": "object"}}
        for i in range(COMPACT_THRESHOLD + 1)
    ]
    assert "- tool_0(): Do a thing." in render_system_prompt(many)
    assert "## tool_0" in render_system_prompt(many, compact=False)
    assert "## tool_0" in render_system_prompt(many[:COMPACT_THRESHOLD])


def test_a_tool_without_a_name_is_reported_with_its_position() -> None:
    with pytest.raises(ValueError, match=r"tool #1: a tool definition needs a non-empty string 'name'"):
        render_system_prompt([TOOLS[0], {"description": "nameless"}])


def test_a_users_template_file_renders_with_the_same_context(tmp_path: Path) -> None:
    path = tmp_path / "mine.j2"
    path.write_text(
        "{{ system }}|{% for t in tools %}{{ t.signature }};{% endfor %}|{{ example }}|{{ result_tag }}\n"
        '{% include "_rules.j2" %}\n',
        encoding="utf-8",
    )
    prompt = render_system_prompt(TOOLS[:1], dialect=str(path), system="S")
    first, rules = prompt.split("\n", 1)
    assert (
        first == 'S|get_current_time(timezone: string);|<function_call>{"name": "get_current_time", '
        '"arguments": {"timezone": "Europe/Paris"}}</function_call>|function_result'
    )
    assert rules.startswith("- Put exactly one call in each block.")


def test_a_template_using_an_undefined_variable_fails_with_the_template_named(tmp_path: Path) -> None:
    path = tmp_path / "typo.j2"
    path.write_text("{{ toolz }}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"typo\.j2' failed to render: 'toolz' is undefined"):
        render_system_prompt(TOOLS, dialect=str(path))


def test_a_template_with_a_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.j2"
    path.write_text("ok\n{% if %}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.j2' has a syntax error on line 2"):
        render_system_prompt(TOOLS, dialect=str(path))


def test_no_prompt_shows_a_made_up_tool() -> None:
    for tools in (TOOLS, EDGE_TOOLS, TOOLS[3:]):
        names = {t.get("name") or t["function"]["name"] for t in tools}
        prompt = render_system_prompt(tools)
        example = prompt.split("For example:\n\n", 1)[1].split("\n", 1)[0]
        assert json.loads(example.removeprefix("<function_call>").removesuffix("</function_call>"))["name"] in names
