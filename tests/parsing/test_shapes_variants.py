"""Key variants and envelopes of `shim.parsing.shapes` read in every family that hands a body to it, at every
split point: name keys (``recipient_name``, TGI's ``_name``, ``toolName``), argument keys (``tool_args``…),
list envelopes (``tool_uses``, ``calls``, ``functions``) and OpenAI's ``multi_tool_use.parallel`` fan-out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shim.parsing.shapes import ToolIndex, call_items, to_call
from tests.parsing.readers.cases import Real, check

W = ("get_weather", {"city": "Paris"})
S = ("web-search", {"query": "x"})
TOOLS = ["get_weather", "web-search"]


@pytest.mark.parametrize(
    ("obj", "name", "arguments", "canonical"),
    [
        (
            {"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}},
            "functions.get_weather",
            {"city": "Paris"},
            True,
        ),
        ({"_name": "get_weather", "city": "Paris"}, "get_weather", {"city": "Paris"}, True),
        ({"function": {"_name": "get_weather", "city": "Paris"}}, "get_weather", {"city": "Paris"}, True),
        ({"toolName": "get_weather", "args": {"city": "Paris"}}, "get_weather", {"city": "Paris"}, True),
        ({"functionName": "get_weather", "tool_args": {"city": "Paris"}}, "get_weather", {"city": "Paris"}, True),
        ({"name": "get_weather", "tool_arguments": '{"city": "Paris"}'}, "get_weather", {"city": "Paris"}, True),
    ],
)
def test_name_and_argument_key_variants_read_as_one_call(
    obj: dict, name: str, arguments: dict, canonical: bool
) -> None:
    shape = to_call(obj)
    assert (shape.name, shape.arguments, shape.canonical) == (name, arguments, canonical)


@pytest.mark.parametrize("key", ["tool_uses", "calls", "functions", "tool_calls", "function_calls"])
def test_a_list_envelope_holds_its_calls(key: str) -> None:
    assert call_items({key: [{"name": "a"}, {"name": "b"}]}) == [{"name": "a"}, {"name": "b"}]


def test_a_parallel_fan_out_holds_the_calls_it_names() -> None:
    uses = [{"recipient_name": "functions.a", "parameters": {}}, {"recipient_name": "functions.b", "parameters": {}}]
    value = {"recipient_name": "multi_tool_use.parallel", "parameters": {"tool_uses": uses}}
    assert call_items(value) == uses
    assert call_items([value]) == uses


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('{"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}}', [W]),
        ('{"function": {"_name": "get_weather", "city": "Paris"}}', [W]),
        ('{"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}}]}', [W]),
        (
            '{"recipient_name": "multi_tool_use.parallel", "parameters": {"tool_uses": ['
            '{"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}},'
            '{"recipient_name": "functions.web-search", "parameters": {"query": "x"}}]}}',
            [W, S],
        ),
        ('{"calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}', [W]),
        ('<tool_call>{"functions": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}</tool_call>', [W]),
        ('{"get_weather": {"city": "Paris"}}', [W]),
        # A key that says "this is a call" naming an offered tool, its arguments flat beside it (SmallCTL).
        ('{"tool_call": "get_weather", "city": "Paris"}', [W]),
        ('{"function_call": "web-search", "query": "x"}', [S]),
        (
            '{"tool_call": "get_weather", "city": "Paris", "days": [1, 2]}',
            [("get_weather", {"city": "Paris", "days": [1, 2]})],
        ),
        ('<tool_call>{"tool_call": "web-search", "query": "x"}</tool_call>', [S]),
        # `tool` naming an offered tool, its arguments flat beside it (mini-codex's prompt), one object a line.
        ('{"tool": "get_weather", "city": "Paris"}', [W]),
        ('{"tool":"get_weather","city":"Paris"}\n{"tool":"web-search","query":"x"}\n', [W, S]),
        ('```json\n{"tool": "web-search", "query": "x"}\n```', [S]),
        # `skill` as the name key (android-ai-agent's `{"skill": NAME, "parameters": {…}}`).
        ('```json\n{"skill": "get_weather", "parameters": {"city": "Paris"}}\n```', [W]),
        ('{"skill": "web-search", "parameters": {"query": "x"}}', [S]),
        ('<tool_call>{"skill": "get_weather", "args": {"city": "Paris"}}</tool_call>', [W]),
        # Arguments under `function_args` (mcp-client-for-ollama's tests).
        ('{"function_name": "get_weather", "function_args": {"city": "Paris"}}', [W]),
        ('[{"function_name": "web-search", "function_args": {"query": "x"}}]', [S]),
    ],
)
def test_untagged_and_tagged_envelopes_are_read_at_every_split(text: str, calls: list) -> None:
    check(Real("written: envelopes engines and frameworks print", text, calls, tools=TOOLS))


def test_a_skill_object_fenced_after_a_sentence_is_the_call() -> None:
    text = 'Here\'s the action:\n```json\n{"skill": "web-search", "parameters": {"query": "x"}}\n```'
    check(
        Real("canonrebel04/android-ai-agent:src/tool_parser.rs", text, [S], visible="Here's the action:", tools=TOOLS)
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"tool_uses": [{"recipient_name": "functions.unknown", "parameters": {}}]}',
        '{"function": {"_name": "notify_error", "error": "no tool fits"}}',
        '{"calls": [1, 2, 3]}',
        '{"get_weather": "Paris"}',
        '{"tool_call": "lookup_user", "id": 3}',  # a flat call under a call key, of no offered tool
        '{"tool": "lookup_user", "id": 3}',
        '{"skill": "cooking", "parameters": {"level": 3}}',  # a skill that names no offered tool
        '{"skill": "python", "years": 3}',  # a record with a `skill` field
        'Use `{"skill": "get_weather", "parameters": {"city": "Paris"}}` to ask.',  # inline code
        'For example:\n```json\n{"tool": "get_weather", "city": "Paris"}\n```',  # an example presented
        '{"function_call": "auto", "model": "x"}',  # an API request's setting
        '{"function_name": "lookup_user", "function_args": {"id": 3}}',
    ],
)
def test_an_envelope_of_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


_TOOL_KEY_TOOLS = [
    "get_weather",
    "web-search",
    {"name": "list_files", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}},
    {
        "name": "read_file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}},
    },
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # benchmarks/real/flat_tool_call_json/b24_mrb_qwen25_*: Qwen2.5 in a ```json fence, the name under "tool"
        ('```json\n{"tool":"list_files","path":"."}\n```', [("list_files", {"path": "."})], ""),
        # variants: no fence, several arguments typed; prose before, an indented object, another language
        (
            '{"tool": "read_file", "path": "src/main.py", "limit": 20}',
            [("read_file", {"path": "src/main.py", "limit": 20})],
            "",
        ),
        (
            'Je regarde la météo.\n```json\n{\n  "tool": "get_weather",\n  "city": "Köln"\n}\n```',
            [("get_weather", {"city": "Köln"})],
            "Je regarde la météo.",
        ),
        ('<tool_call>{"tool": "web-search", "query": "x"}</tool_call>', [S], ""),
        ('[{"tool": "get_weather", "city": "Paris"}, {"tool": "web-search", "query": "x"}]', [W, S], ""),
    ],
)
def test_a_tool_key_naming_an_offered_tool_with_its_arguments_flat_beside_it_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(
        Real("written: a flat object naming its tool under `tool`", text, calls, visible=visible, tools=_TOOL_KEY_TOOLS)
    )


@pytest.mark.parametrize(
    "text",
    [
        'For example:\n```json\n{"tool": "list_files", "path": "."}\n```',  # presented as an example
        '```json\n{"tool": "delete_all", "path": "/"}\n```',  # a tool not offered
        'The linter config is:\n```json\n{"tool": "eslint", "path": "src"}\n```',  # a config naming no offered tool
        'Use the format `{"tool": "list_files", "path": "."}` to call a tool.',  # inline code
        '{"tool": "hammer", "weight": 3}',  # data whose tool is no offered one
    ],
)
def test_a_tool_key_object_shown_or_naming_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOL_KEY_TOOLS))


@pytest.mark.parametrize(
    ("written", "offered"),
    [
        ("getWeather", "get_weather"),
        ("GetWeather", "get_weather"),
        ("get_weather", "getWeather"),
        ("mcp__weather__get_weather", "get_weather"),
        ("default_api.get_weather", "get_weather"),
        # An MCP client's server prefix on the offered name, left out by the model (goose's `developer__shell`).
        ("shell", "developer__shell"),
        ("read_file", "mcp__fs__read_file"),
        ("readFile", "mcp__fs__read_file"),
    ],
)
def test_names_resolve_across_camel_case_and_namespaces_when_one_tool_fits(written: str, offered: str) -> None:
    assert ToolIndex([offered, "web-search"]).resolve(written) == offered


def test_a_loose_name_that_fits_two_tools_is_left_as_written() -> None:
    assert ToolIndex(["get_weather", "getWeather"]).resolve("GET-WEATHER") == "GET-WEATHER"


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "web-search", "arguments": "x"}',
        'Action:\n{"name": "web-search", "arguments": "x"}',
        '<tool_call>{"name": "web-search", "arguments": "x"}</tool_call>',
    ],
)
def test_a_plain_string_as_arguments_is_the_value_of_the_tools_one_parameter(text: str) -> None:
    tools = [{"name": "web-search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}}]
    check(Real("written: smolagents-style string arguments", text, [S], tools=tools), visible=False)


def test_a_plain_string_for_a_tool_of_several_parameters_is_not_a_call() -> None:
    tools = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {}, "days": {}}}}]
    text = '{"name": "get_weather", "arguments": "Paris"}'
    check(Real("written", text, [], visible=text, tools=tools))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('Please run this: {"server_idx": 1, "tool_name": "math", "tool_args": {"a": 1, "b": 2}}', "Please run this:"),
        (
            'Here:\n```json\n{\n  "server_idx": 0,\n  "tool_name": "math",\n  "tool_args": {"a": 1, "b": 2}\n}\n```',
            "Here:",
        ),
        (
            "Tool candidate {'server_name': 'calc', 'tool_name': 'math', 'tool_args': {'a': 1, 'b': 2}}",
            "Tool candidate",
        ),
    ],
)
def test_a_server_routing_key_beside_named_arguments_is_envelope_metadata(text: str, visible: str) -> None:
    """CAMEL's MCPAgent writes ``{server_idx, tool_name, tool_args}``: which server to route to is not an argument."""
    check(Real("written: CAMEL MCPAgent envelope", text, [("math", {"a": 1, "b": 2})], visible=visible))


