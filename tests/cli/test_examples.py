"""The README's examples run as written: its config and Python blocks are the files in ``examples/``, every
Python block compiles, and the commands it shows work offline against the demo MCP server."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from shim.cli import main
from shim.config import load_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)


@pytest.fixture
def activated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples start ``python3``: the one of this environment, as in an activated virtualenv."""
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "python3").exists()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.delenv("SHIM_CONFIG", raising=False)
    monkeypatch.delenv("SHIM_MODEL", raising=False)


def test_every_python_block_of_the_readme_compiles() -> None:
    python = blocks("python")
    assert len(python) >= 3
    for block in python:
        compile(block, "README.md", "exec")


def test_every_config_in_the_readme_is_a_file_in_examples() -> None:
    configs = [b for b in blocks("json") if "mcpServers" in b]
    files = {p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    assert configs and all(config in files for config in configs)
    assert (EXAMPLES / "mcp.json").read_text(encoding="utf-8") in configs


def test_the_readme_agent_snippet_is_examples_agent_py() -> None:
    agent = (EXAMPLES / "agent.py").read_text(encoding="utf-8")
    assert agent in blocks("python")


def test_the_servers_example_loads_without_api_token_and_runs_npx_unattended() -> None:
    config = load_config(EXAMPLES / "servers.json", environ={})
    everything = next(s for s in config.servers if s.name == "everything")
    assert everything.args[0] == "-y"
    assert {s.name for s in config.servers} == {"time", "everything", "remote"}


def test_shim_tools_lists_the_demo_servers_tools(activated: None) -> None:
    result = CliRunner().invoke(main, ["tools", "--json", "--config", str(EXAMPLES / "mcp.json")])
    assert result.exit_code == 0, result.output
    names = {tool["name"] for tool in json.loads(result.stdout)["tools"]}
    assert {"calculate", "get_time", "convert_units", "kv_set", "kv_get"} == names


def test_shim_call_runs_the_readme_call(activated: None) -> None:
    assert 'shim call --config examples/mcp.json get_time \'{"timezone": "Asia/Tokyo"}\'' in README
    config = str(EXAMPLES / "mcp.json")
    result = CliRunner().invoke(main, ["call", "--config", config, "get_time", '{"timezone": "Asia/Tokyo"}'])
    assert result.exit_code == 0, result.output
    shown = datetime.strptime(result.stdout.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=ZoneInfo("Asia/Tokyo"))
    assert abs(shown - datetime.now(timezone.utc)) < timedelta(minutes=5)  # Tokyo's clock, not this machine's


def test_shim_prompt_teaches_both_tools_of_examples_tools_json() -> None:
    result = CliRunner().invoke(main, ["prompt", "--tools", str(EXAMPLES / "tools.json")])
    assert result.exit_code == 0, result.output
    assert "get_weather" in result.stdout and "get_time" in result.stdout


def test_examples_agent_py_runs_as_written(tmp_path: Path) -> None:
    call = {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}
    turns = [{"response": f"<function_call>{json.dumps(call)}</function_call>"}, {"response": "It is late."}]
    recording = tmp_path / "turns.jsonl"
    recording.write_text("".join(json.dumps(t) + "\n" for t in turns), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [sys.executable, "examples/agent.py"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": str(ROOT),
            "SHIM_MODEL": f"replay:{recording}",
        },
    )
    assert done.returncode == 0, done.stderr
    events = [ast.literal_eval(line) for line in done.stdout.splitlines()]  # print() of each event's dict
    kinds = [e["type"] for e in events]
    assert "tool_result" in kinds and kinds[-1] == "done"
    result = next(e for e in events if e["type"] == "tool_result")
    assert result["name"] == "get_time" and not result["is_error"] and result["content"].startswith("20")
