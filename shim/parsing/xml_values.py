"""One rule for the type of a value written as text: an XML-style parameter (``<parameter=K>5</parameter>``,
``<arg_value>5</arg_value>``, ``<param name="k">5</param>``, ``<k>5</k>``) carries no type of its own.

With the tool's schema, the schema decides: a ``string`` parameter keeps its text exactly (but for a value
written whole as one JSON string literal, ``"hello world"``: its content, as a model that quotes every value
means); ``integer``, ``number``, ``boolean``, ``null``, ``object`` and ``array`` read the text as (lenient) JSON,
else as a Python literal of that type (``True``, ``['a', 'b']``: what templates print with ``{{ value }}``),
else keep the text.
A parameter whose schema admits null (a type list or an ``anyOf`` / ``oneOf`` with ``null``) reads the text
``null`` as null. Without a schema (an unknown tool or parameter, or a type union), the same rule for every
family: the value is its text (``5`` is ``"5"``), as the engines' own parsers of these formats keep it (vLLM's
Qwen3-Coder and MiniMax parsers, Ollama's GLM parser): nothing is guessed that the model did not write. Every XML
family reader and the template-derived reader call `typed_value`.

A text value written XML-escaped throughout (``&lt;Esc&gt;``: an entity of ``<`` or ``>``, and no raw ``<``, ``>``
or bare ``&`` beside it) is decoded, as an XML reader would (ai-sdk-tool-call-middleware's tests of Qwen3-Coder and
tool-name XML); a value mixing raw markup and entities (HTML source) keeps them as written.

A value written whole as one CDATA section (``<![CDATA[Paris]]>``, layout around it allowed) is XML's literal
text: the value is what is inside, typed by the schema as any value is (``<![CDATA[5]]>`` for an integer is 5,
``<![CDATA[["a", "b"]]]>`` for an array the list), kept exactly (no entity decoded) where it is text. Web-to-API
proxies teach it in their prompts (glm2api, gxQwen2api: DSML and ``<invoke>`` values in CDATA). A damaged closer
is read only where the content then is a value of the schema's JSON type: ``]>`` for ``]]>`` (glm2api's
``<![CDATA[{"q": 1}]>``), and an array's last ``]`` shared with the closer (``<![CDATA[["a"]]>``, which lenient
JSON completes). A value holding ``<![CDATA[`` anywhere else (after text, or a section among other text) stays
as written.
"""

from __future__ import annotations

import ast
import html
import json
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import retyped
from shim.parsing.shapes import ToolIndex

__all__ = [
    "attributes",
    "cdata_content",
    "layout_newline",
    "typed_arguments",
    "typed_tree",
    "typed_value",
    "unescaped_text",
    "unlaid",
]

_LITERAL_KINDS: dict[str, type | tuple[type, ...]] = {
    "array": list,
    "object": dict,
    "boolean": bool,
    "integer": int,
    "number": (int, float),
}
_PY_WORDS = {"True": True, "False": False, "None": None}


_ATTRIBUTE = regex.compile(
    r"""(?P<key>[A-Za-z_][\w:.\-]{0,63})[ \t\r\n]{0,4}=[ \t\r\n]{0,4}(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')"""
)


def attributes(text: str) -> list[tuple[str, str]]:
    """The quoted ``key="value"`` (or ``'value'``) pairs of a tag's attributes, in order, each value's entities
    decoded (`html.unescape`): the attribute forms' one reading of a tag."""
    return [
        (found.group("key"), html.unescape(found.group("dq") if found.group("dq") is not None else found.group("sq")))
        for found in _ATTRIBUTE.finditer(text)
    ]


_CLOSER_INDENT = regex.compile(r"\r?\n([ \t]+)\Z")


def layout_newline(raw: str, *, end: bool = False) -> int:
    """The length of the line break ``raw`` starts with (``end``: ends with), ``\n`` or ``\r\n``; 0: none. A
    value's layout newline is either: an output with Windows line endings writes its tags' lines so."""
    if end:
        return 2 if raw.endswith("\r\n") else 1 if raw.endswith("\n") else 0
    return 2 if raw.startswith("\r\n") else 1 if raw.startswith("\n") else 0


def unlaid(raw: str) -> str:
    """A value with the layout newline each side removed (``<parameter=k>\\nvalue\\n</parameter>``; ``\\r\\n``
    as well, `layout_newline`).

    When the value starts on the line after its opener and the closer is indented on a line of its own (the call
    pretty-printed: Nemotron 3, MiniMax-M2 in a proxy's tests, prompts that show an indented example), that
    indentation is layout as well: it is taken off each line of the value, and a one-line value loses its
    surrounding blanks. A value whose closer starts its line keeps every character."""
    lead = layout_newline(raw)
    if not lead and raw[:1].isspace():
        return raw  # indentation kept right after the opener: the value's whitespace is data
    indented = _CLOSER_INDENT.search(raw) if lead else None
    if indented is not None:
        indent = indented.group(1)
        lines = raw[lead : indented.start()].split("\n")
        if len(lines) == 1:
            return lines[0].strip()
        return "\n".join(line[len(indent) :] if line.startswith(indent) else line for line in lines)
    raw = raw[lead:]
    return raw[: len(raw) - layout_newline(raw, end=True)]


