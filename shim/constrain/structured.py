"""Structured output through the provider: ``response_format`` (Chat Completions) and ``format`` (Ollama).

A request's format is read into a `StructuredOutput` (`parse_response_format`, `parse_ollama_format`), and the
server answers it with the engine's own mechanism where there is one, else with the prompt:

| method | used when | how |
|---|---|---|
| ``grammar`` | embedded llama.cpp | a GBNF grammar of the schema (`shim.constrain.gbnf.schema_grammar`) |
| ``format`` | Ollama | Ollama's ``format`` field: the schema, or ``"json"`` |
| ``response_format`` | OpenAI-compatible engines | the client's ``response_format``, passed through |
| ``prompt`` | any other engine, or tools may be called | an instruction in the system message |

Whatever the method, the final answer is read leniently (code fences, text around the JSON: the server reads
it, with the parser's lenient JSON) and validated against the schema (`StructuredOutput.check`); an answer that
fails goes back to the model with the problem, at most `MAX_RETRIES` times (that loop runs in the server,
`shim.server.structured`), and the client receives the JSON text itself.
When the request offers tools, the engine mechanism would forbid the calls, so the prompt is used and calls pass
through as usual.

The response says which method was used in the header ``x-shim-structured-output`` (clients ignore unknown
headers), e.g. ``x-shim-structured-output: grammar``: the server's loop chooses the method and tells the response
(`shim.notices`), so the header is that choice, never a second one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, cast

from shim.validation import schema_check, schema_problem

__all__ = [
    "ANY_JSON_GBNF",
    "HEADER",
    "MAX_RETRIES",
    "StructuredMethod",
    "StructuredOutput",
    "calls_possible",
    "parse_ollama_format",
    "parse_response_format",
    "structured_method",
]

StructuredMethod: TypeAlias = Literal["grammar", "format", "response_format", "prompt"]
HEADER = "x-shim-structured-output"
"""The response header naming the method (told by the loop that chose it, through `shim.notices`)."""
MAX_RETRIES = 2
"""Answers that fail the schema sent back to the model before the last one stands."""

ANY_JSON_GBNF = r"""root ::= object
value ::= object | array | string | number | ("true" | "false" | "null") ws
object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws
array ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" (["\\bfnrt/] | "u" [0-9a-fA-F]{4}) )* "\"" ws
number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9]{1,3})? ws
ws ::= | " " | "\n" [ \t]{0,20}"""
"""Any JSON object (``json_object``, or a schema the converter cannot express)."""


class _Engine(Protocol):
    """What this module asks of a backend (`shim.backends.base.Backend`, a floor above)."""

    @property
    def structured_output(self) -> StructuredMethod | None: ...


class _Request(Protocol):
    """What this module asks of a request (`shim.server.chat.ChatRequest`, a floor above)."""

    @property
    def structured(self) -> StructuredOutput | None: ...
    @property
    def tools(self) -> Sequence[object]: ...
    @property
    def tool_choice(self) -> object: ...


@dataclass(frozen=True, kw_only=True)
class StructuredOutput:
    """What the final answer must be: JSON matching ``schema``, or any JSON object when it is None."""

    schema: dict[str, Any] | None = None
    name: str | None = None
    """The schema's name (``response_format.json_schema.name``), for the instruction."""
    raw: Mapping[str, Any] | str | None = None
    """The request's own field, passed through to engines that read it."""

    def instruction(self) -> str:
        """The system-prompt text asking for the format (the ``prompt`` method)."""
        if self.schema is None:
            return "Answer with a single JSON object and nothing else: no prose, no code fences."
        named = f" (named {self.name!r})" if self.name else ""
        return (
            f"Answer with a single JSON value that matches this JSON schema{named}, and nothing else: no prose, "
            f"no code fences.\nSchema: {json.dumps(self.schema, ensure_ascii=False)}"
        )

    def check(self, value: Any) -> tuple[Any, str | None]:
        """Validate an answer's JSON value: ``(value, None)``, or ``(None, what is wrong)``."""
        if self.schema is None:
            if isinstance(value, dict):
                return cast("dict[str, Any]", value), None
            return None, "the answer must be a JSON object"
        # A schema that is not valid accepts everything (it was checked when the request was read).
        violations = schema_check(self.schema).violations(value)
        return (None, str(violations[0])) if violations else (value, None)


def parse_response_format(value: Any) -> StructuredOutput | None:
    """Chat Completions' ``response_format``: ``text`` (None), ``json_object``, or ``json_schema``.

    Raises:
        ValueError: the object is not one of those, or its schema is not a valid JSON schema.
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError(f"response_format must be an object with a 'type'; got {value!r}")
    data: Mapping[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
    kind = data.get("type")
    if kind == "text":
        return None
    if kind == "json_object":
        return StructuredOutput(raw=data)
    if kind == "json_schema":
        spec = data.get("json_schema")
        if not isinstance(spec, Mapping) or not isinstance(spec.get("schema", {}), Mapping):  # pyright: ignore[reportUnknownMemberType]
            raise ValueError("response_format json_schema needs 'json_schema': {'name': ..., 'schema': {...}}")
        inner: Mapping[str, Any] = spec  # pyright: ignore[reportUnknownVariableType]
        schema = _checked_schema(inner.get("schema") or {"type": "object"}, "response_format.json_schema.schema")
        name = inner.get("name")
        return StructuredOutput(schema=schema, name=name if isinstance(name, str) else None, raw=data)
    raise ValueError(f"response_format type {kind!r} is not one of 'text', 'json_object', 'json_schema'")


def parse_ollama_format(value: Any) -> StructuredOutput | None:
    """Ollama's ``format``: ``""``/None (free text), ``"json"``, or a JSON schema object.

    Raises:
        ValueError: anything else, or a schema that is not a valid JSON schema.
    """
    if value in (None, ""):
        return None
    if value == "json":
        return StructuredOutput(raw="json")
    if isinstance(value, Mapping):
        schema = _checked_schema(value, "format")  # pyright: ignore[reportUnknownArgumentType]
        return StructuredOutput(schema=schema, raw=schema)
    raise ValueError(f"'format' must be \"json\" or a JSON schema object; got {value!r}")


def structured_method(backend: _Engine, structured: StructuredOutput, *, calls_possible: bool) -> StructuredMethod:
    """How ``structured`` is answered on ``backend`` (see the module docstring)."""
    if calls_possible:
        return "prompt"
    return backend.structured_output or "prompt"


def calls_possible(request: _Request, server_tools: bool) -> bool:
    """The model may call a tool on this request: then the engine's mechanism, which forbids calls, is not used."""
    return server_tools or (bool(request.tools) and request.tool_choice != "none")


def _checked_schema(schema: Any, where: str) -> dict[str, Any]:
    if not isinstance(schema, Mapping):
        raise ValueError(f"{where} must be a JSON schema object; got {schema!r}")
    data = dict(cast("Mapping[str, Any]", schema))
    if (problem := schema_problem(data)) is not None:
        raise ValueError(f"{where} is not a valid JSON schema: {problem}")
    return data
