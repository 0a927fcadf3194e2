"""Normalise the many shapes models give a call to ``(name, arguments)``, and resolve names to known tools.

Every family's body goes through here, so a family reader says only where a call starts and ends and how
its arguments are spelled. Accepted shapes:

- ``{"name", "arguments"}`` with the name spelled ``tool_name`` / ``function_name`` / ``tool`` / ``function`` /
  ``method`` / ``skill`` / ``action`` and the arguments ``parameters`` / ``args`` / ``input`` / ``tool_input`` /
  ``params`` / ``argument`` / ``action_input`` / ``kwargs`` / ``function_args``; arguments as an object or a
  JSON-encoded string; none meaning ``{}``;
- the call one or more levels down under a wrapper key (``function``, ``tool``, ``tool_call``, ``call``,
  ``function_call``), to a bounded depth: ``{"type": "function", "function": {…}}``, DeepChat's
  ``{"function_call": {"name": …, "arguments": …}}``;
- ``{"tool": NAME, ...flat arguments}``, ``{"tool_call": NAME, ...}``, langroid's ``{"request": NAME, ...}`` (an
  offered tool's); JSON-RPC
  ``{"method", "params"}`` (MCP's own ``tools/call`` too);
- the tool's name as the only key, with offered tools as evidence: ``{"get_weather": {"city": "Paris"}}`` (Apertus);
- a list of calls, bare (``[{…}, {…}]``) or in an OpenAI-style message envelope (``{"tool_calls": [{…}]}``, the
  envelope itself nested once more as DSPy's JSONAdapter prints it);
- a ``thought``, an ``output`` variable or an imagined ``response`` beside the name and arguments (SWE-agent,
  Hermes' output chaining, Granite's ``tool_action``); the call one level down under ``command`` or ``action``
  when the object names no tool itself.

Names resolve against the offered tools exactly first, then by safe normalisation (case; ``-``, ``_``, ``.``
and spaces alike; a namespace prefix such as ``functions.``; a built-in's ``NAME.call``; a special token such as
``<|message|>`` printed into the name; a call id's index and a cut token after it, ``NAME:0<|tool_call``; a Markdown
escape, ``get\\_weather``), only where one tool fits.
Arguments that are one wrapper parameter the schema does not have (``{"arguments": {…}}``, ``{"input": "{…}"}``)
are unwrapped (`call_arguments`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARG_KEYS, NAME_KEYS, SCALAR_KINDS, WRAPPER_KEYS
from shim.parsing.pythonic import MARKDOWN_ESCAPE
from shim.types import ToolSpec, tool_specs

__all__ = [
    "CallShape",
    "ShapeError",
    "ToolIndex",
    "call_arguments",
    "call_id",
    "call_items",
    "one_parameter",
    "positional_arguments",
    "to_call",
]

_META_KEYS = frozenset({"type", "id", "call_id", "tool_call_id", "jsonrpc"})
_ROUTING_KEYS = frozenset({"server_idx", "server_index", "server_id", "server_name", "server", "mcp_server"})
"""Which server a framework routes the call to (CAMEL's MCPAgent ``{server_idx, tool_name, tool_args}``): metadata
beside named arguments, never an argument (a flat call keeps them as arguments)."""
_NAME_KEYS = (
    *NAME_KEYS,
    "recipient_name",
    "toolName",
    "functionName",
    "_name",
    "tool_action",
    "tool_call",
    "function_call",
    "skill",
    "api_name",
    "func_name",
    "tool_call_name",
    "action",
)
"""``action`` last: a flat call may have an argument of that name. ``skill``: android-ai-agent's prompt asks for
``{"skill": NAME, "parameters": {…}}``; ``api_name`` (API-Bank, ToolBench) and ``func_name`` are the API's and the
function's name as datasets spell them. ``recipient_name``: OpenAI's
``multi_tool_use.parallel`` items; ``_name``: TGI's grammar output ``{"function": {"_name": NAME, …flat}}``."""
_FLAT_NAME_KEYS = frozenset({"_name"})
"""Name keys whose call writes its arguments flat beside them by design (a canonical call, not a guess)."""
_CALL_NAME_KEYS = frozenset({"tool_call", "function_call", "tool"})
"""Keys that say the object is a call, holding its tool's name as a string (SmallCTL's small models:
``{"tool_call": "artifact_read", "artifact_id": "A0001"}``; mini-codex's prompt: ``{"tool": "shell", "cmd": …}``,
Qwen2.5 in a ```json fence: ``{"tool": "list_files", "path": "."}``):
arguments flat beside it count where the name is an offered tool's (an object under the key is the call itself:
`_WRAPPERS`)."""
_ARG_KEYS = (
    *ARG_KEYS,
    "action_input",
    "kwargs",
    "tool_args",
    "tool_arguments",
    "function_arguments",
    "function_args",
    "func_args",
    "api_args",
    "tool_params",
    "tool_call_arguments",
)
_WRAPPERS = (*WRAPPER_KEYS, "function_call")
_MAX_DEPTH = 4
"""How many wrapper levels a call may sit under (``{"tool_call": {"function": {…}}}`` is two)."""
_ARG_WRAPPERS = frozenset(
    {"arguments", "parameters", "args", "input", "params", "kwargs", "tool_input", "properties", "input_schema"}
)
"""Keys a model nests its arguments under once more than asked; ``properties``: the JSON Schema's level, copied from
the tool's declaration (LFM2 in mlx-swift-lm's tests: ``get_weather(properties={"location": "Tokyo"})``);
``input_schema``: the declaration's own key (Anthropic's), under which agent_tools' prompt has calls give their values
(``{"tool": "file", "input_schema": {"operation": "write", …}}``): unwrapped only where every inner key is declared."""
_ENVELOPE_KEYS = ("tool_calls", "function_calls", "tool_uses", "calls", "functions", "tools", "actions")
"""``tools``: localite's "Qwen tools[]" format (``{"tools": [{"list_files": {"path": "."}}]}``), where the list calls
tools; a list declaring them (`_declarations`) is no envelope. ``actions``: an agent's list of the actions it takes."""
_SINGULAR_ENVELOPE_KEYS = ("tool_call", "function_call")
"""A one-call wrapper's key holding a list (``{"tool_call": [{…}]}``, Qwen3.5-Plus in vllmchatclient's tests): the
list is the calls, as under ``tool_calls``."""
_PARALLEL = frozenset({"multi_tool_use.parallel", "parallel"})
"""OpenAI's built-in fan-out: ``{"recipient_name": "multi_tool_use.parallel", "parameters": {"tool_uses": […]}}``
holds the calls themselves."""
_ENVELOPE_META = frozenset({"role", "content", "type", "id", "mode"})
"""Keys of a message around its calls: ``mode`` is LlamaSharp.ToolCallEnvelopes' (``{"mode": "tool_calls", "text":
"", "calls": […]}``), the kind of reply the grammar let the model choose."""
_DECISION_NOTES = frozenset({"reasoning_summary", "reason", "confidence"})
"""A decision's notes on its call, beside the call or its list of calls: why (minimal-agent-runtime's
``reasoning_summary``, wechat-AIagent's ``reason``) and how sure the model is (``confidence``): never arguments when
the arguments have their own key, never the reply's text."""
_ENVELOPE_NOTES = frozenset({"thought", "thoughts", "reasoning", *_DECISION_NOTES})
"""The model's notes beside a list of calls (``{"type": "tool_call", "reasoning_summary": …, "tool_calls": […]}``):
what `_BESIDE_ARGUMENTS`' notes are beside one call (not its ``output`` or ``response``, which may be the reply)."""
_BESIDE_ARGUMENTS = frozenset({"thought", "thoughts", "reasoning", "output", "response", "result"})
"""Keys a call object may carry beside its name and arguments without ceasing to be a call: the model's note on
why (SWE-agent's ``thought``), the variable its output goes to (Hermes' ``output``
chaining), or the result it imagined (``response``). Never arguments when the arguments have their own key; a flat
call keeps them where the tool's schema declares them or is unknown."""
_SCHEMA_NOTES = frozenset({"additionalProperties", "$schema"})
"""JSON Schema keywords a model copies from the tool's declaration beside its call's name and arguments (rnj-1 on LM
Studio: ``{"name": …, "arguments": {…}, "additionalProperties": false}``): the schema's words, never the call's; a
call keeps its arguments under their own key, so these are notes, not arguments."""
_CALL_KINDS = frozenset({"call_tool", "tool_call", "tool", "call", "function_call", "use_tool", "tool_use"})
"""The kind of action an agent's envelope names beside the tool's own name key (datadog-triage-agent's
``{"action": "call_tool", "tool": NAME, "arguments": {…}}``, Granite Code agents' ``{"action": "tool", "tool": NAME,
…}``): ``action`` says the reply is a call, and is no argument once the arguments have their own key."""
_OUTER_WRAPPERS = ("command", "action")
"""Wrapper keys counted only when the object names no tool itself: SWE-agent's ``{"thought": …, "command":
{"name": …, "arguments": …}}`` (a flat call may have a ``command`` argument holding anything)."""


class ShapeError(ValueError):
    """The object is not a call; the message says what is missing, for the model to fix."""


@dataclass(frozen=True)
class CallShape:
    name: str
    arguments: dict[str, Any]
    canonical: bool
    """True when every key is a name, arguments or metadata key: what untagged JSON must look like to count."""


def to_call(obj: Any, tools: ToolIndex | None = None, *, unwrap: bool = True, _depth: int = 0) -> CallShape:
    """Read a parsed JSON value as one call.

    ``tools`` (the offered tools) lets a call keyed by its tool's name count and, with ``unwrap``, arguments
    nested in one wrapper parameter be unwrapped; a reader that already streamed the arguments as written
    passes ``unwrap=False`` (the chunks must add up to the final arguments).

    Raises:
        ShapeError: no tool name, or arguments that are not an object.
    """
    if not isinstance(obj, dict):
        raise ShapeError(f"a call must be a JSON object, not {type(obj).__name__}")
    data = _unsigiled(cast("dict[str, Any]", obj))
    data = _harness_keyed(data, tools)
    if data.get("method") == "tools/call" and isinstance(data.get("params"), dict):
        return to_call(data["params"], tools, unwrap=unwrap, _depth=_depth + 1)
    if _declaration(data, tools):
        raise ShapeError("a tool's declaration (its parameters' JSON schema), not a call: no values are given")
    if _depth < _MAX_DEPTH:
        for key in _WRAPPERS:
            inner = data.get(key)
            if isinstance(inner, dict) and any(k in inner for k in ("name", *_NAME_KEYS, *_ARG_KEYS, *_WRAPPERS)):
                rest = {k: v for k, v in data.items() if k != key}
                return to_call({**rest, **cast("dict[str, Any]", inner)}, tools, unwrap=unwrap, _depth=_depth + 1)
    name_key = next((k for k in _NAME_KEYS if isinstance(data.get(k), str) and data[k].strip()), None)
    name_key = name_key or _tool_id_key(data, tools)
    requested = _requested(data, name_key, tools)
    if requested is not None:
        return requested
    if name_key is None and _depth < _MAX_DEPTH:
        for key in _OUTER_WRAPPERS:
            inner = data.get(key)
            if isinstance(inner, dict) and any(k in inner for k in _NAME_KEYS):
                rest = {k: v for k, v in data.items() if k != key}
                return to_call({**rest, **cast("dict[str, Any]", inner)}, tools, unwrap=unwrap, _depth=_depth + 1)
    if name_key is None:
        keyed = _keyed_by_name(data, tools)
        if keyed is not None:
            return keyed
        raise ShapeError('the call has no tool name: write {"name": "<tool name>", "arguments": {...}}')
    name = str(data[name_key]).strip()
    args_key = next((k for k in _ARG_KEYS if k in data), None)
    rest = {k: v for k, v in data.items() if k != name_key and k not in _META_KEYS}
    if args_key is None:
        # {"tool": NAME, "city": "Paris"}: the other keys are the arguments, but for a note beside the call that
        # the tool's schema does not declare (Hermes' `"output": "random_city"` chaining on a tool of no parameters).
        if tools is not None:
            rest = _without_notes(tools, name, rest)
        called = (
            tools is not None and tools.is_known(name) and (name_key in _CALL_NAME_KEYS or _declared(tools, name, rest))
        )
        return CallShape(name, rest, canonical=not rest or name_key in _FLAT_NAME_KEYS or called)
    if tools is not None and set(rest) - {args_key} and tools.is_known(name) and _declared(tools, name, rest):
        # {"tool": "dbus_native", "action": "service_status", "args": {…}} (ubuntu-ai-agent's prompt): the offered
        # tool declares every key beside the name, the arguments key's word among them: flat arguments, as written.
        return CallShape(name, rest, canonical=True)
    raw_args: Any = data[args_key]
    if isinstance(raw_args, str):
        try:
            raw_args = lenient_json.loads(raw_args) if raw_args.strip() else {}
        except lenient_json.LenientJSONError as exc:
            # A plain string: the value of the tool's one parameter (smolagents, LangChain), if it has one.
            one = one_parameter(tools, name, raw_args) if tools is not None else None
            if one is None:
                raise ShapeError(f"the arguments of {name!r} are a string that is not a JSON object ({exc})") from None
            raw_args = one
    if raw_args is None or (isinstance(raw_args, list) and not raw_args):
        # `"arguments": []`: no arguments as a serializer writes an empty map that is also a list (PHP's
        # json_encode of `[]`, Xerxes' Mistral tests), as None is.
        raw_args = {}
    if isinstance(raw_args, list) and len(raw_args) == 1 and isinstance(raw_args[0], dict):  # pyright: ignore[reportUnknownArgumentType]
        # `"parameters": [{"city": "Tokyo"}]` (Llama 3.2 3B on Ollama): the one object the list holds is the
        # arguments; a list of several objects stays an error (which one would be a guess).
        raw_args = cast("dict[str, Any]", raw_args[0])
    if not isinstance(raw_args, dict):  # pyright: ignore[reportUnknownArgumentType]
        kind = type(cast(object, raw_args)).__name__
        raise ShapeError(f"the arguments of {name!r} must be a JSON object, not {kind}")
    extra = (
        set(rest) - {args_key} - _ROUTING_KEYS - _BESIDE_ARGUMENTS - _DECISION_NOTES - _SCHEMA_NOTES - _call_kind(rest)
    )
    arguments = cast("dict[str, Any]", raw_args)
    if tools is not None and unwrap:
        arguments = call_arguments(tools, name, arguments)
    return CallShape(name, arguments, canonical=not extra)


def _call_kind(rest: dict[str, Any]) -> set[str]:
    """``action`` beside a call's name and arguments when its value is a call word (`_CALL_KINDS`): the envelope's."""
    kind = rest.get("action")
    return {"action"} if isinstance(kind, str) and kind.strip().lower() in _CALL_KINDS else set()


_SCHEMA_WORDS = frozenset(
    {
        *("type", "properties", "required", "description", "title", "enum", "const", "default", "examples", "format"),
        *("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "additionalItems"),
        *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"),
        *("pattern", "additionalProperties", "patternProperties", "propertyNames", "nullable", "deprecated"),
        *("anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions", "$schema", "$id", "$comment"),
    }
)
"""JSON Schema's keywords (with OpenAPI's ``nullable``): an object whose keys are only these is a schema."""


def _declaration(data: dict[str, Any], tools: ToolIndex | None) -> bool:
    """An OpenAI tool declaration, ``{"type": "function", "function": {"name": …, "parameters": SCHEMA}}``, as a
    model echoes its tool list (Mistral Small after its answer: ``{"type": "function", "function": {"name": "add",
    "parameters": {"properties": {"x": {"type": "integer"}, …}, "required": […], "type": "object"}}}``): the
    declaration's own key, ``parameters``, holding a JSON Schema object (`_schema_object`) and no ``arguments``
    beside it. A call object has the same envelope but ``arguments``; a call whose values the model replaced by the
    schema in a call's own shape (``{"function": NAME, "parameters": SCHEMA}`` in a call fence) is still a call."""
    function: Any = data.get("function")
    if data.get("type") != "function" or not isinstance(function, dict):
        return False
    inner = cast("dict[str, Any]", function)
    name: Any = inner.get("name")
    params: Any = inner.get("parameters")
    if not isinstance(name, str) or not isinstance(params, dict) or "arguments" in inner:
        return False
    return _schema_object(cast("dict[str, Any]", params), tools, name)


def _schema_object(arguments: dict[str, Any], tools: ToolIndex | None, name: str) -> bool:
    """``arguments`` is a JSON Schema object, not values: ``type`` and ``properties`` (each property a schema, every
    key a schema keyword). Never where the tool ``name`` declares a parameter named ``type`` or ``properties``
    (then those keys are its arguments)."""
    props: Any = arguments.get("properties")
    if "type" not in arguments or not isinstance(props, dict) or not set(arguments) <= _SCHEMA_WORDS:
        return False
    for sub in cast("dict[str, Any]", props).values():
        if not isinstance(sub, dict) or not sub or not set(cast("dict[str, Any]", sub)) <= _SCHEMA_WORDS:
            return False
    declared = tools.properties(tools.resolve(name)) if tools is not None else None
    return not (declared and ("type" in declared or "properties" in declared))


_REQUEST_FIELDS = frozenset({"recipient", "purpose"})
"""langroid's own fields of a tool message beside ``request`` (who handles it, what the tool is for): never
arguments, unless the tool declares them."""


def _requested(data: dict[str, Any], name_key: str | None, tools: ToolIndex | None) -> CallShape | None:
    """``{"request": NAME, ...flat arguments}``: langroid's tool message, where ``request`` names the tool and its
    other keys are the arguments. Only for an offered tool's name (a ``request`` argument holding any string is
    common), and only where no other name key names another offered tool (``{"request": "create_user", "name":
    "Bob"}``: ``name`` is an argument; the same name under both keys is the call named twice)."""
    request = data.get("request")
    if tools is None or not isinstance(request, str) or not tools.is_known(request.strip()):
        return None
    name = request.strip()
    named = str(data[name_key]).strip() if name_key is not None else ""
    if named and tools.is_known(named) and tools.resolve(named) != tools.resolve(name):
        return None
    declared = tools.properties(tools.resolve(name)) or {}
    arguments = {
        k: v
        for k, v in data.items()
        if k != "request"
        and not (k == name_key and tools.is_known(named))  # the call named twice: `{"request": X, "name": X}`
        and k not in _META_KEYS
        and (k not in _REQUEST_FIELDS or k in declared)
    }
    return CallShape(name, arguments, canonical=True)


_SIGIL = regex.compile(r"[$@]")


def _unsigiled(data: dict[str, Any]) -> dict[str, Any]:
    """Shape keys written with a sigil (``{"$function": NAME}``, ``@name``: a template's own key style) or with
    blanks around the word (``"parameters "{…}``: Llama 3.2 3B's damaged ``":``) read as the key; a key that would
    collide with one written plainly is kept as written."""
    if not any(k[:1] in "$@" or k != k.strip() for k in data):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        bare = key.strip()
        bare = _SIGIL.sub("", bare, count=1) if bare[:1] in "$@" else bare
        shape_key = bare in (*_NAME_KEYS, *_ARG_KEYS, *_WRAPPERS)
        out[bare if shape_key and bare not in data else key] = value
    return out


_TOOL_ID_KEYS = ("tool_id", "toolId", "function_id")
"""Keys a harness names its tools by when its tools have ids (VaniScope's ``{"call_id": …, "tool_id":
"browser_extract", "arguments": {…}}``): a name key only where the value is an offered tool's name, for the key
more often holds an opaque id."""


def _tool_id_key(data: dict[str, Any], tools: ToolIndex | None) -> str | None:
    """The tool id key (`_TOOL_ID_KEYS`) naming the call, where no name key does and its value is an offered tool's
    name."""
    if tools is None:
        return None
    return next(
        (k for k in _TOOL_ID_KEYS if isinstance(data.get(k), str) and tools.is_known(str(data[k]).strip())), None
    )


_HARNESS_NAME_KEY = regex.compile(
    rf"(?P<prefix>[A-Za-z]{{1,16}}_)(?:{'|'.join(('tool_name', 'function_name', 'name'))})"
)
"""A name key carrying a harness's own prefix (LevelCode's ``cb_tool_name``; Codebuff's agents)."""


def _harness_keyed(data: dict[str, Any], tools: ToolIndex | None) -> dict[str, Any]:
    """A flat call named under a name key with a harness's prefix (LevelCode's ``{"cb_tool_name": "read_files",
    "paths": […], "cb_easp": true}``, inside its ``<levelcode_tool_call>``), read as ``{"name": …, …arguments}``;
    the other keys with the same prefix are the harness's own flags (``cb_easp``), never arguments, unless the tool
    declares them. Only where no key names the tool unprefixed and the value is an offered tool's name: a
    ``user_name`` argument holding any string is common, the offered name is the evidence."""
    if tools is None or any(k in _NAME_KEYS for k in data):
        return data
    found = [
        (match.group("prefix"), key)
        for key, value in data.items()
        if (match := _HARNESS_NAME_KEY.fullmatch(key)) is not None
        and isinstance(value, str)
        and tools.is_known(value.strip())
    ]
    if len(found) != 1:
        return data
    ((prefix, name_key),) = found
    declared = tools.properties(tools.resolve(str(data[name_key]).strip())) or {}
    rest = {k: v for k, v in data.items() if k != name_key and (not k.startswith(prefix) or k in declared)}
    return {"name": data[name_key], **rest}


def _keyed_by_name(data: dict[str, Any], tools: ToolIndex | None) -> CallShape | None:
    """``{"get_weather": {"city": "Paris"}}``: one key, an offered tool's name, over an object (Apertus)."""
    if tools is None or len(data) != 1:
        return None
    ((key, value),) = data.items()
    if not isinstance(value, dict) or not tools.is_known(key):
        return None
    return CallShape(key, call_arguments(tools, key, cast("dict[str, Any]", value)), canonical=True)


def one_parameter(tools: ToolIndex, name: str, value: str) -> dict[str, Any] | None:
    """A string given as a call's whole input, as arguments: the value of the tool's only parameter, or of its only
    required one (None: the tool is unknown or has no single parameter the string can be)."""
    spec = tools.specs.get(tools.resolve(name))
    if spec is None:
        return None
    written = _object_of_arguments(tools, name, value)
    if written is not None:
        return written
    props: Any = spec.input_schema.get("properties") or {}
    required: Any = spec.input_schema.get("required") or []
    if not value.strip() and not required:
        return {}
    keys = list(props) if len(props) == 1 else list(required) if len(required) == 1 else []  # pyright: ignore[reportUnknownArgumentType]
    return {str(keys[0]): value} if keys else None


def positional_arguments(tools: ToolIndex, name: str, values: list[str]) -> dict[str, Any] | None:
    """Values written in order without names (gptme's ``<invoke name="save" args="PATH">`` then the body) as the
    tool's first parameters in its schema's order; None where the tool is unknown, declares fewer parameters, or
    a required one would be left out."""
    spec = tools.specs.get(tools.resolve(name))
    if spec is None:
        return None
    props: Any = spec.input_schema.get("properties") or {}
    required: Any = spec.input_schema.get("required") or []
    keys = [str(k) for k in props]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if len(values) > len(keys):
        return None
    arguments: dict[str, Any] = dict(zip(keys, values, strict=False))
    return None if any(k not in arguments for k in required) else arguments  # pyright: ignore[reportUnknownVariableType]


def _local_ref(root: dict[str, Any], schema: Any, depth: int = 0) -> dict[str, Any] | None:
    """``schema``, or what its local ``$ref`` (``#/$defs/Location``, ``#/definitions/…``) points to in ``root``."""
    if not isinstance(schema, dict):
        return None
    node = cast("dict[str, Any]", schema)
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/") or depth > 8:
        return node
    target: Any = root
    for part in ref[2:].split("/"):
        key = part.replace("~1", "/").replace("~0", "~")
        target = cast("dict[str, Any]", target).get(key) if isinstance(target, dict) else None
    return _local_ref(root, target, depth + 1)


def _object_of_arguments(tools: ToolIndex, name: str, value: str) -> dict[str, Any] | None:
    """A whole input that is a JSON object of the tool's declared parameters (``Search[{"query": "cats"}]``,
    ``>>>search`` then ``{"query": …}`` as raw text): the arguments themselves, not the one parameter's value."""
    text = value.strip()
    arguments = lenient_json.loads_object(text) if text.startswith("{") and text.endswith("}") else None
    return arguments if arguments is not None and _declared(tools, name, arguments) else None


def _declared(tools: ToolIndex, name: str, flat: dict[str, Any]) -> bool:
    """Every key beside the name is a parameter the offered tool declares (``{"name": "get_weather", "city":
    "Paris"}``): the arguments written flat, as small models do; the tool's schema is the evidence."""
    props = tools.properties(tools.resolve(name))
    return bool(flat) and props is not None and all(k in props for k in flat)


def _without_notes(tools: ToolIndex, name: str, flat: dict[str, Any]) -> dict[str, Any]:
    """A flat call's arguments less the notes beside it (`_BESIDE_ARGUMENTS`) that the tool's declared
    parameters do not include; as written where the tool or its parameters are unknown."""
    spec = tools.specs.get(tools.resolve(name))
    props: Any = spec.input_schema.get("properties") if spec is not None else None
    if not isinstance(props, dict) or not any(k in _BESIDE_ARGUMENTS and k not in props for k in flat):
        return flat
    return {k: v for k, v in flat.items() if k not in _BESIDE_ARGUMENTS or k in props}


_PAIR = regex.compile(r"[ \t]*\(?[ \t]*(-?\d{1,6})[ \t]*[,;][ \t]*(-?\d{1,6})[ \t]*\)?[ \t]*")
_AXES = (("x", "y"), ("x1", "y1"), ("x2", "y2"), ("start_x", "start_y"), ("end_x", "end_y"))


def _point(properties: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """A point written under its first coordinate alone (``{"x": [540, 399]}``, ``{"x": "300, 700"}``, Qwen3-VL and
    Qwen3.5 clicking in APE's tests) where the schema declares both axes as numbers and the second is missing:
    split over the two."""
    for first, second in _AXES:
        value = arguments.get(first)
        if (
            value is None
            or second in arguments
            or not all(
                isinstance(properties.get(k), dict) and properties[k].get("type") in ("integer", "number")
                for k in (first, second)
            )
        ):
            continue
        pair: list[Any] | None = None
        if isinstance(value, list) and len(value) == 2 and all(type(v) in (int, float) for v in value):  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
            pair = cast("list[Any]", value)
        elif isinstance(value, str) and (found := _PAIR.fullmatch(value)) is not None:
            pair = [int(found.group(1)), int(found.group(2))]
        if pair is not None:
            arguments = {**arguments, first: pair[0], second: pair[1]}
    return arguments


_TOKEN_QUOTE = '<|"|>'
"""Gemma 4's string delimiter token, a special token no value holds: one that leaks into a JSON string (a runtime
that decodes the call to JSON but keeps the token, flutter_gemma's LiteRT-LM SDK) wraps the string's value."""


def _token_quotes_dropped(value: Any) -> Any:
    """``"<|"|>red<|"|>"`` -> ``"red"``, in nested lists and objects too (the same value where nothing changed)."""
    if isinstance(value, str):
        q = _TOKEN_QUOTE
        inner = value[len(q) : -len(q)]
        if len(value) >= 2 * len(q) and value.startswith(q) and value.endswith(q) and q not in inner:
            return inner
        return value
    if isinstance(value, dict):
        items = cast("dict[str, Any]", value)
        new = {k: _token_quotes_dropped(v) for k, v in items.items()}
        return items if all(new[k] is items[k] for k in items) else new
    if isinstance(value, list):
        seq = cast("list[Any]", value)
        changed = [_token_quotes_dropped(v) for v in seq]
        return seq if all(a is b for a, b in zip(changed, seq, strict=True)) else changed
    return value


def call_arguments(tools: ToolIndex, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments, unwrapped when the whole object was written as one wrapper parameter the tool's schema
    does not have (``{"arguments": {"city": "Paris"}}``, ``{"input": "{\"city\": \"Paris\"}"}``) and the inner
    object's keys are all the schema's: a model that nests its arguments once more than asked. A parameter the
    schema types as an array or an object, written as a JSON string of one (``{"todos": "[{…}]"}``: encoded twice),
    is decoded; a point written under its first coordinate is split over both (`_point`).

    Beside the wrapper, keys the schema does not declare that only restate the call are dropped with it: a call
    id or type (``{"id": "call-0001", "args": {…}}``, LocalAI's name-keyed calls) and the tool's own name
    (``{"name": "search", "args": {…}}`` after a name already given, Inkling's invoke).

    A string value wrapped whole in Gemma 4's ``<|"|>`` delimiter tokens is the value between them.
    """
    arguments = _token_quotes_dropped(arguments)
    arguments = _decoded_structures(tools, name, arguments)
    properties = tools.properties(name)
    if properties is None:
        return arguments
    arguments = _point(properties, arguments)
    own = tools.resolve(name)

    def restates(key: str, value: Any) -> bool:
        """A key the schema does not declare that only restates the call: its id or type, or its tool's name."""
        if key in properties:
            return False
        return key in _META_KEYS or (key in _NAME_KEYS and isinstance(value, str) and tools.resolve(value) == own)

    kept = {k: v for k, v in arguments.items() if not restates(k, v)}
    if len(kept) != 1:
        return arguments
    ((key, value),) = kept.items()
    if key not in _ARG_WRAPPERS or key in properties:
        return arguments
    if isinstance(value, str):
        try:
            value = lenient_json.loads(value)
        except lenient_json.LenientJSONError:
            return arguments
    if not isinstance(value, dict) or not set(cast("dict[str, Any]", value)) <= set(properties):
        return arguments
    return cast("dict[str, Any]", value)


_STRUCTURES: dict[str, type] = {"array": list, "object": dict}


def _decoded_structures(tools: ToolIndex, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Each string value whose parameter the schema types as an array (object) and that is, as strict JSON, an
    array (object): that value. Any other string stays as written (nothing is guessed)."""
    decoded: dict[str, Any] = {}
    for key, value in arguments.items():
        kind = _STRUCTURES.get(tools.property_type(name, key) or "") if isinstance(value, str) else None
        if kind is not None and value.lstrip()[:1] == ("[" if kind is list else "{"):
            try:
                loaded = json.loads(value)
            except ValueError:
                loaded = None
            if isinstance(loaded, kind):
                decoded[key] = loaded
    return {**arguments, **decoded} if decoded else arguments


def call_items(value: Any) -> list[Any]:
    """The call objects one JSON value holds: a list's items, the list inside a message envelope
    (``{"tool_calls": [...]}``, a single object there counting as a list of one; ``{"tool_call": [...]}``, the
    singular key holding a list), else the value itself.

    A list item that is a call encoded as a JSON string is the call (`_encoded_call`); an envelope's text part
    (``{"type": "text", "text": …}``) is skipped.

    An envelope counts only when its other keys are message metadata (``role``, ``type``, ``id``, ``mode``), the
    model's note on why (`_ENVELOPE_NOTES`) or empty (an empty ``content``, Aster's ``"assistant_text": null``): a
    message that also says something is not a bare call list, and its text would be lost.
    """
    if isinstance(value, list):
        return [item for entry in cast("list[Any]", value) for item in _parallel(_encoded_call(entry))]
    if isinstance(value, dict):
        data = cast("dict[str, Any]", value)
        key = next((k for k in _ENVELOPE_KEYS if k in data), None)
        if key is None:
            key = next((k for k in _SINGULAR_ENVELOPE_KEYS if isinstance(data.get(k), list)), None)
        others = {k for k, v in data.items() if k != key and v not in (None, "", [], {})}
        if key is not None and others <= _ENVELOPE_META | _ENVELOPE_NOTES and data.get("content") in (None, ""):
            inner: Any = data[key]
            if key == "tools" and _declarations(inner):
                return [value]  # the tools declared (a schema echoed), not calls
            if isinstance(inner, list):
                inner = [item for item in cast("list[Any]", inner) if not _text_part(item)]
            return call_items(inner)  # a list, an envelope again (DSPy's {"tool_calls": {"tool_calls": […]}}), or one
    return _parallel(value)


def _encoded_call(entry: Any) -> Any:
    """A list item that is a call object encoded as a JSON string (Llama 3.3 70B on watsonx: ``["{\"type\":
    \"function\", \"name\": …}", …]``): the object; any other item as it is."""
    if not isinstance(entry, str) or not entry.lstrip().startswith("{"):
        return entry
    try:
        decoded = json.loads(entry)
    except ValueError:
        return entry
    return cast("dict[str, Any]", decoded) if isinstance(decoded, dict) else entry


def _text_part(item: Any) -> bool:
    """An item of an envelope's list that is a message's text part (``{"type": "text", "text": …}``, grok2api's
    tests), not a call: the envelope's markup, skipped."""
    if not isinstance(item, dict):
        return False
    data = cast("dict[str, Any]", item)
    return data.get("type") == "text" and set(data) <= {"type", "text"}


_DECLARATION_KEYS = frozenset({"description", "input_schema", "inputSchema"})


def _declarations(inner: Any) -> bool:
    """A ``tools`` list that declares tools rather than calls them (an item, or its ``function``, with a
    description or an input schema, or parameters that are a JSON Schema object): a prompt's tool list echoed."""
    items = cast("list[Any]", inner) if isinstance(inner, list) else [inner]
    for item in items:
        if not isinstance(item, dict):
            continue
        data = cast("dict[str, Any]", item)
        function: Any = data.get("function")
        for level in (data, cast("dict[str, Any]", function) if isinstance(function, dict) else {}):
            if _DECLARATION_KEYS & set(level):
                return True
            params: Any = level.get("parameters")
            schema = cast("dict[str, Any]", params) if isinstance(params, dict) else {}
            if "properties" in schema and schema.get("type") == "object":
                return True
    return False


def _parallel(value: Any) -> list[Any]:
    """The calls of a ``multi_tool_use.parallel`` call (its ``tool_uses``), else the value itself."""
    if not isinstance(value, dict):
        return [value]
    data = cast("dict[str, Any]", value)
    name = next((data[k] for k in _NAME_KEYS if isinstance(data.get(k), str)), None)
    if not isinstance(name, str) or name.strip().removeprefix("functions.") not in _PARALLEL:
        return [value]
    args = next((data[k] for k in _ARG_KEYS if isinstance(data.get(k), dict)), None)
    uses: Any = cast("dict[str, Any]", args).get("tool_uses") if args is not None else None
    return cast("list[Any]", uses) if isinstance(uses, list) and uses else [value]


_CALL_ID = regex.compile(
    r"[:.]?(?:functions\.)?"
    r"(?:chatcmpl-(?:tool-)?[A-Za-z0-9]+|(?:call|toolu|fc)[_-](?=[A-Za-z0-9]{0,63}\d)[A-Za-z0-9]{8,64})"
    r"(?::\d{1,4})?"
)


def call_id(name: str) -> bool:
    """Whether a call's name slot holds a call id instead (Kimi K2.6 on NVIDIA NIM: ``chatcmpl-tool-8a08…``,
    ``:call_8e5e…:0``): an engine's completion id (``chatcmpl-``), or an id prefix (OpenAI's ``call_``,
    Anthropic's ``toolu_``, ``fc_``) before a random token of 8 or more letters and digits, one a digit at least
    (``call_weather`` and ``call_api`` are words, names a tool may have). Such a name names no tool: the tool is
    the one its arguments fit (`ToolIndex.taking`), else the name stays as written."""
    return _CALL_ID.fullmatch(name.strip()) is not None


_SEPARATORS = regex.compile(r"[-_. ]+")


_SPECIAL_TOKEN = regex.compile(r"<[|\uff5c][^<>|\uff5c]{0,40}[|\uff5c]>")
"""A chat template's special token (``<|message|>``, a full-width-bar one): never part of a tool's name."""
_TOKEN_LEFTOVERS = regex.compile(r"(?:[ \t]*:[ \t]*\d{1,4})?(?:[ \t]*<[|\uff5c][^<>|\uff5c\s]{0,40})?$")
"""What a call-id template leaves after a name: Kimi's call index (``get_weather:0``, of ``functions.NAME:INDEX``)
and the first part of the special token that followed it, cut where the name was taken (``ui_detector:0<|tool_call``,
gyro-claw's tests); neither is ever part of a tool's name."""

_CAMEL = regex.compile(r"(?<=[a-z0-9])(?=[A-Z])")


_NO_TOOL = frozenset(
    {"none", "null", "no_tool", "no_tools", "no_function", "no_call", "directly_answer", "answer_directly"}
)
"""The names models put in a call block to say they call nothing, with case and separators folded (`_loose`): the
"no tool" marker of simplified protocols (koogagent's ``{"tool":"none"}``, ``<function>none</function>``) and the
pseudo-tool Command R's template offers beside the real ones (``directly-answer``; Ollama's parser drops it)."""


def _loose(name: str) -> str:
    """A name with case and separators folded: ``Get-Weather``, ``get.weather``, ``getWeather`` and
    ``get_weather`` alike."""
    return _SEPARATORS.sub("_", _CAMEL.sub("_", name.strip()).casefold()).strip("_")


_TYPE_KEYWORDS = (
    (("items", "prefixItems", "minItems", "maxItems", "uniqueItems"), "array"),
    (("properties", "additionalProperties", "patternProperties", "required"), "object"),
)
"""Keywords that apply to one JSON type only, and that type: what a schema without ``type`` means by them."""


class ToolIndex:
    """The tools a parser knows: names, aliases (title, description) and input schemas."""

    def __init__(self, tools: Iterable[str | Mapping[str, Any] | ToolSpec] = ()) -> None:
        self.specs: dict[str, ToolSpec] = {}
        self._aliases: dict[str, str] = {}
        for spec in tool_specs(tools):
            self.specs[spec.name] = spec
        for spec in self.specs.values():
            self._aliases.setdefault(spec.name.casefold(), spec.name)
        for spec in self.specs.values():  # names first: an alias never shadows a real name
            for alias in (spec.title, spec.description):
                if alias and alias.strip():
                    self._aliases.setdefault(alias.strip().casefold(), spec.name)
        self._loose: dict[str, list[str]] = {}
        for spec in self.specs.values():
            self._loose.setdefault(_loose(spec.name), []).append(spec.name)
        tails: dict[str, list[str]] = {}
        for spec in self.specs.values():
            for sep in ("__", "."):
                if sep in spec.name.strip(sep[0]) and (tail := spec.name.rsplit(sep, 1)[-1]):
                    tails.setdefault(tail, []).append(spec.name)
        self.tails: dict[str, str] = {t: n[0] for t, n in tails.items() if len(n) == 1 and t not in self.specs}
        """Offered names by their last part, where it names one offered tool only: under an MCP client's server
        prefix (goose's ``developer__shell``, ``mcp__fs__read``) or a dotted class or namespace
        (``doDeleteByQuery`` of ``TransformIndexerStateTests.doDeleteByQuery``): the name a model writes when it
        leaves the prefix out."""
        self._loose_tails: dict[str, list[str]] = {}
        for tail, full in self.tails.items():
            self._loose_tails.setdefault(_loose(tail), []).append(full)

    def __bool__(self) -> bool:
        return bool(self.specs)

    @functools.cached_property
    def key(self) -> str:
        """The tool set as one string, equal for equal tool sets: what parsers built from it may share."""
        specs = self.specs.values()
        fields = [(t.name, t.title, t.description, t.input_schema, t.output_schema, t.annotations) for t in specs]
        try:
            return json.dumps(fields, sort_keys=True, default=repr)
        except (TypeError, ValueError):  # keys of mixed types, a cycle: still one string per tool set
            return repr(fields)

    def resolve(self, name: str) -> str:
        """The known tool ``name`` means, else ``name``: exact first, then any case, a title or description,
        a namespace prefix (``functions.X``, ``server/X``, MCP clients' ``mcp__server__X``; or left out where the
        offered name has it: ``shell`` for ``developer__shell``, ``method`` for ``Class.method``, `tails`),
        ``-``/``_``/``.``/spaces
        and camelCase alike, and a built-in's ``X.call``; a loose spelling counts only when exactly one offered tool
        fits it."""
        name = name.strip()
        if name in self.specs:
            return name
        for candidate in (name, name.rsplit(".", 1)[-1], name.rsplit("/", 1)[-1]):
            found = self._aliases.get(candidate.casefold())
            if found is not None:
                return found
        stem = name[: -len(".call")] if name.casefold().endswith(".call") else name
        last = (stem.rsplit(".", 1)[-1], stem.rsplit("/", 1)[-1], stem.split(".", 1)[-1], stem.rsplit("__", 1)[-1])
        for candidate in (stem, *last):
            fits = self._loose.get(_loose(candidate), ())
            if len(fits) == 1:
                return fits[0]
        tails = self._loose_tails.get(_loose(stem), ())
        if len(tails) == 1 and _loose(stem) not in self._loose:
            return tails[0]
        if "\\" in name and (unescaped := MARKDOWN_ESCAPE.sub("", name)) != name:
            # Punctuation escaped as Markdown escapes it (``calculate\\_circumference``): the name, if offered.
            found = self.resolve(unescaped)
            if found in self.specs:
                return found
        bare = _SPECIAL_TOKEN.sub("", name)
        if bare != name and bare.strip():
            # A turn-structure token the model printed into the name (``read<|message|>``): the rest names the
            # tool only if it resolves to an offered one.
            found = self.resolve(bare)
            if found in self.specs:
                return found
        bare = _TOKEN_LEFTOVERS.sub("", name, count=1)
        if bare != name and bare.strip():
            # A call id's index, a cut token after the name (``ui_detector:0<|tool_call``): likewise.
            found = self.resolve(bare)
            if found in self.specs:
                return found
        return name

    def properties(self, tool: str) -> dict[str, Any] | None:
        """The ``properties`` of a tool's input schema; None when the tool or its properties are unknown."""
        spec = self.specs.get(tool)
        props: Any = spec.input_schema.get("properties") if spec is not None else None
        return cast("dict[str, Any]", props) if isinstance(props, dict) and props else None

    def parameter_names(self, name: str) -> list[str]:
        """The parameter names of the tool ``name`` means, in its schema's order (what positional arguments bind
        to); none when the tool or its properties are unknown."""
        return list(self.properties(self.resolve(name)) or ())

    def is_known(self, name: str) -> bool:
        return self.resolve(name) in self.specs

    def declines(self, name: str) -> bool:
        """``name`` is a model's word for "no tool" (`_NO_TOOL`: ``none``, ``None``, ``null``, ``no_tool``, Command R's
        ``directly-answer``) and no offered tool is so named: a call of it is the model's choice of no call. Case is
        folded before camelCase is split too: ``NoNe`` is ``none`` in any case, not ``no_ne``."""
        loose = {_loose(name), _loose(name.casefold())}
        return not loose.isdisjoint(_NO_TOOL) and not self.is_known(name)

    def offers_all(self, calls: Iterable[tuple[str, Any]] | None) -> bool:
        """Calls were read (``calls`` not empty) and each names an offered tool: the evidence an untagged list
        of calls needs."""
        names = [name for name, _ in calls or ()]
        return bool(names) and all(self.is_known(name) for name in names)

    def taking(self, arguments: Mapping[str, Any]) -> str | None:
        """The one offered tool whose schema declares every key of ``arguments`` and requires none missing, or None
        (no keys, no such tool, or more than one): a call tag holding the arguments alone names its tool so."""
        if not arguments:
            return None
        fits: list[str] = []
        for name, spec in self.specs.items():
            props = self.properties(name)
            required: Any = spec.input_schema.get("required") or []
            if props is None or not set(arguments) <= set(props):
                continue
            if isinstance(required, list) and not {str(r) for r in cast("list[Any]", required)} <= set(arguments):
                continue
            fits.append(name)
        return fits[0] if len(fits) == 1 else None

    def property_type(self, tool: str, parameter: str) -> str | None:
        """The JSON Schema ``type`` of one parameter, where the schema says (used for XML-style calls)."""
        spec = self.specs.get(tool)
        if spec is None:
            return None
        root = spec.input_schema
        prop = _local_ref(root, root.get("properties", {}).get(parameter))
        if prop is None:
            return None
        kind: Any = prop.get("type")
        if kind is None:  # `anyOf` / `oneOf` with one type besides null (pydantic's Optional[X])
            union: Any = prop.get("anyOf") or prop.get("oneOf") or []
            branches = [b for b in (_local_ref(root, x) for x in cast("list[Any]", union)) if b is not None]
            kind = [b.get("type") for b in branches]
        if isinstance(kind, list):
            kinds = [k for k in cast("list[Any]", kind) if k != "null"]
            kind = kinds[0] if len(kinds) == 1 else None
        if "type" not in prop and not prop.keys() & {"anyOf", "oneOf", "allOf", "enum", "const"}:
            # No `type`, but the keywords of one (`items`: an array; `properties`: an object), as hand-written schemas
            # leave it out (NanoEngine's GLM test): JSON Schema applies them to that type only, so the schema means it.
            kind = next((t for keys, t in _TYPE_KEYWORDS if any(k in prop for k in keys)), None)
        return kind if isinstance(kind, str) else None

    def scalar_kinds(self, tool: str | None) -> dict[str, str]:
        """Each top-level parameter of ``tool`` (a name as written) whose schema type is one scalar a quoted
        value may be read as (integer, number, boolean: `shim.parsing.json_scan.retyped`), with that type."""
        name = self.resolve(tool) if tool is not None else None
        props = self.properties(name) if name is not None else None
        kinds = {key: self.property_type(name, key) for key in props or {}} if name is not None else {}
        return {key: kind for key, kind in kinds.items() if kind in SCALAR_KINDS}

    def admits_null(self, tool: str, parameter: str) -> bool:
        """The parameter's schema admits JSON null: ``"type": "null"``, a type list with ``"null"``, or an
        ``anyOf`` / ``oneOf`` branch of type null."""
        spec = self.specs.get(tool)
        prop = spec.input_schema.get("properties", {}).get(parameter) if spec is not None else None
        if not isinstance(prop, dict):
            return False
        schema = cast("dict[str, Any]", prop)
        branches: list[Any] = [schema]
        for key in ("anyOf", "oneOf"):
            union = schema.get(key)
            if isinstance(union, list):
                branches += cast("list[Any]", union)
        for branch in branches:
            kind = cast("dict[str, Any]", branch).get("type") if isinstance(branch, dict) else None
            if kind == "null" or (isinstance(kind, list) and "null" in kind):
                return True
        return False
