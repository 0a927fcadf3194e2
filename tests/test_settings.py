"""Settings come from the config file that the MCP loader reads: one reader, JSONC included."""

from __future__ import annotations

from pathlib import Path

import pytest

from shim.errors import ConfigError
from shim.settings import resolve_settings

JSONC = """{
  // VS Code writes mcp.json as JSONC
  "servers": {
    "time": {"command": "mcp-server-time", /* inline */ "args": ["--local-timezone", "UTC"],},
  },
  "shim": {"model": "replay:answers.jsonl", "maxTurns": 3,},
}
"""


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHIM_MODEL", "SHIM_MAX_TURNS", "SHIM_DIALECT", "SHIM_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def test_a_jsonc_config_with_comments_has_its_shim_model_honoured(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(JSONC, encoding="utf-8")
    settings = resolve_settings(config=str(path))
    assert (settings.model, settings.max_turns) == ("replay:answers.jsonl", 3)
    (server,) = settings.mcp_config().servers  # the servers come from the same reading
    assert server.args == ("--local-timezone", "UTC")


def test_a_broken_config_file_is_reported_not_silently_ignored(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {}, "shim": {"model": "x"', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mcp.json': not valid JSON at line 1"):
        resolve_settings(config=str(path))


def test_a_shim_section_that_is_not_an_object_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {}, "shim": "ollama:qwen"}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"field 'shim' must be an object"):
        resolve_settings(config=str(path))


def test_a_missing_default_config_gives_the_built_in_defaults(tmp_path: Path) -> None:
    settings = resolve_settings(config=str(tmp_path / "absent.json"))
    assert (settings.model, settings.max_turns, settings.document) == (None, 10, None)


def test_the_settings_repr_hides_credentials_in_the_model_spec(tmp_path: Path) -> None:
    settings = resolve_settings(config=str(tmp_path / "absent.json"), model="openai:m@http://u:pa55word@h:1/v1")
    assert "pa55word" not in repr(settings) and "openai:m@http://" in repr(settings)


@pytest.mark.parametrize("value", ["1e400", '"many"', "[3]", "0"])
def test_a_bad_max_turns_in_the_file_names_the_field(tmp_path: Path, value: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {}, "shim": {"maxTurns": ' + value + "}}", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mcp.json', shim.maxTurns: max turns must be"):
        resolve_settings(config=str(path))
