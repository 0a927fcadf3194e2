"""Code fences of a programming language are prose: the lenient forms do not read calls inside them."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


@pytest.mark.parametrize(
    "text",
    [
        "Call it like this:\n```python\nget_weather(city='Lima')\n```\nThat is all.",
        '```js\nconst r = [get_weather(city="Lima")];\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```',
        "```bash\ncurl localhost\n",  # a fence the stream never closes
    ],
)
def test_calls_shown_in_a_code_fence_stay_text_with_no_error(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_after_the_fence_closes_a_call_is_read_again() -> None:
    # (the fence holds code using the tool: a fence holding only the call, opening the message, is the answer)
    text = '```python\nw = get_weather(city=\'Lima\')\n```\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Oslo"})]


def test_a_json_fence_is_still_a_call_fence() -> None:
    text = '```json\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```'
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


_CALL = '{"name": "get_weather", "parameters": {"city": "Lima"}}'


@pytest.mark.parametrize(
    "text",
    [
        f"```homeassistant\n{_CALL}\n```",  # home-llm's trained block (a6_issue_home_llm_310…)
        f"```homeassistant\n{_CALL}",  # …that the output ends inside, never closed
        f"Turning it off.\n```tool_request\n{_CALL}\n```",
        f"```Action\n{_CALL}\n",
        # Blanks before the info string, which CommonMark trims (mcp-client-for-ollama's tests).
        f"``` json\n{_CALL}\n```",
        f"Sure.\n```  tool_call\n{_CALL}\n```",
    ],
)
def test_a_fence_named_by_a_word_that_names_no_language_holds_a_call_of_an_offered_tool(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Lima"})]
    assert "```" not in result["text"] and "{" not in result["text"]


@pytest.mark.parametrize(
    "text",
    [
        f"```toml\n{_CALL}\n```",  # a data or configuration file's example
        f"```JSONL\n{_CALL}\n",  # a data set's line, in capitals, never closed
        f"```console\n$ shim run\n{_CALL}\n```",
        f"```Python\n{_CALL}\n```",
        '```homeassistant\n{"name": "weather_report", "parameters": {"city": "Lima"}}\n```',  # no offered tool
        "```homeassistant\nlight.turn_off bedroom\n```",  # no JSON at all
        f"``` python\n{_CALL}\n```",  # a language's fence with a blank before its name
        "Like so:\n```  bash\nget_weather(city='Lima')\n```",
    ],
)
def test_a_fence_of_a_language_or_holding_no_offered_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # offline-function-calling's Gemma 3 1B: the label the prompt asked for, written inside the fence.
        '```tool_code\nfunction_call\n{"id": 1, "function": "get_weather", "parameters": {"city": "Lima"}}\n```',
        '```tool_code\nfunction_call {\n\t"function": "get_weather",\n\t"parameters": {"city": "Lima"}\n}\n```\n',
        '```\ntool_call\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```',
        '```json\njson\n[{"name": "get_weather", "arguments": {"city": "Lima"}}]\n```',
    ],
)
def test_a_call_fences_first_line_naming_the_block_a_call_is_markup(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 110, seeds=8)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Lima"})]
    assert result["text"].strip() == "" and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        '```python\nfunction_call\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```',  # code
        "```\ntool_call\nis a word\n```",  # a label and no call after it
    ],
)
def test_a_label_line_in_a_code_fence_or_before_no_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 110, seeds=8)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


_EXEC = [
    {"name": "code_execution__execute", "inputSchema": {"type": "object", "properties": {"code": {"type": "string"}}}},
    {
        "name": "search",
        "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
            "required": ["q"],
        },
    },
]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        # goose's code mode: a fence named by the tool (its server prefix left out), the body its one parameter.
        ("Here:\n```execute\nlet x = 1;\n```\n", ("code_execution__execute", {"code": "let x = 1;"}), "Here:\n\n"),
        (
            "```execute\nasync function run() {\n  return 1;\n}\n```",
            ("code_execution__execute", {"code": "async function run() {\n  return 1;\n}"}),
            "",
        ),
        ("```search\nweather in Oslo\n```\nDone.", ("search", {"q": "weather in Oslo"}), "\nDone."),
        ("```code_execution__execute\nprint(1)", ("code_execution__execute", {"code": "print(1)"}), ""),  # cut off
    ],
)
def test_a_fence_named_by_an_offered_tool_of_one_parameter_is_a_call_with_its_body(
    text: str, call: tuple[str, dict[str, object]], visible: str
) -> None:
    result = parse_everywhere(text, _EXEC, every_split=len(text) < 90, seeds=8)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [call]
    assert result["text"] == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        "```python\nexecute('x')\n```",  # a language's fence
        "```executes\nlet x = 1;\n```",  # no offered tool's name
        "```execute\n```",  # an empty body
        "For example:\n```execute\nlet x = 1;\n```",  # presented in prose
    ],
)
def test_a_fence_of_a_language_or_no_tool_or_shown_as_an_example_stays_text(text: str) -> None:
    result = parse_everywhere(text, _EXEC, every_split=len(text) < 90, seeds=8)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


_TWO = [*TOOLS, {"name": "eco.analyze", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # deepseek-coder 6.7B in BFCL's results: the answer "wrapped in python code", as the prompt asks, then on.
        ("```python\n        [get_weather(city='Lima')]\n        ```", [("get_weather", {"city": "Lima"})], ""),
        (
            "```python\n[\"get_weather(city='Lima')\"]\n```\n\n### Instruction:\nmore",
            [("get_weather", {"city": "Lima"})],
            "### Instruction: more",
        ),
        (
            "```py\n[get_weather(city='Lima'), eco.analyze(n=2)]\n```",
            [("get_weather", {"city": "Lima"}), ("eco.analyze", {"n": 2})],
            "",
        ),
        ("\n```python3\n[eco.analyze(n=1)]\n```\nDone.", [("eco.analyze", {"n": 1})], "Done."),
        # The calls bare, one a line: deepseek-coder 6.7B and Gemma 7B in BFCL's JavaScript results
        # (benchmarks/real/bare_pycall/a24_bfclres_deepseek_coder_67b_javascript_2, b20_bfclres_gemma7b_js_*).
        ("```python\nget_weather(city='Lima')\n```", [("get_weather", {"city": "Lima"})], ""),
        (
            "```python\n\n        get_weather(city='Lima')\n```\n\nThis line gets the weather.",
            [("get_weather", {"city": "Lima"})],
            "This line gets the weather.",
        ),
        (
            '```py\n    eco.analyze(n=3)\n\n    get_weather(city="São Paulo")\n    ```\nFertig.',
            [("eco.analyze", {"n": 3}), ("get_weather", {"city": "São Paulo"})],
            "Fertig.",
        ),
    ],
)
def test_a_python_fence_opening_the_message_with_only_the_calls_is_the_answer(
    text: str, calls: list, visible: str
) -> None:
    result = parse_everywhere(text, _TWO, every_split=len(text) < 100, seeds=6)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert " ".join(result["text"].split()) == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        # After prose, the fence shows code; holding more than the calls, it is code; an unoffered tool is no call.
        "Like this:\n```python\n[get_weather(city='Lima')]\n```",
        "```python\n[get_weather(city='Lima')]\nprint('done')\n```",
        "```python\n[other_tool(city='Lima')]\n```",
        # A bare call used as code: its result assigned, printed or used; code after it; a tool not offered after it.
        "```python\nweather = get_weather(city='Lima')\n```",
        "```python\nprint(get_weather(city='Lima'))\n```",
        "```python\nget_weather(city='Lima').json()\n```",
        "```python\nget_weather(city='Lima')\nprint('done')\n```",
        "```python\nget_weather(city='Lima')\nos.remove('cache.db')\n```",
        "Like this:\n```python\nget_weather(city='Lima')\n```",
        "```python\nget_weather(city='Lima')\n",  # never closed
    ],
)
def test_a_python_fence_after_prose_or_holding_more_than_calls_stays_code(text: str) -> None:
    result = parse_everywhere(text, _TWO, every_split=len(text) < 100, seeds=6)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


@pytest.mark.parametrize("word", ["example", "Examples", "sample", "usage", "syntax", "pseudocode", "template"])
@pytest.mark.parametrize(
    "call",
    [
        '{"name": "get_weather", "arguments": {"city": "Lima"}}',
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call>',
        '@get_weather(c1): {"city": "Lima"}',  # gptme's ```example in its docs
        "get_weather(city='Lima')",
    ],
)
def test_a_call_in_a_fence_named_as_an_example_stays_text_after_prose_too(word: str, call: str) -> None:
    for text in (f"```{word}\n{call}\n```", f"The format is simple.\n\n```{word}\n{call}\n```\nThat is all."):
        result = parse_everywhere(text, TOOLS)
        assert result["calls"] == [] and result["errors"] == [] and result["text"] == text


def test_after_a_fence_named_as_an_example_closes_the_real_call_is_read() -> None:
    text = (
        'Like this:\n```example\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```\n'
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    )
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Oslo"})]
