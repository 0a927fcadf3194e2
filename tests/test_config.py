"""Reading mcpServers JSON: the shapes other clients write, variable expansion, and errors that say where."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shim.config import (
    CONFIG_ENV_VAR,
    ServerConfig,
    default_config_path,
    load_config,
    parse_config,
    resolve_config_path,
)
from shim.errors import ConfigError


def one(entry: dict[str, Any], environ: dict[str, str] | None = None) -> ServerConfig:
    (server,) = parse_config({"mcpServers": {"s": entry}}, source="mcp.json", environ=environ or {}).servers
    return server


def test_reads_a_claude_desktop_style_stdio_server() -> None:
    server = one({"command": "npx", "args": ["-y", "pkg"], "env": {"TOKEN": "abcd1234"}, "cwd": "/tmp"})
    assert server.transport == "stdio"
    assert (server.command, server.args, server.env, server.cwd) == (
        "npx",
        ("-y", "pkg"),
        {"TOKEN": "abcd1234"},
        "/tmp",
    )


def test_reads_an_http_server_with_headers() -> None:
    server = one({"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer xyz123"}})
    assert server.transport == "http"
    assert server.url == "https://example.com/mcp"
    assert server.headers == {"Authorization": "Bearer xyz123"}


@pytest.mark.parametrize(
    ("kind", "transport"),
    [
        ("stdio", "stdio"),
        ("http", "http"),
        ("streamable-http", "http"),
        ("streamable_http", "http"),
        ("streamableHttp", "http"),
        ("sse", "sse"),
    ],
)
def test_tolerates_every_type_spelling(kind: str, transport: str) -> None:
    entry: dict[str, Any] = {"type": kind, "command": "x"} if kind == "stdio" else {"type": kind, "url": "http://h/mcp"}
    assert one(entry).transport == transport


def test_reads_vs_code_servers_key_and_skips_disabled_servers() -> None:
    config = parse_config(
        {"servers": {"a": {"type": "stdio", "command": "a"}, "b": {"command": "b", "disabled": True}}}, environ={}
    )
    assert [s.name for s in config.servers] == ["a"]


def test_expands_variables_with_defaults_and_vs_code_env_syntax() -> None:
    server = one(
        {"command": "${BIN}", "args": ["${MISSING:-fallback}", "${env:HOME_DIR}/x"], "env": {"K": "${SECRET}"}},
        environ={"BIN": "/usr/bin/tool", "HOME_DIR": "/home/me", "SECRET": "s3cret"},
    )
    assert server.command == "/usr/bin/tool"
    assert server.args == ("fallback", "/home/me/x")
    assert server.env == {"K": "s3cret"}


def test_an_unset_variable_names_the_file_server_field_and_variable() -> None:
    with pytest.raises(ConfigError) as info:
        one({"url": "https://h/mcp", "headers": {"Authorization": "Bearer ${API_TOKEN}"}})
    assert str(info.value) == (
        "'mcp.json': server 's', field 'headers.Authorization': environment variable 'API_TOKEN' is not set "
        "(use ${API_TOKEN:-default})"
    )


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({}, "server 's': needs either 'command' (a stdio server) or 'url' (an HTTP server)"),
        ({"type": "websocket", "url": "ws://h"}, "server 's', field 'type': unknown type 'websocket'"),
        ({"command": ""}, "server 's', field 'command': a stdio server needs a non-empty 'command'"),
        ({"command": "x", "args": "--flag"}, "server 's', field 'args': must be a list of strings"),
        ({"type": "http", "url": "localhost:8000"}, "server 's', field 'url': an http server needs an http(s) 'url'"),
        ({"command": "x", "env": {"K": ["v"]}}, "server 's', field 'env': the value of 'K' must be a string"),
        ({"command": "x", "timeout": -1}, "server 's', field 'timeout': must be a positive number of seconds"),
        (
            {"command": "x", "approval": "maybe"},
            "server 's', field 'approval': must be one of ['allow', 'deny', 'ask']",
        ),
        ("npx pkg", "server 's': must be an object, got str"),
    ],
)
def test_a_bad_server_entry_names_the_file_server_and_field(entry: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=r"^'mcp\.json': ") as info:
        parse_config({"mcpServers": {"s": entry}}, source="mcp.json", environ={})
    assert message in str(info.value)


def test_a_config_without_servers_says_which_keys_it_found() -> None:
    with pytest.raises(ConfigError, match=r"no 'mcpServers' \(or VS Code 'servers'\) key; found \['tools'\]"):
        parse_config({"tools": {}}, source="mcp.json")


def test_invalid_json_reports_the_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {\n  "a": {"command" "x"}\n}}')
    with pytest.raises(ConfigError, match=r"mcp.json': not valid JSON at line 2, column 19: Expecting ':' delimiter"):
        load_config(path)


def test_reads_vs_code_jsonc_with_comments_and_trailing_commas(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        '{\n  // my servers\n  "servers": {\n    "a": {"command": "x", "args": ["//not-a-comment", "a,]"],},\n'
        '    /* "b": {"command": "y"} */\n  },\n}'
    )
    (server,) = load_config(path).servers
    assert server.args == ("//not-a-comment", "a,]")


def test_a_missing_file_says_how_to_point_at_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV_VAR, str(tmp_path / "nope.json"))
    with pytest.raises(
        ConfigError, match=f"no MCP config file there; create it, pass --config FILE or set {CONFIG_ENV_VAR}"
    ):
        load_config()


def test_config_option_beats_the_environment_variable_which_beats_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CONFIG_ENV_VAR, raising=False)
    assert resolve_config_path() == default_config_path()
    monkeypatch.setenv(CONFIG_ENV_VAR, str(tmp_path / "env.json"))
    assert resolve_config_path() == tmp_path / "env.json"
    assert resolve_config_path(tmp_path / "flag.json") == tmp_path / "flag.json"


def test_loads_a_file_through_the_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"time": {"command": "mcp-server-time"}}}))
    monkeypatch.setenv(CONFIG_ENV_VAR, str(path))
    config = load_config()
    assert config.path == str(path)
    assert [s.name for s in config.servers] == ["time"]


@pytest.mark.parametrize(
    ("platform", "expected"),
    [("linux", ".config/shim/mcp.json"), ("darwin", "Library/Application Support/shim/mcp.json")],
)
def test_the_default_location_follows_the_platform(
    platform: str, expected: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert default_config_path() == tmp_path / expected


def test_the_default_location_honours_xdg_config_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_config_path() == tmp_path / "shim" / "mcp.json"


def test_secrets_never_appear_in_the_repr() -> None:
    server = one({"url": "https://h/mcp", "headers": {"Authorization": "Bearer tok-123456"}, "env": {"K": "v-98765"}})
    assert "tok-123456" not in repr(server) and "v-98765" not in repr(server)
    assert set(server.secrets) == {"Bearer tok-123456"}


def test_tool_filters_take_glob_patterns_in_every_spelling() -> None:
    server = one({"command": "x", "includeTools": ["read_*", "list"], "excludeTools": ["read_secret"]})
    assert [t for t in ["read_file", "read_secret", "list", "write"] if server.offers(t)] == ["read_file", "list"]
    vs_style = one({"command": "x", "allowedTools": ["a"], "disabledTools": ["b"]})
    assert (vs_style.offers("a"), vs_style.offers("b"), vs_style.offers("c")) == (True, False, False)


@pytest.mark.parametrize(
    ("annotations", "approval"),
    [
        ({}, "ask"),  # MCP: destructiveHint defaults to true
        ({"readOnlyHint": True}, "allow"),
        ({"destructiveHint": False}, "allow"),
        ({"destructiveHint": True}, "ask"),
        ({"readOnlyHint": False, "destructiveHint": True}, "ask"),
    ],
)
def test_approval_defaults_to_ask_for_tools_that_may_destroy(annotations: dict[str, Any], approval: str) -> None:
    assert one({"command": "x"}).approval_for("t", annotations) == approval


def test_approval_is_configurable_per_server_and_per_tool() -> None:
    server = one({"command": "x", "approval": {"default": "allow", "tools": {"rm_*": "deny", "mv": "ask"}}})
    assert [server.approval_for(t, {"readOnlyHint": True}) for t in ["ls", "rm_rf", "mv"]] == ["allow", "deny", "ask"]
    assert one({"command": "x", "approval": "deny"}).approval_for("t", {"readOnlyHint": True}) == "deny"
    assert one({"command": "x", "trust": True}).approval_for("t", {}) == "allow"
    cline = one({"command": "x", "autoApprove": ["write_file"]})
    assert (cline.approval_for("write_file", {}), cline.approval_for("delete", {})) == ("allow", "ask")


def test_a_file_that_is_not_utf8_is_one_clear_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"mcpServers": {"café": {"command": "x"}}}'.encode("latin-1"))
    with pytest.raises(
        ConfigError, match=r"latin1.json': not UTF-8 text \(byte 20 is b'\\xe9'\); save the file as UTF-8"
    ):
        load_config(path)


def test_a_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"a": {"command": "x"}}}).encode())
    assert [s.name for s in load_config(path).servers] == ["a"]


@pytest.mark.parametrize("depth", [5_000, 200_000])
def test_a_file_nested_too_deeply_is_one_clear_error_naming_it(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"mcpServers": {"a": {"command": "x", "env": ' + "[" * depth + "]" * depth + "}}}")
    with pytest.raises(ConfigError, match=r"deep.json'"):
        load_config(path)


@pytest.mark.parametrize("value", ["1e999", "-1", "0", "1" * 400, '"10"'])
def test_a_timeout_that_is_not_a_sensible_number_names_the_field(tmp_path: Path, value: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {"a": {"command": "x", "timeout": ' + value + "}}}")
    with pytest.raises(ConfigError, match=r"server 'a', field 'timeout': must be a positive number of seconds"):
        load_config(path)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=30,
)
_KEYS = st.sampled_from(
    [
        "command",
        "args",
        "env",
        "cwd",
        "url",
        "headers",
        "type",
        "timeout",
        "approval",
        "trust",
        "includeTools",
        "excludeTools",
        "disabled",
        "protocol",
        "autoApprove",
    ]
)


@given(st.dictionaries(_KEYS, _JSON, max_size=6), _JSON)
@settings(max_examples=300, deadline=None)
def test_any_server_entry_is_accepted_or_refused_with_a_config_error(entry: dict[str, Any], shim: Any) -> None:
    try:
        parse_config({"mcpServers": {"s": entry}, "shim": shim}, source="mcp.json", environ={})
    except ConfigError as exc:
        assert str(exc).startswith("'mcp.json': ")


@given(st.binary(max_size=200))
@settings(max_examples=200, deadline=None)
def test_any_bytes_in_the_file_load_or_give_a_config_error_naming_it(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mcp.json"
        path.write_bytes(data)
        try:
            load_config(path)
        except ConfigError as exc:
            assert "mcp.json" in str(exc)


def test_env_values_that_cannot_be_secrets_are_not_treated_as_secrets() -> None:
    env = {"DEBUG": "true", "PORT": "8080", "API_KEY": "k-12", "LONG_VALUE": "s3cr3t-value", "TIMEOUT": "12345678"}
    server = one({"command": "x", "env": env})
    assert set(server.secrets) == {"k-12", "s3cr3t-value"}


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_without_reading_it_all() -> None:
    with pytest.raises(ConfigError, match=r"'/dev/zero': larger than 10 MB; that is not a config file"):
        load_config("/dev/zero")


def test_a_directory_is_one_clear_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot read the config file: Is a directory"):
        load_config(tmp_path)
