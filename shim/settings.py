"""Settings for the command line, from four places in a fixed order of precedence.

1. command-line flags (``--model``, ``--max-turns``, …)
2. environment variables (``SHIM_MODEL``, ``SHIM_CONFIG``, ``SHIM_DIALECT``, ``SHIM_MAX_TURNS``)
3. the ``"shim"`` object of the MCP config file, next to ``mcpServers``::

       {"mcpServers": {...}, "shim": {"model": "ollama:qwen2.5:7b", "maxTurns": 8, "dialect": "tool_call",
                                "constrain": "auto"}}

4. built-in defaults
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from shim.config import resolve_config_path
from shim.errors import ConfigError

__all__ = ["Settings", "resolve_settings"]

_ENV = {"model": "SHIM_MODEL", "dialect": "SHIM_DIALECT", "max_turns": "SHIM_MAX_TURNS", "constrain": "SHIM_CONSTRAIN"}
_FILE_KEYS = {
    "model": ("model",),
    "dialect": ("dialect",),
    "max_turns": ("maxTurns", "max_turns"),
    "constrain": ("constrain",),
}
_DEFAULTS: dict[str, Any] = {"model": None, "dialect": "function_call", "max_turns": 10, "constrain": "auto"}


@dataclass(frozen=True, kw_only=True)
class Settings:
    model: str | None
    """Backend spec (``ollama:MODEL``, ``llama-cpp:PATH.gguf``, ``openai:MODEL@URL``, ``replay:FILE``)."""
    dialect: str
    max_turns: int
    config_path: Path
    """The MCP config file (it may not exist)."""
    config_explicit: bool
    """The path came from ``--config`` or ``SHIM_CONFIG``, so a missing file is an error."""
    constrain: str = "auto"
    """Constrained decoding of calls: ``auto`` (where the backend can), ``on``, ``off`` (`shim.constrain`)."""


def resolve_settings(*, config: str | None = None, **flags: Any) -> Settings:
    """Merge flags, environment, config file and defaults (in that order).

    Raises:
        ConfigError: a value has the wrong type (names where it came from).
    """
    path = resolve_config_path(config)
    explicit = bool(config or os.environ.get("SHIM_CONFIG"))
    from_file = _file_settings(path)
    values: dict[str, Any] = {}
    for key, default in _DEFAULTS.items():
        if flags.get(key) is not None:
            values[key] = flags[key]
        elif os.environ.get(_ENV[key]):
            values[key] = _coerce(key, os.environ[_ENV[key]], f"${_ENV[key]}")
        else:
            found = next((from_file[k] for k in _FILE_KEYS[key] if k in from_file), None)
            values[key] = default if found is None else _coerce(key, found, f"{str(path)!r}, shim.{_FILE_KEYS[key][0]}")
    return Settings(config_path=path, config_explicit=explicit, **values)


def _file_settings(path: Path) -> Mapping[str, Any]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a missing or broken file is reported by the MCP config loader, with details
    section: Any = cast("dict[str, Any]", data).get("shim") if isinstance(data, dict) else None
    return cast("dict[str, Any]", section) if isinstance(section, dict) else {}


def _coerce(key: str, value: Any, where: str) -> Any:
    if key == "max_turns":
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: max turns must be a whole number, got {value!r}") from None
        if number < 1:
            raise ConfigError(f"{where}: max turns must be at least 1, got {number}")
        return number
    if key == "constrain" and value not in ("auto", "on", "off"):
        raise ConfigError(f"{where}: constrain must be 'auto', 'on' or 'off', got {value!r}")
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a string, got {value!r}")
    return value
