"""JSON Schema -> text a model reads: a parameter list (full mode) and type expressions (compact mode).

What survives: nested objects, arrays and their item types, enums and consts, required vs optional,
defaults, formats and bounds, per-parameter descriptions, ``anyOf``/``oneOf``/``allOf``, ``$ref`` into
``$defs``/``definitions`` or any local JSON pointer. Refs that lead back to themselves are never expanded
inline (that would loop); they are written by name and defined once below the tool. Huge enums are cut
to a sample plus a count, since the router validates the real value anyway.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from shim.prompting._json import is_arr, is_obj, strings

__all__ = ["SchemaText"]

ENUM_LIMIT = 16
"""Enums longer than this are shown as a sample of ``ENUM_SAMPLE`` values and a count."""
ENUM_SAMPLE = 10
_SCALARS = ("string", "integer", "number", "boolean", "null")
# Keywords that annotate a schema without constraining its shape; a schema of only these accepts anything.
_ANNOTATIONS = {
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "$schema",
    "$id",
}


class SchemaText:
    """Renders one tool's input schema. Knows its root, so it can resolve local ``$ref`` pointers."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.recursive = _recursive_refs(root, self.lookup)
        """Refs whose expansion reaches themselves; always written by name."""
        self.named: dict[str, str] = {}
        """Recursive refs met while rendering, ref -> the name used for it (in first-met order)."""

    # -- resolution ---------------------------------------------------------------------------------

    def lookup(self, ref: str) -> Mapping[str, Any] | None:
        """The schema a local ref (``#``, ``#/$defs/Node``, any JSON pointer) points at; None if none."""
        if not ref.startswith("#"):
            return None  # a remote ref: nothing to fetch it from, so it renders as "any"
        node: Any = self.root
        for part in filter(None, ref[1:].split("/")):
            key = part.replace("~1", "/").replace("~0", "~")
            if is_obj(node) and key in node:
                node = node[key]
            elif is_arr(node) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return None
        return node if is_obj(node) else None

    def _name(self, ref: str) -> str:
        if ref not in self.named:
            base = ref.rstrip("/").rsplit("/", 1)[-1] or "Arguments"
            base = "Arguments" if base == "#" else base
            name, n = base, 2
            while name in self.named.values():
                name, n = f"{base}{n}", n + 1
            self.named[ref] = name
        return self.named[ref]

    def resolve(self, schema: Any) -> Any:
        """Follow non-recursive refs and merge ``allOf`` so the caller sees the effective shape.

        Sibling keywords of a ``$ref`` (commonly ``description`` and ``default``) take precedence over
        the target's.
        """
        seen: set[str] = set()
        while is_obj(schema) and isinstance(schema.get("$ref"), str):
            ref: str = schema["$ref"]
            if ref in self.recursive or ref in seen:
                return schema
            seen.add(ref)
            target = self.lookup(ref)
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**(target or {}), **siblings}
        if is_obj(schema) and is_arr(schema.get("allOf")):
            schema = self._merge_all_of(schema)
        return schema

    def _merge_all_of(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        props: dict[str, Any] = dict(merged.get("properties") or {})
        required: list[str] = list(merged.get("required") or [])
        for part in schema["allOf"]:
            part = self.resolve(part)
            if not is_obj(part):
                continue
            props.update(part.get("properties") or {})
            required += [r for r in strings(part.get("required")) if r not in required]
            for key, value in part.items():
                if key not in ("properties", "required"):
                    merged.setdefault(key, value)
        if props:
            merged["properties"] = props
        if required:
            merged["required"] = required
        return merged

    # -- compact: type expressions --------------------------------------------------------------------

    def type_expr(self, schema: Any, *, inline_objects: bool = True) -> str:
        """A one-line, TypeScript-like type: ``string``, ``"a" | "b"``, ``{id: integer, tags?: string[]}``.

        With ``inline_objects=False``, objects with fields are written ``object`` (full mode lists their
        fields underneath instead).
        """
        if schema is False:
            return "never"
        if is_obj(schema) and isinstance(schema.get("$ref"), str) and schema["$ref"] in self.recursive:
            return self._name(schema["$ref"])
        schema = self.resolve(schema)
        if not is_obj(schema) or _is_any(schema):
            return "any"
        expr = self._type_expr(schema, inline_objects)
        if schema.get("nullable") is True and expr != "any":
            expr = f"{expr} | null"
        return expr

    def _type_expr(self, schema: Mapping[str, Any], inline: bool) -> str:
        if "const" in schema:
            return _json(schema["const"])
        if is_arr(schema.get("enum")):
            return _enum_expr(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if is_arr(schema.get(key)) and schema[key]:
                parts = [self.type_expr(v, inline_objects=inline) for v in schema[key]]
                return " | ".join(dict.fromkeys(parts))
        types = schema.get("type")
        if is_arr(types):
            return " | ".join(self._type_expr({**schema, "type": t}, inline) for t in types)
        if types == "array" or (types is None and ("items" in schema or "prefixItems" in schema)):
            prefix = schema.get("prefixItems")
            if is_arr(prefix):
                return "[" + ", ".join(self.type_expr(v, inline_objects=inline) for v in prefix) + "]"
            items = schema.get("items")
            if is_arr(items):  # draft-07 tuple form
                return "[" + ", ".join(self.type_expr(v, inline_objects=inline) for v in items) + "]"
            if items is None or items is True or (is_obj(items) and _is_any(items)):
                return "array"
            inner = self.type_expr(items, inline_objects=inline)
            return f"({inner})[]" if " | " in inner else f"{inner}[]"
        if types == "object" or (types is None and ("properties" in schema or "additionalProperties" in schema)):
            props = schema.get("properties")
            if is_obj(props) and props:
                if not inline:
                    return "object"
                required = set(schema.get("required") or [])
                fields = (f"{k}{'' if k in required else '?'}: {self.type_expr(v)}" for k, v in props.items())
                return "{" + ", ".join(fields) + "}"
            extra = schema.get("additionalProperties")
            if is_obj(extra) and not _is_any(extra):
                return f"{{[key: string]: {self.type_expr(extra, inline_objects=inline)}}}"
            return "object"
        if types in _SCALARS:
            return str(types)
        return "any"

    def signature(self, name: str) -> str:
        """``name(a: string, b?: integer = 5)``: the tool as one line for compact mode."""
        root = self.resolve(self.root)
        props = _properties(root)
        if props is None:
            return f"{name}()" if _is_empty_object(root) else f"{name}(arguments: {self.type_expr(root)})"
        required = set(root.get("required") or [])
        params: list[str] = []
        for key, sub in props.items():
            text = f"{key}{'' if key in required else '?'}: {self.type_expr(sub)}"
            default = _default(self.resolve(sub))
            if default is not None:
                text += f" = {default}"
            params.append(text)
        return f"{name}({', '.join(params)})"

    def definitions_compact(self) -> list[str]:
        """``Node = {value: string, children?: Node[]}`` for each recursive type met so far (and theirs)."""
        lines: list[str] = []
        for ref in self._named_closure():
            target = self.lookup(ref)
            lines.append(f"{self.named[ref]} = {self.type_expr(target if target is not None else {})}")
        return lines

    # -- full: parameter lists ------------------------------------------------------------------------

    def parameter_lines(self) -> list[str]:
        """The root's parameters as an indented bullet list; empty when the tool takes none."""
        root = self.resolve(self.root)
        props = _properties(root)
        if props is None:
            if _is_empty_object(root):
                return []
            return [f"- arguments ({self.type_expr(root)})", *self._children(root, 1)]
        return self._fields(root, 0)

    def definition_lines(self) -> list[str]:
        """Bullet lists defining each recursive type named in the parameter lines."""
        lines: list[str] = []
        for ref in self._named_closure():
            target = self.resolve(self.lookup(ref) or {})
            name = self.named[ref]
            if is_obj(target) and _properties(target):
                lines.append(f"- {name}: an object with these fields:")
                lines += self._fields(target, 1)
            else:
                lines.append(f"- {name}: {self.type_expr(target)}")
        return lines

    def _named_closure(self) -> Iterator[str]:
        # Defining one recursive type can name another; keep going until no new names appear.
        done: set[str] = set()
        while pending := [r for r in self.named if r not in done]:
            for ref in pending:
                done.add(ref)
                yield ref

    def _fields(self, schema: Mapping[str, Any], depth: int) -> list[str]:
        required = set(schema.get("required") or [])
        lines: list[str] = []
        for key, sub in (_properties(schema) or {}).items():
            lines.append(self._line(key, sub, depth, required=key in required))
            lines += self._children(sub, depth + 1)
        extra = schema.get("additionalProperties")
        if (extra is True or is_obj(extra)) and _properties(schema):
            lines.append(f"{'  ' * depth}- (any other key) ({self.type_expr(extra)}, optional)")
        return lines

    def _line(self, key: str, sub: Any, depth: int, *, required: bool | None) -> str:
        resolved = self.resolve(sub)
        facts = [self.type_expr(sub, inline_objects=False)]
        if required is not None:
            facts.append("required" if required else "optional")
        description = ""
        if is_obj(resolved):
            facts += _constraints(resolved)
            description = " ".join(str(resolved.get("description") or "").split())
        head = f"{'  ' * depth}- {key} ({', '.join(facts)})"
        return f"{head}: {description}" if description else head

    def _children(self, sub: Any, depth: int) -> list[str]:
        """Fields of an object (or of an array's items), and the object options of a union."""
        if _is_recursive_ref(sub, self.recursive):
            return []
        schema = self.resolve(sub)
        if not is_obj(schema):
            return []
        if _properties(schema):
            return self._fields(schema, depth)
        items = schema.get("items")
        if is_obj(items) and not _is_recursive_ref(items, self.recursive):
            return self._children(items, depth)
        variants = schema.get("anyOf") or schema.get("oneOf")
        lines: list[str] = []
        if is_arr(variants):
            for n, variant in enumerate(variants, 1):
                nested = self._children(variant, depth + 1)
                if nested:
                    lines.append(self._line(f"option {n}", variant, depth, required=None))
                    lines += nested
        return lines


def _properties(schema: Any) -> Mapping[str, Any] | None:
    props = schema.get("properties") if is_obj(schema) else None
    return props if is_obj(props) and props else None


def _is_any(schema: Mapping[str, Any]) -> bool:
    return not (set(schema) - _ANNOTATIONS)


def _is_empty_object(schema: Any) -> bool:
    """No declared parameters: ``{}``, ``{"type": "object"}``, or an object with no properties."""
    if schema is True or schema is None:
        return True
    if not is_obj(schema):
        return False
    rest = (
        set(schema) - _ANNOTATIONS - {"type", "properties", "required", "additionalProperties", "$defs", "definitions"}
    )
    extra = schema.get("additionalProperties")
    open_values = is_obj(extra) and not _is_any(extra)
    return not rest and schema.get("type", "object") == "object" and not _properties(schema) and not open_values


def _is_recursive_ref(schema: Any, recursive: set[str]) -> bool:
    return is_obj(schema) and schema.get("$ref") in recursive


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _enum_expr(values: list[Any]) -> str:
    if len(values) <= ENUM_LIMIT:
        return " | ".join(_json(v) for v in values)
    shown = " | ".join(_json(v) for v in values[:ENUM_SAMPLE])
    return f"{shown} | … ({len(values) - ENUM_SAMPLE} more values)"


def _default(schema: Any) -> str | None:
    if is_obj(schema) and "default" in schema:
        return _json(schema["default"])
    return None


def _constraints(schema: Mapping[str, Any]) -> list[str]:
    facts: list[str] = []
    if isinstance(schema.get("format"), str):
        facts.append(f"format {schema['format']}")
    for key, text in (
        ("minimum", ">="),
        ("exclusiveMinimum", ">"),
        ("maximum", "<="),
        ("exclusiveMaximum", "<"),
    ):
        if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool):
            facts.append(f"{text} {schema[key]}")
    for low, high, unit in (("minLength", "maxLength", "characters"), ("minItems", "maxItems", "items")):
        lo, hi = schema.get(low), schema.get(high)
        if isinstance(lo, int) and isinstance(hi, int):
            facts.append(f"{lo}-{hi} {unit}")
        elif isinstance(lo, int) and lo > 0:
            facts.append(f"at least {lo} {unit}")
        elif isinstance(hi, int):
            facts.append(f"at most {hi} {unit}")
    if schema.get("uniqueItems") is True:
        facts.append("unique items")
    if isinstance(schema.get("pattern"), str):
        facts.append(f"pattern {schema['pattern']}")
    if "default" in schema:
        facts.append(f"default {_json(schema['default'])}")
    examples = schema.get("examples")
    if is_arr(examples) and examples:
        facts.append(f"e.g. {_json(examples[0])}")
    if schema.get("deprecated") is True:
        facts.append("deprecated")
    return facts


def _refs_in(node: Any) -> Iterator[str]:
    """Every ``$ref`` in a schema subtree, not looking inside definition containers."""
    if is_obj(node):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for key, value in node.items():
            if key not in ("$defs", "definitions"):
                yield from _refs_in(value)
    elif is_arr(node):
        for value in node:
            yield from _refs_in(value)


def _recursive_refs(root: Mapping[str, Any], lookup: Any) -> set[str]:
    graph: dict[str, set[str]] = {}
    pending = list(_refs_in(root))
    while pending:
        ref = pending.pop()
        if ref in graph:
            continue
        graph[ref] = set(_refs_in(lookup(ref) or {}))
        pending += graph[ref]
    recursive: set[str] = set()
    for start in graph:
        stack, seen = list(graph[start]), set[str]()
        while stack:
            ref = stack.pop()
            if ref == start:
                recursive.add(start)
                break
            if ref not in seen:
                seen.add(ref)
                stack += graph.get(ref, ())
    return recursive
