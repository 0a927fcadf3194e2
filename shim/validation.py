"""The one module that imports ``jsonschema``: schema checks, cached validators and the model's error message.

Everything in shim that judges a value against a JSON schema comes through here: the router (tool
arguments), the agent (arguments of the caller's own external tools), the prompt's example call, structured
output (``response_format``) and the server's request reader (is a client's schema itself valid). So there
is one validator factory, one cache (a server's clients send the same tools with every request, and checking
a schema against its meta-schema costs milliseconds), and one wording for the model when its arguments are
wrong, whichever path found the fault.

Patterns (``pattern``, ``patternProperties``, and ``additionalProperties`` beside them) come from clients and
are matched against model output, so they run on the ``regex`` engine with a time budget (`PATTERN_BUDGET`
seconds per validation), never on Python's backtracking ``re`` without one: ``"^(a+)+$"`` against a
26-character answer froze the server for 15 s. A value whose check runs out of time fails with a message
saying so.

A schema that is itself invalid cannot judge anything: its validator accepts every value, and
`schema_problem` says what is wrong with it for the callers that must refuse it (the server's request
reader) or log it (the router).
"""

from __future__ import annotations

import difflib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, Generic, TypeVar, cast

import regex
from jsonschema.exceptions import SchemaError, UnknownType
from jsonschema.exceptions import ValidationError as _JsonschemaError
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for  # pyright: ignore[reportUnknownVariableType]  # untyped in jsonschema
from referencing.exceptions import Unresolvable

__all__ = [
    "MAX_SHOWN_ERRORS",
    "PATTERN_BUDGET",
    "SchemaCheck",
    "SizedCache",
    "Violation",
    "arguments_message",
    "nesting_depth",
    "schema_check",
    "schema_problem",
    "unknown_tool_message",
]

MAX_SHOWN_ERRORS = 5
"""At most this many violations are listed for the model; the rest would only bury the first ones."""

PATTERN_BUDGET = 0.1
"""Seconds of pattern matching one validation may spend, all its patterns together."""

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
            self._validator = _safe_class(validator_for(schema))(schema)

    def violations(self, value: object) -> list[Violation]:
        """Every way ``value`` fails the schema, sorted by path (empty when it passes)."""
        if self._validator is None:
            return []
        validator: Any = self._validator  # jsonschema types instances as JSON; any Python value is checked
        _budget.deadline = time.monotonic() + PATTERN_BUDGET
        try:
            errors = list(validator.iter_errors(value))
        except (Unresolvable, UnknownType, RecursionError):  # a $ref or type the schema cannot resolve
            return []
        finally:
            _budget.deadline = None
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


def _cached(schema_json: str) -> SchemaCheck:
    found = _checks.get(schema_json)
    if found is None:
        found = SchemaCheck(json.loads(schema_json))
        _checks.put(schema_json, found)
    return found


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    """A least-recently-used cache bounded by the summed size of its keys (their length: schema texts), not
    by a count: 1,024 cached 2 MB schemas would be 2 GB. An entry larger than a quarter of the bound is not
    kept at all. Thread-safe (validation may run on worker threads)."""

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self.size = 0
        """The summed size of the keys held."""
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        size = _size(key)
        if size > self.max_size // 4:
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = value
            self.size += size
            while self.size > self.max_size and self._items:
                old, _ = self._items.popitem(last=False)
                self.size -= _size(old)


def _size(key: object) -> int:
    return len(key) if isinstance(key, (str, bytes)) else 64


_checks: SizedCache[str, SchemaCheck] = SizedCache(32 * 1024 * 1024)


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


