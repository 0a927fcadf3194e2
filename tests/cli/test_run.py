"""``shim run`` and ``shim chat`` over the real pipeline: replayed model output, real MCP servers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp_servers import lab, noisy, time_server

from shim.cli import main
from shim.settings import resolve_settings


def write_turns(path: Path, *turns: str) -> str:
    path.write_text("".join(json.dumps({"response": t}) + "\n" for t in turns), encoding="utf-8")
    return f"replay:{path}"


def call_block(name: str, **arguments: Any) -> str:
    return f"<function_call>{json.dumps({'name': name, 'arguments': arguments})}</function_call>"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.json"
    servers = {"time": time_server(args=["--local-timezone", "UTC"]), "lab": lab()}
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input, env={"SHIM_MODEL": "", "SHIM_CONFIG": "", **(env or {})})


def test_run_answers_on_stdout_and_shows_the_call_and_result(tmp_path: Path, config: Path) -> None:
    model = write_turns(
        tmp_path / "t.jsonl", call_block("get_current_time", timezone="Europe/Paris"), "It is evening in Paris."
    )
    result = invoke("run", "-m", model, "-c", str(config), "What time is it in Paris?")
    assert result.exit_code == 0, result.output
    assert "It is evening in Paris." in result.stdout
    assert "→ get_current_time" in result.stderr and "Europe/Paris" in result.stderr


def test_run_json_prints_every_event_as_a_json_line(tmp_path: Path, config: Path) -> None:
    model = write_turns(tmp_path / "t.jsonl", call_block("add", a=1, b=2), "3")
    result = invoke("run", "--json", "-m", model, "-c", str(config), "1+2?")
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "turn_start" and kinds[-1] == "done"
    assert {"tool_call_start", "tool_call_end", "tool_result", "turn_end"} <= set(kinds)
    assert next(e for e in events if e["type"] == "tool_result")["content"] == "3"


def test_run_exits_1_when_the_model_never_stops_calling(tmp_path: Path, config: Path) -> None:
    model = write_turns(tmp_path / "t.jsonl", *[call_block("add", a=i, b=1) for i in range(4)])
    result = invoke("run", "-m", model, "-c", str(config), "--max-turns", "2", "count")
    assert result.exit_code == 1
    assert "max_turns" in result.stderr


def test_run_refuses_a_tool_that_needs_approval_when_nobody_can_be_asked(tmp_path: Path, config: Path) -> None:
    model = write_turns(tmp_path / "t.jsonl", call_block("delete_everything"), "Not allowed.")
    refused = invoke("run", "-m", model, "-c", str(config), "clean up", input="")
    assert "refused 'delete_everything'" in refused.stderr and "--yes" in refused.stderr
    model = write_turns(tmp_path / "t2.jsonl", call_block("delete_everything"), "Done.")
    allowed = invoke("run", "--yes", "-m", model, "-c", str(config), "clean up")
    assert "← delete_everything deleted" in allowed.stderr


def test_run_without_a_model_says_how_to_choose_one(tmp_path: Path) -> None:
    result = invoke("run", "-c", str(tmp_path / "none.json"), "hi")
    assert result.exit_code != 0
    assert "no model given" in result.output and "ollama:" in result.output


def test_run_without_any_config_runs_without_tools(tmp_path: Path) -> None:
    model = write_turns(tmp_path / "t.jsonl", "Hello!")
    result = invoke("run", "-m", model, "hi", env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert result.exit_code == 0 and "Hello!" in result.stdout
    assert "running without tools" in result.stderr


def test_flags_beat_environment_which_beats_the_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps({"mcpServers": {}, "shim": {"model": "replay:file.txt", "maxTurns": 4, "dialect": "tool_call"}})
    )
    monkeypatch.delenv("SHIM_MODEL", raising=False)
    monkeypatch.delenv("SHIM_MAX_TURNS", raising=False)
    from_file = resolve_settings(config=str(config))
    assert (from_file.model, from_file.max_turns, from_file.dialect) == ("replay:file.txt", 4, "tool_call")
    monkeypatch.setenv("SHIM_MODEL", "ollama:qwen2.5:7b")
    monkeypatch.setenv("SHIM_MAX_TURNS", "6")
    from_env = resolve_settings(config=str(config))
    assert (from_env.model, from_env.max_turns) == ("ollama:qwen2.5:7b", 6)
    from_flags = resolve_settings(config=str(config), model="llama-cpp:m.gguf", max_turns=2)
    assert (from_flags.model, from_flags.max_turns, from_flags.dialect) == ("llama-cpp:m.gguf", 2, "tool_call")


def test_a_bad_setting_names_where_it_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIM_MAX_TURNS", "many")
    result = invoke("run", "-m", "replay:x.txt", "-c", str(tmp_path / "x.json"), "hi", env={"SHIM_MAX_TURNS": "many"})
    assert result.exit_code != 0 and "$SHIM_MAX_TURNS" in result.output


def test_chat_answers_lists_tools_resets_and_exits(tmp_path: Path, config: Path) -> None:
    model = write_turns(tmp_path / "t.jsonl", call_block("add", a=2, b=3), "It is 5.", "Hi again.")
    result = invoke(
        "chat", "-m", model, "-c", str(config), input="/tools\nWhat is 2+3?\n/history\n/reset\nhello\n/exit\n"
    )
    assert result.exit_code == 0, result.output
    assert "get_current_time" in result.stdout and "(time)" in result.stdout  # /tools
    assert "It is 5." in result.stdout and "Hi again." in result.stdout
    assert "← add 5" in result.stderr
    assert "conversation cleared" in result.stdout


def test_help_teaches_every_verb() -> None:
    output = invoke("--help").output
    for verb in ("run", "chat", "parse", "tools", "call", "prompt", "bench"):
        assert verb in output
    assert "Examples:" in invoke("run", "--help").output


def test_run_never_prints_a_server_secret_the_model_repeats_in_pieces(tmp_path: Path) -> None:
    secret = "Zq8-vK3n-Tr5p-Wm2x"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": lab(env={"LAB_SECRET": secret})}}), encoding="utf-8")
    model = write_turns(
        tmp_path / "t.jsonl",
        f"Let me check. {call_block('echo', message='the secret is ' + secret)}",
        f"The secret is {secret}, nothing more.",
    )
    for mode in ((), ("--json",)):
        result = invoke("run", *mode, "-m", model, "-c", str(config), "-y", "Tell me the secret")
        assert result.exit_code == 0, result.output
        shown = result.stdout + result.stderr
        assert not any(secret[i : i + 5] in shown for i in range(len(secret) - 4)), shown
        assert "[REDACTED]" in result.stdout


def test_run_reports_junk_on_a_servers_stdout_in_one_line_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"loud": noisy()}}), encoding="utf-8")
    model = write_turns(tmp_path / "t.jsonl", call_block("add", a=1, b=2), "3")
    result = invoke("run", "-m", model, "-c", str(config), "1+2?")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr
    notices = [line for line in result.stderr.splitlines() if "not JSON-RPC" in line]
    assert len(notices) == 1 and "'loud'" in notices[0]
