"""Tool-name-first calls (`shim.parsing.readers.name_first`, Mistral without ``[ARGS]``), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"

CASES = [
    Real(LLAMA_CPP, 'special_function\n{"arg1": 1}', [("special_function", {"arg1": 1})]),  # Functionary v3.2
    Real(  # variant: the >>> recipient marker written out, after text
        "written: Functionary v3.2 recipients",
        'Let me look.\n>>>get_weather\n{"city": "Paris"}',
        [("get_weather", {"city": "Paris"})],
        visible="Let me look.",
    ),
    Real(  # variant: spaces and a blank line between the name and its arguments
        "written", 'get_weather  \n\n  {"city": "Lima", "unit": "c"}', [("get_weather", {"city": "Lima", "unit": "c"})]
    ),
    Real(  # Mistral without [ARGS]
        "written: [TOOL_CALLS]NAME{…}", '[TOOL_CALLS]get_weather{"city": "Rome"}', [("get_weather", {"city": "Rome"})]
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:30])
def test_a_call_written_name_first_is_read(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        'get_weather\nis the tool I would use: {"city": "Paris"}',  # no object right after the name
        'lookup\n{"city": "Paris"}',  # a name that was not offered
        '>>> d\n{"a": 1}',  # a Python REPL transcript
        'Use get_weather\n{"city": "Paris"}',  # not where the message begins
    ],
)
def test_a_name_and_an_object_that_are_no_call_stay_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text), visible=False)
    assert result["text"] == text


FUNCTIONARY = "MeetKai/functionary:tests/prompt_test_v3.llama3.txt@e240e8c54684718aa9357ccf9d59ff035a6ff351"
FUNCTIONARY_V25 = "MeetKai/functionary:tests/prompt_test_v2.llama3.txt@e240e8c54684718aa9357ccf9d59ff035a6ff351"
OFFERED = [tool("get_car_price", car_name="string"), tool("python", code="string")]
CODE = "l=[1, 2]\nl.remove(3.6)"


@pytest.mark.parametrize(
    "case",
    [
        Real(
            FUNCTIONARY,
            f">>>all\nI'll use code\n>>>python\n{CODE}",
            [("python", {"code": CODE})],
            "I'll use code",
            OFFERED,
        ),
        Real(  # variant: v2.5's marker, and the body ended by the turn's end token
            FUNCTIONARY_V25,
            f"I will fix it<|reserved_special_token_249|>python\n{CODE}<|eot_id|>",
            [("python", {"code": CODE})],
            "I will fix it",
            OFFERED,
        ),
        Real(  # variant: raw code, then a JSON call after the next marker
            "written",
            f'>>>python\n{CODE}\n>>>get_car_price\n{{"car_name": "Song"}}',
            [("python", {"code": CODE}), ("get_car_price", {"car_name": "Song"})],
            tools=OFFERED,
        ),
        Real(  # variant: Functionary v2's headers, the raw code up to the next header
            "MeetKai/functionary:tests/prompt_test_v2.txt@e240e8c54684718aa9357ccf9d59ff035a6ff351",
            f"<|from|>assistant\n<|recipient|>all\n<|content|>I'll use code\n<|from|>assistant\n"
            f"<|recipient|>python\n<|content|>{CODE}\n<|from|>assistant\n<|recipient|>get_car_price\n"
            '<|content|>{"car_name": "Song"}',
            [("python", {"code": CODE}), ("get_car_price", {"car_name": "Song"})],
            "I'll use code",
            OFFERED,
        ),
        Real(  # v2.5 JSON calls after its marker
            FUNCTIONARY_V25,
            'Compare<|reserved_special_token_249|>get_car_price\n{"car_name": "Song"}'
            '<|reserved_special_token_249|>get_car_price\n{"car_name": "Tang"}',
            [("get_car_price", {"car_name": "Song"}), ("get_car_price", {"car_name": "Tang"})],
            "Compare",
            OFFERED,
        ),
    ],
    ids=lambda c: c.text[:30],
)
def test_a_marked_name_then_raw_text_is_the_value_of_the_tools_one_string_parameter(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        f">>>get_weather\n{CODE}",  # not offered
        f">>>two\n{CODE}",  # an offered tool with two parameters: the raw text is no value of either
        f"Run it in python\n{CODE}",  # no marker, and the name is not alone on the message's first line
        f"<|recipient|>get_weather\n<|content|>{CODE}",  # not offered
        ">>> all\nis what a REPL prompt looks like",  # no tools offered: `>>>all` is not read as markup
    ],
)
def test_raw_text_after_a_name_that_cannot_take_it_stays_text(text: str) -> None:
    tools = None if "REPL" in text else [*OFFERED, tool("two", a="string", b="string")]
    result = check(Real("written", text, [], visible=text, tools=tools), visible=False)
    assert result["text"] == text


def test_the_recipient_all_is_markup_before_text_to_the_user() -> None:
    text = ">>>all\nThe final list is: 0,1,2,3,5"
    check(Real(FUNCTIONARY, text, [], visible="The final list is: 0,1,2,3,5", tools=OFFERED))


def test_a_functionary_v1_function_call_block_is_a_call() -> None:
    text = (
        'I need the price\n<|START_OF_FUNCTION_CALL|>get_car_price:\n{\n  "car_name": "Song"\n}<|END_OF_FUNCTION_CALL|>'
    )
    source = "MeetKai/functionary:tests/prompt_test_v1.txt@e240e8c54684718aa9357ccf9d59ff035a6ff351"
    check(Real(source, text, [("get_car_price", {"car_name": "Song"})], "I need the price", OFFERED))


def test_a_functionary_v1_token_without_an_object_stays_text() -> None:
    text = "The model writes <|START_OF_FUNCTION_CALL|>get_car_price: then its arguments."
    result = check(Real("written", text, [], visible=text, tools=OFFERED), visible=False)
    assert result["text"] == text


BASH = {
    "name": "bash",
    "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
}


@pytest.mark.parametrize(
    ("text", "command"),
    [
        # Qwen3.6 35B in vmlx#192: the tool's name alone on the first line, the command raw on the next
        ('bash\necho "Tool test successful!"', 'echo "Tool test successful!"'),
        ("bash\n\nls -la\npwd", "ls -la\npwd"),
        ("bash\ngit status<|im_end|>", "git status"),
    ],
)
def test_a_bare_name_then_a_raw_body_opening_the_message_is_the_tools_one_string(text: str, command: str) -> None:
    check(Real("written", text, [("bash", {"command": command})], tools=[BASH]))


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Bash\nis a shell.", [BASH]),  # not as offered (case)
        ("Run bash\necho hi", [BASH]),  # the name is not alone on its line
        ("Sure.\nbash\necho hi", [BASH]),  # not where the message begins
        (
            "get_weather\nParis",
            [
                {
                    "name": "get_weather",
                    "inputSchema": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                    },
                }
            ],
        ),  # two string parameters
    ],
)
def test_a_bare_name_line_without_that_evidence_stays_text(text: str, tools: list) -> None:
    check(Real("written", text, [], visible=text, tools=tools))


ONECAT = "https://github.com/1cat-ai/1cat-vllm/issues/26"  # benchmarks/real/call_marker_uri/a6_issue_1cat_vllm_26_…

LABELLED = [
    Real(
        ONECAT,
        '--- CALL --- nc://searxng_search {"query":"今日新闻","max_results":8}',
        [("searxng_search", {"query": "今日新闻", "max_results": 8})],
    ),
    Real(  # variant: another rule, after text, the arguments on the next line
        "written",
        'Searching.\n=== TOOL CALL === searxng_search\n{"query": "x"}',
        [("searxng_search", {"query": "x"})],
        visible="Searching.",
    ),
    Real("written", '[CALL] searxng_search {"query": "x"}', [("searxng_search", {"query": "x"})]),
    Real("written", '## Function call: mcp://searxng_search {"query": "x"}', [("searxng_search", {"query": "x"})]),
    Real(  # variant: no label, the arguments after a space where the message begins
        "written", 'searxng_search {"query": "x"}', [("searxng_search", {"query": "x"})]
    ),
]


@pytest.mark.parametrize("case", LABELLED, ids=lambda c: c.text[:30])
def test_a_call_label_or_the_message_start_then_a_name_and_its_arguments_on_one_line_is_a_call(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        '--- CALL --- weather_lookup {"q": 1}',  # a name that was not offered
        'Use searxng_search {"query": "x"} for that.',  # inside a sentence
        '- [ ] searxng_search {"query": "x"}',  # a task list item, no call label
        "--- CALL --- searxng_search is what I would run",  # no arguments object
    ],
)
def test_a_label_or_name_without_an_offered_call_after_it_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["searxng_search"]), visible=False)
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('I will read it.\nget_weather{"city": "Paris"}', "I will read it."),  # MLX-Server's tests
        ('I will read it.\n  get_weather {"city": "Paris"}\nDone.', "I will read it. Done."),
        ('get_weather{"city": "Paris"}', ""),  # glued, where the message begins
    ],
)
def test_an_offered_name_opening_a_line_with_its_json_object_on_it_is_a_call(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Paris"})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        "Note:\nget_weather{city} takes a city.",  # no JSON object
        'Note:\nlookup{"city": "Paris"}',  # not offered
        'Note: get_weather{"city": "Paris"} is how.',  # inside a line
        'Note:\nget_weather\n{"city": "Paris"}',  # the object on the next line after prose: no evidence
    ],
)
def test_a_name_line_after_prose_without_its_object_on_the_line_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=["get_weather"]), visible=False)
    assert result["text"] == text


BFCL_MISTRAL = (
    "aaronwu901225main/gorilla:berkeley-function-call-leaderboard/result/Mistral-Small-3.2-24B-Instruct-2506/"
    "non_live/BFCL_v4_parallel_multiple_result.json@631eeb0b3cb9cbc8d5acd236a2f69d955ea9aa06"
)
GLUED_TOOLS = [tool("search", q="string"), tool("get_time", tz="string")]


@pytest.mark.parametrize(
    "case",
    [
        Real(  # Mistral Small 3.2, control tokens skipped: calls run together, no separator
            BFCL_MISTRAL,
            'math_toolkit_sum_of_multiples{"lower_limit": 1}math_toolkit_product_of_primes{"count": 5}',
            [("math_toolkit_sum_of_multiples", {"lower_limit": 1}), ("math_toolkit_product_of_primes", {"count": 5})],
        ),
        Real(  # the same glued to prose's colon
            BFCL_MISTRAL,
            'Here is the code:physics_electric_field{"charge": 4}physics_magnetic_field{"current": 0.5}',
            [("physics_electric_field", {"charge": 4}), ("physics_magnetic_field", {"current": 0.5})],
            visible="Here is the code:",
        ),
        Real(  # variant: three calls, one with no arguments, a space between two
            "written: [TOOL_CALLS] and [ARGS] dropped",
            'Let me check:search{"q": "x"} get_time{}search{"q": "y"}',
            [("search", {"q": "x"}), ("get_time", {}), ("search", {"q": "y"})],
            visible="Let me check:",
            tools=GLUED_TOOLS,
        ),
        Real(  # variant: one call, no arguments
            "written: [TOOL_CALLS] dropped",
            "On it:get_time{}",
            [("get_time", {})],
            visible="On it:",
            tools=GLUED_TOOLS,
        ),
        Real(  # BFCL parallel_multiple_41: words that would present an example ("how you can") before the glue
            BFCL_MISTRAL,
            'Sure, here is how you can do it:painting_create{"shape": "square"}painting_display{"time": 30}',
            [("painting_create", {"shape": "square"}), ("painting_display", {"time": 30})],
            visible="Sure, here is how you can do it:",
        ),
        Real(  # variant: another presenting phrase, one call
            "written: [TOOL_CALLS] dropped",
            'Here is how one could do it:search{"q": "x"}',
            [("search", {"q": "x"})],
            visible="Here is how one could do it:",
            tools=GLUED_TOOLS,
        ),
    ],
    ids=lambda c: c.text[:30],
)
def test_calls_whose_control_tokens_were_dropped_run_together_and_are_each_read(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        'Done.search{"q": "x"}',  # a full stop: not read (it would hold back every full stop at a chunk's end)
        'See the docs:Search{"q": "x"}',  # not the offered name's case
        'Use tools.lookup{"q": "x"}',  # not an offered name
        'Call it:search("x")',  # no JSON object after the name
        "A note:search {q}",  # an object that is no JSON (`{"` or `{}`)
        'Here is how you can do it: search{"q": "x"}',  # presented, with a blank after the colon
        'Here is how you can do it:\nsearch{"q": "x"}',  # presented, on the next line
    ],
)
def test_a_name_glued_to_prose_without_its_object_stays_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text, tools=GLUED_TOOLS), visible=False)
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # gyro-claw's test: Kimi's call index after the name on its line, the JSON arguments on the next
        ('detect_ui:0\n{"image_path":"a.png","hint":"search"}', ""),
        # variants: another index, on the name's line, after prose on a line of its own
        ('detect_ui:12 {"image_path": "a.png", "hint": "search"}', ""),
        ('I will look.\ndetect_ui:1{"image_path": "a.png", "hint": "search"}', "I will look."),
    ],
)
def test_a_name_with_kimis_call_index_then_its_arguments_is_a_call(text: str, visible: str) -> None:
    tools = [tool("detect_ui", image_path="string", hint="string")]
    check(
        Real("variant", text, [("detect_ui", {"image_path": "a.png", "hint": "search"})], tools=tools, visible=visible)
    )


@pytest.mark.parametrize(
    "text",
    [
        'lookup:0\n{"image_path": "a.png"}',  # not an offered tool
        'detect_ui:zero\n{"image_path": "a.png"}',  # no index
        'Ratio detect_ui:0 {"image_path": "a.png"} in a sentence',  # inside a sentence
    ],
)
def test_a_name_with_an_index_of_no_offered_tool_or_inside_prose_stays_text(text: str) -> None:
    tools = [tool("detect_ui", image_path="string")]
    check(Real("variant", text, [], tools=tools, visible=text))


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ('get_weather: {"city": "Paris"}', ""),  # the name as a label, its colon markup
        ('Checking.\nget_weather:{"city": "Paris"}\nDone.', "Checking. Done."),
        ('get_weather :\n{"city": "Paris"}', ""),
    ],
)
def test_an_offered_name_as_a_label_then_its_json_object_is_a_call(text: str, visible: str) -> None:
    check(Real("written", text, [("get_weather", {"city": "Paris"})], visible=visible))


@pytest.mark.parametrize(
    "text",
    [
        'Note: {"city": "Paris"}',  # a label that is no offered tool
        'The get_weather: {"city": "Paris"} form is deprecated.',  # inside a sentence
        'get_weather://{"city": "Paris"}',  # a URI, not a label
    ],
)
def test_a_label_and_object_naming_no_call_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["get_weather"]))


def test_a_json_object_after_a_one_string_tools_name_is_its_arguments_not_a_command() -> None:
    tools = [tool("searxng_search", query="string")]
    check(Real("written", 'searxng_search {"query": "x y"}', [("searxng_search", {"query": "x y"})], tools=tools))
