"""The one module that imports ``jsonschema``: schema checks, cached validators and the model's error message.

Everything in shim that judges a value against a JSON schema comes through here: the router (tool
arguments), the agent (arguments of the caller's own external tools), the prompt's example call, structured
output (``response_format``) and the server's request reader (is a client's schema itself valid). So there
is one validator factory, one cache (a server's clients send the same tools with every request, and checking
a schema against its meta-schema costs milliseconds), and one wording for the model when its arguments are
wrong, whichever path found the fault.

A schema that is itself invalid cannot judge anything: its validator accepts every value, and
`schema_problem` says what is wrong with it for the callers that must refuse it (the server's request
reader) or log it (the router).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jsonschema.exceptions import SchemaError, UnknownType
from jsonschema.exceptions import ValidationError as _JsonschemaError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing.exceptions import Unresolvable

__all__ = [
    "MAX_SHOWN_ERRORS",
    "SchemaCheck",
    "Violation",
    "arguments_message",
    "schema_check",
    "schema_problem",
    "unknown_tool_message",
]

MAX_SHOWN_ERRORS = 5
"""At most this many violations are listed for the model; the rest would only bury the first ones."""

_MAX_SCHEMA_SHOWN = 1500
"""Characters of the input schema quoted back to the model with its errors."""


@dataclass(frozen=True, kw_only=True)
class Violation:
    """One way a value fails its schema."""

    path: tuple[str | int, ...]
    """Where in the value (object keys and array indexes); empty for the value itself."""
    message: str
    """What is wrong, as jsonschema words it (``'b' is a required property``)."""

    @property
    def where(self) -> str:
        """The path as the model reads it: ``'$.items[0].name'``, or ``the top level``."""
        parts = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"'${parts}'" if parts else "the top level"

    def __str__(self) -> str:
        return f"at {self.where}: {self.message}"


class SchemaCheck:
    """A compiled schema: `violations` of a value, in a stable order. Built by `schema_check` (cached)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema: Mapping[str, Any] = schema
        """The schema (a cached check holds a key-sorted copy: quote the caller's own schema to a model)."""
        self.problem: str | None = _problem(schema)
        """What is wrong with the schema itself, or None; a schema with a problem accepts every value."""
        self._validator: Validator | None = None
        if self.problem is None:
            cls: Any = validator_for(schema)
            self._validator = cls(schema)

    def violations(self, value: object) -> list[Violation]:
        """Every way ``value`` fails the schema, sorted by path (empty when it passes)."""
        if self._validator is None:
            return []
        validator: Any = self._validator  # jsonschema types instances as JSON; any Python value is checked
        try:
            errors = list(validator.iter_errors(value))
        except (Unresolvable, UnknownType, RecursionError):  # a $ref or type the schema cannot resolve
            return []
        found = [Violation(path=tuple(_parts(e)), message=e.message) for e in errors]
        return sorted(found, key=lambda v: [str(p) for p in v.path])

    def is_valid(self, value: object) -> bool:
        """Whether ``value`` passes (always, when the schema itself is invalid)."""
        return not self.violations(value)


def schema_check(schema: Mapping[str, Any]) -> SchemaCheck:
    """The (cached) check for ``schema``: equal schemas share one compiled validator."""
    try:
        key = json.dumps(schema, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return SchemaCheck(schema)
    return _cached(key)


@lru_cache(maxsize=1024)
def _cached(schema_json: str) -> SchemaCheck:
    return SchemaCheck(json.loads(schema_json))


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """What is wrong with ``schema`` as a JSON schema (its meta-schema's message), or None when it is valid."""
    return schema_check(schema).problem


def arguments_message(tool: str, schema: Mapping[str, Any], violations: Sequence[Violation]) -> str:
    """The one message a model gets when its arguments do not match a tool's input schema.

    Lists the first `MAX_SHOWN_ERRORS` violations with their paths, says what to do, and quotes the schema
    (cut at 1,500 characters) so the model can fix the call without scrolling back to the system prompt.
    """
    lines = "\n".join(f"- {v}" for v in violations[:MAX_SHOWN_ERRORS])
    shown = json.dumps(dict(schema), ensure_ascii=False, default=str)[:_MAX_SCHEMA_SHOWN]
    return (
        f"Invalid arguments for tool {tool!r}:\n{lines}\n"
        f"Fix the arguments to match the input schema and call the tool again. Input schema: {shown}"
    )


def _problem(schema: Mapping[str, Any]) -> str | None:
    try:
        cls: Any = validator_for(schema)
        cls.check_schema(schema)
    except SchemaError as exc:
        return exc.message
    except (Unresolvable, UnknownType, RecursionError, TypeError) as exc:
        return str(exc) or type(exc).__name__
    return None


def _parts(error: _JsonschemaError) -> Iterable[str | int]:
    for part in error.absolute_path:
        yield part if isinstance(part, int) else str(part)


def unknown_tool_message(name: str, known: Iterable[str]) -> str:
    """The model's message for a call to a tool that is not offered (the one wording, whoever found it): the
    nearest name when there is one, then every name it may call."""
    valid = sorted(known)
    close = difflib.get_close_matches(name, valid, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    return f"Unknown tool {name!r}.{hint} Available tools: {', '.join(valid) or '(none)'}."