def typed_value(
    tools: ToolIndex, tool: str, key: str, raw: str, *, declared: str | None = None, literal: bool = False
) -> Any:
    """The value of parameter ``key`` of ``tool`` written as ``raw`` text (see the module docstring).

    ``declared``: the JSON type the markup gives the value (Kimi K3's ``type="array"``), used where the schema
    gives none. ``literal``: ``raw`` is a CDATA section's content, already taken out by the reader (MiniCPM's,
    which reads ``</param>`` inside one as text)."""
    name = tools.resolve(tool)
    kind = tools.property_type(name, key)
    if kind is None and declared in _LITERAL_KINDS:
        kind = declared
    text = raw.strip()
    if text == "null" and tools.admits_null(name, key):
        return None  # the model wrote JSON null where the schema admits it (`"anyOf": [{"type": "null"}, …]`)
    return _typed_literal(kind, raw) if literal else _typed_text(kind, raw)


_CDATA_OPEN = "<![CDATA["
_WHITE = " \t\r\n"


def cdata_content(raw: str) -> str | None:
    """The content of ``raw`` written whole as one CDATA section (layout around it allowed), else None."""
    text = raw.strip(_WHITE)
    if not text.startswith(_CDATA_OPEN) or not text.endswith("]]>"):
        return None
    inner = text[len(_CDATA_OPEN) : -3]
    return None if "]]>" in inner else inner


def _typed_literal(kind: str | None, inner: str) -> Any:
    """A CDATA section's content: literal text (no entity, no JSON quoting to undo), unless the schema asks for
    another type."""
    return inner if kind == "string" or kind is None else _typed_as(kind, inner)


def _typed_text(kind: str | None, raw: str, *, entities: bool = False) -> Any:
    """`_typed_as`, after a CDATA section around the whole value is taken off (see the module docstring);
    ``entities``: decode XML's entities in text that is no CDATA section (a leaf of nested elements)."""
    value = _from_cdata(kind, raw)
    if value is not _NOT:
        return value
    return _typed_as(kind, _ENTITY.sub(_entity, raw) if entities else raw)


def _from_cdata(kind: str | None, raw: str) -> Any:
    """``raw`` read as one CDATA section (whole, or with a damaged closer where the schema's type then reads the
    content), or `_NOT` when it is none."""
    inner = cdata_content(raw)
    if inner is not None:
        return _typed_literal(kind, inner)
    text = raw.strip(_WHITE)
    if kind in _LITERAL_KINDS and text.startswith(_CDATA_OPEN) and text.endswith("]>") and "]]>" not in text:
        # a damaged closer (`]>`): taken off only when the content is then a value of the schema's type
        value = _typed_as(kind, text[len(_CDATA_OPEN) : -2])
        if _is_kind(value, _LITERAL_KINDS[kind]):
            return value
    return _NOT


