"""The constrain setting: ``auto`` (constrain calls where the backend can), ``on`` (insist), ``off``. The options
of one turn are built by the loop (`shim.agent_types.constrained_options`), which knows the backend."""

from __future__ import annotations

from typing import Any

from shim.constrain.schema import ConstrainMode
from shim.errors import ConfigError

__all__ = ["CONSTRAIN_MODES", "check_mode"]

CONSTRAIN_MODES: tuple[ConstrainMode, ...] = ("auto", "on", "off")


def check_mode(value: Any, where: str = "constrain") -> ConstrainMode:
    """``value`` as a `ConstrainMode`.

    Raises:
        ConfigError: it is not one of ``auto``, ``on``, ``off`` (``where`` says where it came from).
    """
    if value in CONSTRAIN_MODES:
        return value
    raise ConfigError(f"{where}: expected one of {list(CONSTRAIN_MODES)!r}, got {value!r}")
