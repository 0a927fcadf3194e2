"""Kimi K2 special-token calls (`shim.parsing.readers.kimi`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

# Quoted from the peer tests named in each case (corpus: benchmarks/real/kimi_k2).
CASES = [
    Real(  # vllm_empty_args: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        "Empty args. <|tool_calls_section_begin|><|tool_call_begin|>functions.test:0 <|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
        [("test", {})],
        visible="Empty args.",
    ),
    Real(  # vllm_html_in_json: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'Process HTML. <|tool_calls_section_begin|><|tool_call_begin|>functions.process_html:0 <|tool_call_argument_begin|>{"html": "<div>content</div>"}<|tool_call_end|><|tool_calls_section_end|>',
        [("process_html", {"html": "<div>content</div>"})],
        visible="Process HTML.",
    ),
    Real(  # vllm_multiline_json: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'Formatted. <|tool_calls_section_begin|><|tool_call_begin|>functions.process_data:0 <|tool_call_argument_begin|>{\n  "name": "test",\n  "value": 123\n}<|tool_call_end|><|tool_calls_section_end|>',
        [("process_data", {"name": "test", "value": 123})],
        visible="Formatted.",
    ),
    Real(  # vllm_no_functions_prefix: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'No prefix. <|tool_calls_section_begin|><|tool_call_begin|>get_weather:0 <|tool_call_argument_begin|>{"city": "Tokyo"}<|tool_call_end|><|tool_calls_section_end|>',
        [("get_weather", {"city": "Tokyo"})],
        visible="No prefix.",
    ),
    Real(  # vllm_parallel: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'Compare weather. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|><|tool_call_begin|>functions.get_weather:1 <|tool_call_argument_begin|>{"city": "Shanghai"}<|tool_call_end|><|tool_calls_section_end|>',
        [("get_weather", {"city": "Beijing"}), ("get_weather", {"city": "Shanghai"})],
        visible="Compare weather.",
    ),
    Real(  # vllm_single: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'I\'ll check. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|><|tool_calls_section_end|>',
        [("get_weather", {"city": "Beijing"})],
        visible="I'll check.",
    ),
    Real(  # vllm_three_tools: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'Multiple tasks. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{"city": "New York"}<|tool_call_end|><|tool_call_begin|>functions.get_news:1 <|tool_call_argument_begin|>{"topic": "technology"}<|tool_call_end|><|tool_call_begin|>functions.send_email:2 <|tool_call_argument_begin|>{"to": "user@example.com", "subject": "Daily Update"}<|tool_call_end|><|tool_calls_section_end|>',
        [
            ("get_weather", {"city": "New York"}),
            ("get_news", {"topic": "technology"}),
            ("send_email", {"to": "user@example.com", "subject": "Daily Update"}),
        ],
        visible="Multiple tasks.",
    ),
    Real(  # vllm_turn2_news: built with the test's helpers: _tool(id, args) = TOOL_BEGIN + id + ' ' + ARG_BEGIN + args + TOOL_END, wrapped in the section markers
        "vllm-project/vllm:tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c362795d1643ce5684bb3cfa26ff6ffed2",
        'Now let me get news. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_news:0 <|tool_call_argument_begin|>{"topic": "weather in Beijing"}<|tool_call_end|><|tool_calls_section_end|>',
        [("get_news", {"topic": "weather in Beijing"})],
        visible="Now let me get news.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_kimi_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_a_call_without_its_section_tokens_is_read() -> None:
    text = '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>'
    check(Real("variant", text, [("get_weather", {"city": "Paris"})]))


def test_the_section_opener_mentioned_in_prose_stays_visible() -> None:
    text = "Kimi writes <|tool_calls_section_begin|> before its calls."
    check(Real("variant", text, [], visible=text, tools=["get_weather"]), every_split=False)


@pytest.mark.parametrize(
    "text",
    [
        '<|tool_calls_section_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}'
        "<|tool_calls_section_end|>",
        '<|tool_calls_section_begin|>\nget_weather <|tool_call_argument_begin|> {"city": "Oslo"}',
    ],
)
def test_a_call_whose_begin_token_was_left_out_is_read_from_its_head(text: str) -> None:
    check(
        Real("written: mlx-swift-lm's Kimi K2 shape", text, [("get_weather", {"city": "Oslo"})], tools=["get_weather"])
    )


def test_a_section_token_named_in_prose_with_no_head_after_it_stays_text() -> None:
    text = "Calls open with <|tool_calls_section_begin|> and then a head."
    check(Real("written: Kimi token in prose", text, [], visible=text, tools=["get_weather"]))


_HEAD = "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>"
_TAIL = "<|tool_call_end|><|tool_calls_section_end|>"


@pytest.mark.parametrize(
    "fenced",
    [
        '```json {"path":"README.md"}```',  # llxprt's tests: a one-line fence around the arguments
        '```{"path":"README.md"}```',
        '```json {"path":"README.md"}\n```',  # the closing fence on the next line
        '```json\n{"path":"README.md"}\n```',  # the fence on lines of its own
    ],
)
def test_arguments_in_a_code_fence_on_their_line_or_their_own_lines_are_read(fenced: str) -> None:
    check(Real("written: llxprt's Kimi", _HEAD + fenced + _TAIL, [("read_file", {"path": "README.md"})], visible=""))


SGLANG_K26 = "sgl-project/sglang issue: Kimi K2.6 TodoWrite arguments left unparsed"


@pytest.mark.parametrize(
    "text",
    [
        # the arguments object serialised once more, as a JSON string literal
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.todo:1<|tool_call_argument_begin|>"{\\"todos\\": '
        '[{\\"id\\": \\"a\\", \\"status\\": \\"in_progress\\"}]}"<|tool_call_end|><|tool_calls_section_end|>',
        # variant: spaces around it, an escaped quote inside a value, the section end left out
        '<|tool_calls_section_begin|> <|tool_call_begin|> functions.todo:0 <|tool_call_argument_begin|> "{\\"todos\\":'
        ' [{\\"id\\": \\"a\\", \\"status\\": \\"in_progress\\"}]}" <|tool_call_end|>',
    ],
)
def test_arguments_written_as_a_json_string_of_the_object_are_the_object(text: str) -> None:
    check(Real(SGLANG_K26, text, [("todo", {"todos": [{"id": "a", "status": "in_progress"}]})]))


def test_arguments_written_as_a_string_that_holds_no_object_are_an_error() -> None:
    text = (
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.todo:0<|tool_call_argument_begin|>"just text"'
        "<|tool_call_end|><|tool_calls_section_end|>"
    )
    check(Real("written", text, [], errors=1, tools=["todo"]))


@pytest.mark.parametrize(
    "head",
    ["functions_Bash_2", "functions_Bash", "Bash_0", "functions.Bash:2", "functions_Bash_12 "],
)
def test_a_head_with_underscores_for_the_dot_and_the_colon_names_the_offered_tool(head: str) -> None:
    # llama.cpp issue 24658: Kimi K2.7 wrote `functions_Bash_2` (ids rewritten to [A-Za-z0-9_])
    text = f'<|tool_call_begin|>{head}<|tool_call_argument_begin|>{{"command": "ls"}}<|tool_call_end|>'
    check(Real("variant", text, [("Bash", {"command": "ls"})], visible="", tools=["Bash", "Read"]))


def test_an_underscored_head_keeps_its_index_when_the_indexed_name_is_the_offered_tool() -> None:
    text = '<|tool_call_begin|>functions_get_v2<|tool_call_argument_begin|>{"q": "x"}<|tool_call_end|>'
    check(Real("variant", text, [("get_v2", {"q": "x"})], visible="", tools=["get_v2", "get"]))


def test_an_underscored_head_naming_no_offered_tool_is_kept_as_written() -> None:
    text = '<|tool_call_begin|>functions_Write_1<|tool_call_argument_begin|>{"path": "a"}<|tool_call_end|>'
    check(Real("variant", text, [("functions_Write_1", {"path": "a"})], visible="", tools=["Bash"]))


_CALL = '<|tool_call_begin|> functions.bash:0 <|tool_call_argument_begin|> {"command": "ls"} <|tool_call_end|>'


@pytest.mark.parametrize(
    "tail",
    [" <|tool_calls_section_end|", "<|tool_calls_section_en", "\n<|tool_calls_sec", "<|tool_call_e", "<|"],
)
def test_a_closing_token_cut_short_at_the_outputs_end_is_markup(tail: str) -> None:
    # OpenCode issue 8851: Kimi K2's output ended `… <|tool_call_end|> <|tool_calls_section_end|`
    text = "Let me look. <|tool_calls_section_begin|> " + _CALL + tail
    check(Real("variant", text, [("bash", {"command": "ls"})], visible="Let me look."))


@pytest.mark.parametrize("tail", [" <|tool_calls_section_end| and more", " <|other|", " <b"])
def test_text_after_the_section_that_is_no_cut_closer_stays_visible(tail: str) -> None:
    text = "<|tool_calls_section_begin|>" + _CALL + tail
    check(Real("variant", text, [("bash", {"command": "ls"})], visible=tail))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # gyro-claw's test: the section opener and a call's end token left around a fenced {tool, args} object
        (
            '<|tool_calls_section_begin|>\n```json\n{"tool":"wait_for","args":{"timeout":2}}\n```\n<|tool_call_end|>',
            [("wait_for", {"timeout": 2})],
        ),
        # variants: no fence, the call's begin token, the section closed, two calls, the OpenAI-style keys
        (
            '<|tool_calls_section_begin|>{"name": "wait_for", "arguments": {"timeout": 5}}<|tool_calls_section_end|>',
            [("wait_for", {"timeout": 5})],
        ),
        (
            '<|tool_calls_section_begin|><|tool_call_begin|>\n{"tool": "search", "args": {"q": "x"}}<|tool_call_end|>'
            '<|tool_call_begin|>```json\n{"tool": "wait_for", "args": {"timeout": 1}}\n```<|tool_call_end|>'
            "<|tool_calls_section_end|>",
            [("search", {"q": "x"}), ("wait_for", {"timeout": 1})],
        ),
    ],
)
def test_a_whole_call_object_in_place_of_a_head_is_a_call_of_the_section(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    check(Real("variant", text, calls, tools=["wait_for", "search"]))


@pytest.mark.parametrize(
    "text",
    [
        "Kimi opens its calls with <|tool_calls_section_begin|> and then writes the head.",
        "The token <|tool_calls_section_begin|> `{...}` starts a section.",
    ],
)
def test_a_section_opener_named_in_prose_stays_text(text: str) -> None:
    check(Real("variant", text, [], tools=["wait_for"], visible=text))


def _indented(indent: str, newline: str = "\n") -> str:
    """Each token on its own line behind ``indent`` (a test's string that kept its source's indentation)."""
    lines = [
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.search_notes:0",
        "<|tool_call_argument_begin|>",
        '{"query": "Ce2Fe17", "limit": 3}',
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
    ]
    return newline + "".join(indent + line + newline for line in lines) + indent


@pytest.mark.parametrize(
    "text",
    [
        # ouro-agents' tests (corpus: kimi_k2/a31_ouro_kimi*): twelve spaces before every token, the dedent left out
        _indented(" " * 12),
        _indented("\t\t"),
        _indented("    ", "\r\n"),
        _indented(" " * 40),
        # the call's own tokens only, indented, the head and the separator on one line
        '\n    <|tool_call_begin|>\n    search_notes:0 <|tool_call_argument_begin|>\n    {"query": "Ce2Fe17", "limit": 3}'
        "\n    <|tool_call_end|>\n",
        # a blank line between the head and its separator
        "<|tool_calls_section_begin|>\n  <|tool_call_begin|>\n  functions.search_notes:0\n\n  <|tool_call_argument_begin|>"
        '\n  {"query": "Ce2Fe17", "limit": 3}\n  <|tool_call_end|>\n<|tool_calls_section_end|>',
    ],
)
def test_tokens_on_indented_lines_are_layout(text: str) -> None:
    check(Real("variant", text, [("search_notes", {"query": "Ce2Fe17", "limit": 3})], tools=["search_notes", "other"]))


def test_deepseek_tokens_on_indented_lines_are_layout() -> None:
    text = (
        "\n        <｜tool▁calls▁begin｜>\n        <｜tool▁call▁begin｜>\n        search_notes\n"  # noqa: RUF001
        '        <｜tool▁sep｜>\n        {"query": "x", "limit": 1}\n'  # noqa: RUF001
        "        <｜tool▁call▁end｜>\n        <｜tool▁calls▁end｜>\n"  # noqa: RUF001
    )
    check(Real("variant", text, [("search_notes", {"query": "x", "limit": 1})], tools=["search_notes"]))


@pytest.mark.parametrize(
    "text",
    [
        # the tokens named on indented lines of a document, no head and separator after them
        "Kimi's layout:\n\n    <|tool_calls_section_begin|>\n    <|tool_call_begin|>\n    then the head\n",
        "    <|tool_call_begin|>\n    is the token that opens a call; a line of prose follows.\n",
        # far more than a few blank lines between a head-like line and a separator: not one call
        "    <|tool_call_begin|>\n    search_notes\n\n\n\n\n\n\n    <|tool_call_argument_begin|> is the separator.",
    ],
)
def test_indented_tokens_in_a_document_with_no_call_stay_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=["search_notes"]))
