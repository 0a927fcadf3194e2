"""Settings for the command line, from four places in a fixed order of precedence.

1. command-line flags (``--model``, ``--max-turns``, …)
2. environment variables (``SHIM_MODEL``, ``SHIM_CONFIG``, ``SHIM_DIALECT``, ``SHIM_PROFILE``, ``SHIM_MAX_TURNS``)
3. the ``"shim"`` object of the MCP config file, next to ``mcpServers`` (the file is read once, by
   `shim.config.read_config_file`, so JSONC comments work here as they do for the servers)::

       {"mcpServers": {...}, "shim": {"model": "ollama:qwen2.5:7b", "maxTurns": 8, "profile": "qwen",
                                "constrain": "auto"}}

4. built-in defaults
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shim.config import McpConfig, parse_config, read_config_file, resolve_config_path, settings_section
from shim.constrain.turn import check_mode
from shim.errors import ConfigError
from shim.redact import redact

__all__ = ["Settings", "resolve_settings"]

_ENV = {
    "model": "SHIM_MODEL",
    "dialect": "SHIM_DIALECT",
    "profile": "SHIM_PROFILE",
    "max_turns": "SHIM_MAX_TURNS",
    "constrain": "SHIM_CONSTRAIN",
}
_FILE_KEYS = {
    "model": ("model",),
    "dialect": ("dialect",),
    "profile": ("profile",),
    "max_turns": ("maxTurns", "max_turns"),
    "constrain": ("constrain",),
}
_DEFAULTS: dict[str, Any] = {"model": None, "dialect": None, "profile": None, "max_turns": 10, "constrain": "auto"}


@dataclass(frozen=True, kw_only=True)
class Settings:
    model: str | None
    """Backend spec (``ollama:MODEL``, ``llama-cpp:PATH.gguf``, ``openai:MODEL@URL``, ``replay:FILE``)."""
    dialect: str | None
    """The prompt dialect; None: the model profile's (`shim.profiles`)."""
    max_turns: int
    config_path: Path
    """The MCP config file (it may not exist)."""
    config_explicit: bool
    """The path came from ``--config`` or ``SHIM_CONFIG``, so a missing file is an error."""
    constrain: str = "auto"
    """Constrained decoding of calls: ``auto`` (where the backend can), ``on``, ``off`` (`shim.constrain`)."""
    profile: str | None = None
    """A `shim.profiles` name that overrides the one found from the model's name."""
    document: Mapping[str, Any] | None = field(default=None, repr=False)
    """The config file's decoded top level when the file exists (its servers not yet checked)."""

    def __repr__(self) -> str:
        # A spec may hold credentials (openai:MODEL@http://user:password@host/v1).
        shown = redact(repr(self.model)) if self.model else None
        return (
            f"Settings(model={shown}, dialect={self.dialect!r}, profile={self.profile!r}, max_turns={self.max_turns}, "
            f"constrain={self.constrain!r}, config_path={str(self.config_path)!r}, "
            f"config_explicit={self.config_explicit})"
        )

    def mcp_config(self) -> McpConfig:
        """The MCP servers of the config file, from the copy read for the settings.

        Raises:
            ConfigError: the file is missing or a server entry is invalid.
        """
        document = read_config_file(self.config_path)[1] if self.document is None else self.document
        return parse_config(document, source=str(self.config_path))


def resolve_settings(*, config: str | None = None, **flags: Any) -> Settings:
    """Merge flags, environment, config file and defaults (in that order).

    Raises:
        ConfigError: a value has the wrong type (names where it came from), or the config file exists but
            cannot be read as UTF-8 JSON/JSONC.
    """
    path = resolve_config_path(config)
    explicit = bool(config or os.environ.get("SHIM_CONFIG"))
    document = read_config_file(path)[1] if path.exists() else None
    from_file: Mapping[str, Any] = settings_section(document, source=str(path)) if document is not None else {}
    values: dict[str, Any] = {}
    for key, default in _DEFAULTS.items():
        if flags.get(key) is not None:
            values[key] = flags[key]
        elif os.environ.get(_ENV[key]):
            values[key] = _coerce(key, os.environ[_ENV[key]], f"${_ENV[key]}")
        else:
            found = next((from_file[k] for k in _FILE_KEYS[key] if k in from_file), None)
            values[key] = default if found is None else _coerce(key, found, f"{str(path)!r}, shim.{_FILE_KEYS[key][0]}")
    return Settings(config_path=path, config_explicit=explicit, document=document, **values)


def _coerce(key: str, value: Any, where: str) -> Any:
    if key == "max_turns":
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"{where}: max turns must be a whole number, got {str(value)[:40]!r}") from None
        if number < 1:
            raise ConfigError(f"{where}: max turns must be at least 1, got {number}")
        return number
    if key == "constrain":
        return check_mode(value, where)
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a string, got {value!r}")
    if key == "profile":
        from shim.profiles import get_profile  # the parser's table: only when a profile is named

        try:
            get_profile(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return value
