"""A call written as XML elements inside a call tag: the shape keys as element names.

    <tool_call>
      <name>read_file</name>
      <arguments><path>a.py</path></arguments>
    </tool_call>

The same keys may come as ``key: value`` lines (``name: get_weather`` / ``arguments: {"city": "Paris"}``).

The elements become an object (an element holding elements is an object, one holding text is its text) and go
through the same shape rules as a JSON body (`shim.parsing.shapes`): any name key (``name``, ``tool_name``,
``function``…), any arguments key, arguments as child elements or as JSON text (``<arguments>{…}</arguments>``).
Text values are typed by the tool's schema, as in the other XML-style families. The block is read whole, up
to its closer (a tag opener followed by such an element is strong evidence, but the shape is known only then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARG_KEYS, NAME_KEYS
from shim.parsing.readers.base import MORE, Block, Context, Next
from shim.parsing.readers.block_end import Closed
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.shapes import ShapeError, ToolIndex, to_call
from shim.parsing.xml_values import typed_tree, typed_value, unlaid

__all__ = ["ELEMENT_START", "NAME_IN_TAG", "XmlElements", "arguments_schema", "paired", "unprefixed"]

_PREFIX = r"[A-Za-z]{1,16}_"
_EITHER = "|".join(sorted(k.replace("_", "[-_]") for k in {*NAME_KEYS, *ARG_KEYS, "invoke"}))
ELEMENT_START = regex.compile(
    rf"<[ \t]{{0,4}}(?:{_EITHER}|{_PREFIX}(?:{'|'.join(NAME_KEYS)}))[ \t]{{0,4}}>",
    regex.IGNORECASE,
)
"""Where such a body begins: an element named like a shape key, or a bare ``<invoke>`` holding them (the XML
format of Anthropic's earlier tool-use prompts: ``<invoke><tool_name>…</tool_name><parameters>…``), or the name
element carrying a family's prefix (glm2api's ``<ml_tool_name>``: see `unprefixed`; a prefix other than the
tag's makes no call). A shape key's ``_`` may be written ``-`` (``<tool-name>``, BEACON's
tests: the hyphen of a ``<tool-use>`` tag carried into its elements; see `_underscored`)."""
_PREFIXED_NAME = regex.compile(rf"(?P<prefix>{_PREFIX})(?:{'|'.join(NAME_KEYS)})", regex.IGNORECASE)
_SHAPE_KEYS = frozenset(k.lower() for k in (*NAME_KEYS, *ARG_KEYS))
_W = r"[ \t]{0,4}"
_KEYS = "|".join(sorted(NAME_KEYS))


def _head(keys: str = _KEYS) -> str:
    return rf"<{_W}(?P<key>{keys}){_W}={_W}(?P<q>[\"']?)(?P<name>[^\W\d][\w.\-:]{{0,127}})(?P=q){_W}"


_SHUT = rf"</{_W}(?P=key){_W}>"
_ARGS_NEXT = rf"(?=[ \t\r\n]{{0,8}}<{_W}(?:{'|'.join(sorted(ARG_KEYS))}){_W}>)"
_CLOSER_NEXT = rf"(?=[ \t\r\n]{{0,8}}<{_W}/)"
_NAME_IN_BODY = regex.compile(rf"{_head()}(?:>(?:{_W}{_SHUT})?|{_SHUT})", regex.IGNORECASE)
NAME_IN_TAG = regex.compile(
    rf"{_head()}(?:>|{_SHUT}){_ARGS_NEXT}"  # then the arguments element
    rf"|{_head()}{_SHUT}{_CLOSER_NEXT}"  # `<name=NAME</name>`, no arguments
    # `<name=NAME>` with no arguments (Qwen3-Coder's own `<function=NAME></function>` is its reader's)
    rf"|{_head('|'.join(k for k in sorted(NAME_KEYS) if k != 'function'))}>(?:{_W}{_SHUT})?{_CLOSER_NEXT}",
    regex.IGNORECASE,
)
"""The name element written with its value inside the tag, Qwen3-Coder's ``<function=NAME>`` habit carried into
an element body (selfware's parser tests): ``<name=NAME>``, ``<name=NAME</name>`` (its ``>`` left out),
``<function=NAME</function>``, then the arguments element (or the block's closer: a call with no arguments). It is
read as ``<name>NAME</name>``; a Qwen3-Coder body (``<function=NAME>`` then ``<parameter=…>``) is not this."""
KEY_LINE_START = regex.compile(
    rf"(?:{'|'.join(sorted({*NAME_KEYS}))})[ \t]{{0,4}}:[ \t]{{0,4}}(?=[\w\"'])",
    regex.IGNORECASE,
)
"""The other spelling of such a body: ``name: NAME`` on its line, then ``arguments: {…}`` (YAML-like)."""
_KEY_LINE = regex.compile(r"^[ \t]*(?P<key>[A-Za-z_][\w\-]{0,63})[ \t]*:[ \t]?(?P<value>.*)$", regex.MULTILINE)
_CDATA = regex.compile(r"<!\[CDATA\[(?P<text>.*?)\]\]>", regex.DOTALL)


_TAG = regex.compile(
    r"<(?P<slash>/?)[ \t\r\n]{0,8}(?P<tag>[A-Za-z_][\w.\-]{0,63})"
    r"(?P<attrs>(?:[ \t\r\n]{1,8}[A-Za-z_][\w\-]{0,31}[ \t]{0,4}=[ \t]{0,4}"
    r"(?:\"[^\"<>\n]{0,200}\"{1,2}|'[^'<>\n]{0,200}')){0,4})"  # a doubled closing quote (`type="string""`) too
    r"[ \t\r\n]{0,8}>"
)
_ATTR = regex.compile(r"(?P<key>[A-Za-z_][\w\-]{0,31})[ \t]{0,4}=[ \t]{0,4}(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)')")
_DECLARED = {
    "str": "string",
    "string": "string",
    "int": "integer",
    "integer": "integer",
    "float": "number",
    "number": "number",
    "bool": "boolean",
    "boolean": "boolean",
    "dict": "object",
    "object": "object",
    "list": "array",
    "array": "array",
    "tuple": "array",
}
"""A ``type`` attribute's word as a JSON type: JSON Schema's own names and Python's (``type="dict"``, BFCL)."""
_MAX_DEPTH = 16


class _Node:
    __slots__ = ("children", "end", "key", "schema", "start", "tag")

    def __init__(self, tag: str, start: int, schema: Any, key: str | None = None) -> None:
        self.tag = tag
        self.key = tag if key is None else key
        """The key it gives its value: its tag, or its ``name`` attribute (``<arg name="city">``)."""
        self.start = start
        """Where its content begins in the text."""
        self.end = -1
        self.schema: dict[str, Any] = cast("dict[str, Any]", schema) if isinstance(schema, dict) else {}
        self.children: list[tuple[str, Any]] = []


def elements(text: str, schema: Any = None, declared: dict[str, str] | None = None) -> Any:
    """The elements of ``text`` as an object, or its text when it holds none (CDATA taken as written).

    An element holding elements is an object, a repeated element a list of its values in order, one holding text
    its text. An element with a ``name`` attribute is keyed by it (``<arg name="city">Paris</arg>``,
    ``<param name="k" type="int">``: the keyed-parameter spelling of BFCL's XML formats, and of XML-RPC and
    many prompt templates), and its ``type`` attribute, as a JSON type, goes into ``declared`` under that key; one
    holding a single ``<value>`` element is that element's value (XML-RPC's ``<param><value>…</value></param>``).
    An element with other attributes but no ``name`` is text (``<div class="x">``: markup inside a value).
    Read leniently, as models damage them: an element may hold one of its own name (``<step><step>a</step>…``),
    a closer may have spaces or a line break inside (``</\n  step>``), an element left open is closed by its
    parent's closer (or the text's end); with the value's JSON ``schema``, an element whose object already
    holds a single-valued element of that name ends before a second one (``<step><step>a</step><status>…</status>
    <step>…``: the first item's closer left out), a closer may write a ``-`` where its opener has ``_`` or the
    other way (``<tool_name>read_file</tool-name>``, BEACON's tests). A tag whose closer never follows is text
    (``<br>``).
    """
    cdata = _CDATA.fullmatch(text.strip())
    if cdata is not None:
        return cdata.group("text")
    root = _Node("", 0, schema)
    stack = [root]
    closers = {_same(m.group("tag")) for m in _TAG.finditer(text) if m.group("slash")}
    cdata_ends = [(m.start(), m.end()) for m in _CDATA.finditer(text)]
    for found in _TAG.finditer(text):
        tag = found.group("tag")
        while cdata_ends and cdata_ends[0][1] <= found.start():
            cdata_ends.pop(0)
        if cdata_ends and cdata_ends[0][0] <= found.start():
            continue  # inside a CDATA section: its text
        if len(stack) > 1 and stack[-1].schema.get("type") == "string":
            if found.group("slash") and _same(tag) == _same(stack[-1].tag):  # a string's value runs to its closer
                _close(stack, text, found.start())
            continue  # markup inside a string value (`<content><div>…</div></content>`) is its text
        if found.group("slash"):
            at = next((i for i in range(len(stack) - 1, 0, -1) if _same(stack[i].tag) == _same(tag)), None)
            while at is not None and len(stack) > at:
                _close(stack, text, found.start())
            continue
        if _same(tag) not in closers or len(stack) > _MAX_DEPTH:
            continue
        key = tag
        if found.group("attrs"):
            attrs = {
                m.group("key").lower(): m.group("dq") if m.group("dq") is not None else m.group("sq")
                for m in _ATTR.finditer(found.group("attrs"))
            }
            key = attrs.get("name", "").strip() or (tag if _keyed_by_tag(tag, attrs) else "")
            if not key:
                continue
            kind = _DECLARED.get(attrs.get("type", "").strip().lower())
            if kind is not None and declared is not None:
                declared[key] = kind
        while len(stack) > 1 and _ends_before(stack[-1], key):
            _close(stack, text, found.start())
        stack.append(_Node(tag, found.end(), _child_schema(stack[-1].schema, key), key))
    while len(stack) > 1:
        _close(stack, text, len(text))
    return _node_value(root, text, len(text)) if root.children else unlaid(text)


def _same(tag: str) -> str:
    """A tag as its closer matches it: ``-`` and ``_`` alike (``<tool_name>…</tool-name>``)."""
    return tag.replace("-", "_")


def _underscored(value: Any) -> Any:
    """A call's elements with a shape key written with ``-`` for ``_`` under the key's own name (``<tool-name>``
    as ``<tool_name>``, in a ``<tool-use>`` block, BEACON's tests), in the call and in each ``<invoke>`` of it; the
    arguments' own names are the tool's and stay as written."""
    if isinstance(value, list):
        return [_underscored(item) for item in cast("list[Any]", value)]
    if not isinstance(value, dict):
        return value
    call = cast("dict[str, Any]", value)
    renamed: dict[str, Any] = {}
    for key, item in call.items():
        bare = key.replace("-", "_")
        if bare != key and bare.lower() in _SHAPE_KEYS and bare not in call:
            key = bare
        renamed[key] = _underscored(item) if key.lower() == "invoke" else item
    return renamed


def _keyed_by_tag(tag: str, attrs: dict[str, str]) -> bool:
    """An element with attributes but no ``name`` that still gives its value under its tag: an arguments element,
    whatever it carries (``<args data-n="1">``), or one whose only attribute is its ``type`` (``<replicas
    type="int">1</replicas>``, the keyed spelling's type without its name). Any other (``<div class="x">``) is
    markup of a value."""
    return tag.lower() in ARG_KEYS or set(attrs) == {"type"}


def arguments_schema(tools: ToolIndex, name: str) -> dict[str, Any]:
    """The schema `elements` reads a call of tool ``name`` with: its parameters, also under an arguments element
    it does not declare (``<args><path>…</path></args>``), so a string parameter's markup stays its text."""
    properties = tools.properties(tools.resolve(name)) or {}
    if not properties:
        return {}
    arguments = {"type": "object", "properties": properties}
    wrappers = {key: arguments for key in ARG_KEYS if key not in properties}
    return {"type": "object", "properties": {**wrappers, **properties}}


def _child_schema(schema: dict[str, Any], tag: str) -> Any:
    props: Any = schema.get("properties")
    child: Any = cast("dict[str, Any]", props).get(tag) if isinstance(props, dict) else None
    if isinstance(child, dict) and cast("dict[str, Any]", child).get("type") == "array":
        items: Any = cast("dict[str, Any]", child).get("items")
        return items  # each repeated element is one item
    return cast("Any", child)


def _ends_before(node: _Node, tag: str) -> bool:
    """``node`` already holds a ``tag`` its schema says is single-valued: a second one begins after it."""
    props: Any = node.schema.get("properties")
    child: Any = cast("dict[str, Any]", props).get(tag) if isinstance(props, dict) else None
    if not isinstance(child, dict) or cast("dict[str, Any]", child).get("type") == "array":
        return False
    return any(t == tag for t, _ in node.children)


def _close(stack: list[_Node], text: str, end: int) -> None:
    node = stack.pop()
    value = _node_value(node, text, end)
    if node.key != node.tag and len(node.children) == 1 and node.children[0][0] == "value":
        value = node.children[0][1]  # `<arg name="k"><value>…</value></arg>`: the value it wraps
    stack[-1].children.append((node.key, value))


def _node_value(node: _Node, text: str, end: int) -> Any:
    if not node.children:
        body = text[node.start : end]
        cdata = _CDATA.fullmatch(body.strip())
        return cdata.group("text") if cdata is not None else unlaid(body)
    result: dict[str, Any] = {}
    for tag, value in node.children:
        if tag in result:  # a repeated element (several <invoke>): its values in order
            before = result[tag]
            result[tag] = [*before, value] if isinstance(before, list) else [before, value]
        else:
            result[tag] = value
    return result


_CLOSER_TAG = regex.compile(r"</[ \t]{0,8}(?P<tag>[^\s>]{1,64})")


def _foreign_prefix(value: Any) -> bool:
    """A call object named only by an element with a prefix (one `unprefixed` did not take off)."""
    if not isinstance(value, dict):
        return False
    call = cast("dict[str, Any]", value)
    return not any(k.lower() in NAME_KEYS for k in call) and any(_PREFIXED_NAME.fullmatch(k) for k in call)


def unprefixed(value: Any, prefix: str) -> Any:
    """A call's elements with its family's ``prefix`` taken off their names: a family that prefixes its call tag
    prefixes the elements inside it alike (glm2api's ``<ml_tool_call><ml_tool_name>NAME</ml_tool_name>
    <ml_parameters>…``, as LongCat's ``<longcat_arg_key>`` inside ``<longcat_tool_call>``). Only the elements named
    like a shape key with the tag's prefix lose it, and only where a name element carries it and none already
    names the tool unprefixed. The arguments' own names are the tool's and stay."""
    if not isinstance(value, dict) or not prefix:
        return cast("Any", value)
    call = cast("dict[str, Any]", value)
    if any(k.lower() in NAME_KEYS for k in call):
        return cast("Any", value)
    if not any(k.lower().startswith(prefix) and k[len(prefix) :].lower() in NAME_KEYS for k in call):
        return cast("Any", value)
    renamed: dict[str, Any] = {}
    for key, item in call.items():
        bare = key[len(prefix) :] if key.lower().startswith(prefix) else None
        renamed[bare if bare is not None and bare.lower() in _SHAPE_KEYS else key] = item
    return renamed


_PAIR_NAMES = tuple(f"{word}_{part}" for word in ("param", "parameter", "arg", "argument") for part in ("name", "key"))


def paired(value: Any) -> Any:
    """A call whose arguments are written as name and value elements in turn (``<param_name>url</param_name>
    <param_value>https://…</param_value>``, the element spelling of GLM's ``<arg_key>``/``<arg_value>``, glm2api's
    salvaged calls): the arguments object they pair up, when the call has no arguments element and the names and
    values are as many."""
    if not isinstance(value, dict):
        return value
    call = cast("dict[str, Any]", value)
    if any(k.lower() in ARG_KEYS for k in call):
        return cast("Any", value)
    lower = {k.lower(): k for k in call}
    for name_key in _PAIR_NAMES:
        value_key = name_key.rsplit("_", 1)[0] + "_value"
        if name_key not in lower or value_key not in lower:
            continue
        names: Any = call[lower[name_key]]
        values: Any = call[lower[value_key]]
        names = cast("list[Any]", names) if isinstance(names, list) else [names]
        values = cast("list[Any]", values) if isinstance(values, list) else [values]
        if len(names) != len(values) or not all(isinstance(n, str) and n.strip() for n in names):
            return cast("Any", value)
        rest = {k: v for k, v in call.items() if k not in (lower[name_key], lower[value_key])}
        return {**rest, "arguments": {n.strip(): v for n, v in zip(names, values, strict=True)}}
    return cast("Any", value)


def _written_as_elements(value: Any) -> bool:
    """The call's arguments were written as child elements (``<parameters><filters><active>true</active>…``), not
    as JSON text: their nested text leaves carry no type and are typed by the schema at their place, as the
    top-level ones are (`shim.parsing.xml_values.typed_tree`); a JSON value keeps the types it was written with."""
    if not isinstance(value, dict):
        return False
    call = cast("dict[str, Any]", value)
    inner = [cast("dict[str, Any]", v) for v in call.values() if isinstance(v, dict)]
    for wrapper in (call, *inner):
        found = next((wrapper[k] for k in ARG_KEYS if k in wrapper), None)
        if found is not None:
            return isinstance(found, dict)
    return False


def key_lines(text: str) -> Any:
    """``key: value`` lines as an object: a value is JSON where it reads as JSON (lenient), else its text; a key
    with nothing after it holds the indented ``key: value`` lines below it."""
    found = list(_KEY_LINE.finditer(text))
    top = min((len(m.group()) - len(m.group().lstrip()) for m in found), default=0)
    result: dict[str, Any] = {}
    for i, m in enumerate(found):
        if len(m.group()) - len(m.group().lstrip()) != top:
            continue
        end = next((n.start() for n in found[i + 1 :] if len(n.group()) - len(n.group().lstrip()) == top), len(text))
        if m.group("value").strip():  # the value, which may run on over lines (pretty-printed JSON)
            result[m.group("key")] = _value(text[m.start("value") : end].strip())
        else:
            result[m.group("key")] = key_lines(text[m.end() : end]) or None
    return result


def _value(text: str) -> Any:
    try:
        return lenient_json.loads(text)
    except lenient_json.LenientJSONError:
        return text.strip("\"'")


class XmlElements:
    def __init__(
        self, ctx: Context, block: Block, *, lines: bool = False, closer: regex.Pattern[str] | None = None
    ) -> None:
        """``lines``: the body is ``key: value`` lines, not elements. ``closer``: where the body ends, for a block
        of no row's own tag (the row's closer otherwise)."""
        self.ctx = ctx
        self.block = block
        self.parse: Callable[[str], Any] = key_lines if lines else elements
        if closer is None:
            assert block.dialect is not None
            closer = block.dialect.compiled_close()
        self.closer = closer
        self.body: list[str] = []
        self.declared: dict[str, str] = {}
        """Each ``<arg name="k" type="…">``'s JSON type, where the markup gives one."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        found = self.closer.search(text, pos, partial=not final) if self.closer is not None else None
        end = len(text) if found is None else found.start()
        ctx.consume(text[pos:end])
        self.body.append(text[pos:end])
        if found is None:
            return end, self
        if found.partial:
            return end, MORE
        if not self._end(found.group()):
            ctx.consume(found.group())
            ctx.revert()
            return found.end(), None
        ctx.markup(found.group())
        return found.end(), Closed(ctx, fence=self.block.fence, outer=self.block.outer)

    def _end(self, closer: str = "") -> bool:
        """Emit the calls; False (nothing emitted) when the body names no offered tool: a weaker form than JSON,
        so an element body counts only as a call of an offered tool, and otherwise it was text all along.
        ``closer``: the block's closing tag as written (its family's prefix is the one its elements may carry)."""
        self.declared: dict[str, str] = {}
        body = "".join(self.body)
        named = _NAME_IN_BODY.match(body, len(body) - len(body.lstrip()))
        if named is not None:  # `<name=NAME</name>` as `<name>NAME</name>` (`NAME_IN_TAG`)
            key = named.group("key")
            body = f"{body[: named.start()]}<{key}>{named.group('name')}</{key}>{body[named.end() :]}"
        if self.parse is elements:
            prefix = self._prefix(closer)
            value: Any = paired(unprefixed(_underscored(elements(body, None, self.declared)), prefix))
            schema = self._schema(value)
            if schema:  # read again knowing the tool: a string parameter's markup is its text
                self.declared = {}
                value = paired(unprefixed(_underscored(elements(body, schema, self.declared)), prefix))
        else:
            value = self.parse(body)
        if _foreign_prefix(value):
            return False  # `<tool_call><my_name>…`: a name element of another prefix than the tag's is no call
        invokes: Any = None
        if isinstance(value, dict) and set(cast("dict[str, Any]", value)) == {"invoke"}:
            invokes = cast("dict[str, Any]", value)["invoke"]
        items: list[Any] = (
            cast("list[Any]", invokes) if isinstance(invokes, list) else [value if invokes is None else invokes]
        )
        if not all(self._offered(item) for item in items):
            return False
        for item in items:
            self._call(item)
        return True

    def _prefix(self, closer: str) -> str:
        """The family's prefix on the block's tag (``ml_`` of ``</ml_tool_call>``), from its closer as written."""
        tag = _CLOSER_TAG.match(closer)
        own = self.block.dialect.name.lower() if self.block.dialect is not None else ""
        name = tag.group("tag").lower() if tag is not None else ""
        return name[: -len(own)] if own and name.endswith(own) and name != own else ""

    def _schema(self, value: Any) -> dict[str, Any]:
        try:
            name = to_call(value, self.ctx.tools).name
        except ShapeError:
            return {}
        return arguments_schema(self.ctx.tools, name) if self.ctx.tools.is_known(name) else {}

    def _offered(self, value: Any) -> bool:
        try:
            return self.ctx.tools.is_known(to_call(value, self.ctx.tools).name)
        except ShapeError:
            return True  # a broken call of the form is reported as one

    def _call(self, value: Any) -> None:
        ctx = self.ctx
        try:
            shape = to_call(value, ctx.tools)
        except ShapeError as exc:
            ctx.fail_call(str(exc))
            return
        name = ctx.tools.resolve(shape.name)
        nested = self.parse is not key_lines and _written_as_elements(value)
        arguments = {
            k: typed_value(ctx.tools, name, k, v, declared=self.declared.get(k))
            if isinstance(v, str)
            else (typed_tree(ctx.tools, name, k, v) if nested else v)
            for k, v in shape.arguments.items()
        }
        ctx.end_call(shape.name, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        elif not self._end():  # the closer left out: what came is the call, if it is one
            self.ctx.revert()
