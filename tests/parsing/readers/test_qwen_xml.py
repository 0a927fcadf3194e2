"""Qwen3-Coder / Nemotron ``<function=NAME><parameter=K>V</parameter></function>`` values and their layout."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("bash", command="string", timeout="integer"), tool("write", path="string", content="string")]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (  # Nemotron 3 Super on vLLM, quoted in https://github.com/eugr/spark-vllm-docker/issues/196
            "<tool_call>\n <function=bash>\n <parameter=command>\n cd lfs-build && ls -la\n </parameter>\n </function>\n </tool_call>",
            [("bash", {"command": "cd lfs-build && ls -la"})],
        ),
        (  # the indented example of a prompt (QwenLM/Qwen3-Coder issue 475): the value deeper than its closer
            "<tool_call>\n  <function=bash>\n    <parameter=command>\n      ls\n    </parameter>\n    <parameter=timeout>\n      30\n    </parameter>\n  </function>\n</tool_call>",
            [("bash", {"command": "ls", "timeout": 30})],
        ),
        (  # a multi-line value keeps its own indentation past the layout's
            "<tool_call>\n  <function=write>\n  <parameter=path>\n  a.py\n  </parameter>\n  <parameter=content>\n  def f():\n      return 1\n  </parameter>\n  </function>\n</tool_call>",
            [("write", {"path": "a.py", "content": "def f():\n    return 1"})],
        ),
        (  # a closer at the start of its line: every character of the value is content
            "<tool_call>\n<function=write>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\n    indented = True\n</parameter>\n</function>\n</tool_call>",
            [("write", {"path": "a.py", "content": "    indented = True"})],
        ),
    ],
)
def test_indentation_of_a_pretty_printed_call_is_layout_not_value(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    check(Real("variant", text, calls, tools=TOOLS))


FILE_TOOLS = [
    tool("create_new_file", filepath="string", contents="string"),
    tool("grep", pattern="string", path="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # qwen3-coder:30b on Ollama, quoted in https://github.com/continuedev/continue/issues/13057
            'I\'ll create a file called test.txt with the content "hello".\n\n<function=create_new_file>\n<parameter=filepath> test.txt\n<parameter=contents> hello',
            [("create_new_file", {"filepath": "test.txt", "contents": "hello"})],
            'I\'ll create a file called test.txt with the content "hello".',
        ),
        (  # the same inside its wrapper, values on their own lines, nothing closed
            "<tool_call>\n<function=grep>\n<parameter=pattern>\nTODO\n<parameter=path>\nsrc/\n",
            [("grep", {"pattern": "TODO", "path": "src/"})],
            "",
        ),
        (  # closers left out but </function> written: the values still end at the next tag
            "<function=grep>\n<parameter=pattern> TODO\n<parameter=path> src/\n</function>",
            [("grep", {"pattern": "TODO", "path": "src/"})],
            "",
        ),
    ],
)
def test_a_call_that_writes_no_parameter_closers_ends_each_value_at_the_next_tag_or_the_end(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("variant", text, calls, visible=visible, tools=FILE_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "<function=grep>\n<parameter=pattern>\nTO",  # one value, cut: as likely cut off as finished
        "<function=grep>\n<parameter=pattern>\nTODO\n</parameter>\n<parameter=path>\nsr",  # this call writes closers
    ],
)
def test_an_open_last_value_is_an_error_without_evidence_the_call_writes_no_closers(text: str) -> None:
    result = check(Real("variant", text, [], errors=1, tools=FILE_TOOLS), visible=False)
    assert "inside a parameter value" in result["errors"][0]["message"]


@pytest.mark.parametrize(
    ("text", "name", "key"),
    [
        ("<function=获取天气>\n<parameter=城市>\n北京\n</parameter>\n</function>", "获取天气", "城市"),
        ("Voilà.\n<function=météo>\n<parameter=ville>\nParis\n</parameter>\n</function>", "météo", "ville"),
        ("<function=погода><parameter=город>Москва</parameter></function>", "погода", "город"),
    ],
)
def test_a_bare_call_whose_names_are_written_in_any_script_is_read(text: str, name: str, key: str) -> None:
    value = text.split(f"<parameter={key}>")[1].split("</parameter>")[0].strip()
    visible = "Voilà." if text.startswith("Voilà") else ""
    check(Real("written: tool and parameter names in other scripts", text, [(name, {key: value})], visible=visible))


@pytest.mark.parametrize(
    "text", ["Write <function=1st> before.\n<parameter=a>\nx\n</parameter>", "Use <function=天 气> here."]
)
def test_a_bare_opener_whose_name_is_no_identifier_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[tool("获取天气", city="string")]))


# Damaged forms quoted by minpeter/ai-sdk-tool-call-middleware's tests (benchmarks/real/damaged), and variants.
WRITE = [("write", {"path": "a.py", "content": "x = 1"})]


@pytest.mark.parametrize(
    "text",
    [
        # schema-property tags in place of <parameter=…> (Qwen2.5), </tool_call> never written
        "<tool_call>\n<function=write>\n<path>\na.py\n</path>\n<content>\nx = 1\n</content>\n</function>",
        "<function=write><path>a.py</path><content>x = 1</content></function>",
        # nameless <parameter>KEY</parameter>, the value as text after it (Qwen2.5)
        "<tool_call>\n<function=write>\n<parameter>path</parameter>\na.py\n<parameter>content</parameter>\nx = 1\n"
        "</function>\n</tool_call>",
        # the name as element text (Llama 3.1)
        "<tool_call>\n<function>write</function>\n<parameter>path</parameter>\na.py\n<parameter>content</parameter>\n"
        "x = 1\n</function>\n</tool_call>",
        # the opener's `<` left out (GLM-4.7)
        "<tool_call>function=write>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\nx = 1\n</parameter>\n"
        "</function>",
        # the bare name, property tags, closed by </NAME> (GLM-4.7)
        "<tool_call>write\n<path>a.py</path>\n<content>x = 1\n</content>\n</write>",
        "<tool_call>write\n<path>a.py</path>\n<content>x = 1</content>\n</tool_call>",
    ],
)
def test_a_damaged_call_whose_parameters_the_schema_declares_is_read(text: str) -> None:
    check(Real("variant", text, WRITE, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # GLM-4's "attr" style (mlx-manager's golden outputs): the value quoted in the key's tag, its `>` left out
        (
            'Let me write it.<tool_call>write<path="a.py"</path><content="x = 1"</content>\n</tool_call>\nDone.',
            "Let me write it.\nDone.",
        ),
        ("<tool_call>write\n<path=\"a.py\"></path>\n<content = 'x = 1'></content>\n</tool_call>", ""),
        ("<tool_call>write<path='a.py' </path><content=\"x = 1\"</content></write>", ""),
        (
            '<tool_call>write<path="a.py"</path>\n<content>x = 1</content>\n</tool_call>',
            "",
        ),  # mixed with a property tag
    ],
)
def test_a_declared_keys_tag_holding_its_quoted_value_is_a_parameter(text: str, visible: str) -> None:
    check(Real("variant", text, WRITE, visible=visible, tools=TOOLS))


def test_a_quoted_value_in_a_tag_types_by_the_schema() -> None:
    text = '<tool_call>bash<command="ls"</command><timeout="30"</timeout></tool_call>'
    check(Real("variant", text, [("bash", {"command": "ls", "timeout": 30})], tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'In HTML, <path="a.py"</path> is written so.',  # no call tag and name around it
        'Use `<tool_call>write<path="a.py"</path></tool_call>` to write.',  # in an inline code span
    ],
)
def test_a_quoted_value_tag_outside_a_call_stays_text(text: str) -> None:
    result = check(Real("variant", text, [], visible=text, tools=TOOLS), visible=False)
    assert result["calls"] == []


def test_a_quoted_value_tag_of_a_key_the_schema_does_not_declare_is_no_parameter() -> None:
    text = '<tool_call>write<file="a.py"</file></tool_call>'
    result = check(Real("variant", text, [], visible=text, tools=TOOLS, errors=1), visible=False)
    assert result["calls"] == []


def test_a_value_holding_the_tools_own_closing_tag_keeps_it() -> None:
    text = (
        "<tool_call>\n<function=html>\n<parameter=markup>\n<p>hi</p>\n</html>\n</parameter>\n</function>\n</tool_call>"
    )
    check(Real("variant", text, [("html", {"markup": "<p>hi</p>\n</html>"})], tools=[tool("html", markup="string")]))


@pytest.mark.parametrize(
    "text",
    [
        "Use <function=write><file>a.py</file></function> to write.",  # a tag the schema does not declare
        "Use `<function=write><path>a.py</path></function>` to write.",  # in an inline code span
        "```python\n<function=write>\n<parameter>path</parameter>\na.py\n</function>\n```",  # quoted in a fence
    ],
)
def test_a_damaged_form_quoted_in_prose_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=TOOLS))


def test_a_tag_the_schema_does_not_declare_is_no_parameter() -> None:
    text = "<tool_call>\n<function=write>\n<file>a.py</file>\n</function>\n</tool_call>"
    result = check(Real("variant", text, [], visible=text, tools=TOOLS, errors=1), visible=False)
    assert result["calls"] == []


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        # ai-sdk-tool-call-middleware's Qwen3-Coder tests: `<call=NAME>`, `</call>`, no `</parameter>`
        (
            "<tool_call><call=alpha><parameter=query>How to use </callout> tag</call></tool_call>",
            {"query": "How to use </callout> tag"},
        ),
        ("<tool_call>\n<call=alpha>\n<parameter=query>\nx\n</parameter>\n</call>\n</tool_call>", {"query": "x"}),
        (
            "<tool_call><call=alpha><parameter=query>a</parameter><parameter=n>2</parameter></call></tool_call>",
            {"query": "a", "n": 2},
        ),
    ],
)
def test_a_call_element_for_the_function_element_is_read_inside_a_tool_call(text: str, arguments: dict) -> None:
    tools = [tool("alpha", query="string", n="integer")]
    check(Real("written", text, [("alpha", arguments)], tools=tools))


@pytest.mark.parametrize(
    "text",
    ["Write <call=alpha> to call it.", "<call=alpha><parameter=query>x</parameter></call>"],
)
def test_a_call_element_outside_a_tool_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=[tool("alpha", query="string")]))


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # olmlx's parser tests: a file's text holds the closer itself
        (
            "<function=write_file><parameter=content>x = '</parameter> still here'</parameter></function>",
            "x = '</parameter> still here'",
        ),
        (
            '<tool_call>\n<function=write_file>\n<parameter=content>\ns = "</parameter>"\n</parameter>\n</function>\n'
            "</tool_call>",
            's = "</parameter>"',
        ),
    ],
)
def test_a_parameter_closer_with_text_after_it_on_its_line_is_the_values_own(text: str, content: str) -> None:
    check(Real("written", text, [("write_file", {"content": content})], tools=["write_file"]))


NO_ARGS = [*TOOLS, tool("get_agencies"), tool("get_alerts", state="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Llama on Groq (benchmarks/real/damaged): the closer with its `<` or its `/` left out, or a self-closed tag.
        ("<function=get_agencies>/function>", [("get_agencies", {})], ""),
        ('<function=get_alerts>{"state": "FL"}<function>', [("get_alerts", {"state": "FL"})], ""),
        ('<function=get_alerts>{"state": "FL"}/function> Done.', [("get_alerts", {"state": "FL"})], "Done."),
        ("<function=bash><parameter=command>ls</parameter>/function>", [("bash", {"command": "ls"})], ""),
        ('<tool_call>{"name": "bash", "arguments": {"command": "ls"}}/tool_call>', [("bash", {"command": "ls"})], ""),
        ("<function=get_agencies />", [("get_agencies", {})], ""),
        ("Checking.\n<function=get_agencies/>\nOne moment.", [("get_agencies", {})], "Checking. One moment."),
        ("<tool_call><function=get_agencies /></tool_call>", [("get_agencies", {})], ""),
    ],
)
def test_a_closer_missing_one_mark_or_a_self_closed_function_tag_is_the_call_s_markup(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("variant", text, calls, tools=NO_ARGS, visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "<function=write_file><parameter=content>a</parameter> <parameter=mode>w</parameter></function>",
        "<function=write_file><parameter=content>a</parameter>\n<parameter=mode>w</parameter>\n</function>",
    ],
)
def test_a_parameter_closer_before_a_tag_or_a_line_break_ends_the_value(text: str) -> None:
    check(Real("written", text, [("write_file", {"content": "a", "mode": "w"})], tools=["write_file"]))


@pytest.mark.parametrize(
    "text",
    [
        "Write <function=lookup /> to call lookup.",  # self-closed, no offered tool
        "The path is <function=get_agencies>/functions> here",  # no closer's spelling
        "Use a/function> b",  # no opener before it
    ],
)
def test_damaged_function_tags_of_no_call_stay_text(text: str) -> None:
    check(Real("variant", text, [], tools=NO_ARGS, visible=text))


def test_a_call_tag_after_a_body_is_the_next_call_not_a_slashless_closer() -> None:
    text = '<tool_call>{"name": "get_agencies", "arguments": {}}<tool_call>{"name": "bash", "arguments": {"command": "ls"}}'
    check(Real("variant", text, [("get_agencies", {}), ("bash", {"command": "ls"})], tools=NO_ARGS))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # UI-TARS on Seed: a coordinate tag named like the parameter, inside the value
        (
            "<seed:tool_call>\n<function=click>\n<parameter=point><point>17 58</point></parameter>\n</function>\n</seed:tool_call>",
            "<point>17 58</point>",
        ),
        (
            "<tool_call>\n<function=click>\n<parameter=point>\n<point>1 2</point>\n</parameter>\n</function>\n</tool_call>",
            "<point>1 2</point>",
        ),
        # a tag of the other declared key inside the value is its text too
        (
            "<tool_call><function=click><parameter=point>at <box>3 4</box> then</parameter></function></tool_call>",
            "at <box>3 4</box> then",
        ),
    ],
)
def test_a_declared_keys_tag_inside_a_parameter_value_is_the_values_text(text: str, value: str) -> None:
    tools = [tool("click", point="string", box="string")]
    check(Real("variant", text, [("click", {"point": value})], tools=tools))


def test_a_declared_keys_tag_without_a_parameter_opener_is_still_a_parameter() -> None:
    text = "<tool_call>\n<function=click>\n<point>5 6</point>\n</function>\n</tool_call>"
    check(Real("variant", text, [("click", {"point": "5 6"})], tools=[tool("click", point="string")]))


def test_a_code_fence_inside_a_parameter_value_is_the_values_text() -> None:
    content = "# Title\n```python\nprint(1)\n```\nend"
    text = f"<tool_call>\n<function=write>\n<parameter=path>\nREADME.md\n</parameter>\n<parameter=content>\n{content}\n</parameter>\n</function>\n</tool_call>"
    check(Real("variant", text, [("write", {"path": "README.md", "content": content})], tools=TOOLS))


STRIX = "usestrix/strix#439 (MiniMax M2.7)"


@pytest.mark.parametrize(
    "text",
    [
        # Strix issue 439: Qwen3-Coder's function opener, MiniMax's parameter spelling
        '<function=browser_action>\n<parameter name="action">launch</parameter>\n'
        '<parameter name="url">http://host.docker.internal/</parameter>\n</function>',
        # variant: single quotes, in a <tool_call> wrapper
        "<tool_call><function=browser_action><parameter name='action'>launch</parameter>"
        "<parameter name='url'>http://host.docker.internal/</parameter></function></tool_call>",
        # variant: the two spellings mixed in one call
        '<function=browser_action>\n<parameter=action>\nlaunch\n</parameter>\n<parameter name="url">'
        "http://host.docker.internal/</parameter>\n</function>",
    ],
)
def test_a_parameter_named_by_a_name_attribute_inside_a_function_opener_is_read(text: str) -> None:
    calls = [("browser_action", {"action": "launch", "url": "http://host.docker.internal/"})]
    check(Real(STRIX, text, calls))


def test_a_function_opener_with_a_named_parameter_in_prose_stays_text() -> None:
    text = 'Use `<function=browser_action><parameter name="action">` to start the browser.'
    check(Real("written", text, [], visible=text, tools=["browser_action"]))


_SEARCH = [tool("websearch", query="string", numResults="integer")]


@pytest.mark.parametrize(
    "text",
    [
        # oMLX issue 3153 (Qwen3.6 27B): key=value pairs for <parameter=…> blocks, the output ending in the call.
        '<tool_call>\n<function=websearch>\nquery="Flowable REST endpoints" numResults=5\n',
        '<tool_call><function=websearch>query="Flowable REST endpoints"\nnumResults=5</function></tool_call>',
        "<tool_call>\n<function=websearch>\nquery='Flowable REST endpoints' numResults = 5\n</function>\n</tool_call>",
        "<function=websearch>\n<parameter=query>\nFlowable REST endpoints\n</parameter>\nnumResults=5\n</function>",
    ],
)
def test_declared_keys_written_as_key_value_pairs_in_a_function_body_are_its_arguments(text: str) -> None:
    check(Real("variant", text, [("websearch", {"query": "Flowable REST endpoints", "numResults": 5})], tools=_SEARCH))


def test_a_quoted_value_keeps_its_escaped_quotes_and_spaces() -> None:
    text = '<tool_call><function=websearch>query="say \\"hi\\" twice" numResults=2</function></tool_call>'
    check(Real("variant", text, [("websearch", {"query": 'say "hi" twice', "numResults": 2})], tools=_SEARCH))


def test_key_value_pairs_after_an_opener_mentioned_in_prose_stay_text() -> None:
    text = 'Write <function=websearch> query="x" to search.'  # no body of the format follows the opener
    check(Real("variant", text, [], visible=text, tools=_SEARCH))


def test_a_key_value_pair_of_an_undeclared_key_is_no_argument_but_an_error_for_the_model() -> None:
    text = '<tool_call><function=websearch>topic="x"</function></tool_call>'
    check(Real("variant", text, [], tools=_SEARCH, errors=1), visible=False)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # beam's Qwen test ("the model sometimes drops the >"): the value on the next line
        ("<function=write><parameter=path\n/tmp/a</parameter></function>", [("write", {"path": "/tmp/a"})]),
        # variant: inside <tool_call>, two parameters, the second opener whole, a space before the line break
        (
            "<tool_call>\n<function=write>\n<parameter=path \na.py\n</parameter>\n<parameter=content>\nx = 1\n"
            "</parameter>\n</function>\n</tool_call>",
            WRITE,
        ),
        # variant: another tool, a typed value, a tab before a line break, text before
        (
            "Running it.\n<function=bash>\n<parameter=command\t\nls -la\n</parameter>\n<parameter=timeout\n"
            "30\n</parameter>\n</function>",
            [("bash", {"command": "ls -la", "timeout": 30})],
        ),
    ],
)
def test_a_declared_keys_parameter_opener_missing_its_gt_before_a_line_break_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    visible = "Running it." if text.startswith("Running") else ""
    check(Real("variant", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Write <parameter=path\nin your prompt to name it.",  # no call opener around it
        "```python\n<function=write><parameter=path\n/tmp/a</parameter></function>\n```",  # quoted in a code fence
        "The model wrote <function=write><parameter=path and forgot the rest.",  # no line break after the key
    ],
)
def test_a_parameter_opener_missing_its_gt_outside_a_call_stays_text(text: str) -> None:
    check(Real("variant", text, [], visible=text, tools=TOOLS))


def test_an_undeclared_keys_opener_missing_its_gt_is_no_parameter() -> None:
    text = "<tool_call>\n<function=write>\n<parameter=file\na.py\n</parameter>\n</function>\n</tool_call>"
    result = check(Real("variant", text, [], visible=text, tools=TOOLS, errors=1), visible=False)
    assert result["calls"] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # beam's Qwen tests: the value ends in the markup, then the closer again
        ("<function=write><parameter=content>x</parameter></parameter></function>", "x</parameter>"),
        (
            "<tool_call>\n<function=write>\n<parameter=content>\n<p>a</p></parameter></parameter>\n</function>\n</tool_call>",
            "<p>a</p></parameter>",
        ),
        ("<function=write><parameter=content>y</parameter> </PARAMETER></function>", "y</parameter>"),
    ],
)
def test_a_closer_written_twice_in_a_row_closes_a_value_that_ends_in_it(text: str, value: str) -> None:
    check(Real("variant", text, [("write", {"content": value})], tools=[tool("write", content="string")]))


def test_a_closer_on_the_next_line_after_a_closed_parameter_is_no_part_of_the_value() -> None:
    text = "<function=write><parameter=content>x</parameter>\n</parameter></function>"
    check(Real("variant", text, [], tools=[tool("write", content="string")], errors=1), visible=False)
