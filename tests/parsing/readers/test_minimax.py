"""MiniMax and Claude-style <invoke> XML calls (`shim.parsing.readers.minimax`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

# Quoted from the peer tests named in each case (corpus: benchmarks/real).
CASES = [
    Real(  # mlx_bare_invoke_numbers: bare <invoke> without the <minimax:tool_call> wrapper; numbers typed by the schema
        "ml-explore/mlx-lm:tests/test_tool_parsing.py@d78bf58e217c904ec282ed8da9b947491f78c022",
        '<invoke name="multiply">\n<parameter name="a">12234585</parameter>\n<parameter name="b">48838483920</parameter>\n</invoke>',
        [("multiply", {"a": 12234585, "b": 48838483920})],
        tools=[
            {
                "name": "multiply",
                "parameters": {
                    "type": "object",
                    "required": ["a", "b"],
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                },
            }
        ],
    ),
    Real(  # mlx_bare_invoke_string
        "ml-explore/mlx-lm:tests/test_tool_parsing.py@d78bf58e217c904ec282ed8da9b947491f78c022",
        '<invoke name="get_current_temperature">\n<parameter name="location">London</parameter>\n</invoke>',
        [("get_current_temperature", {"location": "London"})],
        tools=[
            {
                "name": "get_current_temperature",
                "parameters": {"type": "object", "required": ["location"], "properties": {"location": {"type": "str"}}},
            }
        ],
    ),
    Real(  # vllm_m2_one_letter_names
        "vllm-project/vllm:tests/tool_parsers/test_minimax_m2_tool_parser.py@0c927c3451653f28e60cd552cff13ddc3c9ff49e",
        '<minimax:tool_call><invoke name="fn_a"><parameter name="x">1</parameter></invoke><invoke name="fn_b"><parameter name="y">2</parameter></invoke></minimax:tool_call>',
        [("fn_a", {"x": "1"}), ("fn_b", {"y": "2"})],
    ),
    Real(  # vllm_m2_text_before
        "vllm-project/vllm:tests/tool_parsers/test_minimax_m2_tool_parser.py@0c927c3451653f28e60cd552cff13ddc3c9ff49e",
        'Let me check. <minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke></minimax:tool_call>',
        [("get_weather", {"city": "Seattle"})],
        visible="Let me check.",
    ),
    Real(  # vllm_m2_two_functions
        "vllm-project/vllm:tests/tool_parsers/test_minimax_m2_tool_parser.py@0c927c3451653f28e60cd552cff13ddc3c9ff49e",
        '<minimax:tool_call><invoke name="get_weather"><parameter name="city">NYC</parameter></invoke><invoke name="get_stock"><parameter name="ticker">AAPL</parameter></invoke></minimax:tool_call>',
        [("get_weather", {"city": "NYC"}), ("get_stock", {"ticker": "AAPL"})],
    ),
    Real(  # vllm_m2_two_invokes
        "vllm-project/vllm:tests/tool_parsers/test_minimax_m2_tool_parser.py@0c927c3451653f28e60cd552cff13ddc3c9ff49e",
        '<minimax:tool_call><invoke name="search_web"><parameter name="query">OpenAI</parameter></invoke><invoke name="search_web"><parameter name="query">Gemini</parameter></invoke></minimax:tool_call>',
        [("search_web", {"query": "OpenAI"}), ("search_web", {"query": "Gemini"})],
    ),
    Real(  # vllm_m2_two_params: no schema: vLLM's expected value for days is the string "5"
        "vllm-project/vllm:tests/tool_parsers/test_minimax_m2_tool_parser.py@0c927c3451653f28e60cd552cff13ddc3c9ff49e",
        '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter><parameter name="days">5</parameter></invoke></minimax:tool_call>',
        [("get_weather", {"city": "Seattle", "days": "5"})],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_real_minimax_output_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_claude_style_function_calls_with_several_invokes_are_one_block() -> None:
    text = (
        'Checking.\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
        '</invoke>\n<invoke name="get_weather">\n<parameter name="city">Lima</parameter>\n</invoke>\n</function_calls>'
    )
    calls = [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Lima"})]
    check(Real("variant", text, calls, visible="Checking."))


def test_an_invoke_cut_inside_a_value_is_an_error_not_a_call() -> None:
    text = '<invoke name="get_weather"><parameter name="city">Par'
    check(Real("variant", text, [], errors=1, tools=["get_weather"]))


def test_a_missing_invoke_closer_is_tolerated_before_the_wrapper_closer() -> None:
    text = '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Paris</parameter></minimax:tool_call>'
    check(Real("variant", text, [("get_weather", {"city": "Paris"})]))


@pytest.mark.parametrize(
    "text",
    [
        '<function_calls>\n<invoke name="cron">\n<parameter name="action" string="true">list</parameter>\n</invoke>\n'
        "</function_calls>",
        '<invoke name="cron"><parameter name="action" type="string" required="true">list</parameter></invoke>',
        "<minimax:tool_call><invoke name='cron'><parameter name='action' string='true'>list</parameter></invoke>"
        "</minimax:tool_call>",
        # olmlx's tests: an attribute after the invoke's name too
        '<minimax:tool_call>\n<invoke name="cron" type="function">\n<parameter name="action">list</parameter>\n'
        "</invoke>\n</minimax:tool_call>",
        '<invoke name="cron" id="call_1"><parameter name="action">list</parameter></invoke>',
    ],
)
def test_a_parameter_tag_with_attributes_after_its_name_is_read(text: str) -> None:
    check(Real("written: DeepSeek V3.2's invoke shape without DSML markers", text, [("cron", {"action": "list"})]))


@pytest.mark.parametrize(
    "text",
    [
        'Mark strings with <parameter name="k" string="true"> inside an invoke.',
        'The tag <invoke name="cron"> takes <parameter name="a" type="int"> children.',
    ],
)
def test_a_parameter_tag_with_attributes_named_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["cron"]))


@pytest.mark.parametrize(
    "text",
    [
        '<atem:function_calls>\n<atem:invoke name="read<|message|>">\n<atem:parameter name="path">go.mod'
        "</atem:parameter>\n</atem:invoke>\n</atem:function_calls>",
        '<invoke name="<|channel|>read"><parameter name="path">go.mod</parameter></invoke>',
        '<function_calls><invoke name="read<\uff5ctool_sep\uff5c>"><parameter name="path">go.mod</parameter></invoke>'
        "</function_calls>",
    ],
)
def test_a_special_token_printed_into_an_invoke_name_resolves_to_the_offered_tool_the_rest_names(text: str) -> None:
    # Glimmer under stress (ollama/ollama's glimmer parser test): name="read<|message|>"
    check(Real("variant", text, [("read", {"path": "go.mod"})], tools=["read", "write"]))


def test_a_special_token_in_a_name_that_names_no_offered_tool_keeps_the_name_as_written() -> None:
    text = '<invoke name="delete<|message|>"><parameter name="path">go.mod</parameter></invoke>'
    check(Real("variant", text, [("delete<|message|>", {"path": "go.mod"})], tools=["read"]))


def test_an_invoke_with_a_special_token_in_its_name_quoted_in_prose_stays_text() -> None:
    text = 'Never write `<invoke name="read<|message|>">`: the token does not belong in a name.'
    check(Real("variant", text, [], visible=text, tools=["read"]))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("    if x:\n        return 1\n", "    if x:\n        return 1\n"),  # vLLM's Step-3 test: kept verbatim
        ("\tindented\n", "\tindented\n"),
        ("\n    if x:\n        return 1\n", "    if x:\n        return 1"),  # layout newlines each side
        ("plain\n", "plain"),
    ],
)
def test_a_value_that_opens_with_indentation_keeps_its_final_newline(value: str, expected: str) -> None:
    text = f'<invoke name="edit"><parameter name="old">{value}</parameter></invoke>'
    check(Real("variant", text, [("edit", {"old": expected})], tools=[tool("edit", old="string")]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Gemini 3 in oh-my-pi: a record tag naming the tool in an attribute, parameter pairs as in <invoke>.
        (
            'I will read it.\n<call_record tool="read">\n<parameter name="path">a.py</parameter>\n</call_record>',
            "I will read it.\n",
        ),
        (
            "<action name='read'><parameter name='path'>a.py</parameter><parameter name='limit'>5</parameter></action>",
            "",
        ),
        (
            '<tool_invocation function="read">  <parameter name="path">a.py</parameter></tool_invocation>\nDone.',
            "\nDone.",
        ),
    ],
)
def test_parameter_pairs_under_a_tag_of_any_name_naming_an_offered_tool_are_a_call(text: str, visible: str) -> None:
    limit = {"limit": 5} if "limit" in text else {}
    check(
        Real(
            "written",
            text,
            [("read", {"path": "a.py", **limit})],
            visible=visible,
            tools=[tool("read", path="string", limit="integer")],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '<call_record tool="lookup"><parameter name="path">a.py</parameter></call_record>',  # no offered tool
        '<call_record tool="read">a.py</call_record>',  # no parameter pair: nothing says the body is arguments
        '<call_record tool="read">\nThe <parameter name="path"> tag holds it.</call_record>',  # prose first
        'Write `<record tool="read"><parameter name="path">x</parameter></record>` to read.',  # inline code
    ],
)
def test_a_tag_naming_a_tool_without_that_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[tool("read", path="string", limit="integer")]))


SHELL = tool("shell", command="string")


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ('<function_calls>\n<invoke name="shell">\necho hello\n</invoke>\n</function_calls>', "echo hello"),
        ('<function_calls><invoke name="shell">ls -la | grep "<x>"</invoke></function_calls>', 'ls -la | grep "<x>"'),
        (
            '<minimax:tool_call>\n<invoke name="shell">\n  cd /tmp\n  ls\n</invoke>\n</minimax:tool_call>',
            "cd /tmp\n  ls",
        ),
    ],
)
def test_an_invoke_of_plain_text_in_its_wrapper_is_the_tools_one_parameter(text: str, command: str) -> None:
    check(
        Real(
            "written: Claude Haiku's invoke body (gptme tests)", text, [("shell", {"command": command})], tools=[SHELL]
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        'Use the <invoke name="shell"> tag, then write the command.',
        'Use <invoke name="shell">echo hi</invoke> to run it.',
    ],
)
def test_a_bare_invoke_of_plain_text_stays_text(text: str) -> None:
    result = check(Real("written: invoke named in prose", text, [], visible=text, tools=[SHELL]))
    assert result["errors"] == []


def test_an_invoke_of_plain_text_for_a_tool_of_several_parameters_is_an_error() -> None:
    two = tool("save", path="string", content="string")
    text = '<function_calls><invoke name="save">print(1)</invoke></function_calls>'
    check(Real("written: no single parameter for the body", text, [], tools=[two], errors=1), visible=False)


SAVE = {
    "name": "save",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
}


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # gptme's Haiku form: `args="PATH"` in the opener, the file as the body, angle tokens and all.
        (
            '<function_calls>\n<invoke name="save" args="s.py">\nprint("Usage: <in> <out>")\n</invoke>\n</function_calls>',
            {"path": "s.py", "content": 'print("Usage: <in> <out>")'},
        ),
        (
            '<function_calls><invoke name="save" args="a b.txt">x < y</invoke></function_calls>',
            {"path": "a b.txt", "content": "x < y"},
        ),
    ],
)
def test_an_invoke_with_args_then_a_body_gives_the_parameters_in_the_schemas_order(
    text: str, arguments: dict[str, str]
) -> None:
    check(Real("written: gptme's invoke with args", text, [("save", arguments)], tools=[SAVE]))


def test_an_invoke_with_args_a_required_parameter_left_out_is_one_error() -> None:
    text = '<function_calls><invoke name="save" args="s.py"></invoke></function_calls>'
    result = check(Real("written", text, [], tools=[SAVE], errors=1), visible=False)
    assert "args=" in result["errors"][0]["message"]


WRITE = [tool("write", path="string", content="string")]


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (  # SGLang's MiniMax M2 tests: the value runs to the closer a tag follows
            '<minimax:tool_call><invoke name="write"><parameter name="content">This text contains </parameter> in '
            "it</parameter></invoke></minimax:tool_call>",
            {"content": "This text contains </parameter> in it"},
        ),
        (
            '<invoke name="write">\n<parameter name="content">a</parameter>b</parameter>\n'
            '<parameter name="path">x.md</parameter>\n</invoke>',
            {"content": "a</parameter>b", "path": "x.md"},
        ),
        (
            '<function_calls><invoke name="write"><parameter name="content">say "</parameter>", twice: '
            '</parameter>.</parameter><parameter name="path">y</parameter></invoke></function_calls>',
            {"content": 'say "</parameter>", twice: </parameter>.', "path": "y"},
        ),
    ],
)
def test_a_parameter_closer_that_text_follows_is_the_values_own(text: str, arguments: dict[str, str]) -> None:
    check(Real("written", text, [("write", arguments)], tools=WRITE))


@pytest.mark.parametrize(
    "text",
    [
        '<invoke name="write"><parameter name="content">done</parameter>\n<parameter name="path">a</parameter></invoke>',
        '<invoke name="write"><parameter name="content">done</parameter>   </invoke>',
        '<invoke name="write"><parameter name="content">done</parameter></invoke>',
    ],
)
def test_a_parameter_closer_before_a_tag_ends_the_value(text: str) -> None:
    path = {"path": "a"} if '"path"' in text else {}
    check(Real("written", text, [("write", {"content": "done", **path})], tools=WRITE))


OLLAMA_MINIMAX = "ollama/ollama:model/parsers/minimaxm2_test.go@98cf601884fab8f0dc491d96f0809c1ddc581ad6"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("  San Francisco  ", "San Francisco"),  # Ollama's MiniMax-M2 parser test: padded both sides
        ("\tSan Francisco", "San Francisco"),  # variant: a tab on one side
        ("San Francisco   ", "San Francisco"),  # variant: trailing spaces only
        ("\n  San Francisco  \n", "San Francisco"),  # variant: the layout newlines, then the padding
    ],
)
def test_a_one_line_value_padded_with_spaces_is_trimmed(value: str, expected: str) -> None:
    text = (
        f'<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">{value}</parameter>\n'
        "</invoke>\n</minimax:tool_call>"
    )
    check(Real(OLLAMA_MINIMAX, text, [("get_weather", {"location": expected})]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a value over several lines keeps its indentation (code)
        ('<invoke name="run"><parameter name="code">  x = 1\n  y = 2  </parameter></invoke>', "  x = 1\n  y = 2  "),
        # a namespaced pair (ATEM's `<atem:parameter>`): its engines keep the spaces
        (
            '<atem:function_calls><atem:invoke name="run"><atem:parameter name="code"> keep  spaces '
            "</atem:parameter></atem:invoke></atem:function_calls>",
            " keep  spaces ",
        ),
        # only spaces: the value as written
        ('<function_calls><invoke name="run"><parameter name="code">   </parameter></invoke></function_calls>', "   "),
    ],
)
def test_a_value_over_several_lines_or_in_a_namespaced_pair_keeps_its_spaces(text: str, expected: str) -> None:
    check(Real("written", text, [("run", {"code": expected})], tools=[tool("run", code="string")]))
