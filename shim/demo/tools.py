"""The demo tools as plain Python: arithmetic, the time, unit conversion and a key-value store.

`shim.demo.server` serves them over MCP; the tiny model's training data and its evaluation call them
directly, so all three see exactly the same results. Every tool answers with one short line of text,
which the demo model repeats word for word in its final answer.
"""

from __future__ import annotations

import ast
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["NOW_ENV", "UNITS", "DemoToolError", "DemoTools", "format_number"]

NOW_ENV = "SHIM_DEMO_NOW"
"""An ISO 8601 instant (``2026-05-04T12:30:00Z``) that freezes `DemoTools.get_time`'s clock."""


class DemoToolError(Exception):
    """A demo tool refused its arguments; the message is written for the model to read."""


_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}
_MAX_EXPONENT = 64
"""Bigger powers are refused, so ``9**9**9`` cannot hang the server."""

# unit -> (dimension, factor to the base unit); temperature is affine and handled apart.
UNITS: dict[str, tuple[str, float]] = {
    "mm": ("length", 0.001),
    "cm": ("length", 0.01),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "in": ("length", 0.0254),
    "ft": ("length", 0.3048),
    "mi": ("length", 1609.344),
    "g": ("mass", 0.001),
    "kg": ("mass", 1.0),
    "oz": ("mass", 0.028349523125),
    "lb": ("mass", 0.45359237),
    "ml": ("volume", 0.001),
    "l": ("volume", 1.0),
    "gal": ("volume", 3.785411784),
    "C": ("temperature", 1.0),
    "F": ("temperature", 1.0),
    "K": ("temperature", 1.0),
}
"""Units `DemoTools.convert_units` knows, by symbol."""

_ALIASES = {
    "millimeter": "mm", "centimeter": "cm", "meter": "m", "metre": "m", "kilometer": "km", "kilometre": "km",
    "inch": "in", "inches": "in", "foot": "ft", "feet": "ft", "mile": "mi", "gram": "g", "kilogram": "kg",
    "ounce": "oz", "pound": "lb", "lbs": "lb", "milliliter": "ml", "liter": "l", "litre": "l", "gallon": "gal",
    "celsius": "C", "c": "C", "fahrenheit": "F", "f": "F", "kelvin": "K", "k": "K",
}  # fmt: skip


def format_number(value: int | float) -> str:
    """Write a result the way a person would: integers exact, others to 2 decimals (4 digits if small)."""
    if not math.isfinite(value):
        raise DemoToolError("the result is not a finite number")
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.2f}" if abs(value) >= 1 else f"{value:.4g}"
    if "e" in text:
        return f"{value:.4g}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unit(name: str) -> str:
    text = name.strip().replace("°", "")
    if text in UNITS:
        return text
    lower = text.lower()
    if lower in UNITS:
        return lower
    singular = lower[:-1] if lower.endswith("s") and lower[:-1] in _ALIASES else lower
    if singular in _ALIASES:
        return _ALIASES[singular]
    known = ", ".join(UNITS)
    raise DemoToolError(f"unknown unit {name!r}; use one of: {known}")


@dataclass
class DemoTools:
    """The tools and their state: the store, and the clock (frozen when ``now`` is given)."""

    now: datetime | None = None
    """A fixed instant for `get_time`; ``None`` reads `NOW_ENV`, then the real clock."""
    store: dict[str, str] = field(default_factory=dict[str, str])

    def calculate(self, expression: str) -> str:
        """Evaluate an arithmetic expression with + - * / // % ** and parentheses.

        Raises:
            DemoToolError: anything but numbers and those operators, or a division by zero.
        """
        try:
            # Models write powers and products the way people do: ^, the multiplication and division signs.
            text = expression.replace("^", "**").replace("\u00d7", "*").replace("\u00f7", "/")
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            raise DemoToolError(f"cannot read {expression!r} as arithmetic") from None
        return format_number(self._evaluate(tree.body))

    def _evaluate(self, node: ast.expr) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            value = self._evaluate(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self._evaluate(node.left), self._evaluate(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
                raise DemoToolError(f"the exponent {format_number(right)} is too large (at most {_MAX_EXPONENT})")
            try:
                return _BINARY[type(node.op)](left, right)
            except ZeroDivisionError:
                raise DemoToolError("division by zero") from None
        raise DemoToolError(f"only numbers and + - * / // % ** are allowed, not {ast.unparse(node)!r}")

    def get_time(self, timezone_name: str = "UTC") -> str:
        """The date and time now in an IANA time zone, as ``YYYY-MM-DD HH:MM``.

        Raises:
            DemoToolError: the time zone is unknown.
        """
        try:
            zone = ZoneInfo(timezone_name.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise DemoToolError(f"unknown time zone {timezone_name!r}; use an IANA name such as Asia/Seoul") from None
        return self._now().astimezone(zone).strftime("%Y-%m-%d %H:%M")

    def _now(self) -> datetime:
        if self.now is not None:
            return self.now
        fixed = os.environ.get(NOW_ENV)
        if fixed:
            moment = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
            return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        return datetime.now(timezone.utc)

    def convert_units(self, value: float, from_unit: str, to_unit: str) -> str:
        """Convert a quantity between units of length, mass, volume or temperature.

        Raises:
            DemoToolError: a unit is unknown, or the two measure different things.
        """
        source, target = _unit(from_unit), _unit(to_unit)
        (kind, factor), (target_kind, target_factor) = UNITS[source], UNITS[target]
        if kind != target_kind:
            raise DemoToolError(f"cannot convert {kind} ({source}) to {target_kind} ({target})")
        if kind == "temperature":
            kelvin = {"C": value + 273.15, "F": (value - 32) * 5 / 9 + 273.15, "K": value}[source]
            result = {"C": kelvin - 273.15, "F": (kelvin - 273.15) * 9 / 5 + 32, "K": kelvin}[target]
        else:
            result = value * factor / target_factor
        return f"{format_number(result)} {target}"

    def kv_set(self, key: str, value: str) -> str:
        """Store ``value`` under ``key``, replacing what was there."""
        self.store[key] = value
        return f"{key} = {value}"

    def kv_get(self, key: str) -> str:
        """The value stored under ``key``.

        Raises:
            DemoToolError: nothing is stored under it.
        """
        if key not in self.store:
            raise DemoToolError(f"nothing is stored under {key!r}")
        return self.store[key]
