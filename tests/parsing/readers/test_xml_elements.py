"""Calls written as XML elements inside a call tag (`shim.parsing.readers.xml_elements`): the shape keys as
element names, the arguments as child elements (typed by the schema) or as JSON text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("get_weather", city="string", days="integer")]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (
            '<tool_call>\n<name>get_weather</name>\n<arguments>{"city": "Paris"}</arguments>\n</tool_call>',
            {"city": "Paris"},
        ),
        ("<tool_call><tool_name>get_weather</tool_name><args><city>Paris</city></args></tool_call>", {"city": "Paris"}),
        (
            "<function_call>\n  <name>get_weather</name>\n  <parameters>\n    <city>Paris</city>\n    <days>3</days>\n"
            "  </parameters>\n</function_call>",
            {"city": "Paris", "days": 3},
        ),
        (
            "<tool_use><name>get_weather</name><input><city><![CDATA[a <b>]]></city></input></tool_use>",
            {"city": "a <b>"},
        ),
        ("<tool_call><name>get_weather</name></tool_call>", {}),
    ],
)
def test_element_calls_are_read_through_the_shape_rules(text: str, arguments: dict) -> None:
    check(
        Real(
            "written: XML-element calls (agent frameworks' XML prompts)",
            text,
            [("get_weather", arguments)],
            tools=TOOLS,
        )
    )


SEARCH = {
    "name": "search",
    "inputSchema": {
        "type": "object",
        "properties": {
            "filters": {
                "type": "object",
                "properties": {"active": {"type": "boolean"}, "role": {"type": "string"}, "age": {"type": "integer"}},
            },
            "tags": {"type": "array", "items": {"type": "string"}},
        },
    },
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # ai-sdk-tool-call-middleware's rxml tests: a nested object's leaves typed by the schema at their place.
        (
            "<tool_call>\n  <name>search</name>\n  <parameters>\n    <filters>\n      <active>true</active>\n"
            "      <role>admin</role>\n    </filters>\n  </parameters>\n</tool_call>",
            {"filters": {"active": True, "role": "admin"}},
        ),
        (
            "<function_call><name>search</name><args><filters><age>42</age><role>7</role></filters></args>"
            "</function_call>",
            {"filters": {"age": 42, "role": "7"}},
        ),
        (
            "<tool_call><function><name>search</name><arguments><filters><active>false</active></filters>"
            "<tags><item>a</item><item>b</item></tags></arguments></function></tool_call>",
            {"filters": {"active": False}, "tags": ["a", "b"]},
        ),
        # JSON text keeps the types it was written with, nested strings included.
        (
            '<tool_call><name>search</name><arguments>{"filters": {"active": "true", "role": "a &amp; b"}}</arguments>'
            "</tool_call>",
            {"filters": {"active": "true", "role": "a &amp; b"}},
        ),
    ],
)
def test_nested_element_values_are_typed_by_the_schema_and_json_values_keep_theirs(text: str, arguments: dict) -> None:
    check(Real("written: nested XML-element arguments", text, [("search", arguments)], tools=[SEARCH]))


def test_an_element_call_with_no_name_is_an_error_not_text() -> None:
    check(
        Real("written", "<tool_call><arguments><city>Paris</city></arguments></tool_call>", [], tools=TOOLS, errors=1)
    )


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ('<tool_call>\nname: get_weather\narguments: {"city": "Paris"}\n</tool_call>', {"city": "Paris"}),
        (
            "<tool_call>\nname: get_weather\narguments:\n  city: Paris\n  days: 3\n</tool_call>",
            {"city": "Paris", "days": 3},
        ),
        (
            '<function_call>\ntool_name: "get_weather"\nparameters: {"city": "Paris"}\n</function_call>',
            {"city": "Paris"},
        ),
    ],
)
def test_key_value_lines_in_a_call_tag_are_read_through_the_shape_rules(text: str, arguments: dict) -> None:
    check(Real("written: YAML-like call bodies", text, [("get_weather", arguments)], tools=TOOLS))


def test_bare_invoke_elements_of_the_older_anthropic_format_are_each_a_call() -> None:
    text = (
        "<function_calls>\n<invoke>\n<tool_name>get_weather</tool_name>\n<parameters>\n<city>Paris</city>\n"
        "<days>2</days>\n</parameters>\n</invoke>\n<invoke>\n<tool_name>get_weather</tool_name>\n<parameters>\n"
        "<city>Rome</city>\n</parameters>\n</invoke>\n</function_calls>"
    )
    calls = [("get_weather", {"city": "Paris", "days": 2}), ("get_weather", {"city": "Rome"})]
    check(Real("written: Claude 2.1's XML tool use, as LiteLLM's prompt factory reads it", text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "The XML is <tool_call><name>x</name></tool_call> where x is a tool.",
        "<function_call><name>rm</name><args><path>/</path></args></function_call>",
    ],
)
def test_an_element_body_naming_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


PREFS = {
    "name": "change_drink",
    "inputSchema": {
        "type": "object",
        "properties": {
            "drink_id": {"type": "string"},
            "prefs": {"type": "object", "properties": {"size": {"type": "string"}, "shots": {"type": "integer"}}},
            "note": {"type": "string"},
        },
    },
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # BFCL's XML formats (OpenAI models, itea1001/bfcl-pv-01): keyed `<arg name=…>` children, a `type` attribute.
        (
            '<function_call>\n  <name>change_drink</name>\n  <arguments>\n    <arg name="drink_id">123</arg>\n'
            '    <arg name="note" type="string"></arg>\n  </arguments>\n</function_call>',
            {"drink_id": "123", "note": ""},
        ),
        (
            "<tool_call><name>change_drink</name><parameters><param name='drink_id' type='str'>7</param>"
            '<param name="prefs" type="dict">{"size": "large", "shots": 2}</param></parameters></tool_call>',
            {"drink_id": "7", "prefs": {"size": "large", "shots": 2}},
        ),
        # An object parameter written as nested XML, XML-RPC's `<value>` wrapping it; leaves typed by the schema.
        (
            '<function_call><name>change_drink</name><arguments><parameter name="prefs">\n  <value>\n'
            "    <size>large</size>\n    <shots>2</shots>\n  </value>\n</parameter></arguments></function_call>",
            {"prefs": {"size": "large", "shots": 2}},
        ),
        # A doubled closing quote on an attribute (GPT-5 nano) is still the attribute.
        (
            '<function_call><name>change_drink</name><arguments><arg name="note" type="string"">hi</arg>'
            "</arguments></function_call>",
            {"note": "hi"},
        ),
        # Markup with other attributes inside a value is the value's text.
        (
            '<function_call><name>change_drink</name><arguments><arg name="note"><b class="x">hot</b> please</arg>'
            "</arguments></function_call>",
            {"note": '<b class="x">hot</b> please'},
        ),
    ],
)
def test_children_keyed_by_a_name_attribute_are_the_arguments(text: str, arguments: dict) -> None:
    check(
        Real(
            "written: keyed XML arguments (BFCL's XML prompt formats)",
            text,
            [("change_drink", arguments)],
            tools=[PREFS],
        )
    )


def test_a_type_attribute_types_a_value_the_schema_leaves_untyped() -> None:
    loose = {"name": "log", "inputSchema": {"type": "object"}}
    text = (
        '<function_call><name>log</name><arguments><arg name="n" type="integer">5</arg><arg name="tags" type="list">'
        '["a"]</arg><arg name="s" type="string">5</arg><arg name="t">5</arg></arguments></function_call>'
    )
    check(Real("written", text, [("log", {"n": 5, "tags": ["a"], "s": "5", "t": "5"})], tools=[loose]))


@pytest.mark.parametrize(
    "text",
    [
        'Write it as <function_call><name>nope</name><arguments><arg name="k">v</arg></arguments></function_call>.',
        '<tool_call><name>rm</name><parameters><param name="path">/</param></parameters></tool_call>',
    ],
)
def test_keyed_arguments_of_a_tool_not_offered_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[PREFS]))


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # selfware's parser tests (Qwen3-Coder): the name element written `<name=NAME</name>`, its `>` left out.
        ('<tool>\n<name=get_weather</name>\n<arguments>{"city": "Paris"}</arguments>\n</tool>', {"city": "Paris"}),
        # ...or `<name=NAME>` with no closer, or `<function=NAME</function>` where `<name>` belongs.
        ('<tool>\n<name=get_weather>\n<arguments>{"city": "Paris"}</arguments>\n</tool>', {"city": "Paris"}),
        ('<tool_call><function=get_weather</function><arguments>{"days": 2}</arguments></tool_call>', {"days": 2}),
        # Other name keys, quotes around the name, arguments as elements or none at all.
        (
            '<function_call><tool_name="get_weather"></tool_name><parameters><days>3</days></parameters>'
            "</function_call>",
            {"days": 3},
        ),
        ("<tool_call>\n  <name = get_weather>\n</tool_call>", {}),
        ("<tool><name=get_weather</name></tool>", {}),
        # Qwen3-Coder's `<function=NAME>` with a JSON arguments element instead of `<parameter=…>`.
        (
            '<tool_call>\n<function=get_weather>\n<arguments>{"city": "Oslo"}</arguments>\n</tool_call>',
            {"city": "Oslo"},
        ),
    ],
)
def test_a_name_element_with_its_value_in_the_tag_names_the_call(text: str, arguments: dict) -> None:
    check(
        Real(
            "written: Qwen3-Coder's `<function=NAME>` habit in an element body",
            text,
            [("get_weather", arguments)],
            tools=TOOLS,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        # A tool not offered; the form mentioned in a sentence; an argument value holding the form stays the value's.
        '<tool>\n<name=rm</name>\n<arguments>{"path": "/"}</arguments>\n</tool>',
        "Write <tool><name=get_weather</name> and so on.",
        "In XML, <name=value> is no element.",
    ],
)
def test_a_name_in_the_tag_of_no_offered_tool_or_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


def test_a_name_in_the_tag_inside_an_argument_value_is_the_value() -> None:
    text = '<tool>\n<name=get_weather>\n<arguments>{"city": "<name=x>"}</arguments>\n</tool>'
    check(Real("written", text, [("get_weather", {"city": "<name=x>"})], tools=TOOLS))


GLM2API = "Gavin22/glm2api-fork:tests/test_tool_parser.py@3cedf9b19fb8e236db5c32b567c6cf9f2c68b1b7"
TAGS = [tool("search_tags", query="string", tags="array", filters="object")]
NONE: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # glm2api's own protocol: the call tag's prefix on every element of the call; Chinese words around
        (
            "开始\n<ml_tool_calls><ml_tool_call><ml_tool_name>get_weather</ml_tool_name><ml_parameters>"
            "<city><![CDATA[上海]]></city><days>2</days></ml_parameters></ml_tool_call></ml_tool_calls>\n结束",
            [("get_weather", {"city": "上海", "days": 2})],
            "开始 结束",
        ),
        # variants: another family's prefix, a `name` element and `arguments`, layout, two calls in one wrapper
        (
            "Checking.\n<acme_tool_call>\n  <acme_name>get_weather</acme_name>\n  <acme_arguments>\n"
            "    <city>Oslo</city>\n  </acme_arguments>\n</acme_tool_call>",
            [("get_weather", {"city": "Oslo"})],
            "Checking.",
        ),
        (
            "<ml_tool_calls>\n<ml_tool_call>\n<ml_tool_name>get_weather</ml_tool_name>\n<ml_parameters><city>Rome"
            "</city></ml_parameters>\n</ml_tool_call>\n<ml_tool_call>\n<ml_tool_name>get_weather</ml_tool_name>\n"
            '<ml_parameters>{"city": "Lima", "days": 1}</ml_parameters>\n</ml_tool_call>\n</ml_tool_calls>',
            [("get_weather", {"city": "Rome"}), ("get_weather", {"city": "Lima", "days": 1})],
            "",
        ),
        # no parameters element: a call with no arguments
        ("<x_function_call><x_function>get_weather</x_function></x_function_call>", [("get_weather", NONE)], ""),
    ],
)
def test_elements_carrying_the_call_tags_prefix_are_the_shape_keys(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(GLM2API, text, calls, visible=visible, tools=TOOLS))


def test_prefixed_elements_hold_nested_objects_and_item_lists_typed_by_the_schema() -> None:
    text = (
        "<ml_tool_calls><ml_tool_call><ml_tool_name>search_tags</ml_tool_name><ml_parameters><query>glm</query>"
        "<filters><site>example.com</site></filters><tags><item>python</item><item>xml</item></tags>"
        "</ml_parameters></ml_tool_call></ml_tool_calls>"
    )
    calls = [("search_tags", {"query": "glm", "filters": {"site": "example.com"}, "tags": ["python", "xml"]})]
    check(Real(GLM2API, text, calls, tools=TAGS))


@pytest.mark.parametrize(
    "text",
    [
        "Wrap the tool in <ml_tool_name>NAME</ml_tool_name> inside the call.",
        "<ml_tool_call><ml_tool_name>rm_rf</ml_tool_name><ml_parameters><path>/</path></ml_parameters></ml_tool_call>",
        "<tool_call><my_name>get_weather</my_name></tool_call> is not how a call is written",
    ],
)
def test_prefixed_elements_in_prose_or_naming_no_offered_tool_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # glm2api's salvaged call: no <ml_tool_call>, no <ml_parameters>, the argument as name/value elements
        (
            "<ml_tool_calls>\n<ml_tool_name>get_weather</ml_tool_name>\n<param_name>city</param_name>\n"
            "<param_value>Paris</param_value>\n</ml_tool_calls>",
            {"city": "Paris"},
        ),
        (
            "<tool_call><name>get_weather</name><arg_name>city</arg_name><arg_value>Oslo</arg_value>"
            "<arg_name>days</arg_name><arg_value>3</arg_value></tool_call>",
            {"city": "Oslo", "days": 3},
        ),
        (
            "<function_call>\n  <tool_name>get_weather</tool_name>\n  <parameter_name>days</parameter_name>\n"
            "  <parameter_value>2</parameter_value>\n</function_call>",
            {"days": 2},
        ),
    ],
)
def test_name_and_value_elements_in_turn_are_the_arguments(text: str, arguments: dict[str, Any]) -> None:
    check(Real(GLM2API, text, [("get_weather", arguments)], tools=TOOLS))


def test_names_and_values_that_do_not_pair_up_stay_the_elements_they_are() -> None:
    text = (
        "<tool_call><name>get_weather</name><param_name>city</param_name><param_name>days</param_name>"
        "<param_value>Oslo</param_value></tool_call>"
    )
    kept = {"param_name": ["city", "days"], "param_value": "Oslo"}
    check(Real("written", text, [("get_weather", kept)], tools=TOOLS))


_FUNCTION_TAG_TOOLS = [tool("search", query="string"), *TOOLS]
"""`<function>NAME</function>` is also the opener Qwen3-Coder's damaged form writes (`<parameter=K>` after it)."""


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # gogen's tests (corpus: function_call_name_arguments/b31_gogen_*): the pair inside <tool_call>
        (
            '<tool_call>\n<function>get_weather</function>\n<parameters>{"city": "Oslo", "days": 2}</parameters>\n'
            "</tool_call>",
            [("get_weather", {"city": "Oslo", "days": 2})],
            "",
        ),
        (
            '<tool_call><function>search</function><parameters>{"query": "a"}</parameters></tool_call>\n'
            '<tool_call>\n  <function> get_weather </function>\n  <parameters>\n{"city": "Rome"}\n</parameters>\n'
            "</tool_call>\nDone.",
            [("search", {"query": "a"}), ("get_weather", {"city": "Rome"})],
            "\n\nDone.",
        ),
        # variants: other name and input words, a raw string input, the closers left out
        (
            'Looking.\n<tool_call>\n<tool_name>get_weather</tool_name>\n<arguments>{"city": "Lima"}</arguments>\n'
            "</tool_call>",
            [("get_weather", {"city": "Lima"})],
            "Looking.\n",
        ),
        (
            "<tool_call><tool>search</tool><tool_input>chats noirs</tool_input></tool_call>",
            [("search", {"query": "chats noirs"})],
            "",
        ),
        # the arguments as child elements, or as a fenced JSON object
        (
            "<tool_call><function>get_weather</function><parameters><city>Oslo</city><days>2</days></parameters>"
            "</tool_call>",
            [("get_weather", {"city": "Oslo", "days": 2})],
            "",
        ),
        (
            '<tool_call>\n<function>search</function>\n<arguments>```json\n{"query": "d"}\n```</arguments>\n</tool_call>',
            [("search", {"query": "d"})],
            "",
        ),
        # the call tag's closer left out
        ('<tool_call>\n<function>search</function>\n<args>{"query": "b"}</args>', [("search", {"query": "b"})], ""),
        # inside a reasoning element, as gogen's source reads it: the call is a call
        (
            '<thinking>\n<tool_call>\n<function>search</function>\n<parameters>{"query": "c"}</parameters>\n'
            "</tool_call>\n</thinking>",
            [("search", {"query": "c"})],
            "",
        ),
    ],
)
def test_a_function_name_element_then_its_arguments_element_is_its_call(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=_FUNCTION_TAG_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        # an example shown in a fence, or named in a sentence: text
        'For example:\n```xml\n<tool_call>\n<function>search</function>\n<parameters>{"query": "a"}</parameters>\n</tool_call>\n```',
        'Use `<tool_call><function>search</function><parameters>{"query": "a"}</parameters></tool_call>` to search.',
        'The <tool_call> tag holds a <function>search</function> tag and a <parameters>{"query": "a"}</parameters> tag.',
    ],
)
def test_a_function_name_element_then_its_arguments_element_shown_or_named_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_FUNCTION_TAG_TOOLS))


def test_a_function_name_element_then_its_arguments_element_naming_no_offered_tool_is_no_call() -> None:
    text = '<tool_call>\n<function>lookup</function>\n<parameters>{"x": 1}</parameters>\n</tool_call>'
    check(Real("written", text, [], tools=_FUNCTION_TAG_TOOLS, visible=text))


def test_a_string_parameters_markup_is_its_text_once_the_name_element_names_the_tool() -> None:
    write = {
        "name": "write_file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
    }
    text = (
        "<tool_call>\n<name>write_file</name>\n<arguments><path>a.html</path>"
        "<content><div>hi</div><p>x</p></content></arguments>\n</tool_call>"
    )
    check(
        Real(
            "written",
            text,
            [("write_file", {"path": "a.html", "content": "<div>hi</div><p>x</p>"})],
            visible="",
            tools=[write],
        )
    )
