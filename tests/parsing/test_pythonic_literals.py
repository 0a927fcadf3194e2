"""Values of a pythonic call that `ast.literal_eval` alone does not read as data: a set literal (a list in the order
written) and arithmetic on number literals (its value), as Qwen2.5 writes them in BFCL's prompt-mode results; and a
tool's name written in another case without its namespace, read only when one offered tool fits."""

from __future__ import annotations

from typing import Any

import pytest

from shim.parsing.pythonic import brace_entries, parse_pythonic
from tests.parsing.chunking import parse_everywhere


def _tool(name: str, *params: str) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": {p: {} for p in params}}}


REGRESSION = [_tool("run_linear_regression", "predictors", "target", "standardize")]
BIOT = [_tool("electromagnetism.biot_savart_law", "current", "distance", "mu0"), _tool("other.law", "x")]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


@pytest.mark.parametrize(
    ("text", "predictors"),
    [
        (
            "[run_linear_regression(predictors={'Age', 'Income', 'Education'}, target='y')]",
            ["Age", "Income", "Education"],
        ),
        ('[run_linear_regression(predictors={"b", "a"}, target="y")]', ["b", "a"]),
        ("[run_linear_regression(predictors=({'x'}, [1]), target='y')]", [["x"], [1]]),
        ("<|tool_call_start|>[run_linear_regression(predictors={3, 1, 2}, target='y')]<|tool_call_end|>", [3, 1, 2]),
    ],
)
def test_a_set_literal_value_is_the_list_of_its_items_in_the_order_written(text: str, predictors: Any) -> None:
    result = parse_everywhere(text, REGRESSION, seeds=5)
    assert _calls(result) == [("run_linear_regression", {"predictors": predictors, "target": "y"})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("4.0 * 3.14159e-04", 0.001256636),
        ("-3 + 2*4", 5),
        ("10 / 4", 2.5),
        ("(1 - 0.5) * 2", 1.0),
    ],
)
def test_arithmetic_on_number_literals_is_its_value(value: str, expected: Any) -> None:
    text = f"[Biot_Savart_Law(current=12, distance=8, mu0={value})]"
    result = parse_everywhere(text, BIOT, seeds=5)
    assert _calls(result) == [("electromagnetism.biot_savart_law", {"current": 12, "distance": 8, "mu0": expected})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    "value",
    [
        "x * 2",  # a name: code, not data
        "2 ** 10000",  # `**` is never computed
        "1 / 0",
        "'ab' * 3",  # arithmetic on strings is code
        "f(1) + 2",
        "1e308 * 10",  # overflows
    ],
)
def test_an_expression_that_is_more_than_number_arithmetic_is_no_call(value: str) -> None:
    assert parse_pythonic(f"[f(a={value})]") is None
    text = f"[Biot_Savart_Law(current=12, mu0={value})]"
    result = parse_everywhere(text, BIOT, seeds=3, every_split=False)
    assert (result["calls"], result["text"]) == ([], text)


def test_a_name_two_offered_tools_fit_loosely_is_no_call() -> None:
    tools = [_tool("electromagnetism.biot_savart_law", "current"), _tool("physics.biot_savart_law", "current")]
    text = "[Biot_Savart_Law(current=12)]"
    result = parse_everywhere(text, tools, seeds=3)
    assert (result["calls"], result["text"]) == ([], text)


def test_a_set_literal_in_prose_stays_text() -> None:
    text = "The predictors are {'Age', 'Income'}; call run_linear_regression(predictors=...) later."
    result = parse_everywhere(text, REGRESSION, seeds=3)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        '[read_file(path="C:\\1_Git\\LocaLLM\\dios.txt")]',
        "[read_file(path='C:\\1_Git\\LocaLLM\\dios.txt')]",
        '<tool_call>read_file(path="C:\\1_Git\\LocaLLM\\dios.txt")</tool_call>',
        '<|tool_call_start|>[read_file(path="C:\\1_Git\\LocaLLM\\dios.txt")]<|tool_call_end|>',
    ],
)
def test_a_backslash_before_a_digit_in_a_string_is_a_backslash_never_an_octal_escape(text: str) -> None:
    result = parse_everywhere(text, [_tool("read_file", "path")], seeds=5)
    assert _calls(result) == [("read_file", {"path": "C:\\1_Git\\LocaLLM\\dios.txt"})]
    assert result["text"] == ""


@pytest.mark.parametrize(
    ("source", "path"),
    [
        ('"a\\\\1"', "a\\1"),  # an escaped backslash, then a digit
        ('r"a\\1"', "a\\1"),  # a raw string is Python's own
        ('"a\\tb"', "a\tb"),  # other escapes keep Python's reading
        ('"\\x41\\u00e9"', "Aé"),
    ],
)
def test_other_escapes_keep_pythons_reading(source: str, path: str) -> None:
    assert parse_pythonic(f"[read_file(path={source})]") == [("read_file", {"path": path})]


@pytest.mark.parametrize(
    ("source", "path"),
    [
        ('"C:\\Users\\me"', "C:\\Users\\me"),  # `\U` with no eight hex digits: a backslash
        ('"C:\\new\\Lib"', "C:\new\\Lib"),  # `\n` is Python's line break, `\L` a backslash
        ('"\\N{BULLET} \\xZ"', "\u2022 \\xZ"),
    ],
)
def test_a_backslash_python_gives_no_meaning_is_a_backslash(source: str, path: str) -> None:
    assert parse_pythonic(f"[read_file(path={source})]") == [("read_file", {"path": path})]


