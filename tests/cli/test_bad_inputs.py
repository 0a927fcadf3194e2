"""Every bad command-line input gets one clear line and exit status 2: no traceback, and no hang on a file
that is not a regular file (a named pipe blocks whoever opens it until some writer comes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from shim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input, env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})


def assert_usage_error(result: Any, *expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    error = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(error) == 1, result.stderr
    for text in expected:
        assert text in result.stderr, result.stderr


def test_call_refuses_arguments_nested_5000_deep() -> None:
    deep = '{"a": ' * 5000 + "1" + "}" * 5000
    assert_usage_error(invoke("call", "any_tool", deep), "JSON-ARGS", "nested")


def test_call_refuses_arguments_deeper_than_any_tool_takes_even_when_json_can_read_them() -> None:
    deep = "[" * 500 + "]" * 500
    assert_usage_error(invoke("call", "any_tool", json.dumps({"a": json.loads(deep)})), "nested deeper than 100")


def test_call_refuses_a_5000_digit_timeout() -> None:
    assert_usage_error(invoke("call", "--timeout", "9" * 5000, "any_tool", "{}"), "--timeout")


def test_run_refuses_a_replay_call_without_an_id(tmp_path: Path) -> None:
    recording = tmp_path / "turns.jsonl"
    call = {"name": "add", "arguments": {"a": 1}}
    recording.write_text(json.dumps({"items": [{"native_call": call}]}) + "\n", encoding="utf-8")
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}', encoding="utf-8")
    assert_usage_error(invoke("run", "-m", f"replay:{recording}", "-c", str(config), "hi"), "--model", '"id"')


def test_parse_refuses_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    source = tmp_path / "out.txt"
    source.write_bytes(b"caf\xe9 <function_call>")
    assert_usage_error(invoke("parse", str(source)), "not UTF-8", "byte 3")


@pytest.mark.parametrize("verb", ["parse", "prompt"])
def test_a_tool_whose_name_is_not_a_string_is_refused(tmp_path: Path, verb: str) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text('[{"name": 5}]', encoding="utf-8")
    args = ["parse", "--tools", str(tools), "-"] if verb == "parse" else ["prompt", "--tools", str(tools)]
    assert_usage_error(invoke(*args, input="hi"), "--tools", "tool #0")


def run_shim(*args: str) -> subprocess.CompletedProcess[str]:
    """In a child process, so a regression hangs only the child (killed at the timeout), not the suite."""
    return subprocess.run(
        [sys.executable, "-m", "shim", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SHIM_MODEL": "", "SHIM_CONFIG": ""},
    )


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("tools", "--config", "{fifo}"),
        ("run", "-m", "replay:x.txt", "--config", "{fifo}", "hi"),
        ("run", "-m", "replay:{fifo}", "--config", "{empty}", "hi"),
        ("parse", "{fifo}"),
        ("prompt", "--tools", "{fifo}"),
    ],
    ids=["tools config", "run config", "replay file", "parse source", "prompt tools"],
)
def test_a_named_pipe_is_refused_instead_of_waited_on(tmp_path: Path, fifo: Path, args: tuple[str, ...]) -> None:
    empty = tmp_path / "mcp.json"
    empty.write_text('{"mcpServers": {}}', encoding="utf-8")
    done = run_shim(*(a.format(fifo=fifo, empty=empty) for a in args))
    assert done.returncode == 2, done.stderr
    assert "named pipe" in done.stderr and "Traceback" not in done.stderr


def test_an_open_pipe_from_process_substitution_is_still_read(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b'{"mcpServers": {}}')
    os.close(write_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "shim", "tools", "--json", "--config", f"/dev/fd/{read_end}"],
            capture_output=True,
            text=True,
            timeout=120,
            pass_fds=(read_end,),
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "SHIM_CONFIG": ""},
        )
    finally:
        os.close(read_end)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"tools": [], "failures": {}}
