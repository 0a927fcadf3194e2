"""Think blocks (`shim.parsing.readers.reasoning`): a call drafted inside a closed block is reasoning when a call
follows the block, and the model's call when none does; a call that opens inside a block the model never closed
is the model's own; each at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"
LMDEPLOY = (
    "InternLM/lmdeploy:tests/test_lmdeploy/serve/parsers/test_glm47_parser.py@1263d5cd889b7ad500e85b8eb20401327a4516ab"
)

CASES = [
    Real(  # the call opener ends a think block that was never closed (GLM-4.7)
        LMDEPLOY,
        "<think>first reason<tool_call>get_weather<arg_key>location</arg_key><arg_value>Beijing</arg_value></tool_call>",
        [("get_weather", {"location": "Beijing"})],
        reasoning="first reason",
    ),
    Real(  # Kimi: two calls inside an unclosed think, without section or end markers
        LLAMA_CPP,
        "<think>I need to call two functions<|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": 1}<|tool_call_begin|>functions.python:1<|tool_call_argument_begin|>{"code": "print(\'hey\')"}',
        [("special_function", {"arg1": 1}), ("python", {"code": "print('hey')"})],
        reasoning="I need to call two functions",
    ),
    Real(  # LFM2.5: a call marker inside a closed think is a draft; the one after it is the call
        LLAMA_CPP,
        "<think>Let me think about <|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|> hmm</think>"
        "<|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|>",
        [("special_function", {"arg1": 1})],
        reasoning="Let me think about <|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|> hmm",
    ),
    Real(  # variant: a drafted call in a closed think, then an answer that writes it again
        "written",
        '<think>maybe <tool_call>{"name": "f", "arguments": {}}</tool_call>? yes.</think>Sure. '
        '<tool_call>{"name": "f", "arguments": {}}</tool_call>',
        [("f", {})],
        visible="Sure.",
        tools=["f"],
        reasoning='maybe <tool_call>{"name": "f", "arguments": {}}</tool_call>? yes.',
    ),
    Real(  # variant: the template opened the block; the model calls without closing it
        "written: a template that opens <think> in the prompt",
        'Let me check.\n\n<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>',
        [("f", {"x": 1})],
        in_reasoning=True,
        reasoning="Let me check.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_a_call_in_a_think_block_is_reasoning_only_if_the_block_closes(case: Real) -> None:
    check(case)


VLLM_MLX = "waybarrios/vllm-mlx:tests (qwen3 reasoning parser), benchmarks/real/qwen3_coder/b6_vllmmlx_qwen3_*"
QWEN = "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>"
TIME = '<tool_call>{"name": "get_time", "arguments": {"tz": "JST"}}</tool_call>'

PROMOTED = [
    Real(
        VLLM_MLX,
        f"<think>I should check.\n{QWEN}\n</think>\n",
        [("get_weather", {"city": "Tokyo"})],
        reasoning="I should check.",
    ),
    Real(
        VLLM_MLX,
        f"<think>Let me check.\n{QWEN}\n</think>\nHere is my answer.",
        [("get_weather", {"city": "Tokyo"})],
        visible="Here is my answer.",
        reasoning="Let me check.",
    ),
    Real(
        VLLM_MLX,
        f"<think>Two lookups.\n{QWEN}\nNow the second.\n{TIME}\n</think>",
        [("get_weather", {"city": "Tokyo"}), ("get_time", {"tz": "JST"})],
        reasoning="Two lookups. Now the second.",
    ),
    Real(  # Kimi K2 in llxprt issue 749: its section in the reasoning, the tokens spaced, the name under `functions.`
        "benchmarks/real/kimi_k2/b8_llxprt_749_kimi_k2_thinking_call_inside_think",
        "<think>Let me look. <|tool_calls_section_begin|> <|tool_call_begin|> functions.get_time:0 "
        '<|tool_call_argument_begin|> {"tz": "JST"} <|tool_call_end|> <|tool_calls_section_end|></think>',
        [("get_time", {"tz": "JST"})],
        reasoning="Let me look.",
    ),
    Real(
        "written",
        "<think>plan<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Tokyo"}<|tool_call_end|></think>\nOn it.',
        [("get_weather", {"city": "Tokyo"})],
        visible="On it.",
        reasoning="plan",
    ),
    Real(  # another family and reasoning tag
        "written",
        '<thinking>ok <|tool_call>call:get_time{tz:<|"|>UTC<|"|>}<tool_call|></thinking>Done.',
        [("get_time", {"tz": "UTC"})],
        visible="Done.",
        reasoning="ok",
    ),
]


@pytest.mark.parametrize("case", PROMOTED, ids=lambda c: c.text[:40])
def test_closed_calls_in_a_think_block_with_no_call_after_it_are_the_calls(case: Real) -> None:
    check(Real(case.source, case.text, case.calls, case.visible, ["get_weather", "get_time"], reasoning=case.reasoning))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # a call after the block: the ones inside were drafts
        (f"<think>draft {QWEN}</think>\nNow for real.\n{TIME}", "Now for real."),
        (f"<think>draft {TIME}</think>{TIME}", ""),
        # the marker only named, never closed: reasoning
        ("<think>I should use <tool_call> to call it.</think>\nThe answer is 42.", "The answer is 42."),
    ],
)
def test_calls_in_a_think_block_followed_by_a_call_or_only_named_stay_reasoning(text: str, visible: str) -> None:
    result = check(
        Real(
            "written",
            text,
            [("get_time", {"tz": "JST"})] if TIME in text.split("</think>")[-1] else [],
            visible,
            ["get_weather", "get_time"],
        )
    )
    assert "</think>" not in result["text"]


def test_a_call_opener_far_past_the_block_does_not_make_its_calls_drafts() -> None:
    from shim.parsing.readers.reasoning import AFTER_LIMIT

    text = f"<think>plan {QWEN}</think>" + "x" * AFTER_LIMIT + TIME
    result = check(
        Real("written", text, [("get_time", {"tz": "JST"})], "x" * AFTER_LIMIT, ["get_weather", "get_time"]),
        every_split=False,
    )
    assert "get_weather" in result["reasoning"]


@pytest.mark.parametrize(
    "text",
    [
        # the tool's name only under another namespace: os.get_weather is not the offered tool
        f"<think>I could call os.get_weather() {TIME.replace('get_time', 'lookup')}</think>No need.",
        "<think>Call functions.get_weather:0 later, with no call block.</think>No need.",
    ],
)
def test_a_tool_named_under_another_namespace_or_without_a_closed_call_keeps_the_block_reasoning(text: str) -> None:
    result = check(Real("written", text, [], visible="No need.", tools=["get_weather"]), visible=False)
    assert result["calls"] == [] and "No need." in result["text"]


@pytest.mark.parametrize("tools", [None, ["get_time"]])
def test_a_closed_call_in_a_think_block_naming_no_offered_tool_stays_reasoning(tools: list[str] | None) -> None:
    text = f"<think>I could call {QWEN}</think>No need."
    result = check(Real("written", text, [], visible="No need.", tools=tools))
    assert "get_weather" in result["reasoning"]


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        (
            '<thought>The user wants Paris.</thought><tool_call>{"name": "get_time", "arguments": {"tz": "CET"}}</tool_call>',
            "",
        ),
        ("<thought>\nThe user wants Paris.\n</thought>\nIt is noon.", "It is noon."),
    ],
)
def test_a_thought_block_is_reasoning(text: str, visible: str) -> None:
    calls = [("get_time", {"tz": "CET"})] if "tool_call" in text else []
    check(
        Real(
            "written: a harness asks for a <thought> block",
            text,
            calls,
            visible=visible,
            reasoning="The user wants Paris.",
            tools=["get_time"],
        )
    )


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        ("[THINK]Let me reason about this.[/THINK]The answer is 42.", "The answer is 42.", "Let me reason about this."),
        ("[think]lower case[/think]\nAnswer.", "Answer.", "lower case"),
        ("[THINK][/THINK]The answer.", "The answer.", ""),
        ("[THINK]A[/THINK]Hello [THINK]B[/THINK]World", "Hello World", "AB"),
        (
            '[THINK]Need the time.[/THINK][TOOL_CALLS]get_time[ARGS]{"tz": "CET"}',
            "",
            "Need the time.",
        ),
        ("<reflection>Reviewing my approach.</reflection>Confirmed.", "Confirmed.", "Reviewing my approach."),
        (
            '<tool_call_reasoning>Need the time.</tool_call_reasoning><tool_call>{"name": "get_time", "arguments": '
            '{"tz": "CET"}}</tool_call>',
            "",
            "Need the time.",
        ),
        ("<internal_thinking>\nHmm.\n</internal_thinking>\nIt is noon.", "It is noon.", "Hmm."),
        ("<thinking>Plan.<reflection>Check it.</reflection></thinking><output>Done.</output>", None, None),
    ],
)
def test_magistral_bracket_think_reflection_and_named_reasoning_blocks_are_reasoning(
    text: str, visible: str | None, reasoning: str | None
) -> None:
    calls = [("get_time", {"tz": "CET"})] if "get_time" in text else []
    result = check(
        Real(
            "written: Magistral [THINK], Reflection-70B, qMLX's <tool_call_reasoning>",
            text,
            calls,
            visible=visible or "",
            reasoning=reasoning,
        ),
        visible=visible is not None,
    )
    if visible is None:  # a reflection nested in a thinking block is that block's reasoning
        assert "Check it." in result["reasoning"] and "Check it." not in result["text"]


@pytest.mark.parametrize("text", ["Use `[THINK]` to open a thought.", "Wrap it in `<reflection>` tags."])
def test_a_reasoning_token_named_in_inline_code_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text))


ANSWER_TOOLS = [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


@pytest.mark.parametrize(
    ("text", "calls", "visible", "reasoning"),
    [
        # UI-TARS (benchmarks/real/think_answer_no_call): the reply in <answer> after the think block.
        ("<think>Simple sum.</think>\n<answer>\nIt is 2.\n</answer>", [], "It is 2.", "Simple sum."),
        ("<answer>It is 2.</answer>", [], "It is 2.", None),
        ("<think>t</think><answer>It is 2.</answer>\n", [], "It is 2.", "t"),
        # Hunyuan: a call inside the answer; its wrapper is markup too.
        (
            '<think>t</think>\n<answer>\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n</answer>',
            [("get_weather", {"city": "Oslo"})],
            "",
            "t",
        ),
    ],
)
def test_an_answer_wrapper_opening_and_ending_the_message_is_markup(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str, reasoning: str | None
) -> None:
    check(Real("variant", text, calls, tools=ANSWER_TOOLS, visible=visible, reasoning=reasoning))


@pytest.mark.parametrize(
    "text",
    [
        "Wrap it in <answer> tags: <answer>x</answer> like that.",  # named inside the message
        "The tag </answer>\nends it.",  # a closer with text after it
        "<answers>plural</answers>",
    ],
)
def test_answer_tags_named_in_prose_stay_text(text: str) -> None:
    check(Real("variant", text, [], tools=ANSWER_TOOLS, visible=text))


@pytest.mark.parametrize("tag", ["thinkt", "think_never_used", "think_fast", "seed:think_never_used"])
def test_a_think_tag_with_a_letter_or_words_after_the_word_is_reasoning(tag: str) -> None:
    text = f'<{tag}>The user wants Paris.</{tag}><tool_call>{{"name": "get_time", "arguments": {{"tz": "CET"}}}}</tool_call>'
    check(
        Real(
            "written: UI-TARS on Seed",
            text,
            [("get_time", {"tz": "CET"})],
            visible="",
            reasoning="The user wants Paris.",
            tools=["get_time"],
        )
    )


@pytest.mark.parametrize("text", ["<thinker>a</thinker>", "<thinks>a</thinks>", "<think_>a</think_>"])
def test_a_tag_that_only_begins_with_think_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_time"]))


MINIMAX = '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Tokyo</parameter></invoke></minimax:tool_call>'


@pytest.mark.parametrize(
    "text",
    [
        # Ollama's MiniMax-M2 parser test: the call weighed in the reasoning, nothing after the block
        f"<think>Maybe I should call {MINIMAX}</think>",
        f"<think>Perhaps I could use the tool:\n{QWEN}\n</think>\n",
        f"<think>Should I call it? Let me decide whether to call {TIME}</think>",
        f"<think>I might write {TIME} but the answer is known.</think>",
    ],
)
def test_a_closed_call_the_reasoning_only_weighs_stays_reasoning(text: str) -> None:
    result = check(Real("written", text, [], tools=["get_weather", "get_time"]))
    assert "get_" in result["reasoning"]


@pytest.mark.parametrize(
    "text",
    [
        # a hedge in an earlier sentence does not weigh the call the next sentence makes
        f"<think>Maybe it rains. I will check.\n{MINIMAX}</think>",
        f"<think>Could be anything; let me look.\n{QWEN}\n</think>",
    ],
)
def test_a_hedge_in_an_earlier_sentence_leaves_the_call_in_the_reasoning_a_call(text: str) -> None:
    calls = [("get_weather", {"city": "Tokyo"})]
    check(Real("written", text, calls, tools=["get_weather", "get_time"]), visible=False)


@pytest.mark.parametrize(
    ("text", "calls", "visible", "reasoning"),
    [
        # Ollama's Apertus test: the tools block while the inner block is still open
        (
            '<|inner_prefix|>Need weather.<|tools_prefix|>[{"get_weather": {"city": "Bern"}}]<|tools_suffix|>',
            [("get_weather", {"city": "Bern"})],
            "",
            "Need weather.",
        ),
        # variant: the block closed, then the answer
        ("<|inner_prefix|>Easy one.<|inner_suffix|>It is 4.", [], "It is 4.", "Easy one."),
        # variant: the tokens named for thinking
        ("<|think_prefix|>Hmm.<|think_suffix|>\nDone.", [], "Done.", "Hmm."),
    ],
)
def test_an_inner_prefix_block_is_reasoning(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str, reasoning: str
) -> None:
    check(
        Real("ollama/ollama:model/parsers/apertus_test.go", text, calls, visible, ["get_weather"], reasoning=reasoning)
    )


def test_an_inner_prefix_token_named_in_inline_code_stays_text() -> None:
    text = "Apertus opens its monologue with `<|inner_prefix|>` and closes it."
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


APRIEL = "written: Apriel 1.5 / 1.6, whose generation prompt ends with 'Here are my reasoning steps:\\n'"

FINAL_RESPONSE_MARKER = [
    Real(  # the llama.cpp case: reasoning, the marker, then Apriel's <tool_calls> list
        LLAMA_CPP,
        "I'm\nthinking\n[BEGIN FINAL RESPONSE]\n"
        '<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}]</tool_calls>',
        [("special_function", {"arg1": 1})],
        in_reasoning=True,
        reasoning="I'm thinking",
    ),
    Real(  # variant: a plain answer after the marker
        APRIEL,
        "1. The user greets me.\n2. Answer in French.\n[BEGIN FINAL RESPONSE]\nBonjour !\n",
        [],
        visible="Bonjour !",
        in_reasoning=True,
        reasoning="1. The user greets me. 2. Answer in French.",
    ),
    Real(  # variant: two calls after the marker, no line break around it
        APRIEL,
        "Need the weather in two cities.[BEGIN FINAL RESPONSE]<tool_calls>["
        '{"name": "get_weather", "arguments": {"city": "Oslo"}}, '
        '{"name": "get_weather", "arguments": {"city": "Lima"}}]</tool_calls>',
        [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Lima"})],
        in_reasoning=True,
        reasoning="Need the weather in two cities.",
    ),
    Real(  # not told the output starts inside reasoning: the text stays text, the bare marker is markup
        APRIEL,
        "Plan: look it up.\n[BEGIN FINAL RESPONSE]\nIt is sunny.",
        [],
        visible="Plan: look it up. It is sunny.",
        reasoning="",
    ),
    Real(  # prose naming the marker in a sentence that goes on stays text
        "written",
        "Apriel writes [BEGIN FINAL RESPONSE] before its answer.",
        [],
        visible="Apriel writes [BEGIN FINAL RESPONSE] before its answer.",
        reasoning="",
    ),
    Real(  # in reasoning, another family's closer still ends it (any reasoning row's closer does)
        "written",
        "Thinking about it.</think>Done.",
        [],
        visible="Done.",
        in_reasoning=True,
        reasoning="Thinking about it.",
    ),
]


@pytest.mark.parametrize("case", FINAL_RESPONSE_MARKER, ids=lambda c: c.text[:40])
def test_a_final_response_marker_closes_reasoning_the_template_opened(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    ("text", "calls", "visible", "reasoning", "in_reasoning"),
    [
        # ERNIE 4.5's thinking template (benchmarks/real/hermes/b_transformers_ernie_response_tags_no_call).
        (
            "Greet back.\n</think>\n\n<response>\nHello! How are you?\n</response>\n</s>",
            [],
            "Hello! How are you?",
            "Greet back.",
            True,
        ),
        ("<think>t</think>\n<response>Il fait beau.</response>", [], "Il fait beau.", "t", False),
        # The role's name as a tag, then a call (OpenOrca's parser tests).
        (
            '<assistant>Let me look.</assistant>\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>',
            [("get_weather", {"city": "Oslo"})],
            "Let me look.",
            None,
            False,
        ),
        ("<assistant>\n  Sure thing.\n</assistant>", [], "Sure thing.", None, False),
        # Seed's special token opening the reply; its `</answer>` ends it.
        ("<|FCResponseBegin|>Oslo: 4 °C, rain.</answer>", [], "Oslo: 4 °C, rain.", None, False),
        ("<|ResponseStart|>明天有雨。", [], "明天有雨。", None, False),
    ],
)
def test_a_reply_wrapper_of_another_word_or_token_is_markup(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str, reasoning: str | None, in_reasoning: bool
) -> None:
    check(
        Real(
            "variant", text, calls, tools=ANSWER_TOOLS, visible=visible, reasoning=reasoning, in_reasoning=in_reasoning
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "<response> is the root element of the reply.",  # named in a sentence that goes on
        "The reply goes on.\n\n<response>\nI recommend it.\n</response>",  # after prose: the text's own tag
        '<response>\n{\n  "message": "Goodbye!"\n}\n</response>',  # around a value that is no call
        "<response><status>ok</status></response>",  # an XML document
        "Write <assistant>…</assistant> around it.",
        "Say it between </response> and more.",
    ],
)
def test_reply_wrapper_tags_in_prose_stay_text(text: str) -> None:
    check(Real("variant", text, [], tools=ANSWER_TOOLS, visible=text))


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        # benchmarks/real/kimi_k3/b7_trtllm_kimik3_prose_only: Kimi K3's closer split anywhere
        (
            "hmm<|close|>think<|sep|><|open|>response<|sep|>Here is x = 1 < 2<|close|>response<|sep|>",
            "Here is x = 1 < 2",
            "hmm",
        ),
        ("Ich denke nach.</think>\nDie Antwort ist 4.", "Die Antwort ist 4.", "Ich denke nach."),
        ("plan: a < b</think>done", "done", "plan: a < b"),
    ],
)
def test_the_closer_of_reasoning_the_prompt_opened_is_read_at_every_split_point(
    text: str, visible: str, reasoning: str
) -> None:
    """A chunk ending inside the closer (``<|close|>th``) holds it back, even where a call opener might also begin
    there: the reasoning closes there whatever the chunking."""
    check(Real("written", text, [], visible, ["get_weather"], in_reasoning=True, reasoning=reasoning))


@pytest.mark.parametrize(
    ("text", "reasoning"),
    [
        # Kimi-VL-Thinking's triangle marks
        (
            '\u25c1think\u25b7I need the weather.\u25c1/think\u25b7\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>',
            "I need the weather.",
        ),
        # OpenThoughts' and Bespoke-Stratos' thought tokens
        (
            '<|begin_of_thought|>\nCheck Oslo.\n<|end_of_thought|>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}',
            "\nCheck Oslo.\n",
        ),
    ],
)
def test_other_models_reasoning_marks_hold_reasoning_before_a_call(text: str, reasoning: str) -> None:
    result = check(Real("written", text, [("get_weather", {"city": "Oslo"})], visible="", tools=["get_weather"]))
    assert result["reasoning"] == reasoning


def test_those_marks_named_in_inline_code_stay_text() -> None:
    text = "Kimi-VL writes `\u25c1think\u25b7` and `<|begin_of_thought|>` marks the same way."
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


AGENTIC = "dl-hall/AgenticAIExplainer:tests/test_tool_call_parsing.py@fc09b1ba (a Mistral-format reasoning model)"
MISTRAL_CALL = '[TOOL_CALLS]get_time[ARGS]{"tz": "JST"}'


@pytest.mark.parametrize(
    "case",
    [
        Real(
            AGENTIC,
            f"[THINK]I will use the tool.\n{MISTRAL_CALL}[/THINK]",
            [("get_time", {"tz": "JST"})],
            reasoning="I will use the tool.",
        ),
        Real(  # another reasoning tag; nested braces in the object; an answer after the block
            AGENTIC,
            '<thinking>Je regarde. [TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "opts": {"u": "c"}}\n</thinking>\nOK.',
            [("get_weather", {"city": "Paris", "opts": {"u": "c"}})],
            visible="OK.",
            reasoning="Je regarde.",
        ),
        Real(  # Mistral's list form
            AGENTIC,
            '<think>plan [TOOL_CALLS][{"name": "get_time", "arguments": {"tz": "UTC"}}]</think>',
            [("get_time", {"tz": "UTC"})],
            reasoning="plan",
        ),
    ],
    ids=lambda c: c.text[:30],
)
def test_a_call_of_a_family_without_closer_ending_the_think_block_is_the_call(case: Real) -> None:
    check(Real(case.source, case.text, case.calls, case.visible, ["get_weather", "get_time"], reasoning=case.reasoning))


@pytest.mark.parametrize(
    "text",
    [
        f"[THINK]draft {MISTRAL_CALL}[/THINK]{MISTRAL_CALL}",  # the real call after it: a draft
        f"[THINK]Maybe I could call {MISTRAL_CALL}[/THINK]",  # weighed, not made
        '[THINK]I will use [TOOL_CALLS]get_time[ARGS]{"tz": "JST" and then think more.[/THINK]',  # not one object
        '[THINK]Use [TOOL_CALLS]deploy[ARGS]{"env": 1}[/THINK]',  # no offered tool
    ],
)
def test_a_call_without_closer_in_a_think_block_that_is_a_draft_stays_reasoning(text: str) -> None:
    tools = ["get_weather", "get_time"]
    result = check(Real("written", text, [("get_time", {"tz": "JST"})] if text.endswith("}") else [], tools=tools))
    assert "[TOOL_CALLS]" in result["reasoning"] or "deploy" in result["reasoning"]