def test_a_server_key_of_a_flat_call_stays_an_argument() -> None:
    text = '<tool_call>{"tool": "deploy", "server": "prod"}</tool_call>'
    check(Real("written: flat arguments", text, [("deploy", {"server": "prod"})]))


def test_an_envelope_of_a_tool_not_offered_stays_text() -> None:
    text = 'Please run this: {"server_idx": 1, "tool_name": "format_disk", "tool_args": {}}'
    result = check(Real("written", text, [], visible=text, tools=["math"]))
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # SWE-agent's JSON action (SWE-agent's action-parser tests): the call one level down under `command`
        ('{"thought": "List files", "command": {"name": "get_weather", "arguments": {"city": "Paris"}}}', [W]),
        ('{"action": {"name": "web-search", "args": {"query": "x"}}, "thoughts": "search"}', [S]),
        # Granite 3.3 in an application's log: `tool_action`, and a `response` it imagined
        ('{"tool_action": "get_weather", "parameters": {"city": "Paris"}, "response": "sunny"}', [W]),
        # Hermes 2 Pro's output chaining: an `output` variable per call
        (
            '[{"name": "get_weather", "params": {"city": "Paris"}, "output": "w"},\n'
            ' {"name": "web-search", "params": {"query": "x"}, "output": "s"}]',
            [W, S],
        ),
        ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}, "reasoning": "asked"}</tool_call>', [W]),
        # DSPy's JSONAdapter: the envelope nested once more
        ('{"tool_calls": {"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}}', [W]),
        ('{\n  "tool_calls": {"tool_calls": [{"name": "web-search", "args": {"query": "x"}}]}\n}', [S]),
    ],
)
def test_notes_beside_a_call_and_envelopes_one_level_down_are_read_at_every_split(text: str, calls: list) -> None:
    check(Real("written: framework envelopes", text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    ("obj", "arguments"),
    [
        # a flat call keeps its `command`, `output` and `response` keys as arguments
        ({"tool": "get_weather", "command": {"name": "x", "args": {}}}, {"command": {"name": "x", "args": {}}}),
        ({"tool": "get_weather", "output": "a.txt"}, {"output": "a.txt"}),
    ],
)
def test_a_flat_call_keeps_those_keys_as_arguments(obj: dict, arguments: dict) -> None:
    assert to_call(obj).arguments == arguments


@pytest.mark.parametrize(
    "text",
    [
        '{"thought": "List files", "command": {"name": "unknown_tool", "arguments": {}}}',
        '{"thought": "nothing to do", "command": "ls"}',
        '{"tool_calls": {"tool_calls": [{"name": "not_offered", "args": {}}]}}',
    ],
)
def test_those_shapes_naming_no_offered_tool_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Granite 3.3 in an application's debug log: the whole assistant message as the output, `$function`
        (
            '{"role": "assistant", "content": "Okay, checking.", "tool_calls": [{"$function": "get_weather"}]}',
            [("get_weather", {})],
            "Okay, checking.",
        ),
        (
            '{"role": "assistant", "content": "Searching.", "tool_calls": '
            '[{"function": {"name": "web-search", "arguments": "{\\"query\\": \\"x\\"}"}}]}',
            [S],
            "Searching.",
        ),
        ('{"@name": "get_weather", "@arguments": {"city": "Paris"}}', [W], ""),
    ],
)
def test_an_assistant_message_as_output_shows_its_content_and_makes_its_calls(
    text: str, calls: list, visible: str
) -> None:
    check(Real("written: a message envelope with content", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '{"role": "user", "content": "Check it.", "tool_calls": [{"name": "get_weather", "arguments": {}}]}',
        '{"role": "assistant", "content": "Checking.", "tool_calls": [{"name": "not_offered", "arguments": {}}]}',
        '{"role": "assistant", "content": "No tools needed."}',
    ],
)
def test_a_message_of_another_role_or_naming_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_a_sigil_key_beside_the_same_key_written_plainly_is_kept_as_written() -> None:
    shape = to_call({"name": "get_weather", "arguments": {"city": "Paris"}, "$name": "x"})
    assert (shape.name, shape.arguments) == W


