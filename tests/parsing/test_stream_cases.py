"""Failure modes models really show, one quirk per case, each checked at every split point.

Each case says where that shape is seen; the expectations are the folded result (visible text, calls,
errors, reasoning), which must be the same under every chunking (see ``chunking.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather",
    "title": "Weather",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
}


@dataclass
class Case:
    id: str
    text: str
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    visible: str | None = None
    errors: list[str] = field(default_factory=list)  # a substring of each error message, in order
    reasoning: str = ""
    tools: list[Any] | None = None


CASES = [
    # --- the primary format, and text around it --------------------------------------------------
    Case(
        "a clean call between sentences is extracted and the text kept",
        'Let me check. <function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call> Done.',
        [("get_weather", {"city": "Paris"})],
        "Let me check.  Done.",
    ),
    Case(
        "prose without markers is plain text",
        "The sky is blue, and 2 + 2 = 4.",
        visible="The sky is blue, and 2 + 2 = 4.",
    ),
    Case(
        "a closing tag inside a string stays in the string",
        '<function_call>{"name": "write", "arguments": {"content": "use </function_call> here"}}</function_call>',
        [("write", {"content": "use </function_call> here"})],
        "",
    ),
    Case(
        "braces and tags inside strings do not end the body",
        '<function_call>{"name": "w", "arguments": {"code": "if (a) { b(\\"}\\"); } <tool_call>"}}</function_call>',
        [("w", {"code": 'if (a) { b("}"); } <tool_call>'})],
        "",
    ),
    Case(
        "unicode arguments survive",
        '<function_call>{"name": "say", "arguments": {"t": "안녕 👋 \\u00e9"}}</function_call>',
        [("say", {"t": "안녕 👋 é"})],
        "",
    ),
    # --- lenient JSON --------------------------------------------------------------------------------
    Case(
        "single quotes, Python literals, unquoted keys and trailing commas are read",
        "<function_call>{'name': 'w', 'arguments': {flag: True, 'none': None, 'off': False, 'l': [1, 2,],}}</function_call>",
        [("w", {"flag": True, "none": None, "off": False, "l": [1, 2]})],
        "",
    ),
    Case(
        "comments inside the JSON are ignored",
        '<function_call>{"name": "w", // the tool\n "arguments": {"a": 1 /* one */, # hash\n "b": 2}}</function_call>',
        [("w", {"a": 1, "b": 2})],
        "",
    ),
    Case(
        "a raw newline inside a string is kept as a newline",
        '<function_call>{"name": "w", "arguments": {"body": "line 1\nline 2"}}</function_call>',
        [("w", {"body": "line 1\nline 2"})],
        "",
    ),
    Case(
        "missing closing brackets are added when every value is complete",
        '<function_call>{"name": "w", "arguments": {"a": {"b": 1}</function_call> after',
        [("w", {"a": {"b": 1}})],
        " after",
    ),
    Case(
        "a stray extra closing bracket is absorbed",
        '<function_call>{"name": "w", "arguments": {"a": 1}}}</function_call>',
        [("w", {"a": 1})],
        "",
    ),
    Case(
        "a leading json word inside the tags is skipped",
        '<function_call>json\n{"name": "w", "arguments": {}}</function_call>',
        [("w", {})],
        "",
    ),
    Case(
        "a code fence inside the tags is skipped",
        '<function_call>\n```json\n{"name": "w", "arguments": {"x": "```"}}\n```\n</function_call>',
        [("w", {"x": "```"})],
        "",
    ),
    Case(
        "lenient numbers are normalised",
        "<function_call>{'name': 'w', 'arguments': {'a': +1, 'b': .5, 'c': 2.}}</function_call>",
        [("w", {"a": 1, "b": 0.5, "c": 2.0})],
        "",
    ),
    # --- shapes ------------------------------------------------------------------------------------------
    Case(
        "parameters is read as arguments",
        '<function_call>{"name": "w", "parameters": {"a": 1}}</function_call>',
        [("w", {"a": 1})],
        "",
    ),
    Case(
        "args, input and tool_input are read as arguments",
        '<function_call>{"name": "a", "args": {"x": 1}}</function_call><function_call>{"name": "b", "input": {"x": 2}}'
        '</function_call><function_call>{"name": "c", "tool_input": {"x": 3}}</function_call>',
        [("a", {"x": 1}), ("b", {"x": 2}), ("c", {"x": 3})],
        "",
    ),
    Case(
        "an OpenAI function wrapper is unwrapped",
        '<tool_call>{"type": "function", "function": {"name": "w", "arguments": "{\\"a\\": 2}"}}</tool_call>',
        [("w", {"a": 2})],
        "",
    ),
    Case(
        "a tool key with flat arguments is read",
        '<function_call>{"tool": "w", "city": "Paris"}</function_call>',
        [("w", {"city": "Paris"})],
        "",
    ),
    Case(
        "JSON-RPC method and params are read",
        '<function_call>{"method": "w", "params": {"q": 1}}</function_call>',
        [("w", {"q": 1})],
        "",
    ),
    Case(
        "an MCP tools/call request is read as the call it carries",
        '<function_call>{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "w", "arguments": {"q": 1}}}</function_call>',
        [("w", {"q": 1})],
        "",
    ),
    Case("a missing arguments key means no arguments", '<function_call>{"name": "w"}</function_call>', [("w", {})], ""),
    Case(
        "a tool's description used as its name maps to the tool",
        '<function_call>{"name": "Get the current weather", "arguments": {"city": "Oslo"}}</function_call>',
        [("get_weather", {"city": "Oslo"})],
        "",
        tools=[WEATHER],
    ),
    # --- several calls ---------------------------------------------------------------------------------
    Case(
        "an array of calls is several calls",
        '<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]</tool_call>',
        [("a", {}), ("b", {"x": 1})],
        "",
    ),
    Case(
        "objects glued together are several calls",
        '<function_call>{"name": "a"}{"name": "b", "arguments": {"k": [1]}}</function_call>',
        [("a", {}), ("b", {"k": [1]})],
        "",
    ),
    Case(
        "a new opening tag closes an unclosed block",
        '<function_call>{"name": "a", "arguments": {}}\n<function_call>{"name": "b", "arguments": {}}</function_call>',
        [("a", {}), ("b", {})],
        "\n",
    ),
    Case(
        "a new opening tag closes a block whose JSON lacks its last brackets",
        '<function_call>{"name": "a", "arguments": {"x": 1}<function_call>{"name": "b", "arguments": {}}</function_call>',
        [("a", {"x": 1}), ("b", {})],
        "",
    ),
    Case(
        "the closing tag is optional when text follows the JSON",
        '<function_call>{"name": "a", "arguments": {}} and then I waited.',
        [("a", {})],
        " and then I waited.",
    ),
    Case(
        "the closing tag is optional at the end of the stream",
        '<function_call>{"name": "a", "arguments": {}}',
        [("a", {})],
        "",
    ),
    Case(
        "a duplicated opening tag is markup, not text",
        'Okay.\n\n<function_call>\n<function_call>{"name": "read_file", "arguments": {"path": "a.md"}}</function_call>',
        [("read_file", {"path": "a.md"})],
        "Okay.\n\n",
    ),
    Case(
        "a duplicated closing tag is markup, not text",
        '<function_call>{"name": "w", "arguments": {}}</function_call>\n</function_call> The end.',
        [("w", {})],
        " The end.",
    ),
    Case(
        "text after a closed block keeps its leading whitespace",
        '<function_call>{"name": "w"}</function_call>\n\nIt is sunny.',
        [("w", {})],
        "\n\nIt is sunny.",
    ),
    # --- dialects ---------------------------------------------------------------------------------------
    Case(
        "Hermes tool_call tags are read", '<tool_call>\n{"name": "w", "arguments": {}}\n</tool_call>', [("w", {})], ""
    ),
    Case(
        "tag names in any case and with spaces inside the brackets are read",
        '<Function_Call >{"name": "a"}</FUNCTION_CALL><functioncall>{"name": "b"}</functioncall><tool>{"name": "c"}</tool>',
        [("a", {}), ("b", {}), ("c", {})],
        "",
    ),
    Case(
        "Qwen3-Coder XML parameters are typed by the schema",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\n1984\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
        [("get_weather", {"city": "1984", "days": 3})],
        "",
        tools=[WEATHER],
    ),
    Case(
        "a bare Qwen3-Coder function block is read",
        "<function=search>\n<parameter=q>\ncats & dogs\n</parameter>\n</function>",
        [("search", {"q": "cats & dogs"})],
        "",
    ),
    Case(
        "Llama 3.1's function=NAME form with a JSON body is read",
        '<function=read_file>{"path": "src/main.py"}</function> Reading it.',
        [("read_file", {"path": "src/main.py"})],
        " Reading it.",
    ),
    Case(
        "a Llama 3.2 pythonic call list naming known tools is read",
        "[get_weather(city='Lima', days=2), get_weather(city=\"Quito\", days=(1))]",
        [("get_weather", {"city": "Lima", "days": 2}), ("get_weather", {"city": "Quito", "days": 1})],
        "",
        tools=[WEATHER],
    ),
    Case(
        "a pythonic list naming an unknown tool stays text",
        "[rm_rf(path='/')] is what I would not run.",
        visible="[rm_rf(path='/')] is what I would not run.",
        tools=[WEATHER],
    ),
    Case(
        "a pythonic list with code instead of literals stays text",
        "[get_weather(city=input())]",
        visible="[get_weather(city=input())]",
        tools=[WEATHER],
    ),
    Case(
        "LM Studio TOOL_REQUEST markers are read",
        '[TOOL_REQUEST]{"name": "w", "arguments": {"a": 1}}[END_TOOL_REQUEST] ok',
        [("w", {"a": 1})],
        " ok",
    ),
    Case(
        "a Mistral TOOL_CALLS list is read",
        '[TOOL_CALLS][{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]',
        [("a", {}), ("b", {"x": 1})],
        "",
    ),
    Case(
        "the newer Mistral name[ARGS] form is read",
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
        [("get_weather", {"city": "Paris"})],
        "",
    ),
    Case(
        "the Llama python_tag form is read",
        '<|python_tag|>{"name": "w", "parameters": {"x": 1}}<|eom_id|>',
        [("w", {"x": 1})],
        "",
    ),
    Case(
        "a fenced JSON call naming a known tool is a call",
        'Calling it:\n```json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```\nDone.',
        [("get_weather", {"city": "Rome"})],
        "Calling it:\n\nDone.",
        tools=[WEATHER],
    ),
    Case(
        "bare JSON that is the whole message and names a known tool is a call",
        '{"name": "get_weather", "parameters": {"city": "Lima"}}',
        [("get_weather", {"city": "Lima"})],
        "",
        tools=[WEATHER],
    ),
    Case(
        "a bare JSON array of known calls is several calls",
        '[{"name": "get_weather", "arguments": {"city": "A"}}, {"name": "get_weather", "arguments": {"city": "B"}}]',
        [("get_weather", {"city": "A"}), ("get_weather", {"city": "B"})],
        "",
        tools=[WEATHER],
    ),
    # --- reasoning -------------------------------------------------------------------------------------
    Case(
        "a call inside a think block is a draft, not a call",
        '<think>I could call <function_call>{"name": "w", "arguments": {}}</function_call></think>No need.',
        [],
        "No need.",
        reasoning='I could call <function_call>{"name": "w", "arguments": {}}</function_call>',
    ),
    Case(
        "a call after the think block is a call",
        '<think>Need weather.</think><function_call>{"name": "w", "arguments": {}}</function_call>',
        [("w", {})],
        "",
        reasoning="Need weather.",
    ),
    # --- decoys: these stay text ------------------------------------------------------------------------
    Case(
        "comparisons, hearts and HTML stay text",
        "if a < b and b<3 then <div>ok</div> <b>",
        visible="if a < b and b<3 then <div>ok</div> <b>",
    ),
    Case(
        "a tag-like word that is not a tag stays text",
        "<functionality> and <tools> and <tool_caller>",
        visible="<functionality> and <tools> and <tool_caller>",
    ),
    Case(
        "an opening tag mentioned in prose stays text",
        "Wrap calls in <function_call> tags, like this.",
        visible="Wrap calls in <function_call> tags, like this.",
    ),
    Case("a stream ending in a partial tag keeps it as text", "The answer is <func", visible="The answer is <func"),
    Case(
        "fenced data that is not a call stays text",
        '```json\n{"name": "my-package", "version": "1.0.0"}\n```',
        visible='```json\n{"name": "my-package", "version": "1.0.0"}\n```',
        tools=[WEATHER],
    ),
    Case(
        "untagged JSON naming an unknown tool stays text",
        '{"name": "delete_everything", "arguments": {}}',
        visible='{"name": "delete_everything", "arguments": {}}',
        tools=[WEATHER],
    ),
    Case(
        "untagged JSON is never a call when no tools are known",
        '{"name": "get_weather", "arguments": {}}',
        visible='{"name": "get_weather", "arguments": {}}',
    ),
    Case(
        "prose narrating a call stays text",
        'I would call get_weather with {"city": "Paris"} if I could.',
        visible='I would call get_weather with {"city": "Paris"} if I could.',
        tools=[WEATHER],
    ),
    Case(
        "markdown links and inline code stay text",
        "See [the docs](https://x.y) and `a[0]`.",
        visible="See [the docs](https://x.y) and `a[0]`.",
        tools=[WEATHER],
    ),
    # --- errors: looked like a call, could not be one ---------------------------------------------------
    Case(
        "a stream cut inside a string value is an error, not a call",
        '<function_call>{"name": "w", "arguments": {"text": "half a sent',
        [],
        "",
        errors=["inside a string"],
    ),
    Case(
        "a stream cut after a colon is an error",
        '<function_call>{"name": "w", "arguments": {"a": ',
        [],
        "",
        errors=["before its JSON was complete"],
    ),
    Case(
        "unquoted prose as a value is an error that tells the model how to retry",
        "<function_call>{name: get weather}</function_call> Sorry.",
        [],
        " Sorry.",
        errors=["strings need quotes"],
    ),
    Case(
        "a body without a tool name is an error",
        '<function_call>{"city": "Paris"}</function_call>',
        [],
        "",
        errors=["no tool name"],
    ),
    Case(
        "arguments that are not an object are an error",
        '<function_call>{"name": "w", "arguments": [1, 2]}</function_call>',
        [],
        "",
        errors=["must be a JSON object"],
    ),
    Case(
        "a failed block does not swallow the next call",
        '<function_call>{"name": oops}</function_call><function_call>{"name": "b"}</function_call>',
        [("b", {})],
        "",
        errors=["not a JSON value"],
    ),
    Case(
        "an XML call cut inside a value is an error",
        "<function=w>\n<parameter=a>\nhal",
        [],
        "",
        errors=["inside a parameter value"],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_is_parsed_the_same_at_every_split_point(case: Case) -> None:
    result = parse_everywhere(case.text, case.tools)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == case.calls
    if case.visible is not None:
        assert result["text"] == case.visible
    assert len(result["errors"]) == len(case.errors), result["errors"]
    for error, expected in zip(result["errors"], case.errors, strict=False):
        assert expected in error["message"]
        assert error["raw"] in case.text
    assert result["reasoning"] == case.reasoning


def test_mistral_closing_tag_after_the_call_list_is_markup() -> None:
    # ollama/ollama model/parsers tests: `[TOOL_CALLS][…][/TOOL_CALLS]`.
    from tests.parsing.chunking import parse_everywhere

    text = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}][/TOOL_CALLS]'
    result = parse_everywhere(text, ["get_weather"])
    assert [c["name"] for c in result["calls"]] == ["get_weather"] and result["text"].strip() == ""
