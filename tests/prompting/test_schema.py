"""Schema edge cases: what survives from a JSON Schema into the text a model reads."""

from __future__ import annotations

from typing import Any

from shim.prompting.schema import SchemaText


def lines(schema: dict[str, Any]) -> list[str]:
    return SchemaText(schema).parameter_lines()


def signature(schema: dict[str, Any], name: str = "tool") -> str:
    return SchemaText(schema).signature(name)


def test_required_optional_defaults_and_descriptions_are_all_shown() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City  name,\n  e.g. Paris."},
            "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
        },
        "required": ["city"],
    }
    assert lines(schema) == [
        "- city (string, required): City name, e.g. Paris.",
        '- units ("metric" | "imperial", optional, default "metric")',
    ]
    assert signature(schema) == 'tool(city: string, units?: "metric" | "imperial" = "metric")'


def test_nested_objects_list_their_fields_indented_under_the_parent() -> None:
    schema = {
        "type": "object",
        "properties": {
            "options": {
                "type": "object",
                "description": "How to write.",
                "properties": {"append": {"type": "boolean"}, "mode": {"type": "integer", "minimum": 0}},
                "required": ["append"],
            }
        },
    }
    assert lines(schema) == [
        "- options (object, optional): How to write.",
        "  - append (boolean, required)",
        "  - mode (integer, optional, >= 0)",
    ]
    assert signature(schema) == "tool(options?: {append: boolean, mode?: integer})"


def test_arrays_show_their_item_types_and_the_fields_of_object_items() -> None:
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5},
            "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "people": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string"}}},
            },
            "mixed": {"type": "array", "items": {"type": ["string", "integer"]}},
            "untyped": {"type": "array"},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
        },
    }
    assert lines(schema) == [
        "- tags (string[], optional, 1-5 items)",
        "- matrix (number[][], optional)",
        "- people (object[], optional)",
        "  - name (string, optional)",
        "- mixed ((string | integer)[], optional)",
        "- untyped (array, optional)",
        "- pair ([string, integer], optional)",
    ]
    assert "people?: {name?: string}[]" in signature(schema)


def test_refs_into_defs_and_definitions_are_resolved_with_sibling_descriptions_kept() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "Address": {
                "type": "object",
                "properties": {"street": {"type": "string"}},
                "required": ["street"],
            }
        },
        "definitions": {"Zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
        "properties": {
            "ship_to": {"$ref": "#/$defs/Address", "description": "Where to ship."},
            "zip": {"$ref": "#/definitions/Zip"},
        },
    }
    assert lines(schema) == [
        "- ship_to (object, optional): Where to ship.",
        "  - street (string, required)",
        "- zip (string, optional, pattern ^[0-9]{5}$)",
    ]
    assert signature(schema) == "tool(ship_to?: {street: string}, zip?: string)"


def test_recursive_refs_are_named_once_and_defined_below_instead_of_looping() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["value"],
            }
        },
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
    }
    text = SchemaText(schema)
    assert text.parameter_lines() == ["- root (Node, required)"]
    assert text.definition_lines() == [
        "- Node: an object with these fields:",
        "  - value (string, required)",
        "  - children (Node[], optional)",
    ]
    assert text.signature("save") == "save(root: Node)"
    assert text.definitions_compact() == ["Node = {value: string, children?: Node[]}"]


def test_mutually_recursive_refs_are_all_defined() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
        },
        "properties": {"start": {"$ref": "#/$defs/A"}},
    }
    text = SchemaText(schema)
    text.signature("t")
    assert text.definitions_compact() == ["A = {b?: B}", "B = {a?: A}"]


def test_a_ref_to_the_root_itself_is_named_arguments() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "sub": {"$ref": "#"}}}
    text = SchemaText(schema)
    assert text.signature("t") == "t(name?: string, sub?: Arguments)"
    assert text.definitions_compact() == ["Arguments = {name?: string, sub?: Arguments}"]


def test_any_of_and_one_of_become_unions_with_object_options_listed() -> None:
    schema = {
        "type": "object",
        "properties": {
            "target": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"path": {"type": "string"}}}]},
            "maybe": {"oneOf": [{"type": "integer"}, {"type": "null"}]},
        },
    }
    assert lines(schema) == [
        "- target (string | object, optional)",
        "  - option 2 (object)",
        "    - path (string, optional)",
        "- maybe (integer | null, optional)",
    ]
    assert signature(schema) == "tool(target?: string | {path?: string}, maybe?: integer | null)"


def test_all_of_merges_the_fields_of_its_parts() -> None:
    schema = {
        "type": "object",
        "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
        "properties": {"item": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"n": {"type": "integer"}}}]}},
    }
    assert signature(schema) == "tool(item?: {id: string, n?: integer})"


def test_an_empty_schema_and_a_property_free_object_mean_no_parameters() -> None:
    for schema in (
        {},
        {"type": "object"},
        {"type": "object", "properties": {}},
        {"type": "object", "additionalProperties": False},
    ):
        assert lines(schema) == []
        assert signature(schema, "ping") == "ping()"


def test_a_parameter_with_an_empty_schema_accepts_anything() -> None:
    assert lines({"type": "object", "properties": {"x": {}, "y": True}}) == [
        "- x (any, optional)",
        "- y (any, optional)",
    ]


def test_huge_enums_show_a_sample_and_how_many_values_were_left_out() -> None:
    codes = [f"C{i:03d}" for i in range(500)]
    [line] = lines({"type": "object", "properties": {"code": {"enum": codes}}})
    assert line.startswith('- code ("C000" | "C001" |')
    assert '"C009" | … (490 more values), optional)' in line
    assert "C010" not in line


def test_short_enums_are_shown_in_full() -> None:
    [line] = lines({"type": "object", "properties": {"n": {"enum": [1, 2, None, "x"]}}})
    assert line == '- n (1 | 2 | null | "x", optional)'


def test_maps_with_typed_values_show_the_value_type() -> None:
    schema = {
        "type": "object",
        "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}},
    }
    assert lines(schema) == ["- counts ({[key: string]: integer}, optional)"]


def test_formats_bounds_examples_and_deprecation_are_shown() -> None:
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time", "examples": ["2025-01-01T00:00:00Z"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "name": {"type": "string", "maxLength": 40, "deprecated": True},
        },
    }
    assert lines(schema) == [
        '- when (string, optional, format date-time, e.g. "2025-01-01T00:00:00Z")',
        "- limit (integer, optional, >= 1, <= 100)",
        "- name (string, optional, at most 40 characters, deprecated)",
    ]


def test_unresolvable_refs_render_as_any_instead_of_failing() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "https://example.com/schema.json"}, "b": {"$ref": "#/$defs/Missing"}},
    }
    assert lines(schema) == ["- a (any, optional)", "- b (any, optional)"]


def test_nullable_in_the_openapi_style_adds_null() -> None:
    assert (
        signature({"type": "object", "properties": {"a": {"type": "string", "nullable": True}}})
        == "tool(a?: string | null)"
    )


def test_unicode_stays_unescaped() -> None:
    schema = {"type": "object", "properties": {"ville": {"enum": ["Zürich", "東京"], "description": "Où ?"}}}
    assert lines(schema) == ['- ville ("Zürich" | "東京", optional): Où ?']