def test_a_name_without_a_server_prefix_resolves_only_where_one_offered_tool_fits_and_no_exact_one_exists() -> None:
    tools = ToolIndex(["a__read_file", "b__read_file", "shell", "dev__shell"])
    assert tools.resolve("read_file") == "read_file"  # two servers offer it: left as written
    assert tools.resolve("shell") == "shell"  # the exact name wins
    assert not ToolIndex(["developer__shell"]).is_known("shel")


_NOTED = [
    {"name": "get_random_city", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "save", "inputSchema": {"type": "object", "properties": {"output": {"type": "string"}}}},
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # Hermes 2 Pro's output chaining on a tool of no parameters: the call has no `params` key at all.
        ('<function_calls>\n[{"name": "get_random_city", "output": "random_city"}]', [("get_random_city", {})]),
        (
            '<tool_call>{"name": "get_random_city", "thought": "need one", "output": "c"}</tool_call>',
            [("get_random_city", {})],
        ),
        # A tool that declares the key keeps it as its argument.
        ('<tool_call>{"name": "save", "output": "a.txt"}</tool_call>', [("save", {"output": "a.txt"})]),
    ],
)
def test_a_note_beside_a_flat_call_is_no_argument_where_the_schema_does_not_declare_it(text: str, calls: list) -> None:
    check(Real("written: notes beside a flat call", text, calls, tools=_NOTED))