_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def nesting_depth(body: bytes) -> int:
    """How deep a JSON text nests arrays and objects, counted in C-speed passes over the bytes (no recursion,
    no per-value Python work). Exact for valid JSON; for invalid JSON any number (json.loads rejects it next).
    """
    # Inside strings, backslashes only start escapes, read left to right: drop escaped backslashes, then
    # escaped quotes, and every quote left delimits a string; the text outside strings is every other piece.
    if b"\\" in body:
        body = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(body.split(b'"')[::2])
    steps = outside.translate(_STEPS, _NOT_BRACKETS)  # [ { -> +1, ] } -> -1, everything else dropped
    return max(accumulate(memoryview(steps).cast("b")), default=0)


class _PatternTimeout(Exception):
    pass


_budget = threading.local()
"""``deadline``: the monotonic time the running validation's patterns must finish by (per thread)."""


def _search(pattern: str, text: str) -> bool:
    """``pattern`` matches somewhere in ``text``, on the ``regex`` engine within the validation's budget.

    Raises:
        _PatternTimeout: the budget ran out.
    """
    deadline: float | None = getattr(_budget, "deadline", None)
    remaining = PATTERN_BUDGET if deadline is None else deadline - time.monotonic()
    if remaining <= 0:
        raise _PatternTimeout
    try:
        return regex.search(pattern, text, timeout=remaining) is not None
    except TimeoutError:
        raise _PatternTimeout from None
    except (regex.error, TypeError, ValueError, OverflowError):  # a pattern regex cannot read judges nothing
        return True


def _too_slow(pattern: str) -> _JsonschemaError:
    return _JsonschemaError(f"the value took too long to check against the pattern {pattern[:100]!r}")


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterable[_JsonschemaError]:
    del schema
    if not (validator.is_type(instance, "string") and isinstance(pattern, str)):
        return
    try:
        if not _search(pattern, instance):
            yield _JsonschemaError(f"{instance!r} does not match {pattern!r}")
    except _PatternTimeout:
        yield _too_slow(pattern)


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterable[_JsonschemaError]:
    del schema
    if not validator.is_type(instance, "object") or not isinstance(patterns, Mapping):
        return
    for pattern, subschema in patterns.items():  # pyright: ignore[reportUnknownVariableType]
        for key, item in instance.items():
            try:
                matched = _search(str(pattern), key)  # pyright: ignore[reportUnknownArgumentType]
            except _PatternTimeout:
                yield _too_slow(str(pattern))  # pyright: ignore[reportUnknownArgumentType]
                return
            if matched:
                yield from validator.descend(item, subschema, path=key, schema_path=pattern)


def _additional_properties(
    original: Any,
) -> Callable[[Any, Any, Any, Any], Iterable[_JsonschemaError]]:
    def check(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterable[_JsonschemaError]:
        patterns = cast("Mapping[str, Any]", schema).get("patternProperties") if isinstance(schema, Mapping) else None
        if not patterns or not isinstance(patterns, Mapping) or not validator.is_type(instance, "object"):
            yield from original(validator, extra, instance, schema)
            return
        properties: Any = cast("Mapping[str, Any]", schema).get("properties", {})
        joined = "|".join(str(p) for p in patterns)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        extras: list[str] = []
        for key in instance:
            if key in properties:
                continue
            try:
                if _search(joined, key):
                    continue
            except _PatternTimeout:
                yield _too_slow(joined)
                return
            extras.append(key)
        if validator.is_type(extra, "object"):
            for key in extras:
                yield from validator.descend(instance[key], extra, path=key)
        elif extra is False and extras:
            listed = ", ".join(repr(k) for k in sorted(extras))
            yield _JsonschemaError(f"{listed} do not match any of the regexes: {joined!r}")

    return check


@lru_cache(maxsize=16)
def _safe_class(cls: Any) -> Any:
    """``cls`` (a jsonschema validator class) with every pattern matched by `_search`."""
    keywords: dict[str, Any] = {"pattern": _pattern, "patternProperties": _pattern_properties}
    original = cls.VALIDATORS.get("additionalProperties")
    if original is not None:
        keywords["additionalProperties"] = _additional_properties(original)
    return extend(cls, keywords)  # pyright: ignore[reportUnknownVariableType]  # untyped in jsonschema
