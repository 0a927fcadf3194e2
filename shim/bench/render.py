"""Write JSON the way models really write it: a serializer with each lenient-JSON defect as a switch.

The corpus needs bodies that are *exactly* one defect away from strict JSON (single quotes, Python literals,
unquoted keys, trailing commas, raw newlines in strings), so the defect is produced by the serializer rather
than by regex surgery on ``json.dumps`` output, which would also hit look-alike text inside string values.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["JsonStyle", "dumps"]

# ``\n`` preceded by an even number of backslashes is an escaped newline; after an odd number it is a
# literal backslash followed by "n" and must stay.
_ESCAPED_NEWLINE = re.compile(r"(?<!\\)((?:\\\\)*)\\n")


@dataclass(frozen=True, kw_only=True)
class JsonStyle:
    """Which defects to write. The default is strict, compact-with-spaces JSON (what ``json.dumps`` writes)."""

    quote: str = '"'
    """String delimiter: ``'`` gives Python-repr style strings."""
    python_literals: bool = False
    """``True`` / ``False`` / ``None`` instead of ``true`` / ``false`` / ``null``."""
    unquoted_keys: bool = False
    """``{city: "Paris"}`` (JavaScript object literal style); keys must be identifiers."""
    trailing_commas: bool = False
    """A comma after the last member of every non-empty object and array."""
    raw_newlines: bool = False
    """Newlines inside strings written as real line breaks instead of ``\\n``."""
    ensure_ascii: bool = False
    """Non-ASCII characters written as ``\\uXXXX`` escapes."""
    indent: int | None = None
    """Pretty-print with this many spaces per level; None writes one line."""


def dumps(value: Any, style: JsonStyle | None = None) -> str:
    """Serialize ``value`` (plain JSON data) with the defects ``style`` switches on.

    Raises:
        TypeError: ``value`` holds something that is not JSON data.
        ValueError: ``unquoted_keys`` is on and a key is not an identifier.
    """
    return _Writer(style or JsonStyle()).write(value, 0)


class _Writer:
    def __init__(self, style: JsonStyle) -> None:
        self.style = style

    def write(self, value: Any, depth: int) -> str:
        if value is None or isinstance(value, bool):
            return self._literal(value)
        if isinstance(value, (int, float)):
            return json.dumps(value)
        if isinstance(value, str):
            return self._string(value)
        if isinstance(value, dict):
            items: list[tuple[str, Any]] = list(value.items())  # pyright: ignore[reportUnknownArgumentType]
            members = [f"{self._key(k)}: {self.write(v, depth + 1)}" for k, v in items]
            return self._container("{", "}", members, depth)
        if isinstance(value, list):
            elements: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            return self._container("[", "]", [self.write(v, depth + 1) for v in elements], depth)
        raise TypeError(f"not JSON data: {value!r}")

    def _literal(self, value: bool | None) -> str:
        if self.style.python_literals:
            return repr(value)
        return json.dumps(value)

    def _key(self, key: str) -> str:
        if self.style.unquoted_keys:
            if not key.isidentifier():
                raise ValueError(f"key {key!r} cannot be written unquoted")
            return key
        return self._string(key)

    def _string(self, text: str) -> str:
        body = json.dumps(text, ensure_ascii=self.style.ensure_ascii)[1:-1]
        quote = self.style.quote
        if quote != '"':
            # json.dumps escaped the double quotes; a single-quoted string writes them bare and escapes its own.
            body = body.replace('\\"', '"').replace(quote, "\\" + quote)
        if self.style.raw_newlines:
            body = _ESCAPED_NEWLINE.sub(lambda m: m.group(1) + "\n", body)
        return quote + body + quote

    def _container(self, open_: str, close: str, members: list[str], depth: int) -> str:
        if not members:
            return open_ + close
        tail = "," if self.style.trailing_commas else ""
        if self.style.indent is None:
            return open_ + ", ".join(members) + tail + close
        pad = " " * (self.style.indent * (depth + 1))
        end_pad = " " * (self.style.indent * depth)
        return open_ + "\n" + ",\n".join(pad + m for m in members) + tail + "\n" + end_pad + close