def typed_arguments(tools: ToolIndex, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments with each top-level string that is exactly a literal of its parameter's scalar type
    (``{"a": "3"}`` where ``a`` is an integer) read as that literal (`shim.parsing.json_scan.retyped`; the JSON
    scanner applies the same rule to the argument chunks it streams). Every call passes here once, whatever its
    family, so the router's schema check sees the value the model meant."""
    kinds = tools.scalar_kinds(tool)
    if not kinds:
        return arguments
    typed = {key: retyped(kinds.get(key), value) for key, value in arguments.items()}
    return arguments if all(typed[key] is arguments[key] for key in arguments) else typed


def _typed_as(kind: str | None, raw: str) -> Any:
    text = raw.strip()
    if kind == "string" or kind is None:
        quoted = _json_string(text) if kind == "string" else None
        return unescaped_text(raw) if quoted is None else quoted
    if kind == "null" and text in ("null", "None", ""):
        return None
    try:
        value: Any = lenient_json.loads(text)
    except lenient_json.LenientJSONError:
        value = _literal(text)
    expected = _LITERAL_KINDS.get(kind)
    if expected is None or _is_kind(value, expected):
        return raw if value is _NOT else value
    if kind in ("array", "object") and '\\"' in text:
        decoded = _unescaped(text, expected)
        return raw if decoded is None else decoded
    return raw


def _json_string(text: str) -> str | None:
    """A value written whole as one JSON string literal (``"hello world"``, ``"a\\"b"``: a model that quotes every
    value as JSON would, inside ``<arg_value>``): its content. The quotes are the writing, not the value. None
    for any other text (``"a" and "b"``, ``"C:\\x"``: not one literal)."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return None
    try:
        value: Any = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _unescaped(text: str, expected: type | tuple[type, ...]) -> Any:
    """An array or object written as it would sit inside a JSON string (``[{\\"id\\": \\"1\\"}]``, GLM-4.7
    under SGLang): decoded as that string, then read; None when that is no value of the expected type either."""
    try:
        inner = json.loads(f'"{text}"')
        value: Any = lenient_json.loads(inner) if isinstance(inner, str) else None
    except (ValueError, lenient_json.LenientJSONError):
        return None
    return value if _is_kind(value, expected) else None


def typed_tree(tools: ToolIndex, tool: str, key: str, value: Any) -> Any:
    """Parameter ``key`` written as nested elements (MiniMax-M3: ``<range><min>-5</min></range>``,
    ``<cities><item>a</item><item>b</item></cities>``), already read into dicts, lists and text: each text leaf
    typed by the schema at its place, as `typed_value` types a flat value (XML entities decoded); an object whose
    only key is ``item`` is the list of its items, so is an object of one element where the schema wants an array
    (whose items are no object with that key), and one value where the schema wants an array is a list of it."""
    name = tools.resolve(tool)
    props = tools.properties(name) or {}
    return _tree(props.get(key), value, 0)


def _tree(schema: Any, value: Any, depth: int) -> Any:
    node: dict[str, Any] = cast("dict[str, Any]", schema) if isinstance(schema, dict) else {}
    kind: Any = node.get("type")
    if isinstance(kind, list):
        kinds = [k for k in cast("list[Any]", kind) if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    if isinstance(value, str):
        read: Any = _from_cdata(kind if isinstance(kind, str) else None, value)
        if read is not _NOT:
            if kind != "array" or isinstance(read, list):
                return cast("Any", read)
            value = read  # one item in CDATA where the schema wants a list: a list of it (below)
    if (
        isinstance(value, dict)
        and len(cast("dict[str, Any]", value)) == 1
        and _wraps_items(node, kind, cast("dict[str, Any]", value))
    ):
        item: Any = next(iter(cast("dict[str, Any]", value).values()))
        value = cast("list[Any]", item) if isinstance(item, list) else [item]
    if kind == "array" and not isinstance(value, list) and not (isinstance(value, str) and value.strip()[:1] == "["):
        value = [value]
    if isinstance(value, list) and depth <= 32:
        items = node.get("items")
        return [_tree(items, v, depth + 1) for v in cast("list[Any]", value)]
    if isinstance(value, dict) and depth <= 32:
        props: Any = node.get("properties")
        sub = cast("dict[str, Any]", props) if isinstance(props, dict) else {}
        return {k: _tree(sub.get(k), v, depth + 1) for k, v in cast("dict[str, Any]", value).items()}
    if isinstance(value, str):
        return _typed_text(kind if isinstance(kind, str) else None, value, entities=True)
    return cast("Any", value)


def _wraps_items(node: dict[str, Any], kind: Any, value: dict[str, Any]) -> bool:
    """An object of one element that is a list's items: ``<item>`` anywhere, or any one element name where the
    schema wants an array whose items are no object having that key (``<follow_up><suggest>a</suggest>…``)."""
    key = next(iter(value))
    if key == "item":
        return True
    if kind != "array":
        return False
    items: Any = node.get("items")
    props: Any = cast("dict[str, Any]", items).get("properties") if isinstance(items, dict) else None
    return not (isinstance(props, dict) and key in props)


_ENTITY = regex.compile(r"&(?:(?P<named>amp|lt|gt|quot|apos)|#(?P<dec>\d{1,7})|#x(?P<hex>[0-9a-fA-F]{1,6}));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _entity(found: regex.Match[str]) -> str:
    """XML's five entities and character references in element text (a bare ``&`` stays as written)."""
    if found.group("named"):
        return _NAMED[found.group("named")]
    code = int(found.group("dec"), 10) if found.group("dec") else int(found.group("hex"), 16)
    return chr(code) if 0 < code <= 0x10FFFF else found.group()


_ESCAPED_ANGLE = regex.compile(r"&(?:lt|gt|#0*6[02]|#x0*3[cCeE]);")
_BARE_AMP = regex.compile(r"&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)")


def unescaped_text(raw: str) -> str:
    """``raw`` decoded when it is XML-escaped throughout (an escaped ``<`` or ``>``, no raw ``<``, ``>`` or bare
    ``&``), else as written."""
    if "&" not in raw or "<" in raw or ">" in raw or not _ESCAPED_ANGLE.search(raw) or _BARE_AMP.search(raw):
        return raw
    return _ENTITY.sub(_entity, raw)


class _Not:
    pass


_NOT: Any = _Not()


def _is_kind(value: Any, expected: type | tuple[type, ...]) -> bool:
    if value is _NOT:
        return False
    if isinstance(value, bool) and expected in (int, (int, float)):
        return False  # True is an int to Python, not to JSON Schema
    return isinstance(value, expected)


def _literal(text: str) -> Any:
    if text in _PY_WORDS:
        return _PY_WORDS[text]
    if text[:1] not in "[{(-0123456789.":
        return _NOT
    try:
        value: Any = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT
    if isinstance(value, tuple):
        value = list(cast("tuple[Any, ...]", value))
    try:
        return json.loads(json.dumps(value))  # JSON data only: sets, bytes, complex stay text
    except (ValueError, TypeError, RecursionError):
        return _NOT
