"""Call shapes normalise to (name, arguments); tool names resolve through the tool index."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.shapes import ShapeError, ToolIndex, call_arguments, call_items, to_call


@pytest.mark.parametrize(
    ("obj", "name", "arguments", "canonical"),
    [
        ({"name": "a", "arguments": {"x": 1}}, "a", {"x": 1}, True),
        ({"name": "a", "parameters": {"x": 1}}, "a", {"x": 1}, True),
        ({"type": "function", "function": {"name": "a", "arguments": '{"x": 1}'}}, "a", {"x": 1}, True),
        ({"function": {"name": "a", "arguments": {}}}, "a", {}, True),
        ({"tool": "a", "x": 1}, "a", {"x": 1}, False),
        ({"method": "a", "params": {"x": 1}}, "a", {"x": 1}, True),
        (
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a", "arguments": {"x": 1}}},
            "a",
            {"x": 1},
            True,
        ),
        ({"name": "a"}, "a", {}, True),
        ({"name": "a", "arguments": None}, "a", {}, True),
        ({"name": "a", "arguments": ""}, "a", {}, True),
        ({"name": "my-pkg", "version": "1.0"}, "my-pkg", {"version": "1.0"}, False),
        # The schema's own keywords copied beside a call's arguments (rnj-1 on LM Studio): notes, not arguments.
        ({"name": "a", "arguments": {"x": 1}, "additionalProperties": False}, "a", {"x": 1}, True),
        (
            {"name": "a", "parameters": {"x": 1}, "$schema": "http://json-schema.org/draft-07/schema#"},
            "a",
            {"x": 1},
            True,
        ),
        # Flat arguments keep them: there they may be the tool's own parameters.
        ({"name": "a", "additionalProperties": False}, "a", {"additionalProperties": False}, False),
        # A definition copied whole is still no canonical call.
        (
            {"name": "a", "description": "d", "parameters": {"type": "object"}, "additionalProperties": False},
            "a",
            {"type": "object"},
            False,
        ),
    ],
)
def test_call_shapes_normalise_to_name_and_arguments(obj: dict, name: str, arguments: dict, canonical: bool) -> None:
    shape = to_call(obj)
    assert (shape.name, shape.arguments, shape.canonical) == (name, arguments, canonical)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([1, 2], "must be a JSON object"),
        ({"city": "Paris"}, "no tool name"),
        ({"name": "a", "arguments": [1]}, "must be a JSON object"),
        ({"name": "a", "arguments": "not json"}, "not a JSON object"),
    ],
)
def test_objects_that_are_not_calls_are_refused_with_a_reason(obj: object, message: str) -> None:
    with pytest.raises(ShapeError, match=message):
        to_call(obj)


def test_names_resolve_by_case_prefix_title_and_description() -> None:
    index = ToolIndex(
        [
            "get_time",
            {"name": "get_weather", "title": "Weather", "description": "Get the current weather"},
            {"type": "function", "function": {"name": "search", "description": "Search the web", "parameters": {}}},
        ]
    )
    assert index.resolve("GET_TIME") == "get_time"
    assert index.resolve("functions.get_time") == "get_time"
    assert index.resolve("Weather") == "get_weather"
    assert index.resolve("Get the current weather") == "get_weather"
    assert index.resolve("search the web") == "search"
    assert index.resolve("unknown_tool") == "unknown_tool"
    assert not index.is_known("unknown_tool")


def test_parameter_types_come_from_the_input_schema() -> None:
    index = ToolIndex(
        [
            {
                "name": "t",
                "inputSchema": {
                    "type": "object",
                    "properties": {"n": {"type": "integer"}, "s": {"type": ["string", "null"]}, "any": {}},
                },
            }
        ]
    )
    assert index.property_type("t", "n") == "integer"
    assert index.property_type("t", "s") == "string"
    assert index.property_type("t", "any") is None
    assert index.property_type("other", "n") is None


@pytest.mark.parametrize(
    ("value", "items"),
    [
        ([{"name": "a"}, {"name": "b"}], [{"name": "a"}, {"name": "b"}]),
        ({"tool_calls": [{"name": "a"}]}, [{"name": "a"}]),
        ({"role": "assistant", "content": "", "tool_calls": {"name": "a"}}, [{"name": "a"}]),
        ({"function_calls": [{"name": "a"}], "type": "message"}, [{"name": "a"}]),
        ({"content": "hi", "tool_calls": [{"name": "a"}]}, [{"content": "hi", "tool_calls": [{"name": "a"}]}]),
        ({"tool_calls": [], "model": "x"}, [{"tool_calls": [], "model": "x"}]),
        ({"assistant_text": None, "tool_calls": [{"name": "a"}]}, [{"name": "a"}]),  # Aster: empty, nothing lost
        ({"assistant_text": "", "note": [], "tool_calls": [{"name": "a"}]}, [{"name": "a"}]),
        (
            {"assistant_text": "Hi", "tool_calls": [{"name": "a"}]},
            [{"assistant_text": "Hi", "tool_calls": [{"name": "a"}]}],
        ),
        ({"name": "a"}, [{"name": "a"}]),
    ],
)
def test_call_items_unwraps_lists_and_bare_message_envelopes_only(value: object, items: list[object]) -> None:
    assert call_items(value) == items


@pytest.mark.parametrize(
    ("obj", "name", "arguments"),
    [
        # DeepChat nests the call under "function_call" (inside <function_call>).
        ({"function_call": {"name": "a", "arguments": {"x": 1}}}, "a", {"x": 1}),
        # Two wrapper levels, with the arguments as a JSON string.
        ({"tool_call": {"function": {"name": "a", "arguments": '{"x": 1}'}}}, "a", {"x": 1}),
        ({"type": "function", "id": "c1", "function": {"name": "a", "parameters": {"x": 1}}}, "a", {"x": 1}),
        # LangChain's agent blob; Command R's list items.
        ({"action": "a", "action_input": {"x": 1}}, "a", {"x": 1}),
        ({"tool_call_id": "0", "tool_name": "a", "parameters": {"x": 1}}, "a", {"x": 1}),
        ({"name": "a", "kwargs": {"x": 1}}, "a", {"x": 1}),
    ],
)
def test_wrapper_keys_and_key_synonyms_real_models_use_are_read(obj: dict, name: str, arguments: dict) -> None:
    shape = to_call(obj)
    assert (shape.name, shape.arguments) == (name, arguments)


def test_wrappers_are_unwrapped_to_a_bounded_depth_only() -> None:
    deep: dict = {"name": "a", "arguments": {}}
    for _ in range(10):
        deep = {"function": deep}
    with pytest.raises(ShapeError):
        to_call(deep)


def test_a_call_keyed_by_its_tool_s_name_counts_only_for_an_offered_tool() -> None:
    tools = ToolIndex([{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {}}}}])
    shape = to_call({"get_weather": {"city": "Paris"}}, tools)
    assert (shape.name, shape.arguments) == ("get_weather", {"city": "Paris"})
    with pytest.raises(ShapeError):
        to_call({"get_weather": {"city": "Paris"}})  # no tools: no evidence
    with pytest.raises(ShapeError):
        to_call({"translate": {"text": "hi"}}, tools)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"arguments": {"city": "Paris"}}, {"city": "Paris"}),
        ({"input": '{"city": "Paris"}'}, {"city": "Paris"}),
        ({"input": {"town": "Paris"}}, {"input": {"town": "Paris"}}),  # not the schema's keys: kept
        ({"city": "Paris"}, {"city": "Paris"}),
        ({"arguments": "Paris"}, {"arguments": "Paris"}),
    ],
)
def test_arguments_written_in_one_wrapper_parameter_the_schema_lacks_are_unwrapped(
    arguments: dict, expected: dict
) -> None:
    tools = ToolIndex([{"name": "w", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}])
    assert call_arguments(tools, "w", arguments) == expected
    wrapped = ToolIndex([{"name": "w", "inputSchema": {"type": "object", "properties": {"input": {}}}}])
    assert call_arguments(wrapped, "w", {"input": {"city": "x"}}) == {"input": {"city": "x"}}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"todos": '[{"content": "Init", "status": "done"}]'}, {"todos": [{"content": "Init", "status": "done"}]}),
        ({"todos": ' ["a", "b"]'}, {"todos": ["a", "b"]}),
        ({"opts": '{"deep": true}'}, {"opts": {"deep": True}}),
        ({"todos": "[not json]"}, {"todos": "[not json]"}),  # nothing guessed
        ({"todos": '{"a": 1}'}, {"todos": '{"a": 1}'}),  # an object where an array is wanted
        ({"note": '["a"]'}, {"note": '["a"]'}),  # a string parameter keeps its text
        ({"todos": ["a"]}, {"todos": ["a"]}),
    ],
)
def test_an_array_or_object_parameter_written_as_a_json_string_of_one_is_decoded(
    arguments: dict, expected: dict
) -> None:
    properties = {"todos": {"type": "array"}, "opts": {"type": "object"}, "note": {"type": "string"}}
    tools = ToolIndex([{"name": "t", "inputSchema": {"type": "object", "properties": properties}}])
    assert call_arguments(tools, "t", arguments) == expected


@pytest.mark.parametrize(
    ("written", "resolved"),
    [
        ("get-weather", "get_weather"),
        ("Get.Weather", "get_weather"),
        ("functions.get_weather", "get_weather"),
        ("default_api.get-weather", "get_weather"),
        ("brave_search.call", "brave_search"),
        ("search", "search"),  # not offered: unchanged
    ],
)
def test_names_resolve_exactly_first_then_by_safe_normalisation(written: str, resolved: str) -> None:
    tools = ToolIndex(["get_weather", "brave_search", "read-file"])
    assert tools.resolve(written) == resolved


def test_a_loose_name_that_fits_two_tools_resolves_to_neither() -> None:
    tools = ToolIndex(["read_file", "read-file"])
    assert tools.resolve("read.file") == "read.file"
    assert tools.resolve("read-file") == "read-file"  # exact first


def test_a_special_token_inside_a_name_is_stripped_only_when_the_rest_names_an_offered_tool() -> None:
    index = ToolIndex(["read", "get_weather"])
    assert index.resolve("read<|message|>") == "read"
    assert index.resolve("<|channel|>get-weather") == "get_weather"
    assert index.resolve("read<\uff5ctool_sep\uff5c>") == "read"
    assert index.resolve("write<|message|>") == "write<|message|>"
    assert index.resolve("<|message|>") == "<|message|>"


@pytest.mark.parametrize(
    ("schema", "kind"),
    [
        ({"properties": {"p": {"$ref": "#/$defs/Loc"}}, "$defs": {"Loc": {"type": "object"}}}, "object"),
        ({"properties": {"p": {"$ref": "#/definitions/N"}}, "definitions": {"N": {"type": "integer"}}}, "integer"),
        ({"properties": {"p": {"anyOf": [{"type": "object"}, {"type": "null"}]}}}, "object"),
        (
            {
                "properties": {"p": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
                "$defs": {"A": {"type": "array"}},
            },
            "array",
        ),
        ({"properties": {"p": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}, None),
        ({"properties": {"p": {"$ref": "#/$defs/Missing"}}}, None),
        ({"properties": {"p": {"$ref": "https://example.com/schema.json"}}}, None),
    ],
)
def test_a_parameters_type_follows_a_local_ref_and_a_union_with_null(schema: dict[str, Any], kind: str | None) -> None:
    tools = ToolIndex([{"name": "t", "inputSchema": {"type": "object", **schema}}])
    assert tools.property_type("t", "p") == kind


_CHAIN_TOOLS = ToolIndex(
    [
        {"name": "get_random_city", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "forecast", "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}}},
        {"name": "render", "inputSchema": {"type": "object", "properties": {"output": {"type": "string"}}}},
    ]
)


@pytest.mark.parametrize(
    ("obj", "arguments"),
    [
        # Hermes' chaining (benchmarks/real/function_calls_json): no arguments key, only the output variable.
        ({"name": "get_random_city", "output": "random_city"}, {}),
        ({"name": "forecast", "location": "Oslo", "output": "temperature"}, {"location": "Oslo"}),
        ({"name": "forecast", "location": "Oslo", "thought": "needed"}, {"location": "Oslo"}),
        # A tool that declares the key keeps it as its argument.
        ({"name": "render", "output": "a.png"}, {"output": "a.png"}),
    ],
)
def test_a_flat_call_leaves_out_a_key_beside_arguments_that_the_schema_does_not_declare(
    obj: dict[str, Any], arguments: dict[str, Any]
) -> None:
    assert to_call(obj, _CHAIN_TOOLS).arguments == arguments


def test_a_flat_call_of_a_tool_with_no_known_schema_keeps_every_key() -> None:
    assert to_call({"name": "other", "output": "x"}, _CHAIN_TOOLS).arguments == {"output": "x"}


_CLICK = ToolIndex(
    [
        {
            "name": "click",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}},
        },
        {
            "name": "tag",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "array"}, "y": {"type": "integer"}}},
        },
    ]
)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        # Qwen3-VL and Qwen3.5 in APE's tests (benchmarks/real/damaged): the point under its first coordinate.
        ({"x": [540, 399]}, {"x": 540, "y": 399}),
        ({"x": "300, 700"}, {"x": 300, "y": 700}),
        ({"x": "(12; 34)"}, {"x": 12, "y": 34}),
        # Anything else stays as written.
        ({"x": 5}, {"x": 5}),
        ({"x": [1, 2], "y": 3}, {"x": [1, 2], "y": 3}),
        ({"x": [1, 2, 3]}, {"x": [1, 2, 3]}),
        ({"x": "left, right"}, {"x": "left, right"}),
    ],
)
def test_a_point_written_under_its_first_coordinate_is_split_over_both_axes(
    arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert call_arguments(_CLICK, "click", arguments) == expected


def test_a_pair_for_an_axis_the_schema_does_not_declare_as_a_number_stays_as_written() -> None:
    assert call_arguments(_CLICK, "tag", {"x": [1, 2]}) == {"x": [1, 2]}


def test_a_dotted_tools_method_alone_resolves_to_it_only_when_one_tool_has_that_method() -> None:
    tools = ToolIndex(["Tests.doDeleteByQuery", "a.run", "b.run", "stop", "x.stop"])
    assert tools.resolve("doDeleteByQuery") == "Tests.doDeleteByQuery"
    assert tools.resolve("run") == "run"  # two tools end in `.run`: no guess
    assert tools.resolve("stop") == "stop"  # an offered name is never another tool's method
    assert not tools.is_known("query")


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"id": "call-0001", "args": {"city": "Paris"}}, {"city": "Paris"}),  # LocalAI's name-keyed call
        ({"type": "function", "arguments": {"city": "Paris"}}, {"city": "Paris"}),
        ({"name": "w", "args": {"city": "Paris"}}, {"city": "Paris"}),  # the tool's own name restated
        ({"name": "other", "args": {"city": "Paris"}}, {"name": "other", "args": {"city": "Paris"}}),  # another name
        ({"id": "1", "args": {"town": "Paris"}}, {"id": "1", "args": {"town": "Paris"}}),  # not the schema's keys
        ({"id": "1", "city": "Paris"}, {"id": "1", "city": "Paris"}),  # no wrapper: flat arguments kept
    ],
)
def test_a_wrapper_beside_keys_that_only_restate_the_call_is_unwrapped(arguments: dict, expected: dict) -> None:
    tools = ToolIndex([{"name": "w", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}])
    assert call_arguments(tools, "w", arguments) == expected


def test_a_restating_key_the_schema_declares_is_an_argument() -> None:
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "city": {"type": "string"}}}
    tools = ToolIndex([{"name": "w", "inputSchema": schema}])
    assert call_arguments(tools, "w", {"id": "1", "args": {"city": "x"}}) == {"id": "1", "args": {"city": "x"}}


def test_a_name_with_markdown_escapes_resolves_to_the_offered_tool_only() -> None:
    index = ToolIndex(["get_weather", "web-search", "fs.read"])
    assert index.resolve("get\\_weather") == "get_weather"
    assert index.resolve("web\\-search") == "web-search"
    assert index.resolve("fs\\.read") == "fs.read"
    assert index.resolve("other\\_tool") == "other\\_tool"


_COLOR = ToolIndex([{"name": "paint", "inputSchema": {"type": "object", "properties": {"color": {"type": "string"}}}}])


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"color": '<|"|>red<|"|>'}, {"color": "red"}),  # flutter_gemma's LiteRT-LM SDK, Gemma 4
        ({"color": '<|"|><|"|>'}, {"color": ""}),  # an empty string
        ({"color": '<|"|>a "b" c<|"|>'}, {"color": 'a "b" c'}),  # quotes inside stay
        ({"tags": ['<|"|>x<|"|>', "y"], "o": {"k": '<|"|>z<|"|>'}}, {"tags": ["x", "y"], "o": {"k": "z"}}),  # nested
        ({"color": 3}, {"color": 3}),
    ],
)
def test_a_string_wrapped_in_gemma_4_delimiter_tokens_is_the_value_between_them(
    arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert call_arguments(_COLOR, "paint", arguments) == expected


@pytest.mark.parametrize(
    "value",
    [
        '<|"|>red',  # only an opening token
        'red<|"|>',  # only a closing one
        '<|"|>a<|"|> and <|"|>b<|"|>',  # two strings: not one wrapped value
        'say <|"|>hi<|"|>',  # the token inside a longer value
    ],
)
def test_a_delimiter_token_that_does_not_wrap_the_whole_value_is_kept(value: str) -> None:
    assert call_arguments(_COLOR, "paint", {"color": value}) == {"color": value}


@pytest.mark.parametrize("key", ["tool_call", "function_call"])
def test_a_singular_call_key_holding_a_list_is_an_envelope_of_calls(key: str) -> None:
    # Qwen3.5-Plus in iwaitu/vllmchatclient's tests: {"tool_call":[{"name": …, "arguments": …}]}
    calls = [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]
    assert call_items({key: calls}) == calls
    assert call_items({"role": "assistant", key: calls[:1]}) == calls[:1]


def test_a_singular_call_key_beside_words_or_holding_one_object_is_no_envelope() -> None:
    said = {"tool_call": [{"name": "a", "arguments": {}}], "content": "I will not call it."}
    assert call_items(said) == [said]  # the message says something: not a bare list of calls
    one = {"tool_call": {"name": "a", "arguments": {}}}
    assert call_items(one) == [one]  # one object under the key: a wrapper, read by `to_call`


@pytest.mark.parametrize(
    ("written", "resolved"),
    [
        ("ui_detector:0<|tool_call", "ui_detector"),  # gyro-claw's test: Kimi's index, then a cut token
        ("ui_detector:12", "ui_detector"),
        ("functions.ui_detector:0", "ui_detector"),
        ("Read_File : 3", "read_file"),
        ("read_file<|tool_call_end", "read_file"),
        ("read_file<\uff5ctool", "read_file"),  # a full-width bar's token, cut
    ],
)
def test_a_call_ids_index_and_a_cut_token_after_a_name_are_no_part_of_it(written: str, resolved: str) -> None:
    assert ToolIndex(["ui_detector", "read_file"]).resolve(written) == resolved


@pytest.mark.parametrize("written", ["lookup:0", "ui_detector:x", "ui_detector:0 now", ":0", "<|tool_call"])
def test_an_index_or_cut_token_after_no_offered_name_resolves_to_nothing(written: str) -> None:
    assert ToolIndex(["ui_detector"]).resolve(written) == written.strip()


def test_a_tools_key_holding_calls_is_an_envelope_only_when_the_message_says_nothing_else() -> None:
    # gyro-claw's parallel batch: {"tools": [{"tool": …, "args": …}, …]}
    calls = [{"tool": "search", "args": {"query": "planner"}}, {"tool": "project_map", "args": {"directory": "src"}}]
    assert call_items({"tools": calls}) == calls
    said = {"tools": calls, "note": "these are the tools I would use"}
    assert call_items(said) == [said]
