"""Read the ``mcpServers`` JSON that MCP clients already use (Claude Desktop, Cursor, VS Code, Gemini CLI).

Accepted, per server (every leniency is listed here):

- stdio: ``command`` (required), ``args``, ``env``, ``cwd``;
- HTTP: ``url`` (required), ``headers``;
- ``type``: ``stdio``, ``http``, ``streamable-http``, ``streamable_http``, ``streamableHttp`` or ``sse``; when
  absent it is inferred (``command`` -> stdio, ``url`` -> Streamable HTTP);
- the top-level key ``mcpServers`` or VS Code's ``servers``;
- ``disabled: true`` skips a server;
- tool filters: ``includeTools`` / ``allowedTools`` and ``excludeTools`` / ``disabledTools`` (glob patterns);
- approval: ``approval`` (``"allow" | "deny" | "ask"`` or ``{"default": ..., "tools": {pattern: mode}}``),
  Cline's ``autoApprove`` list and Gemini CLI's ``trust: true``;
- ``timeout``: per-call timeout in seconds;
- ``maxMessageBytes``: the largest message a server may send (a larger tool result is refused; default 32 MB);
- ``protocol``: ``"auto"`` (default), ``"legacy"`` (force the initialize handshake) or a modern version string;
- comments and trailing commas (VS Code's ``mcp.json`` is JSONC), and a UTF-8 byte-order mark;
- ``"shim"`` next to the servers: shim's own settings (`shim.settings`);
- ``${VAR}``, ``${VAR:-default}`` and VS Code's ``${env:VAR}`` in every string value.

Unknown keys are ignored, as other clients do, so one file can serve several clients.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

from shim.errors import ConfigError
from shim.redact import names_a_secret

__all__ = [
    "CONFIG_ENV_VAR",
    "Approval",
    "McpConfig",
    "ServerConfig",
    "default_config_path",
    "load_config",
    "parse_config",
    "read_config_file",
    "resolve_config_path",
    "settings_section",
]

CONFIG_ENV_VAR = "SHIM_CONFIG"
"""Environment variable naming the config file; ``--config`` wins over it."""

Approval: TypeAlias = Literal["allow", "deny", "ask"]
Transport: TypeAlias = Literal["stdio", "http", "sse"]

_TYPES: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamablehttp": "http",
    "sse": "sse",
}
_APPROVALS: tuple[Approval, ...] = ("allow", "deny", "ask")
_COMMENT = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r'("(?:\\.|[^"\\])*")|,\s*(?=([}\]]))')
_MAX_BYTES = 10_000_000
_VAR = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True, kw_only=True)
class ServerConfig:
    """One configured MCP server."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict[str, str], repr=False)
    """Extra environment for a stdio server; values are secrets and never logged or shown."""
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict[str, str], repr=False)
    """HTTP headers (often ``Authorization``); values are secrets and never logged or shown."""
    include_tools: tuple[str, ...] | None = None
    """Glob patterns; when set, only matching tools are offered."""
    exclude_tools: tuple[str, ...] = ()
    approval_default: Approval | None = None
    """``None``: decide from the tool's annotations (see `approval_for`)."""
    approval_tools: dict[str, Approval] = field(default_factory=dict[str, Approval])
    """Per-tool approval by glob pattern; the first matching pattern wins."""
    timeout: float | None = None
    """Per-call timeout in seconds; ``None`` uses the router's default."""
    max_message_bytes: int | None = None
    """The largest message the server may send (``maxMessageBytes``); ``None``: `shim.mcp_client`'s default."""
    protocol: str = "auto"

    @property
    def secrets(self) -> tuple[str, ...]:
        """The values that must never appear in logs or messages: every header value and every ``env`` value
        of 4+ characters whose name says it is a secret (``*_KEY``, ``*_TOKEN``...), else of 8+ characters
        that is not a number, so ``"DEBUG": "true"`` or ``"PORT": "8080"`` do not blank out every ``true``
        and every URL with that port."""
        env = [v for k, v in self.env.items() if names_a_secret(k) or (len(v) >= 8 and not v.isdigit())]
        return tuple(v for v in (*env, *self.headers.values()) if len(v) >= 4)

    def offers(self, tool: str) -> bool:
        """Whether the include/exclude filters let ``tool`` through."""
        if self.include_tools is not None and not any(fnmatchcase(tool, p) for p in self.include_tools):
            return False
        return not any(fnmatchcase(tool, p) for p in self.exclude_tools)

    def approval_for(self, tool: str, annotations: Mapping[str, Any]) -> Approval:
        """The approval mode for one tool.

        Order: a per-tool pattern, then the server default, then the annotations: ask unless the tool is
        marked read-only or explicitly non-destructive (MCP's ``destructiveHint`` defaults to true).
        """
        for pattern, mode in self.approval_tools.items():
            if fnmatchcase(tool, pattern):
                return mode
        if self.approval_default is not None:
            return self.approval_default
        if annotations.get("readOnlyHint") is True or annotations.get("destructiveHint") is False:
            return "allow"
        return "ask"


