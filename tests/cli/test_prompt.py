"""``shim prompt``: the system prompt for a tools file, through the real command line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from shim.cli import main
from shim.prompting import render_system_prompt

GOLDEN = Path(__file__).parent.parent / "golden" / "prompts"
TOOLS_FILE = GOLDEN / "tools.json"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["prompt", *args])
    return result.exit_code, result.stdout, result.stderr


def test_it_prints_the_same_prompt_as_the_library_for_a_tools_file() -> None:
    code, out, _ = run("--tools", str(TOOLS_FILE))
    assert code == 0
    assert out == render_system_prompt(json.loads(TOOLS_FILE.read_text(encoding="utf-8")))
    assert out == (GOLDEN / "function_call_full.txt").read_text(encoding="utf-8").split("\n\n", 1)[1]


def test_dialect_compact_and_tool_choice_options_reach_the_prompt() -> None:
    code, out, _ = run("--tools", str(TOOLS_FILE), "--dialect", "tool_call", "--compact", "--tool-choice", "required")
    assert code == 0
    assert out == (GOLDEN / "tool_call_compact.txt").read_text(encoding="utf-8").replace(
        "- Call a tool only when you need its result to answer; otherwise answer directly, without any block.",
        "- In this reply you must call at least one tool; do not answer without calling one.",
    )


def test_a_named_tool_choice_can_be_a_name_or_a_json_object() -> None:
    by_name = run("--tools", str(TOOLS_FILE), "--tool-choice", "write_file")
    by_object = run(
        "--tools",
        str(TOOLS_FILE),
        "--tool-choice",
        '{"type": "function", "function": {"name": "write_file"}}',
    )
    assert by_name[0] == by_object[0] == 0
    assert by_name[1] == by_object[1] == (GOLDEN / "function_call_named.txt").read_text(encoding="utf-8")


def test_the_callers_system_message_comes_first_and_stats_go_to_stderr() -> None:
    code, out, err = run("--tools", str(TOOLS_FILE), "--system", "Be brief.", "--stats")
    assert code == 0
    assert out.startswith("Be brief.\n\n# Tools\n")
    assert err.startswith(f"4 tools, {len(out)} characters, ")


def test_openai_tools_and_a_tools_list_result_object_are_accepted(tmp_path: Path) -> None:
    tools = json.loads(TOOLS_FILE.read_text(encoding="utf-8"))
    openai = [
        {
            "type": "function",
            "function": {"name": t["name"], "description": t["description"], "parameters": t["inputSchema"]},
        }
        for t in tools
    ]
    (tmp_path / "openai.json").write_text(json.dumps(openai), encoding="utf-8")
    (tmp_path / "mcp.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    code, out, _ = run("--tools", str(tmp_path / "openai.json"))
    assert code == 0
    assert out == render_system_prompt(openai)
    assert run("--tools", str(tmp_path / "mcp.json"))[1] == render_system_prompt(tools)


def test_a_users_template_file_can_stand_in_for_a_dialect(tmp_path: Path) -> None:
    template = tmp_path / "mine.j2"
    template.write_text(
        "Tools: {{ tools | map(attribute='name') | join(', ') }}\nExample: {{ example }}\n", encoding="utf-8"
    )
    code, out, _ = run("--tools", str(TOOLS_FILE), "--dialect", str(template))
    assert code == 0
    assert out == (
        "Tools: get_current_time, search_issues, write_file, list_reminders\n"
        'Example: <function_call>{"name": "get_current_time", '
        '"arguments": {"timezone": "Europe/Paris"}}</function_call>\n'
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not valid JSON"),
        ('{"a": 1}', "must hold a JSON list of tools (MCP or OpenAI form), not dict"),
        ('[{"name": "ok"}, 5]', "tool #1: expected an object, got 5"),
        (
            '[{"name": "ok"}, {"description": "no name"}]',
            "tool #1: a tool definition needs a non-empty string 'name'",
        ),
    ],
)
def test_a_bad_tools_file_is_named_with_the_bad_entry(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "tools.json"
    path.write_text(content, encoding="utf-8")
    code, _, err = run("--tools", str(path))
    assert code == 2
    assert str(path) in err
    assert message in err


def test_a_missing_tools_file_is_reported() -> None:
    code, _, err = run("--tools", "/nonexistent/tools.json")
    assert code == 2
    assert "cannot read '/nonexistent/tools.json'" in err


def test_an_unknown_dialect_lists_the_known_ones() -> None:
    code, _, err = run("--tools", str(TOOLS_FILE), "--dialect", "hermes")
    assert code == 2
    assert "unknown dialect 'hermes'; known dialects: function_call, function_call_small, mistral, tool_call" in err


def test_an_unknown_tool_choice_names_the_tools() -> None:
    code, _, err = run("--tools", str(TOOLS_FILE), "--tool-choice", "nope")
    assert code == 2
    assert "tool_choice names the tool 'nope', which is not among the tools" in err


def test_the_command_is_listed_in_shim_help() -> None:
    result = CliRunner().invoke(main, ["--help"])
    # The column width follows the longest verb (``profiles``), so only the words are compared.
    assert " ".join(["prompt", "Print the system prompt that teaches a model to call some tools."]) in " ".join(
        result.stdout.split()
    )
