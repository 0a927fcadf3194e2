"""Tokens of the model's turn structure around a call are markup, never visible text (still in ``raw``)."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, tool


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|im_end|>', ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>\n<end_of_turn>', ""),
        ('{"name": "f", "parameters": {}}<|eot_id|>', ""),
        ('[TOOL_CALLS][{"name": "f", "arguments": {}}]</s>', ""),
        ('<|python_tag|>{"name": "f", "parameters": {}}<|eom_id|><|eot_id|>', ""),
        ('Sure. <function_call>{"name": "f", "arguments": {}}</function_call><|END_OF_TURN_TOKEN|>', "Sure."),
        ("<function=f>{}</function><|eot|>", ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|eom|>', ""),
        ("<|tool_call>call:f{}<tool_call|><|tool_response>", ""),
        ('Ok. <tool_call>{"name": "f", "arguments": {}}</tool_call>\n<|tool_response>', "Ok."),
        # FunctionGemma goes on to open the tool's answer when its stop token is not set (gemma-cookbook)
        ("<start_function_call>call:f{}<end_function_call><start_function_response>", ""),
        ("<start_function_call>call:f{}<end_function_call>\n<start_function_response>", ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><start_tool_response>', ""),
        # Gemma decoded without skipping special tokens: the end of its turn, then the end of the sequence
        ("<tool_call>\n{'name': 'f', 'arguments': {}}\n</tool_call><end_of_turn><eos>", ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>\n<end_of_turn>\n<eos>', ""),
    ],
)
def test_an_end_of_turn_token_after_a_call_is_markup(text: str, visible: str) -> None:
    check(Real("written: end-of-turn tokens models print after a call", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # GLM-4.6 (iFlow CLI issue 250): the tool's turn header, then the user's, where generation should stop.
        ("Retrying:\n  <tool_call>f\n  </tool_call><|observation|>\n  <|user|>", "Retrying:"),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|observation|>', ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>\n<|observation|>\n', ""),
        ('{"name": "f", "parameters": {}}<|eot_id|>\n<|user|>', ""),
        ("[f()]<|eot_id|>\n<|user|>", ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|im_end|><|system|>\n', ""),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|observation|> <|observation|>', ""),
    ],
)
def test_another_roles_header_ending_the_message_after_a_turn_token_after_a_call_is_markup(
    text: str, visible: str
) -> None:
    check(Real("written: turn headers a model wrote on after its call", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # The next turn written out (a transcript goes on), or a header with no turn token before it: text.
        (
            '<tool_call>{"name": "f", "arguments": {}}</tool_call><|observation|>\n<|user|>\nAnd Rome?',
            "\n<|user|>\nAnd Rome?",
        ),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>\n<|user|>', "\n<|user|>"),
    ],
)
def test_a_role_header_not_ending_the_message_or_without_a_turn_token_stays_text(text: str, visible: str) -> None:
    result = parse_everywhere(text, ["f"])
    assert [c["name"] for c in result["calls"]] == ["f"]
    assert result["text"] == visible


def test_glms_tool_turn_header_in_prose_stays_text() -> None:
    text = "GLM stops at <|observation|> and waits for the tool."
    check(Real("written", text, [], visible=text, tools=["f"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('</think><tool_call>{"name": "f", "arguments": {}}</tool_call>', ""),
        ('\n</think>\n\n<tool_call>{"name": "f", "arguments": {}}</tool_call>', ""),
        ('Plan made.</think>Calling now. {"name": "f", "arguments": {}}', "Plan made.Calling now."),
    ],
)
def test_an_orphan_reasoning_closer_is_markup(text: str, visible: str) -> None:
    check(Real("written: a template opened <think> in the prompt", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Use </think> to close the thought block.",  # olmlx's parser tests
        "Write </thinking> when done, then answer.",
    ],
)
def test_an_orphan_reasoning_closer_named_in_a_sentence_that_goes_on_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["f"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("Reasoned.</think> The answer is 4.", "Reasoned. The answer is 4."),
        ("done </think>\nanswer", "done answer"),
        ("done </think>", "done"),
    ],
)
def test_an_orphan_reasoning_closer_before_a_new_sentence_or_line_is_still_markup(text: str, visible: str) -> None:
    check(Real("written", text, [], visible=visible, tools=["f"]))


@pytest.mark.parametrize(
    "text",
    [
        "Use <s>strike</s> for deleted text.",
        "Type <|im_end|> to end a turn.",
        "Llama 4 ends with <|eot|>.",
        "The reply begins <start_function_response> and then the result.",
        "Gemma ends a sequence with <eos> and a turn with <end_of_turn>.",
    ],
)
def test_a_turn_token_in_prose_with_no_call_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text))
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('<|tool_call|>[{"name": "f", "arguments": {}}]<|/tool_call|>', ""),  # Phi's <|tool|>…<|/tool|> style
        ('{"name": "f", "arguments": {}}\n<|/function|> done', "done"),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|tool_calls_end|><|im_end|>', ""),
        # a closer named `end_` first: Hermes 2 Theta (a Llama 3 model on ChatML) closed its call with Llama 3's header
        # closer, then wrote on (BFCL's 2024-08-11 results); Granite's role closer
        (
            'Sum:\n<|im_start|>\n{"arguments": {}, "name": "f"}\n<|end_header_id|>\n\nThe result is 5.',
            "Sum: The result is 5.",
        ),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call><|end_of_role|>', ""),
    ],
)
def test_a_closing_special_token_after_a_call_is_markup(text: str, visible: str) -> None:
    check(Real("written: a closer of the model's own vocabulary", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Close the block with <|/tool_call|> after the list.",  # named in prose, no call before it
        "The template ends with `<|tool_calls_end|>`.",
        "Llama 3 closes a role header with <|end_header_id|> before the message.",
    ],
)
def test_a_closing_special_token_without_a_call_before_it_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["f"]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("I can't do that, but happy to help otherwise.<|eot_id|>", "I can't do that, but happy to help otherwise."),
        ("Done.<|im_end|>\n", "Done."),
        # two messages: shown a line apart (the header is the raw of that line break)
        ("Let's use the tool.<|end|><|start|>assistant<|message|>Sure.<|end|>", "Let's use the tool.\nSure."),
        ("<|/tool_call|><|assistant|>I will call it now.", "I will call it now."),
        # the next turn's header after it, ending the message: the model wrote on past its stop (GLM, Phi)
        ("It is 20 degrees.<|eot_id|>\n<|user|>", "It is 20 degrees."),
        ("Done.<|im_end|>\n\n<|observation|>\n", "Done."),
    ],
)
def test_a_turn_token_ending_the_message_or_before_another_token_is_markup(text: str, visible: str) -> None:
    check(
        Real("written: the model's end of turn after plain text (HF groq 8b, harmony, Phi-4-mini)", text, [], visible)
    )


@pytest.mark.parametrize(
    "text",
    [
        "Write <|eot_id|> at the end of each turn.",
        "End with <|end|>, then <b>bold</b>.",
        "Each turn ends with <|eot_id|>\n<|user|> and the user's words.",
    ],
)
def test_a_turn_token_followed_by_prose_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["f"]))
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # vllm-mlx's Llama tests: calls after <|python_tag|> separated by `; ` as in the bare form
        '<|python_tag|>{"name": "f", "parameters": {}}; {"name": "f", "parameters": {}}',
        '<|python_tag|>{"name": "f", "parameters": {}};{"name": "f", "parameters": {}}<|eom_id|>',
        '<tool_call>{"name": "f", "arguments": {}}; {"name": "f", "arguments": {}}</tool_call>',
    ],
)
def test_calls_separated_by_a_semicolon_inside_a_call_block_are_each_a_call(text: str) -> None:
    check(Real("written: the Llama 3 separator inside a block", text, [("f", {}), ("f", {})]))


def test_a_semicolon_after_a_tagged_call_that_no_call_follows_stays_text() -> None:
    text = '<|python_tag|>{"name": "f", "parameters": {}}; done'
    check(Real("written", text, [("f", {})], visible="; done"))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # The model's own turn header printed before its answer (its template's generation prompt).
        ('<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n<|im_end|>', ""),
        ('<|im_start|>assistant\nSure.\n<tool_call>{"name": "f", "arguments": {}}</tool_call>', "Sure."),
        ('<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "f", "parameters": {}}<|eot_id|>', ""),
        ('<start_of_turn>model\n<tool_call>{"name": "f", "arguments": {}}</tool_call><end_of_turn>', ""),
        # A turn's opener with its role left out, right before a JSON call (mcp-client-for-ollama's tests).
        ('<|im_start|>{"name": "f", "arguments": {}}<|im_end|>', ""),
        ('<|im_start|>\n[{"name": "f", "arguments": {}}]\n<|im_end|>', ""),
        ('<start_of_turn>{"name": "f", "parameters": {}}<end_of_turn>', ""),
        # LLxprt Code's closer, the words of LM Studio's in the other order.
        ('Here:\n[TOOL_REQUEST]\n{"name": "f", "arguments": {}}\n[TOOL_REQUEST_END]', "Here:"),
    ],
)
def test_the_models_own_turn_header_and_a_closer_in_either_word_order_are_markup(text: str, visible: str) -> None:
    check(Real("written: own turn headers, LLxprt's closer", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!",
        "The assistant turn starts with <|im_start|>assistant and a line break.",
        "Close a request with [TOOL_REQUEST_END] and go on.",
        "A role-less <|im_start|> before prose stays as written.",
        "<|im_start|>{not json} and more",
    ],
)
def test_an_assistant_header_after_another_roles_turn_or_inside_a_line_stays_text(text: str) -> None:
    check(Real("written: headers in a transcript or named in prose", text, [], visible=text, tools=["f"]))


SHELL = {"name": "shell", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
IPY = {"name": "ipython", "inputSchema": {"type": "object", "properties": {"code": {"type": "string"}}}}


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # A tag of no call family around a list of calls, or several calls in a row: its tags are markup.
        ('<tools>[{"name": "shell", "arguments": {"command": "ls"}}]</tools>', [("shell", {"command": "ls"})], ""),
        (
            '<tools>\n{"name": "shell", "arguments": {"command": "ls"}}\n{"name": "ipython", "arguments": {"code": "1"}}\n'
            "</tools>",
            [("shell", {"command": "ls"}), ("ipython", {"code": "1"})],
            "",
        ),
        (
            '<tools>{"name": "shell", "arguments": {"command": "ls"}}, {"name": "ipython", "arguments": {"code": "1"}}'
            "</tools>",
            [("shell", {"command": "ls"}), ("ipython", {"code": "1"})],
            "",
        ),
        # gptme's <tool-use> around tools' own tags, one or several.
        ("<tool-use>\n<shell>\necho hi\n</shell>\n</tool-use>", [("shell", {"command": "echo hi"})], ""),
        (
            "Running:\n<tool-use>\n<shell>ls</shell>\n<ipython>print(1)</ipython>\n</tool-use>Done.",
            [("shell", {"command": "ls"}), ("ipython", {"code": "print(1)"})],
            "Running: Done.",
        ),
        # Text after the calls, before the closer: the tag was no wrapper of the calls, its opener and closer are text.
        (
            '<tools>\n{"name": "shell", "arguments": {"command": "ls"}}\n{"name": "shell", "arguments": {"command": "pwd"}}'
            "\nThat is all.</tools>",
            [("shell", {"command": "ls"}), ("shell", {"command": "pwd"})],
            "<tools> That is all.</tools>",
        ),
    ],
)
def test_a_wrapper_around_several_calls_is_markup(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    check(
        Real("written: <tools> (Qwen2.5-Coder), <tool-use> (gptme)", text, calls, visible=visible, tools=[SHELL, IPY])
    )


@pytest.mark.parametrize(
    "text",
    [
        # StableLM 2 1.6B (fireworks function-calling eval logs): the Hermes prompt's `</tools>` after the calls
        "<tool_call>\n{'name': 'f', 'arguments': {}}\n</tool_call>\n</tools>\n<|endoftext|>",
        '<tool_call>{"name": "f", "arguments": {}}</tool_call></tools>',
        '<tool_call>{"name": "f", "arguments": {}}\n</functions>\n',
        '<function_call>{"name": "f", "arguments": {}}</function_call>\n</available_tools><|im_end|>',
        '[TOOL_CALLS][{"name": "f", "arguments": {}}][/AVAILABLE_TOOLS]',
    ],
)
def test_the_prompts_tool_list_closer_ending_the_output_after_a_call_is_markup(text: str) -> None:
    check(Real("written: the prompt's tool-list closer printed after the calls", text, [("f", {})]))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            '<tool_call>{"name": "f", "arguments": {}}</tool_call>\n</tools> closes the list.',
            "</tools> closes the list.",
        ),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call></tools>\nDone.', "</tools> Done."),
    ],
)
def test_a_tool_list_closer_followed_by_text_stays_text(text: str, visible: str) -> None:
    check(Real("written: the closer named in prose after a call", text, [("f", {})], visible=visible))


@pytest.mark.parametrize("text", ["Close the list with </tools>", "</tools>\n", "</functions><|im_end|>"])
def test_a_tool_list_closer_without_a_call_stays_text(text: str) -> None:
    result = check(Real("written: no call before the closer", text, [], visible=text), visible=False)
    assert "</" in result["text"]


_F = '{"name": "f", "arguments": {"x": 1}}'
_G = '{"name": "g", "arguments": {}}'


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Hermes 2 Theta (a Llama 3 model on ChatML, BFCL's raw results) writes its turn opener where <tool_call>
        # belongs: a bare opener after a call is markup, before the next call or before prose.
        (f"<|im_start|>\n{_F}\n<|im_start|>\n{_G}\n<|im_start|>\nThe calls above.", ["f", "g"], "The calls above."),
        (f"{_F}\n<|im_start|>\nDone.", ["f"], "Done."),
        (f"{_F}<|im_start|><|im_start|>\n{_G}", ["f", "g"], ""),
        (f"{_F}\n<start_of_turn>\n{_G}", ["f", "g"], ""),
        # The turn re-opened under the model's own role, the same call again: a runaway loop, one call.
        (
            f"{_F}\n<|im_start|><|im_start|>assistant<|end_header_id|><|im_start|>\n{_F}\n<|im_start|>assistant\n{_F}",
            ["f"],
            "",
        ),
        (f"{_F}\n<|start_header_id|>assistant<|end_header_id|>\n\n{_F}", ["f"], ""),
        (f"{_F}\n<|im_start|>assistant\n{_F}\n<|im_start|>assistant\n{_F}\nDone.", ["f"], "Done."),
        # Re-opened, but another call (or the same tool with other arguments): a call of its own.
        (f"{_F}\n<|im_start|>assistant\n{_G}", ["f", "g"], ""),
        (f'{_F}\n<|im_start|>assistant\n{{"name": "f", "arguments": {{"x": 2}}}}', ["f", "f"], ""),
        # Not re-opened: the same call twice in a row stays two calls (the model may mean it twice).
        (f"<tool_call>{_F}</tool_call>\n<tool_call>{_F}</tool_call>", ["f", "f"], ""),
    ],
)
def test_the_models_turn_opened_again_after_a_call_is_markup_and_its_repeated_call_one_call(
    text: str, calls: list[str], visible: str
) -> None:
    tools = [tool("f", x="integer"), tool("g")]
    got = parse_everywhere(text, tools)
    assert [c["name"] for c in got["calls"]] == calls
    assert " ".join(got["text"].split()) == visible
    assert not got["errors"]


@pytest.mark.parametrize(
    "text",
    [
        # Another role's header after a call: a transcript follows, its tokens stay text.
        f"{_F}\n<|im_start|>user\nAnd now?",
        # A bare opener in prose with no call before it stays as written.
        "Write <|im_start|> then the role.",
    ],
)
def test_another_roles_turn_or_an_opener_in_prose_stays_text(text: str) -> None:
    got = parse_everywhere(text, [tool("f", x="integer")])
    assert "<|im_start|>" in got["text"]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # LM Studio's markers with their underscores left out (ERNIE 4.5 on LM Studio, workunit-benchmarks).
        ('[TOOLREQUEST]{"name": "f", "arguments": {}}\n[ENDTOOLREQUEST]', ""),
        ('Saving.\n[TOOLREQUEST]\n{"name": "f", "arguments": {}}\n[END_TOOL_REQUEST]', "Saving."),
        ('[TOOL_REQUEST]{"name": "f", "arguments": {}}[TOOLREQUESTEND]', ""),
        ('[TOOLREQUEST]{"name": "f", "arguments": {}}[ENDTOOL_REQUEST]', ""),
    ],
)
def test_lm_studios_markers_without_their_underscores_are_still_its_markers(text: str, visible: str) -> None:
    check(Real("written: LM Studio's markers as words", text, [("f", {})], visible=visible))


@pytest.mark.parametrize(
    "text", ["Close with [ENDTOOLREQUEST] after the JSON.", "A [TOOLREQUEST] marker opens the block, then JSON."]
)
def test_lm_studios_markers_without_underscores_named_in_prose_stay_text(text: str) -> None:
    check(Real("written: markers named in prose", text, [], visible=text, tools=["f"]))


@pytest.mark.parametrize(
    "text",
    [
        # A message opening with Llama 3's separator right before its calls (Lemonade #1562: llama.cpp's error
        # quoting the output from the second call on): the separator is markup, as between calls.
        '; {"name": "f", "parameters": {}}; {"name": "f", "parameters": {}}',
        ';{"name": "f", "parameters": {}}\n',
        '  ;  {"name": "f", "parameters": {}}; {"name": "f", "parameters": {}}<|eot_id|>',
    ],
)
def test_llama_3s_separator_opening_the_message_before_a_call_is_markup(text: str) -> None:
    calls: list[tuple[str, dict[str, object]]] = [("f", {})] * text.count('"name"')
    check(Real("written: a tail from the second call on", text, calls, tools=["f"]))


@pytest.mark.parametrize(
    "text", ["; then it stops.", 'Note; {"name": "f", "parameters": {}} is a call.', "; {not json}"]
)
def test_a_semicolon_that_does_not_open_the_message_before_a_call_stays_text(text: str) -> None:
    result = parse_everywhere(text, ["f"])
    assert ";" in result["text"]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        # Gemma 3 1B under mlx-lm with no stop token (quantized-slm-function-calling): a run of its end-of-turn token,
        # right against each other, with stray text between them once the turn is over.
        ("Done.<end_of_turn><end_of_turn>", [], "Done."),
        ("Done.<end_of_turn><end_of_turn><end_of_turn>\n<end_of_turn>", [], "Done."),
        (
            "It rains.<end_of_turn>\n<end_of_turn>restrial\n<end_of_turn><end_of_turn>.<end_of_turn>",
            [],
            "It rains. restrial .",
        ),
        (
            "```tool_code\nf(x=1)\n```<end_of_turn><end_of_turn>\n<end_of_turn>^(x)\n<end_of_turn> Arun ^",
            ["f"],
            "^(x) Arun ^",
        ),
        # Another family's end-of-turn token, the same way.
        ("Fine.<|eot_id|><|eot_id|>\nstray<|eot_id|>", [], "Fine. stray"),
        ("Fine.</s></s> tail </s>", [], "Fine. tail"),
        ("Hecho.<|im_end|>\n<|im_end|>otra<|im_end|>", [], "Hecho. otra"),
        # A block's opener right against the token: the turn's structure.
        ('<end_of_turn><tool_call>{"name": "f", "arguments": {"x": 2}}</tool_call>', ["f"], ""),
    ],
)
def test_every_token_of_a_run_of_end_of_turn_tokens_is_markup(text: str, calls: list[str], visible: str) -> None:
    got = parse_everywhere(text, [tool("f", x="integer")])
    assert [c["name"] for c in got["calls"]] == calls
    assert " ".join(got["text"].split()) == visible
    assert not got["errors"]


@pytest.mark.parametrize(
    "text",
    [
        # Named in prose, never markup before: each one is followed by words, so it stays text.
        "Gemma ends a turn with <end_of_turn> and the next turn starts with <start_of_turn>.",
        "Type <end_of_turn> once; a second <end_of_turn> is not special here.",
        "`<end_of_turn>` then `<end_of_turn>` in a code span.",
        "Write <|eot_id|> at the end, then <|eot_id|> again for the next turn.",
        # A quoted conversation: its tokens are quoted too.
        "<start_of_turn>user\nHi<end_of_turn>\n<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn> there",
    ],
)
def test_end_of_turn_tokens_named_in_prose_stay_text(text: str) -> None:
    got = parse_everywhere(text, [tool("f", x="integer")])
    assert got["text"] == text
    assert not got["calls"] and not got["errors"]
