"""``shim parse``: raw model output in, parsed result or events out."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from shim.cli import main

OUTPUT = 'Checking. <function_call>{"name": "get_time", "arguments": {"tz": "UTC"}}</function_call> Done.'


def test_parse_prints_text_calls_errors_and_reasoning() -> None:
    result = CliRunner().invoke(main, ["parse", "-"], input=OUTPUT)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"text", "calls", "errors", "reasoning"}
    assert data["text"] == "Checking.  Done."
    assert [(c["name"], c["arguments"]) for c in data["calls"]] == [("get_time", {"tz": "UTC"})]
    assert data["calls"][0]["id"].startswith("call_")


def test_parse_events_prints_one_event_per_line_that_rebuilds_the_input(tmp_path: Path) -> None:
    source = tmp_path / "out.txt"
    source.write_text(OUTPUT, encoding="utf-8")
    result = CliRunner().invoke(main, ["parse", str(source), "--events", "--chunk-size", "4"])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    assert "".join(e["raw"] for e in events) == OUTPUT
    assert {e["type"] for e in events} >= {"text", "tool_call_start", "tool_call_chunk", "tool_call_end"}


def test_parse_with_tools_counts_bare_json_naming_a_known_tool(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "get_time", "inputSchema": {"type": "object"}}]), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["parse", "-", "--tools", str(tools)], input='{"name": "get_time", "arguments": {}}'
    )
    assert json.loads(result.output)["calls"][0]["name"] == "get_time"


def test_parse_of_a_missing_file_says_which_file() -> None:
    result = CliRunner().invoke(main, ["parse", "no/such/file.txt"])
    assert result.exit_code != 0
    assert "no/such/file.txt" in result.output


def test_version_and_help_list_the_parse_command() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["--version"]).output.startswith("shim, version")
    assert "parse" in runner.invoke(main, ["--help"]).output