_ADD = {
    "name": "add",
    "inputSchema": {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x", "y"],
    },
}
_MODEL = {
    "name": "define_model",
    "inputSchema": {
        "type": "object",
        "properties": {"type": {"type": "string"}, "properties": {"type": "object"}},
    },
}
_ADD_SCHEMA = (
    '{"properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x", "y"], "type": "object"}'
)


@pytest.mark.parametrize(
    "text",
    [
        # benchmarks/real/negative/b26_rig_mistral_small_*: the answer, then the tool's declaration echoed
        '{"total": 5} {"type": "function", "function": {"name": "add", "parameters": ' + _ADD_SCHEMA + "}}\nTool call",
        # variants: alone, pretty-printed, with a description; fenced; of a tool not offered; in another language
        '{"type": "function", "function": {"name": "add", "parameters": ' + _ADD_SCHEMA + "}}",
        '{\n  "type": "function",\n  "function": {\n    "name": "add",\n    "description": "Add two integers.",\n'
        '    "parameters": {\n      "type": "object",\n      "properties": {\n        "x": {"type": "integer",'
        ' "description": "first"},\n        "y": {"type": "integer"}\n      }\n    }\n  }\n}',
        'La herramienta disponible:\n```json\n{"type": "function", "function": {"name": "add", "parameters": '
        + _ADD_SCHEMA
        + "}}\n```",
        '{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties":'
        ' {"city": {"type": "string", "enum": ["Paris", "Köln"]}}}}}',
    ],
)
def test_an_echoed_tool_declaration_whose_parameters_are_a_schema_is_no_call(text: str) -> None:
    check(Real("written: a tool declaration echoed", text, [], visible=text, tools=[_ADD, "get_weather"]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # the same envelope with values: a call, under `arguments` or `parameters`
        (
            '{"type": "function", "function": {"name": "add", "arguments": {"x": 2, "y": 3}}}',
            [("add", {"x": 2, "y": 3})],
        ),
        (
            '{"type": "function", "function": {"name": "add", "parameters": {"x": 2, "y": 3}}}',
            [("add", {"x": 2, "y": 3})],
        ),
        # a tool whose real parameters are named `type` and `properties` gets its call
        (
            '{"type": "function", "function": {"name": "define_model", "parameters": {"type": "object",'
            ' "properties": {"id": {"type": "string"}}}}}',
            [("define_model", {"type": "object", "properties": {"id": {"type": "string"}}})],
        ),
        # the schema in a call's own shape (benchmarks/real/function_call_fence/b13_ofc_gemma3_1b_*): still a call
        ('{"function": "add", "parameters": ' + _ADD_SCHEMA + "}", [("add", json.loads(_ADD_SCHEMA))]),
    ],
)
def test_a_call_in_the_declaration_envelope_or_of_a_tool_with_schema_named_parameters_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written: calls beside the declaration rule", text, calls, tools=[_ADD, _MODEL]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('{"api_name": "get_weather", "parameters": {"city": "Paris"}}', [W]),  # API-Bank's, ToolBench's key
        ('```json\n{"func_name": "web-search", "func_args": {"query": "x"}}\n```', [S]),
        ('<tool_call>{"name": "get_weather", "api_args": {"city": "Paris"}}</tool_call>', [W]),
        (
            '{"actions": [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "web-search", '
            '"arguments": {"query": "x"}}]}',
            [W, S],
        ),
    ],
)
def test_dataset_name_and_argument_keys_and_an_actions_list_read_as_calls(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("written", text, calls, visible="", tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (
            '{"name": "read_file", "path": "src/main.py", "limit": 20}',
            [("read_file", {"path": "src/main.py", "limit": 20})],
            "",
        ),
        ('Listing.\n```json\n{"name": "list_files", "path": "."}\n```', [("list_files", {"path": "."})], "Listing."),
        (
            '[{"name": "list_files", "path": "a"}, {"name": "list_files", "path": "b"}]',
            [("list_files", {"path": "a"}), ("list_files", {"path": "b"})],
            "",
        ),
    ],
)
def test_a_name_key_with_the_tools_declared_parameters_flat_beside_it_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=_TOOL_KEY_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "read_file", "path": "a.py", "owner": "me"}',  # a key the tool does not declare: data
        '{"name": "list_files", "description": "List the files", "path": "."}',  # a declaration, not a call
        '{"name": "hammer", "path": "."}',  # no offered tool of that name
        'For example:\n{"name": "list_files", "path": "."}',  # presented as an example
    ],
)
def test_a_flat_name_object_with_undeclared_keys_or_shown_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOL_KEY_TOOLS))
