"""Markup written next to a call that the call's reader already read: the family's own tokens, a harness's
label, a closer's stray slash. They are the call's markup, not text; the same words in prose stay text. Every
case at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

YUNSHU = "written: yunshu's slash-tag form"

SLASH_CLOSER = [
    Real(  # the closer written with a stray slash after a self-closing opener
        YUNSHU,
        '<tool_call/>{"name": "get_weather", "arguments": {"city": "Taipei"}}</tool_call/>',
        [("get_weather", {"city": "Taipei"})],
    ),
    Real(  # variant: after an ordinary opener, spaces inside, text after
        "written: an ordinary opener, a spaced slash closer",
        'Checking.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call / >\nDone.',
        [("read_file", {"path": "a.py"})],
        visible="Checking. Done.",
    ),
    Real(  # variant: two blocks back to back, another call tag's word
        "written: two function_call blocks",
        '<function_call>{"name": "f1", "arguments": {}}</function_call/>'
        '<function_call>{"name": "f2", "arguments": {"x": 1}}</function_call/>',
        [("f1", {}), ("f2", {"x": 1})],
    ),
]


@pytest.mark.parametrize("case", SLASH_CLOSER, ids=lambda c: c.text[:40])
def test_a_call_tags_closer_with_a_stray_slash_closes_the_block(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "Close the block with </tool_call/> when done.",  # named in prose, no block open
        "A self-closing <tool_call/> and its </tool_call/> are not HTML.",
    ],
)
def test_a_slash_closer_in_prose_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


AMP = "microsoft/amplifier-module-provider-claude: the [tool]: rendering of a tool_use block"

HARNESS_LABEL = [
    Real(  # the Anthropic block printed after the harness's label
        AMP,
        '[tool]: {"type": "tool_use", "name": "edit_file", "id": "ef01", "input": {"path": "a.py"}}',
        [("edit_file", {"path": "a.py"})],
    ),
    Real(  # variant: after prose, a Hermes-style object, another label word, text after
        "written: a [function] label after a sentence",
        'Let me look.\n[Function]: {"name": "read_file", "arguments": {"path": "b.md"}}\nThen I answer.',
        [("read_file", {"path": "b.md"})],
        visible="Let me look. Then I answer.",
    ),
    Real(  # variant: blanks inside the brackets, no colon, a list of two calls
        "written: [ tool_use ] before a call list",
        '[ tool_use ] [{"name": "search", "arguments": {"q": "rust"}}, {"name": "search", "arguments": {"q": "go"}}]',
        [("search", {"q": "rust"}), ("search", {"q": "go"})],
    ),
    Real(  # a result line under the same label is no call: text, the call after it is read
        AMP,
        '[tool]: {"id": "rf04", "output": {"ok": true}}\nNow the edit.\n'
        '[tool]: {"type": "tool_use", "name": "edit_file", "id": "ef05", "input": {"path": "c.py"}}',
        [("edit_file", {"path": "c.py"})],
        visible='[tool]: {"id": "rf04", "output": {"ok": true}} Now the edit.',
    ),
]


@pytest.mark.parametrize("case", HARNESS_LABEL, ids=lambda c: c.text[:40])
def test_a_harness_label_before_a_call_on_its_line_is_markup(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "The [tool]: prefix marks a tool line in the transcript.",  # named in prose
        '[tool]: {"name": "delete_all", "arguments": {}}',  # a tool that was not offered
        '[tool]: {"id": "x1", "output": "file contents"}',  # a result, no call
        'Write it as `[tool]: {"name": "edit_file", "arguments": {"path": "a.py"}}` on its line.',  # inline code
        'For example:\n\n> [tool]: {"name": "edit_file", "arguments": {"path": "a.py"}}\n\nThat is the format.',
    ],
)
def test_a_harness_label_before_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["edit_file"]))


FAMILY_TOKENS = [
    Real(  # Phi-4 / MiniCPM's role separator right before a call tag
        "written: <|im_sep|> before <tool_call>",
        'Let me calculate.<|im_sep|><tool_call><function name="calculate"><param name="expression">17*23</param>'
        "</function></tool_call>",
        [("calculate", {"expression": "17*23"})],
        visible="Let me calculate.",
    ),
    Real(  # variant: on its own line before a Hermes JSON call
        "written: <|im_sep|> on its line",
        'Sure.\n<|im_sep|>\n<tool_call>\n{"name": "search", "arguments": {"q": "tea"}}\n</tool_call>',
        [("search", {"q": "tea"})],
        visible="Sure.",
    ),
    Real(  # the role's field name as a label line
        "written: ASSISTANT_TOOL_CALLS: line",
        'I will inspect it.\nASSISTANT_TOOL_CALLS: [{"id": "call_1", "function": {"name": "ReadFile", '
        '"arguments": "{\\"path\\": \\"README.md\\"}"}}]\nThen I report.',
        [("ReadFile", {"path": "README.md"})],
        visible="I will inspect it. Then I report.",
    ),
    Real(  # variant: a blank for the underscore, the list on the next line
        "written: Assistant tool calls: then the list",
        'Assistant tool calls:\n[{"name": "get_weather", "arguments": {"city": "Oslo"}}]',
        [("get_weather", {"city": "Oslo"})],
    ),
    Real(  # Qwen-Agent's flower marker before a JSON call object, a lone flower after
        "written: yunshu's flower markers",
        '✿FUNCTION✿ {"name": "calc", "arguments": {"x": 1}} ✿',
        [("calc", {"x": 1})],
    ),
    Real(  # variant: a colon, the object on the next line, text after, no lone flower
        "written: ✿FUNCTION✿: then the object",
        'Computing.\n✿FUNCTION✿:\n{"name": "get_weather", "arguments": {"city": "Lima"}}\nDone.',
        [("get_weather", {"city": "Lima"})],
        visible="Computing. Done.",
    ),
]


@pytest.mark.parametrize("case", FAMILY_TOKENS, ids=lambda c: c.text[:40])
def test_a_familys_own_token_next_to_a_call_is_markup(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "Phi-4 separates the role from the content with <|im_sep|> in its template.",  # named in prose
        "The ASSISTANT_TOOL_CALLS field holds the calls.",  # the field named
        '✿FUNCTION✿ {"name": "delete_all", "arguments": {}} ✿',  # a tool that was not offered
        "The ✿FUNCTION✿ marker opens a call in Qwen-Agent.",
        "<|im_sep|> <b>bold</b> is HTML after the separator.",  # before a tag that is no call tag
    ],
)
def test_a_familys_token_with_no_call_beside_it_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))
