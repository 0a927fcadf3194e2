"""``shim tools``: the tools of every configured server, through the real command line entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp_servers import lab, noisy, time_server

from shim.cli import main


def write_config(tmp_path: Path, servers: dict[str, Any]) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["tools", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_lists_every_servers_tools_in_a_table(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"time": time_server(), "lab": lab()})
    code, out, err = run("--config", str(config))
    assert code == 0, err
    assert "get_current_time" in out and "convert_time" in out
    assert "search_docs" in out and "(as 'search.docs')" in out  # renamed for OpenAI-style clients
    assert "delete_everything" in out and "ask" in out


def test_json_output_has_names_servers_schemas_and_approval(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"time": time_server(), "lab": lab(includeTools=["add", "search.*"])})
    code, out, _ = run("--config", str(config), "--json")
    assert code == 0
    data = json.loads(out)
    by_name = {t["name"]: t for t in data["tools"]}
    assert set(by_name) == {"get_current_time", "convert_time", "add", "search_docs"}
    assert by_name["search_docs"]["server_name"] == "search.docs"
    assert by_name["get_current_time"]["server"] == "time"
    assert by_name["get_current_time"]["approval"] == "allow"  # readOnlyHint
    assert by_name["add"]["input_schema"]["required"] == ["a", "b"]
    assert data["failures"] == {}


def test_a_failing_server_is_reported_and_the_others_still_listed(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"time": time_server(), "gone": {"command": "shim-test-no-such-command"}})
    code, out, err = run("--config", str(config))
    assert code == 1
    assert "get_current_time" in out
    assert err == "error: server 'gone' did not start: command not found: shim-test-no-such-command\n"


def test_reads_the_config_named_by_shim_config(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"time": time_server()})
    code, out, _ = run("--json", env={"SHIM_CONFIG": str(config)})
    assert code == 0
    assert {t["name"] for t in json.loads(out)["tools"]} == {"get_current_time", "convert_time"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"mcpServers": {"a": {"command": 1}}}', "server 'a', field 'command': must be a string, got int"),
        ("{not json", "not valid JSON at line 1, column 2"),
    ],
)
def test_a_bad_config_is_a_clear_one_line_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(content)
    code, _, err = run("--config", str(path))
    assert code == 1
    assert message in err
    assert "Traceback" not in err


def test_a_missing_config_says_where_it_looked(tmp_path: Path) -> None:
    code, _, err = run("--config", str(tmp_path / "missing.json"))
    assert code == 1
    assert "no MCP config file there; pass --config FILE" in err


def test_a_server_printing_junk_gets_one_warning_line_and_its_tools_are_listed(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"loud": noisy()})
    code, out, err = run("--config", str(config), "--json")
    assert code == 0, err
    assert "add" in [t["name"] for t in json.loads(out)["tools"]]
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "MCP server 'loud' writes lines that are not JSON-RPC" in err


def test_a_missing_working_directory_is_named_as_such(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"lab": lab(cwd=str(tmp_path / "gone")), "time": time_server()})
    code, out, err = run("--config", str(config), "--json")
    assert code == 1
    assert "get_current_time" in out
    assert "the working directory" in err and "(field 'cwd') does not exist" in err
    assert "command not found" not in err