@dataclass(frozen=True, kw_only=True)
class McpConfig:
    """Every server of one config file, disabled ones left out."""

    servers: tuple[ServerConfig, ...]
    path: str | None = None
    """Where it was read from, for messages."""
    settings: Mapping[str, Any] = field(default_factory=dict[str, Any])
    """The file's ``"shim"`` object (see `shim.settings`)."""


def default_config_path() -> Path:
    """The platform's conventional location of shim's config file (which may not exist).

    Linux and other Unixes: ``$XDG_CONFIG_HOME/shim/mcp.json`` (``~/.config/shim/mcp.json``); macOS:
    ``~/Library/Application Support/shim/mcp.json``; Windows: ``%APPDATA%\\shim\\mcp.json``.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "shim" / "mcp.json"


def resolve_config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--config`` if given, else ``$SHIM_CONFIG``, else `default_config_path`."""
    if explicit:
        return Path(explicit)
    if os.environ.get(CONFIG_ENV_VAR):
        return Path(os.environ[CONFIG_ENV_VAR])
    return default_config_path()


def read_config_file(path: str | os.PathLike[str] | None = None) -> tuple[Path, Mapping[str, Any]]:
    """The one reader of the config file: where it is (see `resolve_config_path`) and its decoded top level.

    UTF-8 (a byte-order mark is tolerated), JSON or JSONC (comments, trailing commas). The servers are not
    checked here (`parse_config` does it), so the ``"shim"`` settings can be read from a file whose servers
    need variables only a later command sets.

    Raises:
        ConfigError: the file is missing or unreadable, not UTF-8, not JSON, nested too deeply, or its top
            level is not an object; the message names the file and says what to do.
    """
    resolved = resolve_config_path(path)
    source = str(resolved)
    try:
        with resolved.open("rb") as file:
            raw = file.read(_MAX_BYTES + 1)  # a pipe (``-c <(...)``) works; /dev/zero does not fill the memory
    except FileNotFoundError:
        how = "pass --config FILE" if path else f"create it, pass --config FILE or set {CONFIG_ENV_VAR}"
        raise ConfigError(f"{source!r}: no MCP config file there; {how}") from None
    except OSError as exc:
        raise ConfigError(f"{source!r}: cannot read the config file: {exc.strerror or exc}") from None
    if len(raw) > _MAX_BYTES:
        raise ConfigError(f"{source!r}: larger than {_MAX_BYTES // 1_000_000} MB; that is not a config file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{source!r}: not UTF-8 text (byte {exc.start} is {raw[exc.start : exc.start + 1]!r}); "
            "save the file as UTF-8"
        ) from None
    data = _decode(text, source)
    top = _object(data)
    if top is None:
        raise ConfigError(f"{source!r}: the top level must be a JSON object with an 'mcpServers' key")
    return resolved, top


def load_config(path: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None) -> McpConfig:
    """Read and check a config file (see the module docstring for the accepted shape).

    Raises:
        ConfigError: the file is missing, is not UTF-8 JSON, or a server entry is invalid; the message names the
            file, the server and the field.
    """
    resolved, data = read_config_file(path)
    return parse_config(data, source=str(resolved), environ=environ)


