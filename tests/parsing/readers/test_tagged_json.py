"""Call tags (`shim.parsing.readers.tagged_json`): a family's own prefix on the tag (``<seed:tool_call>``,
``<longcat_tool_call>``), the tool named in the opener (``<tool_call name="NAME">{…}``), and a list of calls or
several objects in a tag meant for one."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, tool

W = ("get_weather", {"city": "Paris"})
R = ("get_weather", {"city": "Rome"})
CALL = '{"name": "get_weather", "arguments": {"city": "Paris"}}'


@pytest.mark.parametrize(
    "text",
    [
        f"<seed:tool_call>{CALL}</seed:tool_call>",
        f"<longcat_tool_call>{CALL}</longcat_tool_call>",
        f"<ns:function_call>{CALL}</ns:function_call>",
        f"<x_tool_calls>[{CALL}]</x_tool_calls>",
        "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>",
        '<acme:tool_call><invoke name="get_weather"><parameter name="city">Paris</parameter></invoke></acme:tool_call>',
    ],
)
def test_a_familys_prefix_on_a_call_tag_is_the_same_tag(text: str) -> None:
    check(Real("written: Seed-OSS, LongCat and namespaced tags", text, [W]))


def test_a_prefixed_reasoning_tag_is_reasoning() -> None:
    text = f"<seed:think>plan the call</seed:think><seed:tool_call>{CALL}</seed:tool_call>"
    check(Real("written: Seed-OSS thinks in <seed:think>", text, [W], reasoning="plan the call"))


def test_start_and_end_words_are_never_a_prefix() -> None:
    text = "<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>"
    check(Real("written: FunctionGemma's markers stay FunctionGemma's", text, [W]))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call name="get_weather">{"city": "Paris"}</tool_call>',
        '<tool_call name=\'get_weather\'>\n{"city": "Paris"}\n</tool_call>',
        '<function_call name="get_weather">{"city": "Paris"}</function_call>',
        '<tool_use name="get_weather">{"city": "Paris"}</tool_use>',
        '<invoke name="get_weather">{"city": "Paris"}</invoke>',
        '<function name="get_weather">{"city": "Paris"}</function>',
    ],
)
def test_a_tool_named_in_the_opener_takes_json_arguments(text: str) -> None:
    check(Real("written: the name as an attribute, the arguments as the body", text, [W]))


@pytest.mark.parametrize(
    "text",
    [
        # DeepSeek V4 in memoh (issue 435): an id beside the name
        '<tool_call id="call_00_xxx" name="get_weather">\n{"city": "Paris"}\n</tool_call>',
        '<tool_call name="get_weather" id=\'c1\' type="function">{"city": "Paris"}</tool_call>',
        '<function_call call_id="7" name="get_weather" >{"city": "Paris"}</function_call>',
        # the arguments as an unquoted attribute holding the object, the tag's `>` left out (duoneural)
        "<tool_call name=\"get_weather\" arguments={'city': 'Paris'}]</tool_call>",
        '<tool_call name="get_weather" arguments={"city": "Paris"}></tool_call>',
        '<tool_call id="1" name="get_weather" args = {"city": "Paris"}</tool_call>',
    ],
)
def test_attributes_beside_the_name_are_markup_and_an_arguments_attribute_is_the_arguments(text: str) -> None:
    check(Real("written: the name among other attributes", text, [W]))


@pytest.mark.parametrize(
    "text",
    [
        'Write <tool_call id="1" name="get_weather"> then the arguments.',
        'The <tool_call name="get_weather" arguments="…"> form is shown here.',
        'A <tool_call name="get_weather" arguments=> tag with nothing after it.',
    ],
)
def test_a_named_opener_with_other_attributes_but_no_object_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


def test_a_named_opener_still_reads_its_familys_own_parameters() -> None:
    text = '<function name="get_weather"><param name="days">3</param></function>'
    check(Real("written: MiniCPM", text, [("get_weather", {"days": 3})], tools=[tool("get_weather", days="integer")]))


@pytest.mark.parametrize(
    "text",
    [
        'Use the <invoke name="get_weather"> tag.',
        'Write <tool_call name="get_weather"> then the arguments.',
        'A <function name="x"> element names a function.',
    ],
)
def test_a_named_opener_followed_by_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        f'<tool_call>[{CALL}, {{"name": "get_weather", "arguments": {{"city": "Rome"}}}}]</tool_call>',
        f'<tool_call>\n{CALL}\n{{"name": "get_weather", "arguments": {{"city": "Rome"}}}}\n</tool_call>',
        f'<tool_calls>{{"tool_calls": [{CALL}, {{"name": "get_weather", "arguments": {{"city": "Rome"}}}}]}}</tool_calls>',
    ],
)
def test_several_calls_in_a_tag_meant_for_one_are_all_read(text: str) -> None:
    check(Real("written", text, [W, R]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('<tool_call>get_weather\n{"city": "Paris"}</tool_call>', [W]),
        ('<tool_call>get_weather {"city": "Paris"}</tool_call>', [W]),
        ('<tool_call>get_weather:\n{"city": "Paris"}</tool_call>', [W]),
        ('<tool_call>get_weather(city="Paris")</tool_call>', [W]),
        ('<tool_call>[get_weather(city="Paris"), get_weather(city="Rome")]</tool_call>', [W, R]),
        ('<function_call>get_weather(city="Paris")\nget_weather(city="Rome")</function_call>', [W, R]),
        ('<|python_tag|>[get_weather(city="Paris")]<|eom_id|>', [W]),
        ('<tool_call>json\n{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>', [W]),
    ],
)
def test_any_call_tag_takes_a_name_first_or_python_style_body(text: str, calls: list) -> None:
    check(Real("written: call tags around the other call shapes", text, calls))


@pytest.mark.parametrize(
    "text",
    ['<tool_call name="get_weather"><parameter name="city">Paris</parameter></tool_call>'],
)
def test_a_named_tag_also_takes_parameters(text: str) -> None:
    check(Real("written", text, [W]))


@pytest.mark.parametrize(
    "text",
    [
        "Wrap each call in <tool_call> tags.",
        "The <tool_call> tag holds JSON, e.g. nothing else.",
        "<tool_call> is a tag; get_weather is a tool.",
    ],
)
def test_a_call_tag_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


ARGS_ONLY_TOOLS = [
    tool("get_weather", city="string", days="integer"),
    tool("run_bash", script="string"),
    {
        "name": "exec",
        "inputSchema": {
            "type": "object",
            "properties": {"command": {"type": "string"}, "cwd": {"type": "string"}},
            "required": ["command"],
        },
    },
]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # clawlite's extractor tests: the arguments alone in the tags, the tool the one whose schema takes them
        ('<tool_call>\n{"script": "ls -la /workspace"}\n</tool_call>', ("run_bash", {"script": "ls -la /workspace"})),
        ('<tool_call>{"city": "Paris", "days": 2}</tool_call>', ("get_weather", {"city": "Paris", "days": 2})),
        ('<function_call>{"command": "ls", "cwd": "/"}</function_call>', ("exec", {"command": "ls", "cwd": "/"})),
    ],
)
def test_a_call_tag_holding_only_arguments_is_a_call_of_the_one_tool_whose_schema_takes_them(
    text: str, call: tuple[str, dict]
) -> None:
    check(Real("written", text, [call], tools=ARGS_ONLY_TOOLS))


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        ('<tool_call>{"town": "Paris"}</tool_call>', 1),  # no tool declares the key: an error, as before
        ('<tool_call>{"cwd": "/"}</tool_call>', 1),  # exec declares it but requires `command`
        ('{"script": "ls"}', 0),  # no call tag: text
        ('Run it with {"city": "Paris"} as the input.', 0),
        ('<tool_call>{"arguments": {"city": "Paris"}}</tool_call>', 1),  # a call's own shape missing its name
    ],
)
def test_arguments_alone_that_no_single_tool_takes_or_outside_a_call_tag_are_no_call(text: str, errors: int) -> None:
    result = check(Real("written", text, [], tools=ARGS_ONLY_TOOLS, errors=errors), visible=False)
    assert result["calls"] == []


def test_arguments_alone_that_two_tools_take_are_no_call() -> None:
    tools = [tool("get_weather", city="string"), tool("get_time", city="string")]
    result = check(
        Real("written", '<tool_call>{"city": "Paris"}</tool_call>', [], tools=tools, errors=1), visible=False
    )
    assert result["calls"] == []


QVAC = "tetherto/qvac#2677 (Qwen3.5, the hybrid frame its PR repairs)"


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"function=webfetch","arguments":{"url":"https://x.org","format":"markdown"}}\n</tool_call>',
        # variants: `name=`, spaces, the arguments key spelled `parameters`
        '<tool_call>{ "name = webfetch" , "arguments": {"url": "https://x.org", "format": "markdown"} }</tool_call>',
        '<tool_call>{"tool_name=webfetch", "parameters": {"url": "https://x.org", "format": "markdown"}}</tool_call>',
    ],
)
def test_a_call_whose_name_is_written_as_one_key_with_an_equals_sign_is_read(text: str) -> None:
    check(Real(QVAC, text, [("webfetch", {"url": "https://x.org", "format": "markdown"})]))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"a=b", "arguments": {}}</tool_call>',  # no name key before the `=`
        '<tool_call>{"function=webfetch" "x"}</tool_call>',  # no member after it
    ],
)
def test_a_key_with_an_equals_sign_that_names_no_call_is_an_error(text: str) -> None:
    check(Real("written", text, [], errors=1, tools=["webfetch"]), visible=False)


_FN = "<function=get_weather><parameter=city>Paris</parameter></function>"


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Rapid-MLX's Nemotron tests: words between a call and its block's closer are the model's text.
        (f"<tool_call>{_FN} some junk </tool_call>", "some junk"),
        ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}} ok then</tool_call> bye', "ok then bye"),
        ('<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, done.</function_call>', "done."),
        # ...and a sentence between the opener and the call it holds, on the same line.
        (f"<tool_call>Let me check the weather.{_FN}</tool_call>", "Let me check the weather."),
        (f"<tool_call>\nSure, checking: {_FN}\n</tool_call>", "Sure, checking:"),
    ],
)
def test_words_inside_a_call_tag_beside_its_call_are_text_and_the_tag_still_markup(text: str, visible: str) -> None:
    check(Real("variant", text, [("get_weather", {"city": "Paris"})], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("Wrap it in <tool_call> with <function=NAME> inside.", []),  # no offered tool's function follows
        ("The <tool_call> tag holds <function=lookup> blocks.", []),
        (f"<tool_call>For example: {_FN}</tool_call>", []),  # the words present the call: shown, not made
        (f"Use <tool_call> tags.\n{_FN}", [("get_weather", {"city": "Paris"})]),  # another line: the tag is text
    ],
)
def test_a_call_tag_in_prose_before_no_call_of_an_offered_tool_on_its_line_stays_text(
    text: str, calls: list[tuple[str, dict[str, str]]]
) -> None:
    result = check(Real("variant", text, calls, tools=["get_weather"]), visible=False)
    assert result["text"].startswith(text.split("<function")[0] if calls else text)


_EDIT = "<tool_call>\n<function=edit>\n<parameter=path>\na.rs\n</parameter>\n</function>"


@pytest.mark.parametrize(
    "text",
    [
        # Qwen3.5 in guoqingbao/vllm.rs's tests: the inner closers written again before the block's own
        f"{_EDIT}\n\n</parameter>\n</function>\n</tool_call>",
        f"{_EDIT}</function></tool_call>",
        f"{_EDIT}\n</parameter>\n</tool_call>",
        '<tool_call>{"name": "edit", "arguments": {"path": "a.rs"}}</arguments>\n</tool_call>',
    ],
)
def test_inner_closers_repeated_before_the_block_closer_are_markup(text: str) -> None:
    check(Real("guoqingbao/vllm.rs (and variants)", text, [("edit", {"path": "a.rs"})], tools=["edit"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (  # words between: the block ends where its call ends, as before
            f"{_EDIT}\n</parameter> so that is done </tool_call>",
            "</parameter> so that is done </tool_call>",
        ),
        (f"{_EDIT}\n</tool_call>\n</div>", "</div>"),  # a closer after the block: the page's, not the call's
    ],
)
def test_closers_that_do_not_run_into_the_block_closer_stay_text(text: str, visible: str) -> None:
    check(Real("variant", text, [("edit", {"path": "a.rs"})], visible=visible, tools=["edit"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # LmDotnetTools' natural tool use tests: the arguments in a ```json fence, the closer optional.
        ('Here: <tool_call name="get_weather">\n```json\n{"city": "Paris"}\n```\n</tool_call>', "Here:"),
        ('<tool_call name="get_weather">\n```\n{"city": "Paris"}\n```', ""),
        ('<function_call name="get_weather">```json {"city": "Paris"}```</function_call>', ""),
        # ...as a one-element list, or with the name unquoted as HTML allows.
        ('<tool_call name="get_weather">\n[\n  {"city": "Paris"}\n]\n</tool_call>', ""),
        ('<tool_call name=get_weather>\n{"city": "Paris"}\n</tool_call>', ""),
        ('<tool_use name=get_weather >```json\n{"city": "Paris"}\n```</tool_use>', ""),
        # ...or with the model's sentences around the object, inside the tag: they are text.
        (
            'Here: <tool_call name="get_weather">\nSome explanatory text.\n{"city": "Paris"}\nMore text.\n</tool_call>',
            "Here: Some explanatory text. More text.",
        ),
        ('<tool_call name="get_weather">Checking now:\n  {"city": "Paris"}</tool_call>', "Checking now:"),
    ],
)
def test_a_named_tags_arguments_may_be_fenced_listed_or_among_sentences(text: str, visible: str) -> None:
    check(Real("written", text, [W], visible=visible, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": Paris}}]</tool_calls>',
        '<tool_call>\n{"name": get_weather, "arguments": {city: Paris}}\n</tool_call>',
        "<tool_call>\nget_weather {city: Paris}\n</tool_call>",
        '[TOOL_REQUEST]\n{"name": "get_weather", "arguments": {"city": Paris  }}\n[END_TOOL_REQUEST]',
        '<function_call>{"name": "get_weather", "arguments": {"city": Paris</function_call>',
        '<tool_call name="get_weather">{city: Paris}</tool_call>',
    ],
)
def test_a_bare_word_in_a_call_tag_is_a_string_value(text: str) -> None:
    check(Real("written: small models leave a string's quotes out (llamadart's Apriel 1.5 test)", text, [W]))


def test_a_bare_word_runs_to_the_end_of_its_line_and_keeps_slashes() -> None:
    text = "<tool_call>\n{name: list_dir, arguments: {path: /home/me/My Files\n, depth: 2}}\n</tool_call>"
    tools = [tool("list_dir", path="string", depth="integer")]
    check(
        Real(
            "written: LLxprt's tests, {path: /home}",
            text,
            [("list_dir", {"path": "/home/me/My Files", "depth": 2})],
            tools=tools,
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "get_weather", "arguments": {"city": get_city ()}}</tool_call>',
        '<tool_call>{"name": "get_weather", "arguments": {"city": lookup({q: "x"})}}</tool_call>',
    ],
)
def test_a_call_expression_in_a_call_tag_is_no_bare_word(text: str) -> None:
    result = check(Real("written: R1 nests calls as values (ollama #8517)", text, [], errors=1), visible=False)
    assert result["calls"] == []


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "write", "arguments": {"text": "line one\\n" +\n  "line two"}}</tool_call>',
        "<tool_call>{'name': 'write', 'arguments': {'text': 'line one\\n' + \"line two\"}}</tool_call>",
        '{"name": "write", "parameters": {"text": "line one\\n" +\n"line two"}}',
    ],
)
def test_string_literals_joined_by_plus_are_one_argument(text: str) -> None:
    check(
        Real(
            "written: Llama 3.1 8B joins a script's lines with + (local-subagents)",
            text,
            [("write", {"text": "line one\nline two"})],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        f"<tool_call>\n<tools>\n{CALL}\n</tools>\n</tool_call>",
        f"<function_call><tools>{CALL}</tools></function_call>",
        f"<tool_call>\n<response>\n[{CALL}]\n</response>\n</tool_call>",
    ],
)
def test_a_wrapper_tag_inside_a_call_tag_is_markup_with_it(text: str) -> None:
    check(Real("written: Qwen3-Coder 30B copies its prompt's <tools> into <tool_call> (a bench log)", text, [W]))


def test_a_wrapper_tag_inside_a_call_tag_holding_no_call_is_text() -> None:
    text = '<tool_call>\n<tools>\n{"name": "other", "arguments": {}}\n</tools>\n</tool_call>'
    check(Real("written: no offered tool, so no call", text, [], visible=text, tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        f"<tool_call>{CALL}</tool_\n",
        f"<tool_call>{CALL}</tool_call\n\n",
        '<tool_call>get_weather(city="Paris")</tool_ \n',
    ],
)
def test_a_closer_cut_by_the_end_of_the_output_is_markup_blanks_after_it_too(text: str) -> None:
    check(Real("written: Gemma 3 1B stops inside </tool_call> (a bench log)", text, [W]))


def test_a_cut_closer_with_words_after_it_is_text() -> None:
    text = f"<tool_call>{CALL}</tool_ and then more"
    check(Real("written: words go on after it", text, [W], visible="</tool_ and then more"))


@pytest.mark.parametrize(
    "text",
    [
        "<tool_call>\n<get_weather>\n<city>Paris</city>\n</get_weather>\n</tool_call>\n</tool_call>",
        "<tool_call><get_weather><city>Paris</city></get_weather></tool_call> </tool_call>",
    ],
)
def test_a_call_tags_closer_written_twice_around_a_tools_own_tag_is_markup(text: str) -> None:
    tools = [tool("get_weather", city="string")]
    check(Real("written: MiniMax M2.1 in LocalGPT's changelog closes twice", text, [W], tools=tools))


def test_a_closer_written_twice_before_words_leaves_the_words_text() -> None:
    text = "<tool_call><get_weather><city>Paris</city></get_weather></tool_call></tool_call> Done."
    check(Real("written: the words after it", text, [W], visible="Done.", tools=[tool("get_weather", city="string")]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (f"<tool_call>Here is the tool call: {CALL}</tool_call>", "Here is the tool call:"),
        (f"<function_call>Checking the weather now. {CALL}</function_call> Done.", "Checking the weather now. Done."),
        (
            "<tool_call>Let me check.<function=get_weather><parameter=city>Paris</parameter></function></tool_call>",
            "Let me check.",
        ),
    ],
)
def test_a_sentence_inside_a_call_tag_before_the_call_is_text_and_the_tag_markup(text: str, visible: str) -> None:
    check(Real("written: mlx's tests, prose inside <tool_call> before the JSON", text, [W], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Use <tool_call name=get_weather> then the arguments.",
        'Write <tool_call name="get_weather">[see the docs]</tool_call> for that.',
        'The tag <tool_call name="send_mail">\nlooks like this.\n{"to": "a"}\n</tool_call> is not offered.',
        'Call <tool_call name="get_weather">\nFor example:\n{"city": "Paris"}\n</tool_call> like that.',
    ],
)
def test_a_named_tag_around_prose_or_naming_no_offered_tool_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


def test_a_list_of_argument_objects_in_a_named_tag_is_one_call_each() -> None:
    text = '<tool_call name="get_weather">\n```json\n[{"city": "Paris"}, {"city": "Rome"}]\n```\n</tool_call> done'
    check(Real("written", text, [W, R], visible="done", tools=["get_weather"]))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>Here is the tool call: {"name": "delete_all", "arguments": {}}</tool_call>',  # not offered
        f"<tool_call>For example: {CALL}</tool_call>",  # shown as an example
    ],
)
def test_a_sentence_inside_a_call_tag_before_no_call_of_an_offered_tool_leaves_the_tag_text(text: str) -> None:
    result = check(Real("written: counterparts", text, [], tools=["get_weather"]), visible=False)
    assert "<tool_call>" in result["text"]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # aurora's proxy tests: the tag written with a space for its underscore
        ('hi <tool call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool call>', "hi"),
        # variants: the other call tags, case, spaces inside the brackets, a list
        (f"< Function Call >{CALL}</function call>\nDone.", "Done."),
        (f"<TOOL CALLS>[{CALL}]</TOOL CALLS>", ""),
        (f"Sure.\n<tool call>\n{CALL}\n</tool call>", "Sure."),
    ],
)
def test_a_call_tag_with_a_space_for_its_underscore_is_the_tag(text: str, visible: str) -> None:
    check(Real("aurora: a tag variant the proxy normalises", text, [W], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Wrap each call in a <tool call> tag.",
        "a <tool call>hello</tool call> b",
        "<tool call> is how the format names it.",
    ],
)
def test_a_spaced_call_tag_around_no_call_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["get_weather"]), visible=False)
    assert result["text"] == text


PERSONAL_AGENT = "alextra-lab/personal_agent:tests (test_parse_tool_request_end_tool_result_is_accepted)"


@pytest.mark.parametrize(
    "text",
    [
        '[TOOL_REQUEST]{"name":"list_directory","arguments":{"path":"/tmp"}}[END_TOOL_RESULT]',
        '[TOOL_REQUEST]\n{"name": "list_directory", "arguments": {"path": "/tmp"}}\n[END_TOOL_RESULT]',
        '[TOOLREQUEST]{"name": "list_directory", "arguments": {"path": "/tmp"}}[ENDTOOLRESULT]',
    ],
)
def test_lm_studios_result_closer_closes_a_tool_request(text: str) -> None:
    result = parse_everywhere(
        text, [{"name": "list_directory", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}]
    )
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("list_directory", {"path": "/tmp"})]
    assert result["text"].strip() == ""
