"""Python-style calls of offered tools alone on their line, and call lists after text.

The lists after text are quoted from sgl-project/sglang:test/srt/test_function_call_parser.py
@03400a9e4d955eff2606cfe621c83a710c16cc97 (the pythonic detector's tests).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = ["get_weather", "search"]


def _calls(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in result["calls"]]


def test_a_call_list_after_text_is_read_and_the_text_stays() -> None:
    result = parse_everywhere("Here's a tool call: [get_weather(location='New York', unit='celsius')]", TOOLS)
    assert _calls(result) == [("get_weather", {"location": "New York", "unit": "celsius"})]
    assert result["text"] == "Here's a tool call: "


def test_two_lists_with_text_between_are_two_calls() -> None:
    result = parse_everywhere("[get_weather(location='Berlin')] and [search(query='restaurants')]", TOOLS)
    assert _calls(result) == [("get_weather", {"location": "Berlin"}), ("search", {"query": "restaurants"})]
    assert result["text"].strip() == "and"


def test_a_bare_call_opening_the_message_or_alone_on_a_line_is_a_call() -> None:
    assert _calls(parse_everywhere('get_weather(city="Paris")', TOOLS)) == [("get_weather", {"city": "Paris"})]
    result = parse_everywhere('I will check.\nget_weather(city="Paris", days=[1, 2])\nsearch(query="x")  \n', TOOLS)
    assert _calls(result) == [("get_weather", {"city": "Paris", "days": [1, 2]}), ("search", {"query": "x"})]
    assert result["text"].split() == ["I", "will", "check."]


@pytest.mark.parametrize(
    "text",
    [
        'x = get_weather(city="Paris")',  # an assignment
        'print(get_weather(city="Paris"))',  # inside another call
        'Try get_weather(city="Paris") first.',  # inside a sentence
        'Code:\nget_weather(city="Paris").json()',  # something after it on its line
        'Code:\n    get_weather(city="Paris")',  # indented: a line of code
        "Code:\nget_weather()",  # no argument, inside a message
        "Use `[get_weather(city='Paris')]` to ask.",  # inline code
        "See [get_weather(city)](https://example.com/docs).",  # a Markdown link
        "Hello\nlookup(city='Paris')",  # not an offered tool
        "Hello\nget_weather(city=open('x'))",  # not a literal
    ],
)
def test_calls_in_code_or_prose_stay_text_without_an_error(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        'Call: get_weather(city="Paris")',
        'Call: get_weather(city="Paris")<bot_end>',
        'Call: get_weather(city="Paris")\nThought: the weather is needed',
        'Thought: need weather\nCall: get_weather(city="Paris")',
        'Calling tool: get_weather({"city": "Paris"})',  # a chat history's call record copied (qMLX)
        'Thinking first.\ncalling function: get_weather(city="Paris")',
        '<<function>>get_weather(city="Paris")',
        'get_weather(city="Paris")<|eot_id|>',
    ],
)
def test_labelled_calls_and_a_turn_token_after_a_call_are_read(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize(
    "text",
    [
        "Call: unknown(x=1)",
        'For example: Call: get_weather(city="Paris")',
        'e.g. <<function>>get_weather(city="Paris")',
        'Use `Call: get_weather(city="Paris")` to call it.',
        'Call: get_weather(city="Paris") and then wait',
        'The log says Calling tool: get_weather(city="Paris")',
        "Calling tool: unknown(x=1)",
    ],
)
def test_labelled_calls_in_prose_or_of_no_offered_tool_stay_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("[get_weather(city='Paris', days=2)]<|eot_id|>", ""),
        ('[get_weather(city="Paris", days=2), search(query="x")]<|eot|>', ""),
        ("Checking: [get_weather(city='Paris', days=2)]\n<|eom_id|>", "Checking: "),
        ("[get_weather(city='Paris', days=2)]</s>", ""),
    ],
)
def test_a_call_list_followed_by_an_end_of_turn_token_is_read_and_the_token_is_markup(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result)[0] == ("get_weather", {"city": "Paris", "days": 2})
    assert result["text"].strip() == visible.strip()


@pytest.mark.parametrize(
    "text", ["Use [get_weather(city='Paris')]<b>now</b>.", "See [get_weather(city='Paris')]<br> above."]
)
def test_a_call_list_glued_to_other_markup_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == [] and result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # LFM2.5: the call list opens the message and its account of the call follows, glued or spaced.
        ("[get_weather(city='Paris')]I\u2019m checking Paris.", "I\u2019m checking Paris."),
        ('[get_weather(city="Paris"), search(q="x")]I am on it.', "I am on it."),
        ("[get_weather(city='Paris')] The forecast is coming.", " The forecast is coming."),
        # A bare call opening the message, then a sentence on its line (GAIA's NPU model).
        ('get_weather(city="Paris") I have asked for it.', " I have asked for it."),
        ('get_weather(city="Paris")  Done, one moment.', "  Done, one moment."),
    ],
)
def test_calls_opening_the_message_then_a_sentence_are_a_call_and_prose(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == [n for n in ("get_weather", "search") if f"{n}(" in text]
    assert result["text"] == visible and result["errors"] == []


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # SmallCTL's Gemma runs: the answer, a call on its own line, the answer again glued to the call's `)`.
        ("Done.\n\nsearch(query='x')1. **Path:** `a.html`", "Done.\n\n1. **Path:** `a.html`"),
        ('Done.\nget_weather(city="Paris")2) Open it.', "Done.\n2) Open it."),
        ('get_weather(city="Paris")## Summary\nSunny.', "## Summary\nSunny."),
        ("Ok.\nsearch(query='a (b)', n=2)The results follow.", "Ok.\nThe results follow."),
        ("Ok.\nget_weather(city='Z\u00fcrich')\u00c9t\u00e9 is warm.", "Ok.\n\u00c9t\u00e9 is warm."),
    ],
)
def test_a_call_opening_a_line_with_prose_glued_to_its_parenthesis_is_a_call_and_the_prose_stays(
    text: str, visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == [n for n in ("get_weather", "search") if f"{n}(" in text]
    assert result["text"] == visible and result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        'Code:\nget_weather(city="Paris")[0]',  # indexing: code
        'Code:\nget_weather(city="Paris")or x',  # an operator word goes on with the expression
        'Code:\nget_weather(city="Paris")1',  # a digit but no list item
        'Try get_weather(city="Paris")1. First.',  # inside a sentence, not opening a line
        'Code:\n    get_weather(city="Paris")The',  # indented: a line of code
        "Hello\nlookup(city='Paris')1. Done",  # not an offered tool
    ],
)
def test_text_glued_to_a_call_that_goes_on_as_code_or_a_call_inside_a_line_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        'get_weather(city="Paris").json() Then print it.',  # code: glued to the call
        'get_weather(city="Paris") or fallback()',  # no sentence after it
        "Note: [get_weather(city='Paris')]I think so.",  # not opening the message
        'Sure.\nget_weather(city="Paris") I have asked.',  # a line inside the message
        "[get_weather(city='Paris')](https://example.com) Read it.",  # a Markdown link
    ],
)
def test_calls_followed_by_code_or_not_opening_the_message_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # NexusRaven: Python statements on one line, `;` between them and after the last.
        ("get_weather(city='Paris'); search(query='x'); \nThought: both are needed", " \nThought: both are needed"),
        ('Call: get_weather(city="Paris");search(query="x")', ""),
        ('Plan:\nget_weather(city="Paris") ;  search(query="x");', "Plan:\n"),
        # Gorilla OpenFunctions: the label again before each further call, glued or spaced.
        ("\n<<function>>get_weather(city='Paris')<<function>>search(query='x')", "\n"),
        ("<<function>>get_weather(city='Paris') <<function>>search(query='x')\n", "\n"),
        # Gorilla OpenFunctions v2's README: a comma between the calls.
        ("get_weather(city='Paris'), search(query='x')", ""),
        ("Calls:\nget_weather(city='Paris'),search(query='x')\n", "Calls:\n\n"),
    ],
)
def test_a_run_of_calls_on_one_line_after_a_separator_or_the_label_again_is_every_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("get_weather", {"city": "Paris"}), ("search", {"query": "x"})]
    assert (result["text"], result["errors"]) == (visible, [])


@pytest.mark.parametrize(
    "text",
    [
        "get_weather(city='Paris'); print(result)",  # a call of no offered tool after the separator
        "get_weather(city='Paris'); x = 1",  # a statement that is no call
        "get_weather(city='Paris') and search(query='x')",  # a word between them
        "Try get_weather(city='Paris'); search(query='x') in a shell.",  # inside a sentence
        "Code:\n    get_weather(city='Paris'); search(query='x')",  # indented: a line of code
        "<<function>>get_weather(city='Paris')<<function>>lookup(q='x')",  # the second is no offered tool
        "get_weather(city='Paris'), then lookup(q='x')",  # a comma, then prose
        "get_weather(city='Paris'), print(x)",  # a comma, then a call of no offered tool
    ],
)
def test_a_run_on_one_line_with_anything_but_calls_of_offered_tools_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # Markdown's bold around the calls (Llama 3.2 3B and Qwen2.5 1.5B in BFCL's result files): markup.
        ('**get_weather(city="Paris")**', ""),
        ('**get_weather(city="Paris")**\n**search(query="x")**', "\n"),
        ('I will check.\n__get_weather(city="Paris")__ \n', "I will check.\n \n"),
        ('**get_weather(city="Paris")** **search(query="x")**', ""),
        ("**[get_weather(city='Paris'), search(query='x')]**", ""),
        ("Checking:\n**[get_weather(city='Paris'), search(query='x')]**\nDone.", "Checking:\n\nDone."),
        # Calls on one line with only blanks between them (Qwen2.5 3B in BFCL).
        ('get_weather(city="Paris") search(query="x")', ""),
        ('Sure.\nget_weather(city="Paris")  search(query="x")\n', "Sure.\n\n"),
    ],
)
def test_calls_in_bold_or_separated_by_blanks_are_read_and_the_marks_are_markup(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == [n for n in ("get_weather", "search") if n in text][
        : text.count("(")
    ]
    assert result["text"] == visible and result["errors"] == []


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # UI-TARS: a Thought (or Reflection, Action_Summary) line, then `Action: NAME(k='v')`
        (
            "Thought: Click on the search bar\nAction: get_weather(city='(395,74)')",
            "Thought: Click on the search bar\n",
        ),
        ("Action_Summary: 粘贴。\nAction: get_weather(city='ctrl v')\n", "Action_Summary: 粘贴。\n\n"),
        ("\n\nAction\uff1aget_weather(city='<bbox>1 2 3 4</bbox>')", "\n\n"),  # the full-width colon
        ("action: get_weather(city='Paris')", ""),
        ("<think>\nclick it\n</think>\nThought: t\nAction: get_weather(city='Paris')", "\nThought: t\n"),
    ],
)
def test_a_gui_agents_action_line_naming_an_offered_tool_is_a_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["text"] == visible


def test_two_action_lines_are_two_calls_and_an_action_with_no_arguments_is_a_call() -> None:
    result = parse_everywhere("Thought: t\nAction: get_weather(city='a')\n\nAction: search()", TOOLS)
    assert _calls(result) == [("get_weather", {"city": "a"}), ("search", {})]


@pytest.mark.parametrize(
    "text",
    [
        '**get_weather(city="Paris")** is the call to use.',  # bold inside a sentence
        "**get_weather** is a tool.",  # a name in bold, no call
        "**[Note](https://example.com)** read it.",  # a bold link
        '**lookup(city="Paris")**',  # not an offered tool
        'Sure.\nget_weather(city="Paris") then search(query="x")',  # words between the calls
        'Sure.\nget_weather(city="Paris") print(x)',  # the next is no offered tool's call
    ],
)
def test_bold_or_blank_separated_calls_in_prose_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        "Action: swipe(start_box='(1,2)')",  # no offered tool
        "For example:\nAction: get_weather(city='Paris')",  # an example
        "Action: get_weather(city='Paris') then wait for the page",  # more after it on its line
        "The Action: get_weather(city='Paris') line",  # inside a sentence
        "Done. Action: get_weather(city='Paris') and more",  # more after it on its line
        "Done. Action: lookup(city='Paris')",  # no offered tool
        "Done. For example, Action: get_weather(city='Paris')",  # an example
        "Done. Action: get_weather(city=x)",  # not a literal
    ],
)
def test_action_lines_in_prose_or_of_no_offered_tool_stay_text(text: str) -> None:
    result = parse_everywhere(text, ["get_weather"])
    assert result["calls"] == [] and result["text"] == text


def test_react_s_action_line_with_no_parenthesis_is_still_reacts() -> None:
    result = parse_everywhere('Action: get_weather\nAction Input: {"city": "Paris"}', TOOLS)
    assert _calls(result) == [("get_weather", {"city": "Paris"})]


BROWSER = [
    {"name": "click", "parameters": {"type": "object", "properties": {"bid": {"type": "string"}}}},
    {"name": "send_msg_to_user", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}},
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # BrowserGym's action block, as OpenHands' browsing agent reads it (the stop sequence ``` cuts the closer)
        ("```click('81')```", [("click", {"bid": "81"})], ""),
        ("I will click.\n```click('81')", [("click", {"bid": "81"})], "I will click.\n"),
        (
            'Tell the user.\n```send_msg_to_user("Done.")\n```',
            [("send_msg_to_user", {"text": "Done."})],
            "Tell the user.\n",
        ),
        ("```click('81'", [("click", {"bid": "81"})], ""),  # only the `)` missing at the output's end
        ("send_msg_to_user('It is up.')", [("send_msg_to_user", {"text": "It is up."})], ""),  # a positional argument
    ],
)
def test_a_fenced_or_bare_call_with_positional_arguments_is_read(text: str, calls: list, visible: str) -> None:
    result = parse_everywhere(text, BROWSER)
    assert (_calls(result), result["text"]) == (calls, visible)


@pytest.mark.parametrize(
    "text",
    [
        # Qwen2.5 3B in BFCL's Java category: the class of `Tests.doDelete` left out.
        'doDelete(request="r")',
        'Calling it.\ndoDelete(request="r")\n',
        '[doDelete(request="r")]',
    ],
)
def test_a_call_of_a_dotted_tools_method_without_its_class_is_that_tools_call(text: str) -> None:
    result = parse_everywhere(text, ["Tests.doDelete", "a.run", "b.run"])
    assert _calls(result) == [("Tests.doDelete", {"request": "r"})]


def test_a_method_name_two_dotted_tools_share_names_no_call() -> None:
    text = 'Sure.\nrun(x="r")'
    result = parse_everywhere(text, ["Tests.doDelete", "a.run", "b.run"])
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        "```click(",  # nothing written after the parenthesis
        "```click('81',",  # cut after a comma: more was coming
        "```click('8",  # cut inside a string
        "```lookup('81')```",  # no offered tool
        "```python\nclick('81')\n```",  # code in a fence of a language
        "Run ```click('81')``` then wait.",  # inside a sentence
        "For example:\n```click('81')```",  # an example
    ],
)
def test_fenced_calls_cut_off_of_no_offered_tool_or_in_prose_stay_text(text: str) -> None:
    result = parse_everywhere(text, BROWSER)
    assert (result["calls"], result["text"]) == ([], text)


GOTO = {"name": "goto", "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # OpenHands' browsing agent (its integration mocks): the fence alone on its line, the stop sequence `)`
        # cutting the call's parenthesis and the fence
        ('Click it.\n\n```\nclick("10"', [("click", {"bid": "10"})], "Click it.\n\n"),
        ("Go.\r\n```\r\n  goto('http://localhost:8000'", [("goto", {"url": "http://localhost:8000"})], "Go.\r\n"),
        ('```\nsend_msg_to_user("Es ist 42."', [("send_msg_to_user", {"text": "Es ist 42."})], ""),
        ("Tell.\n```\nsend_msg_to_user(text='done')", [("send_msg_to_user", {"text": "done"})], "Tell.\n"),
        ("Tell.\n```   \nclick('7')\n\n", [("click", {"bid": "7"})], "Tell.\n\n\n"),
    ],
)
def test_a_call_under_a_fence_on_its_own_line_cut_open_by_the_outputs_end_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    result = parse_everywhere(text, [*BROWSER, GOTO])
    assert (_calls(result), result["text"]) == (calls, visible)


@pytest.mark.parametrize(
    "text",
    [
        'will catch\n\n```\nclick("10")\n```',  # a whole fenced call: a snippet shown
        "Click.\n```\nclick('10')\n```\nThen wait.",
        "Click.\n```\nclick('10') then wait",  # text after the call
        "Click.\n```\nclick('10'\nmore",
        "Click.\n```\nclick('10',",  # cut after a comma
        "Click.\n```\nlookup('10'",  # no offered tool
        "Click.\n```python\nclick('10'",  # a fence of a language
        "For example:\n```\nclick('10'",  # an example
    ],
)
def test_a_call_under_a_fence_on_its_own_line_not_cut_open_stays_text(text: str) -> None:
    result = parse_everywhere(text, [*BROWSER, GOTO])
    assert (result["calls"], result["text"]) == ([], text)


CREATE = [
    {
        "name": "CreateFile",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
    }
]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # OllamAssist's BracketCallParser: `[CALL ToolName('arg1', 'arg2')]`, positional arguments in order
        ("[CALL CreateFile('A.java', 'class A {\n}')]", ""),
        (
            "Here's the code:\n[CALL CreateFile('A.java', 'class A {\n}')]\nFile created!",
            "Here's the code:\n\nFile created!",
        ),
        ("[TOOL_CALL CreateFile(path='A.java', content='class A {\n}')]", ""),
        ("[Function call: CreateFile('A.java', 'class A {\n}')]", ""),
    ],
)
def test_a_bracketed_call_under_a_call_word_is_read(text: str, visible: str) -> None:
    result = parse_everywhere(text, CREATE)
    assert (_calls(result), result["text"]) == (
        [("CreateFile", {"path": "A.java", "content": "class A {\n}"})],
        visible,
    )


@pytest.mark.parametrize(
    "text",
    [
        "[CALL DeleteFile('A.java')]",  # no offered tool
        "Do not write `[CALL CreateFile('A.java', 'x')]` as text.",  # inline code
        "For example: [CALL CreateFile('A.java', 'x')]",  # an example
        "[CALL CreateFile('A.java', 'x', 'y')]",  # more arguments than the tool declares
        "[CALL CreateFile('A.java', 'x')]s",  # glued to a word
    ],
)
def test_bracketed_calls_in_prose_or_that_cannot_bind_stay_text(text: str) -> None:
    result = parse_everywhere(text, CREATE)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        "Thought: close the window first. Action: get_weather(city='(962,108)')",  # UI-TARS, on one line
        "Thought: close it! Action\uff1aget_weather(city='(962,108)')\n",
    ],
)
def test_an_action_label_after_the_thought_on_the_same_line_is_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert _calls(result) == [("get_weather", {"city": "(962,108)"})]
    assert result["text"].split("Action")[0] == result["text"] and result["text"].startswith("Thought:")


# BFCL's Java and JavaScript categories (Qwen2.5 3B): a value written as the identifier the question named.
JAVA_TOOLS = [
    {
        "name": "GeometryPresentation.createPresentation",
        "inputSchema": {"type": "object", "properties": {"controller": {}, "parent": {"type": "string"}}},
    },
    {
        "name": "search",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "n": {"type": "integer"}, "mode": {"enum": ["a", "b"]}},
        },
    },
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "GeometryPresentation.createPresentation(controller=mapController, parent=mapArea)",
            [("GeometryPresentation.createPresentation", {"controller": "mapController", "parent": "mapArea"})],
        ),
        (
            "[GeometryPresentation.createPresentation(controller=this.ctrl, parent='main')]",
            [("GeometryPresentation.createPresentation", {"controller": "this.ctrl", "parent": "main"})],
        ),
        ("I'll look it up.\nsearch(query=userQuery, n=3)\n", [("search", {"query": "userQuery", "n": 3})]),
        (
            "search(query='status = \\'active\\'', n=1)",
            [("search", {"query": "status = 'active'", "n": 1})],
        ),
    ],
)
def test_an_unquoted_identifier_for_a_string_or_untyped_parameter_is_its_spelling(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    assert _calls(parse_everywhere(text, JAVA_TOOLS)) == calls


@pytest.mark.parametrize(
    "text",
    [
        "search(query=q, n=count)",  # n is an integer: an identifier is no integer
        "search(query=q, mode=fast)",  # mode is an enum
        "search(query=data['sales'])",  # an expression, not an identifier
        "search(query=f(x))",  # a call inside
        "This prose mentions [search(query)] without a value.",  # a positional name gives no value
        "search(userQuery)",  # positional: the parameter's name written, not a value
        "x = search(query=q)",  # code
    ],
)
def test_identifiers_where_the_schema_wants_no_string_or_not_written_as_a_keyword_stay_text(text: str) -> None:
    result = parse_everywhere(text, JAVA_TOOLS)
    assert _calls(result) == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        # CoALM-8B in BFCL's result files (live_multiple_1-0-1): the list's `]` left out at the output's end
        (
            '[ChaDri.change_drink(drink_id="1234", new_preferences={"sweetness_level": "none"})',
            [("ChaDri.change_drink", {"drink_id": "1234", "new_preferences": {"sweetness_level": "none"}})],
        ),
        (
            "[get_weather(location='Lima'), search(query='x')]",
            [("get_weather", {"location": "Lima"}), ("search", {"query": "x"})],
        ),
        (
            "[get_weather(location='Lima'), search(query='x')\n",
            [("get_weather", {"location": "Lima"}), ("search", {"query": "x"})],
        ),
    ],
)
def test_a_call_list_opening_the_message_whose_closing_bracket_is_left_out_at_its_end_is_read(
    text: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    result = parse_everywhere(text, [*TOOLS, "ChaDri.change_drink"])
    assert _calls(result) == calls
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    "text",
    [
        "Try [get_weather(location='Lima')",  # after prose: a bracket in a sentence
        "[get_weather(location='Lima'), ",  # cut off after a separator: the next call was never written
        "[get_weather(location='Lima'), search(query='x'",  # the last call itself unclosed
        "[get_weather(location='Lima') and more words",  # prose after the call, no closer
        "[lookup(location='Lima')",  # not an offered tool
    ],
)
def test_a_call_list_missing_more_than_its_closing_bracket_stays_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == []
    assert result["text"] == text
