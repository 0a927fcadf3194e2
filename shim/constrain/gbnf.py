"""A `CallConstraint` as a llama.cpp GBNF grammar, through llama-cpp-python's JSON-schema converter.

```
root     ::= shimgap shimbody shimgap "</function_call>"  (after the opener: the engine switches it on there)
root     ::= shimcall (shimgap shimcall)* shimgap        (forced: the whole reply is calls; it may end after
                                                         the whitespace that follows a call, not only before it;
                                                         with max_calls N, (shimgap shimcall){0,N-1}, none for 1)
root     ::= shimcall                                    (include_opener: an engine that starts it at the opener)
shimcall ::= "<function_call>" shimgap shimbody shimgap "</function_call>"
shimbody ::= the converter's rules for the union of {"name": const, "arguments": inputSchema}
shimgap  ::= up to 4 spaces, tabs or newlines
```

The converter names its own rules after the schema's properties, all prefixed with ``shimbody-``, plus
shared primitives (``string``, ``value``, ``space``...), so the wrapper's ``root``/``shimcall``/``shimgap``
never clash with them. A tool whose schema the converter cannot express (a remote ``$ref``, a construct it
asserts on) gets `loose_arguments` (any JSON object) instead; the call is still checked against the real
schema with ``jsonschema`` after parsing. Grammars are cached per constraint (a server's clients send the
same tools with every request).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shim.constrain.limits import GrammarUnavailable, check_grammar_bounds, converter_module
from shim.constrain.schema import CallConstraint, call_schema
from shim.types import ToolSpec

__all__ = ["CallGrammar", "call_grammar", "schema_grammar"]

_GAP = r"shimgap ::= [ \t\n]{0,4}"


@dataclass(frozen=True, kw_only=True)
class CallGrammar:
    """A compiled constraint: the GBNF text and what had to be loosened to get it."""

    text: str
    """The GBNF grammar; its start rule is ``root``."""
    trigger: str
    """The opener. Unless the constraint is forced, the grammar starts right *after* it: the engine watches
    for it in free text and switches the grammar on there."""
    loose: frozenset[str]
    """Tools whose arguments are any JSON object in the grammar (their schema could not be converted)."""


def call_grammar(constraint: CallConstraint, *, all_loose: bool = False, include_opener: bool = False) -> CallGrammar:
    """The grammar for ``constraint`` (cached).

    Args:
        constraint: The turn's calls and markers.
        all_loose: Give every tool loose arguments (the fallback when llama.cpp rejects the exact grammar).
        include_opener: For an engine whose lazy grammar starts *at* the trigger (``llama-server``'s
            ``grammar_triggers``): ``root ::= shimcall``. Forced grammars always include it.
    """
    key = (constraint.key(), all_loose, include_opener)
    grammar = _cache.get(key)
    if grammar is None:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        grammar = _cache[key] = _build(constraint, all_loose, include_opener)
    return grammar


_CACHE_SIZE = 64
_cache: dict[tuple[str, bool, bool], CallGrammar] = {}
"""Grammars by constraint (constraints hold dicts, which do not hash, so their `key` text is the key)."""


def _build(constraint: CallConstraint, all_loose: bool, include_opener: bool) -> CallGrammar:
    tools = constraint.tools
    for tool in tools:  # before the converter, which writes every repetition out in full
        check_grammar_bounds(tool.input_schema, f"the parameters of tool {tool.name!r}")
    loose = frozenset(t.name for t in tools) if all_loose else frozenset(t.name for t in tools if not _converts(t))
    body = _convert(call_schema(tools, loose=loose), "shimbody")
    opener, closer = _literal(constraint.trigger), _literal(constraint.closer)
    if constraint.forced:
        # The trailing gap: a model that writes a newline after its call must still be able to stop there;
        # without it the newline could only lead to another call, and a small model repeated its call until
        # the token limit.
        bound = constraint.max_calls
        more = "(shimgap shimcall)* " if bound is None else f"(shimgap shimcall){{0,{bound - 1}}} " if bound > 1 else ""
        root = f"root ::= shimcall {more}shimgap"
    elif include_opener:
        root = "root ::= shimcall"
    else:
        root = f"root ::= shimgap shimbody shimgap {closer}"
    text = "\n".join([root, f"shimcall ::= {opener} shimgap shimbody shimgap {closer}", _GAP, body])
    return CallGrammar(text=text, trigger=constraint.trigger, loose=loose)


def schema_grammar(schema: dict[str, Any]) -> str | None:
    """A grammar for one JSON value matching ``schema`` (structured output), or None when the converter
    cannot express it or is not installed.

    Raises:
        ConfigError: the schema's grammar would be too large (`shim.constrain.limits`).
    """
    check_grammar_bounds(schema, "the schema")
    try:
        return _convert(schema, "")
    except (*_CONVERTER_ERRORS, GrammarUnavailable):
        return None


_CONVERTER_ERRORS = (ValueError, AssertionError, KeyError, TypeError, IndexError, RecursionError, AttributeError)


def _converts(tool: ToolSpec) -> bool:
    try:
        _convert(call_schema([tool]), "shimbody")
    except _CONVERTER_ERRORS:
        return False
    return True


def _convert(schema: dict[str, Any], name: str) -> str:
    grammar: Any = converter_module()  # GrammarUnavailable without the llama extra
    converter = grammar.SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    # The converter resolves and annotates $refs in place: give it a copy.
    resolved = converter.resolve_refs(json.loads(json.dumps(schema)), "input")
    converter.visit(resolved, name)
    return "\n".join(_strict_char(line) for line in str(converter.format_grammar()).splitlines())


# The converter's string character is any character but '"' and '\\', control characters included, which
# JSON forbids raw inside strings (newer llama.cpp converters exclude them the same way).
_CHAR_PREFIX = r'char ::= [^"\\] '
_STRICT_CHAR = r'char ::= [^"\\\x7F\x00-\x1F] '


def _strict_char(line: str) -> str:
    return _STRICT_CHAR + line[len(_CHAR_PREFIX) :] if line.startswith(_CHAR_PREFIX) else line


def _literal(text: str) -> str:
    # GBNF literals take JSON-style escapes.
    return json.dumps(text, ensure_ascii=False)