def _decode(text: str, source: str) -> Any:
    """JSON, else JSONC; every failure is a `ConfigError` naming the file."""
    try:
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            try:
                return json.loads(_strip_jsonc(text))
            except json.JSONDecodeError:
                pass
            raise ConfigError(
                f"{source!r}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
    except RecursionError:
        raise ConfigError(f"{source!r}: nested too deeply to be a config file; check its brackets") from None


def settings_section(data: Any, *, source: str = "<config>") -> Mapping[str, Any]:
    """The ``"shim"`` object of a decoded config file (``{}`` when there is none).

    Raises:
        ConfigError: ``"shim"`` is there but not an object.
    """
    top = _object(data)
    if top is None or top.get("shim") is None:
        return {}
    section = _object(top["shim"])
    if section is None:
        raise ConfigError(f'{source!r}: field \'shim\' must be an object of settings, like {{"model": "..."}}')
    return section


def _object(value: object) -> Mapping[str, Any] | None:
    """``value`` as a JSON object, or ``None`` when it is something else."""
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else None


def _strip_jsonc(text: str) -> str:
    """Drop ``//`` and ``/* */`` comments and trailing commas (VS Code's ``mcp.json`` is JSONC)."""
    no_comments = _COMMENT.sub(lambda m: m.group(1) or "", text)
    return _TRAILING_COMMA.sub(lambda m: m.group(1) or "", no_comments)


def parse_config(data: Any, *, source: str = "<config>", environ: Mapping[str, str] | None = None) -> McpConfig:
    """Check an already-decoded config object.

    Raises:
        ConfigError: see `load_config`.
    """
    env = os.environ if environ is None else environ
    top = _object(data)
    if top is None:
        raise ConfigError(f"{source!r}: the top level must be a JSON object with an 'mcpServers' key")
    key = "mcpServers" if "mcpServers" in top else "servers" if "servers" in top else None
    if key is None:
        raise ConfigError(f"{source!r}: no 'mcpServers' (or VS Code 'servers') key; found {sorted(top)!r}")
    entries = _object(top[key])
    if entries is None:
        raise ConfigError(f"{source!r}: {key!r} must be an object mapping server names to their settings")
    servers: list[ServerConfig] = []
    for name, entry in entries.items():
        parsed = _Server(source, str(name), env).parse(entry)
        if parsed is not None:
            servers.append(parsed)
    return McpConfig(servers=tuple(servers), path=source, settings=settings_section(top, source=source))


class _Server:
    """Checks one entry; every error names the file, the server and the field."""

    def __init__(self, source: str, name: str, environ: Mapping[str, str]) -> None:
        self.source = source
        self.name = name
        self.environ = environ

    def fail(self, field_name: str | None, problem: str) -> ConfigError:
        where = f"server {self.name!r}" + (f", field {field_name!r}" if field_name else "")
        return ConfigError(f"{self.source!r}: {where}: {problem}")

    def parse(self, entry: Any) -> ServerConfig | None:
        e = _object(entry)
        if e is None:
            raise self.fail(None, f"must be an object, got {type(entry).__name__}")
        if e.get("disabled") is True:
            return None
        transport = self.transport(e)
        common: dict[str, Any] = {
            "name": self.name,
            "transport": transport,
            "include_tools": self.patterns(e, "includeTools", "allowedTools"),
            "exclude_tools": self.patterns(e, "excludeTools", "disabledTools") or (),
            "timeout": self.timeout(e),
            "max_message_bytes": self.max_message_bytes(e),
            "protocol": self.string(e, "protocol") or "auto",
            **self.approval(e),
        }
        if transport == "stdio":
            command = self.string(e, "command")
            if not command:
                raise self.fail("command", "a stdio server needs a non-empty 'command'")
            return ServerConfig(
                command=command,
                args=tuple(self.strings(e, "args")),
                env=self.mapping(e, "env"),
                cwd=self.string(e, "cwd"),
                **common,
            )
        url = self.string(e, "url")
        if not url or not url.startswith(("http://", "https://")):
            raise self.fail("url", f"an {transport} server needs an http(s) 'url', got {url!r}")
        return ServerConfig(url=url, headers=self.mapping(e, "headers"), **common)

    def transport(self, e: Mapping[str, Any]) -> Transport:
        kind = e.get("type", e.get("transport"))
        if kind is None:
            if "command" in e:
                return "stdio"
            if "url" in e or "serverUrl" in e:
                return "http"
            raise self.fail(None, "needs either 'command' (a stdio server) or 'url' (an HTTP server)")
        if not isinstance(kind, str) or kind.lower() not in _TYPES:
            raise self.fail("type", f"unknown type {kind!r}; use one of {sorted(_TYPES)!r}")
        return _TYPES[kind.lower()]

    def expand(self, field_name: str, value: str) -> str:
        def substitute(match: re.Match[str]) -> str:
            var, default = match.group(1), match.group(2)
            found = self.environ.get(var)
            if found:
                return found
            if default is not None:
                return default
            if var in self.environ:
                return ""
            raise self.fail(field_name, f"environment variable {var!r} is not set (use ${{{var}:-default}})")

        return _VAR.sub(substitute, value)

    def string(self, e: Mapping[str, Any], key: str) -> str | None:
        value = e.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {type(value).__name__}")
        return self.expand(key, value)

    def strings(self, e: Mapping[str, Any], key: str) -> list[str]:
        value: Any = e.get(key, [])
        items: list[Any] = list(cast("list[Any]", value)) if isinstance(value, list) else []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in items):
            raise self.fail(key, "must be a list of strings")
        return [self.expand(key, str(v)) for v in items]

    def mapping(self, e: Mapping[str, Any], key: str) -> dict[str, str]:
        value = _object(e.get(key, {}))
        if value is None:
            raise self.fail(key, "must be an object of string values")
        out: dict[str, str] = {}
        for k, v in value.items():
            if not isinstance(v, (str, int, float, bool)):
                # The value may be a secret: name the key, never echo the value.
                raise self.fail(key, f"the value of {k!r} must be a string")
            out[k] = self.expand(f"{key}.{k}", v if isinstance(v, str) else json.dumps(v))
        return out

    def patterns(self, e: Mapping[str, Any], *keys: str) -> tuple[str, ...] | None:
        found = [k for k in keys if k in e]
        if not found:
            return None
        return tuple(p for k in found for p in self.strings(e, k))

    def timeout(self, e: Mapping[str, Any]) -> float | None:
        value = e.get("timeout")
        if value is None:
            return None
        seconds = float(value) if isinstance(value, float) else None
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**9:
            seconds = float(value)
        if seconds is None or not (0 < seconds < 10**9):  # NaN, infinity and 400-digit numbers too
            shown = repr(value) if len(repr(value)) < 40 else f"{repr(value)[:37]}..."
            raise self.fail("timeout", f"must be a positive number of seconds (below 10**9), got {shown}")
        return seconds

    def max_message_bytes(self, e: Mapping[str, Any]) -> int | None:
        value = e.get("maxMessageBytes")
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not (1024 <= value <= 2**40):
            shown = repr(value) if len(repr(value)) < 40 else f"{repr(value)[:37]}..."
            raise self.fail("maxMessageBytes", f"must be a whole number of bytes from 1024 to 2**40, got {shown}")
        return value

    def approval(self, e: Mapping[str, Any]) -> dict[str, Any]:
        default: Approval | None = "allow" if e.get("trust") is True else None
        tools: dict[str, Approval] = {p: "allow" for p in self.patterns(e, "autoApprove", "alwaysAllow") or ()}
        value = e.get("approval")
        if isinstance(value, str):
            default = self.mode("approval", value)
        elif (spec := _object(value)) is not None:
            if spec.get("default") is not None:
                default = self.mode("approval.default", spec["default"])
            per_tool = _object(spec.get("tools", {}))
            if per_tool is None:
                raise self.fail("approval.tools", 'must map tool patterns to "allow", "deny" or "ask"')
            for pattern, mode in per_tool.items():
                tools[pattern] = self.mode(f"approval.tools.{pattern}", mode)
        elif value is not None:
            raise self.fail("approval", 'must be "allow", "deny", "ask" or {"default": ..., "tools": {...}}')
        return {"approval_default": default, "approval_tools": tools}

    def mode(self, field_name: str, value: Any) -> Approval:
        if value not in _APPROVALS:
            raise self.fail(field_name, f"must be one of {list(_APPROVALS)!r}, got {value!r}")
        mode: Approval = value
        return mode