JS_TOOLS = [
    {
        "name": "getActiveDataEntries",
        "inputSchema": {
            "type": "object",
            "properties": {
                "listElement": {"type": "string"},
                "attribute": {"type": "string"},
                "value": {"type": "string"},
            },
        },
    },
    {"name": "set_flag", "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}, "note": {}}}},
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # Gorilla OpenFunctions v2 in BFCL's JavaScript results: a bare call, an identifier and JavaScript's `true`
        (
            "getActiveDataEntries(listElement=listElement, attribute='data-active', value=true)",
            [("getActiveDataEntries", {"listElement": "listElement", "attribute": "data-active", "value": True})],
        ),
        # Snowflake Arctic: the call as a string of the list, its values bare
        (
            "['getActiveDataEntries(listElement=items, value=false)']",
            [("getActiveDataEntries", {"listElement": "items", "value": False})],
        ),
        # variants: a list, `null` for an untyped parameter, a declared boolean, blanks around `=`
        ("[set_flag(on=false, note=null)]", [("set_flag", {"on": False, "note": None})]),
        ("set_flag(on = true)", [("set_flag", {"on": True})]),
        (
            "[getActiveDataEntries(listElement=list.items, value=null), set_flag(on=true)]",
            [
                ("getActiveDataEntries", {"listElement": "list.items", "value": None}),
                ("set_flag", {"on": True}),
            ],
        ),
        # a bare word beside it (read as its text where the list is the call block) keeps the literal a literal
        ("[set_flag(on=true, note=ready now)]", [("set_flag", {"on": True, "note": "ready now"})]),
    ],
)
def test_javascripts_true_false_and_null_written_bare_are_those_literals(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    result = parse_everywhere(text, JS_TOOLS, seeds=5)
    assert _calls(result) == calls
    assert result["text"] == ""


@pytest.mark.parametrize(
    "text",
    [
        "Pass value=true to getActiveDataEntries(listElement=x) when needed.",  # a call inside a sentence
        "`set_flag(on=true)`",  # inline code
        "lookup_flag(on=true)",  # a tool that was not offered
        "set_flag(on=truely)",  # a name that is no literal, for a boolean parameter
    ],
)
def test_a_call_with_javascript_literals_in_prose_or_of_no_offered_tool_stays_text(text: str) -> None:
    result = parse_everywhere(text, JS_TOOLS, seeds=5)
    assert result["calls"] == []
    assert result["text"] == text


ORDER = [
    {
        "name": "process_order",
        "inputSchema": {"type": "object", "properties": {"order_data": {"type": "object"}}, "required": ["order_data"]},
    },
    {"name": "configure", "inputSchema": {"type": "object", "properties": {"options": {}, "name": {"type": "string"}}}},
]
_ORDER_DATA = {
    "order_id": 1,
    "customer_name": "John Doe",
    "address": {"street": "123 Main St", "city": "San Francisco"},
}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # benchmarks/real/llama_pythonic/b26_llamastack_llama32_3b_*: the call list, then the result it imagined
            '[process_order(order_data={order_id=1, customer_name="John Doe", address={street="123 Main St",'
            ' city="San Francisco"}})]\n{\n  "order_id": "ORD789"\n}',
            [("process_order", {"order_data": _ORDER_DATA})],
            '{\n  "order_id": "ORD789"\n}',
        ),
        (  # blanks around `=`, a list, a boolean and a string holding `,` and `=` inside the object; Japanese
            "[configure(options={ mode = 'fast', tags=['a', 'b'], dry_run=False, expr='x=1, y=2' }, name='東京')]",
            [
                (
                    "configure",
                    {
                        "options": {"mode": "fast", "tags": ["a", "b"], "dry_run": False, "expr": "x=1, y=2"},
                        "name": "東京",
                    },
                )
            ],
            "",
        ),
        (  # between LFM2's tokens; several lines
            "<|tool_call_start|>[process_order(order_data={\n  order_id=7,\n  address={city='Lyon'}\n})]<|tool_call_end|>",
            [("process_order", {"order_data": {"order_id": 7, "address": {"city": "Lyon"}}})],
            "",
        ),
        (  # in Gemma's tool_code fence, and in ChatGLM3's fenced tool_call(…)
            "```tool_code\nconfigure(options={level=3}, name='a')\n```",
            [("configure", {"options": {"level": 3}, "name": "a"})],
            "",
        ),
        (
            "process_order\n```python\ntool_call(order_data={order_id=2, items=[{sku='A1', qty=2}]})\n```",
            [("process_order", {"order_data": {"order_id": 2, "items": [{"sku": "A1", "qty": 2}]}})],
            "",
        ),
    ],
)
def test_an_object_written_with_keyword_entries_is_that_object(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, ORDER, seeds=5)
    assert _calls(result) == calls
    assert result["text"].strip() == visible


@pytest.mark.parametrize(
    "text",
    [
        "In Lua a table is written {order_id=1, name='x'}; Python wants a dict.",  # the spelling in a sentence
        "[ship_order(order_data={order_id=1})]",  # a tool that was not offered
        "`[process_order(order_data={order_id=1})]`",  # inline code
    ],
)
def test_keyword_entries_in_prose_or_for_a_tool_not_offered_stay_text(text: str) -> None:
    result = parse_everywhere(text, ORDER, seeds=5)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    ("source", "spelled"),
    [
        ("{a=1, b={c='x'}}", "{'a':1, 'b':{'c':'x'}}"),
        ("f(x={k = 2})", "f(x={'k' : 2})"),
        ("{a==1}", None),  # a comparison, no entry
        ("{'a': 1}", None),  # a dict already
        ("{x, y}", None),  # a set
        ("f(a=1, b=2)", None),  # keywords of a call, not entries of an object
        ("{a='open}", None),  # a quote left open
    ],
)
def test_brace_entries_spells_keyword_entries_as_a_dict_and_nothing_else(source: str, spelled: str | None) -> None:
    assert brace_entries(source) == spelled
