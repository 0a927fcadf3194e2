# ruff: noqa: RUF001  (full-width punctuation is Chinese prose's own)
"""The rule for prose (`shim.parsing.readers.prose`), applied by the core to every family: a call shown in a
code fence, an inline code span, a quoted line or a passage that presents an example is text; each variant at
every split point, with the tools named offered (the strictest case)."""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere

TOOLS = ["get_weather", "special_function"]


@pytest.mark.parametrize(
    "text",
    [
        # Code fences of a programming language, whatever form the call inside takes.
        'Run this:\n```python\nprint("<tool_call>{\\"name\\": \\"get_weather\\", \\"arguments\\": {}}</tool_call>")\n```\n',
        '```bash\ncurl -d \'<function=get_weather>{"city": "x"}</function>\' localhost\n```',
        # Inline code spans name markup.
        'Wrap each call in `<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>` tags.',
        "Thinking tags: using `<think>...</think>` tags containing JSON arrays",
        "Use `[TOOL_CALLS]` or `<tool_call>...</tool_call>` tags.",
        # A quoted line.
        'The model answered:\n> <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n',
        # Passages that present an example.
        'For example: <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
        'The format is <function_call>{"name": "special_function", "arguments": {"arg1": 1}}</function_call>.',
        'Write calls like this:\n\n[TOOL_CALLS][{"name": "get_weather", "arguments": {}}]\n\nThen wait.',
        'Tools such as {"name": "get_weather", "arguments": {"city": "Lima"}} are JSON objects.',
        'e.g. <|python_tag|>get_weather.call(city="Oslo")<|eom_id|> for a built-in.',
        # A cue followed by a short qualifier before the colon.
        'Reply in the following format with no prefix or suffix:\n\n<function=get_weather>{"city": "x"}</function>',
        'For example, when the user asks about Paris:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        # A Chinese prompt's cues: "format it as", "for example", "the format is as follows".
        '如果你决定调用任何函数，你必须将其格式化为<tool_calls>[{"name": "get_weather", "arguments": {}}]</tool_calls>。',
        '例如：<tool_call>{"name": "get_weather", "arguments": {"city": "北京"}}</tool_call>',
        '调用格式如下：\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        # A hypothetical: what the writer would do, not done (benchmarks/real/negative, OpenOrca's parser tests).
        'I\'ll create it. Here\'s what I would do:\n```json\n{"name": "get_weather", "arguments": {"city": "x"}}\n```',
        'This is what the assistant would send:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'What we\'d write, roughly:\n[get_weather(city="Oslo")]',
        # An instruction naming the format, its sentence running on to the colon (Tarko's and Hermes' prompts).
        "To use a tool, your response MUST use the following format, you need to ensure that it is a valid JSON"
        ' string matching the schema:\n\n  <tool_call>\n  {"name": "get_weather", "arguments": {}}\n  </tool_call>\n',
        'Provide ONLY the calls, and NOTHING ELSE, in the format:\n<function_calls>\n[{"name": "get_weather"}]\n',
        'Follow this exact syntax when you call one:\n{"name": "special_function", "arguments": {"arg1": 1}}',
        # A document's heading over a catalogue of signatures (UI-TARS' action space).
        "## Action Space\n\nget_weather(city='<city>')\nspecial_function(arg1=1) # a comment\nwait()\n",
        '### Available tools\n[get_weather(city="Oslo")]\n',
        '## Output format\n\n```json\n{"name": "get_weather", "arguments": {"city": "x"}}\n```\n',
        # The syntax named as the format is (SMG's fallback tests).
        'The syntax is: <tool_call>\n{"name": "get_weather"}\n</tool_call> - that is how you format it',
        'The call syntax looks like <function=get_weather>{"city": "x"}</function> in this family.',
        # The user's words reported, quoted (SMG's fallback tests): the user wrote it, the model did not.
        'The user typed: {"name": "get_weather", "arguments": {}} but this is just quoted text',
        'The customer wrote <tool_call>{"name": "get_weather", "arguments": {}}</tool_call> in the chat.',
        'So the user sent\n[get_weather(city="Oslo")]\nand nothing else.',
        # A Japanese explainer's cues: "in a format like the following" (its sentence ended), "for example".
        'LLMがツールを選んだ場合、以下のような形式で出力する。\n\n{\n  "tool": "get_weather",\n  "args": {"city": "x"}\n}\n',
        '例えば：<tool_call>{"name": "get_weather", "arguments": {"city": "東京"}}</tool_call>',
        '次の形式で書きます：\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        # What a model writes described as a rule, in Japanese and Chinese ("the model is trained to output a call
        # between two tokens"; "the model outputs"), the sentence ended before the example (soniqo's guide).
        "モデルは、2つのトークンで囲まれた呼び出しを出力するように学習されています。\n"
        '<start_function_call>call:get_weather{"city": "x"}<end_function_call>\nSDKはそれをパースします。',
        'モデルがJSONを生成します。<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        '模型会输出一个函数调用：\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'AI助手返回如下内容。\n\n[get_weather(city="Oslo")]',
    ],
)
def test_a_call_shown_in_prose_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # A stray backtick opens no span: the call after it on the same line is read.
        ('It`s sunny? <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "It`s sunny? "),
        # The example passage ended (a sentence, a paragraph) before the call.
        (
            'For example, Paris.\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "For example, Paris.\n\n",
        ),
        ('Like this one. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "Like this one. "),
        (
            "For example, the forecast. Checking it now with the tool, one moment:\n"
            '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "For example, the forecast. Checking it now with the tool, one moment:\n",
        ),
        # Code before the call is closed.
        ('Use `f()`. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "Use `f()`. "),
        # A Chinese reply that says what it does, then does it.
        ('好的，我来查询天气。<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "好的，我来查询天气。"),
        ('例如北京。\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "例如北京。\n\n"),
        ('例えば東京。\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', "例えば東京。\n\n"),
        (
            '東京の天気を調べます。\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "東京の天気を調べます。\n",
        ),
        # A model described, then a sentence of the model's own; a first-person sentence naming output.
        (
            'モデルは結果を出力しました。天気を調べます。\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "モデルは結果を出力しました。天気を調べます。\n",
        ),
        (
            '我将调用模型输出天气：\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "我将调用模型输出天气：\n",
        ),
        # The user's words or the syntax mentioned in a sentence that ended before the call.
        (
            'The user asked about Paris. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "The user asked about Paris. ",
        ),
        (
            'The syntax is fine.\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "The syntax is fine.\n\n",
        ),
        (
            'The syntax is right, so I will check:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "The syntax is right, so I will check:\n",
        ),
        (
            'The user asked for the weather in Paris:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "The user asked for the weather in Paris:\n",
        ),
        (
            'The user said they are in Oslo, so:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "The user said they are in Oslo, so:\n",
        ),
        # A wish or a plan is no hypothetical; a sentence naming a format ended before the call; a heading of a step.
        (
            'I would like to check:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "I would like to check:\n",
        ),
        (
            'You asked in the format of a table. I will check first:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "You asked in the format of a table. I will check first:\n",
        ),
        (
            '### Step 1: Using `get_weather` Tool\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            "### Step 1: Using `get_weather` Tool\n\n",
        ),
    ],
)
def test_a_call_after_prose_that_ended_is_still_a_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        # A plain-text fence presented as what a model printed: a transcript, with role headers of several turns.
        "The rendered prompt should look like the following:\n\n```text\n<|im_start|>user\nWeather in Rome?<|im_end|>\n"
        '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>'
        "<|im_end|>\n```\n",
        'A session looks like this:\r\n\r\n```plaintext\r\nuser: hi\r\nassistant: [get_weather(city="Oslo")]\r\n```',
        "The output will be like the following:\n```console\nassistant:\n"
        '{"name": "special_function", "arguments": {"arg1": 2}}\n```\nThat is all.',
        'For example:\n```txt\n<function=get_weather>{"city": "Lima"}</function>\n```',
        # Lines labelled as examples of right and wrong calls.
        'Examples:\nCORRECT: [get_weather(city="Oslo"), special_function(arg1=1)] <- both listed\n'
        'INCORRECT: get_weather(city="Oslo")\n',
        'Bad example: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n',
        '- valid call:\n  {"name": "get_weather", "arguments": {"city": "Lima"}}\n',
        '1. Incorrect: [TOOL_CALLS][{"name": "get_weather", "arguments": {}}]\n',
    ],
)
def test_a_presented_transcript_or_a_labelled_example_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # A model that writes its call in a call fence, or after prose, or in Gemma's tool_code fence.
        ('```json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```', ""),
        ('```tool_call\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```', ""),
        ('I will check.\n```tool_code\nget_weather(city="Rome")\n```', "I will check.\n"),
        ('Checking the weather now.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
        # An output that begins with the assistant header its template opened: a real call, not a transcript.
        ('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>', None),
        # A plain-text fence nothing presents: only its opener is text, the call in it is read.
        ('```text\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n```', None),
        # A label that is not an example's ("Correct, ...") leaves the call a call.
        ('Correct, checking it: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
    ],
)
def test_a_call_a_model_writes_in_a_call_fence_or_after_a_header_is_still_a_call(
    text: str, visible: str | None
) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["errors"] == []
    if visible is not None:
        assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        # A sentence that names the format before the call: "the format for … is", "in this JSON format".
        'The format for running a function is [{"name": "get_weather", "arguments": {"city": "Oslo"}}] Make sure.',
        'Tell the user by specifying the tool in this JSON format\n{"name": "get_weather", "arguments": {}}. Then wait.',
        'Here\'s the structure:\n\n<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>\n',
        # An instruction to the model naming the tags to write the call in.
        "For each call, return a json object within <tool_call></tool_call> XML tags:\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
        "Wrap every call in function_call tags:\n"
        '<function_call>{"name": "special_function", "arguments": {"arg1": 1}}</function_call>',
        # A hypothetical answer: what the model would write, shown to it.
        "To get the weather in Rome you would respond:\n\n"
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>',
        'Asked for Oslo, the assistant would reply with:\n[get_weather(city="Oslo")]',
    ],
)
def test_a_call_after_a_sentence_that_gives_the_format_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # In-context examples of a prompt (OpenHands, Cherry Studio): the user's turn makes it a transcript.
        "USER: Weather in Rome?\n\nASSISTANT: Let me check:\n<function=get_weather>\n<parameter=city>Rome"
        "</parameter>\n</function>\n",
        'Examples using notional tools:\n---\nUser: Rome?\n\nAssistant: Checking.\n<tool_call>{"name": "get_weather", '
        '"arguments": {"city": "Rome"}}</tool_call>\n\nUser: <tool_result>sunny</tool_result>\n',
        'Human: and Oslo?\nA: [get_weather(city="Oslo")]',
        '**User:** Oslo?\n**Assistant:**\n```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```',
        # The user's turn labelled in Japanese, Chinese or Korean, with an ASCII or a full-width colon.
        'ユーザー:「東京の天気は?」\n  → モデル:{"function": "get_weather", "args": {"city": "Tokyo"}}\n',
        '用户：北京天气？\n助手：<tool_call>{"name": "get_weather", "arguments": {"city": "北京"}}</tool_call>',
        '사용자: 서울 날씨?\n모델: [get_weather(city="Seoul")]',
    ],
)
def test_a_call_after_a_users_turn_is_part_of_a_transcript_and_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 160, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # "user" not opening a line, or not as a turn label: the call is the model's own.
        'The user: wants Rome. <tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>',
        'Asking the user asked about Rome.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'I will return the forecast.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'Here is the forecast check.\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'I will respond:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',  # no hypothetical
        # "user" in Japanese not as a turn label.
        'ユーザーの質問に答えます。\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
    ],
)
def test_a_call_with_no_users_turn_or_format_sentence_before_it_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["errors"] == []


@pytest.mark.parametrize(
    "text",
    [
        # Qwen2.5-Coder in block/goose#2926: it tells the user how they could call the tool
        "Here's how you can do it:\n\n```json\n"
        '{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\n\nThis will give the forecast.',
        'Here is how you could call it: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'This is how one would write it:\n{"name": "get_weather", "arguments": {"city": "Lima"}}',
        # olmlx's parser tests: an example in a sentence, the cue before it
        "You can call <function=get_weather><parameter=city>NYC</parameter></function> like this.",
        'One could invoke it as <tool_call>{"name": "get_weather", "arguments": {}}</tool_call> later.',
        'You may call the tool with\n[get_weather(city="Oslo")]',
        # the reader told what to write, by any verb of writing
        'You could write something like:\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'One would emit\n```json\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```',
        'To get the forecast you should output [get_weather(city="Oslo")] on its own.',
        # the reader told what to try or use (theos-agent's parser tests: a suggestion, not a call)
        'You could try {"name": "get_weather", "arguments": {"city": "Lima"}} to find it.',
        'You can use this:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'One might run [get_weather(city="Oslo")] for that.',
    ],
)
def test_a_call_shown_to_the_reader_as_how_they_could_make_it_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        'Here is how I will do it:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'You can see how you can use it once I check. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'You can call me back later. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'You can type a city any time. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        "I call it now: <function=get_weather><parameter=city>NYC</parameter></function>",
        'I can use the tool now. {"name": "get_weather", "arguments": {}}',
        'You can try again later; I will check first.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
    ],
)
def test_a_call_the_model_makes_after_saying_how_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


@pytest.mark.parametrize(
    "text",
    [
        # A template's instructions: the placeholder call shows the format.
        'Call tools like this:\n<tool_call>\n{"name": "function_name", "arguments": {"arg1": "value1"}}\n</tool_call>\nThanks.',
        '<tool_call>{"name": "<tool-name>", "arguments": {}}</tool_call>',
        "<function=your_function_name>\n<parameter=arg>value</parameter>\n</function>",
        '[TOOL_CALLS]example_tool{"a": 1}',
        '<function_call>{"name": "{{function_name}}", "arguments": {"x": "y"}}</function_call>',
        # Numbered stand-ins, as a template shows several calls.
        '<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1"}}]</tool_calls>',
        '<tool_call>{"name": "tool_name_2", "arguments": {}}</tool_call>',
        "[function_name1(arg=1), function_name2(arg=2)]",
    ],
)
def test_a_call_of_a_placeholder_name_is_text_in_any_form(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 120, seeds=4)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


def test_a_placeholder_name_that_is_an_offered_tool_or_an_unknown_real_name_is_still_a_call() -> None:
    text = '<tool_call>{"name": "function_name", "arguments": {}}</tool_call>'
    assert [c["name"] for c in parse_everywhere(text, ["function_name"])["calls"]] == ["function_name"]
    text = '<tool_call>{"name": "lookup_user", "arguments": {}}</tool_call>'  # handed on for the router's answer
    assert [c["name"] for c in parse_everywhere(text, TOOLS)["calls"]] == ["lookup_user"]


@pytest.mark.parametrize(
    "text",
    [
        # A rendered prompt: a chat template's header of a turn that is not the model's, then a call.
        "<|im_start|>user\nRome?<|im_end|>\n<|im_start|>assistant\n"
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call><|im_end|>',
        "<|start_header_id|>system<|end_header_id|>\n\nTools: get_weather<|eot_id|><|start_header_id|>assistant"
        '<|end_header_id|>\n\n<|python_tag|>get_weather.call(city="Rome")<|eom_id|>',
        'input: "<start_of_turn>system\nFormat:\n[TOOL_REQUEST]{"name": "get_weather", "arguments": {}}[END_TOOL_REQUEST]',
        ']~b]system\nTools:\n<tool>{"name": "get_weather", "parameters": {"type": "object"}}</tool>',
        '<|user|>\nRome?\n<|assistant|>\n{"name": "get_weather", "arguments": {"city": "Rome"}}',
        '[INST] Rome? [/INST][TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Rome"}}]',
        "<\uff5cUser\uff5c>Rome?<\uff5cAssistant\uff5c>"
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>',
        # A Markdown fence that opens with a turn header (any role) quotes a conversation.
        "Calls use tags:\n```\n<|im_start|>assistant\nLet me look.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call><|im_end|>\n```\n',
        '```text\n<start_of_turn>model\n[get_weather(city="Rome")]<end_of_turn>\n```',
    ],
)
def test_a_call_after_a_turn_header_of_a_template_not_the_models_is_a_transcript_and_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 160, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # The model's own header, its words naming a user, a fence of code: the call is the model's.
        ('<|im_start|>assistant\nI will check.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
        ('The user wants Rome.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
        ('<b>user</b> asked.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
        ('```\nprint("user")\n```\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', None),
        ('Checking.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call><|im_end|>', "Checking.\n"),
    ],
)
def test_a_call_with_no_turn_header_of_another_role_before_it_is_still_a_call(text: str, visible: str | None) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    if visible is not None:
        assert result["text"] == visible


def test_a_react_question_line_after_a_prompts_text_makes_the_rest_a_transcript() -> None:
    text = (
        "Use the following format:\nQuestion: the input\nAction: get_weather\nAction Input: the input\n\nBegin!\n\n"
        'Question: Rome?\nThought: I will look.\nAction: get_weather\nAction Input: {"city": "Rome"}\nObservation: sunny'
    )
    result = parse_everywhere(text, TOOLS, every_split=False, seeds=6)
    assert result["calls"] == [] and result["text"] == text


def test_a_question_restated_where_the_models_turn_begins_leaves_its_call_a_call() -> None:
    text = 'Question: Rome?\nThought: I will look.\nAction: get_weather\nAction Input: {"city": "Rome"}'
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


@pytest.mark.parametrize(
    "text",
    [
        # A fence's opening line between the presenting sentence and the call; a version number in the sentence.
        "Example of a badly formatted `Qwen2.5-Instruct` tool call:\n\n   ```xml\n   <tool_call>\n"
        '   ["name": "get_weather"]\n   </tool_call>\n   ```\n',
        'For example, with Llama 3.1:\n```json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```',
        # A fence of tildes, as Markdown allows (EXL3-AMD's test).
        "Example:\n~~~~xml\n<tool_call>\n<function=get_weather>\n</function>\n</tool_call>\n~~~~\nDone.",
        'For instance:\n~~~xml\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n~~~',
    ],
)
def test_a_call_presented_across_a_fence_opener_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=False, seeds=6)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # The fence that closes an example is no opener: the call after it is the model's.
        'For example:\n```\nsee the docs\n```\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'Checking the weather in Rome now:\n```json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```',
        'Checking now:\n~~~xml\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n~~~',
    ],
)
def test_a_call_after_a_closed_example_or_an_unpresented_fence_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=False, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


@pytest.mark.parametrize(
    "text",
    [
        # A guide's flow step, a glossary, a template's instruction (hunt 12's negatives), and their neighbours.
        'If it wants a tool, it outputs a JSON object: {"name": "get_weather", "arguments": {"city": "Tokyo"}}',
        'When the model needs data, it emits <tool_call>{"name": "get_weather", "arguments": {}}</tool_call> first.',
        "The model sees the tools, decides which to call, and emits "
        '{"name": "get_weather", "arguments": {"city": "..."}}.',
        'Your assistant then returns\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'Each agent replies with [get_weather(city="Oslo")] when asked.',
        'If they need the weather, they output [get_weather(city="Oslo")] alone.',
        "To call a function, emit:\n<function=get_weather><parameter=city>NYC</parameter></function>",
        'To use a tool, respond with: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'To invoke the weather tool, simply write\n{"name": "get_weather", "arguments": {"city": "Lima"}}',
    ],
)
def test_a_call_after_words_that_describe_what_a_model_writes_or_tell_what_to_write_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert (result["calls"], result["text"]) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        # A report quoting what a model emitted (Rapid-MLX's suffix-decoding report, benchmarks/real/negative):
        # inside a fence, the opener comes after other text on its line.
        '```\ntool_loop : vanilla emits valid <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n```',
        '```\nsuffix emits \'<tool_call>{"name": "get_weather", ... "location": ... \' <- malformed\n```\nDone.',
        '~~~\nlog: [TOOL_CALLS][{"name": "get_weather", "arguments": {}}]\n~~~',
        'Logs:\n\n```\n12:00 got <function=get_weather>{"city": "x"}</function> back\n```\n',
    ],
)
def test_a_call_after_other_text_on_its_line_inside_a_fence_is_a_quoted_sample(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        # A model's words quoted in a document, the quotation opened at a line's start and still open at the call
        # (benchmarks/real/negative, go-agentic's design document): any form of call in it is shown.
        'Model output:\n"I found some results. Let me search.\nget_weather(city="Paris")\nThe results show it."\n',
        'The reply was:\n  "Sure, one moment.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>"\n',
        "Transcript:\n\u201cI will check that.\nLet me look.\n[get_weather(city='Oslo')]\u201d\n",
        'Output:\n"Checking now.\n{"name": "special_function", "arguments": {"arg1": 1}}\nDone."',
    ],
)
def test_a_call_inside_a_quotation_still_open_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        'Let me run it and see what it outputs: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'When it finishes, I will call: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'To call the weather tool, I will use:\n{"name": "get_weather", "arguments": {"city": "Lima"}}',
        'The model is ready. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'The assistant output was empty, so:\n[get_weather(city="Oslo")]',
        # A sentence in the first person is the model's own, whatever it says of an agent or a model.
        'I will ask the weather agent, which returns: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'Let me see what the model returns: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'If it fails, we write {"name": "get_weather", "arguments": {"city": "Lima"}}',
    ],
)
def test_a_call_after_a_sentence_about_a_model_that_says_no_rule_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


@pytest.mark.parametrize(
    "text",
    [
        # A model fencing its own call writes it at the start of a line; out of a fence, text before it is prose.
        '```\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n```',
        '```\n  <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n```',
        '```\nsee the docs\n```\nChecking: <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
        'Checking now <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
    ],
)
def test_a_call_at_a_lines_start_in_a_fence_or_after_a_closed_fence_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]


@pytest.mark.parametrize(
    "text",
    [
        # The format named with its body elided: no call, no error, every character text.
        "vanilla emits valid <tool_call>{...}</tool_call>; suffix does not",
        "Reply with <tool_call>{…}</tool_call> when a tool helps.",
        "Calls go in <tool_call>[...]</tool_call>",
        "<function_call>{ ... }</function_call>",
        "A <tool_call>{...} block, unclosed",
        # braces doubled as a format string or a Jinja template escapes them, a list of one elided call
        "模型生成的工具调用标记使用了特殊格式\n<tool_call>{{...}}</tool_call>,而非标准JSON",
        "The template writes <tool_call>{{ … }}</tool_call> after the turn.",
        "Lists go in <tool_calls>[{...}]</tool_calls>; one call in <tool_call>{{...}}",
    ],
)
def test_a_call_tag_around_an_elided_body_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


def test_a_body_that_only_begins_with_dots_inside_a_string_is_still_a_call() -> None:
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "..."}}</tool_call>'
    result = parse_everywhere(text, TOOLS, seeds=6)
    assert [c["arguments"] for c in result["calls"]] == [{"city": "..."}]


@pytest.mark.parametrize(
    "text",
    [
        # Hermes 3's prompt (NousResearch's README, benchmarks/real/negative): stand-ins written where values belong.
        "<tool_call>\n{'name': <function-name>, 'arguments': <args-dict>}\n</tool_call>",
        '<tool_call>{"name": <tool name>, "arguments": {}}</tool_call> then wait.',
        '<function_call>{"arguments": <args_dict>, "name": "get_weather"}</function_call>',
    ],
)
def test_a_call_body_with_stand_ins_where_values_belong_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert result["calls"] == [] and result["errors"] == []
    assert result["text"] == text


def test_a_started_call_with_markup_in_its_arguments_still_fails_as_a_call() -> None:
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": <city-name>}}</tool_call>'
    result = parse_everywhere(text, TOOLS, seeds=6)
    assert result["calls"] == [] and len(result["errors"]) == 1


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        # The quotation closed before the call, a quote mark inside a line, inches: the call is the model's.
        ('He said "hi".\nget_weather(city="Paris")\n', 'He said "hi".\n\n'),
        ('"Paris," she said.\nget_weather(city="Paris")\n', '"Paris," she said.\n\n'),
        ('A 3" screen\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', 'A 3" screen\n'),
        ('"Weather?"\n\nget_weather(city="Paris")', '"Weather?"\n\n'),
        (
            'Note:\n"Checking.\n\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            'Note:\n"Checking.\n\n',
        ),
        ('Said:\n"Paris," she said.\nget_weather(city="Paris")\n', 'Said:\n"Paris," she said.\n\n'),
    ],
)
def test_a_call_after_a_closed_quotation_or_a_paragraph_break_is_still_a_call(text: str, visible: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert [c["name"] for c in result["calls"]] == ["get_weather"]
    assert result["text"] == visible


@pytest.mark.parametrize(
    "text",
    [
        # A counterfactual (aitoolsguidebook.com, benchmarks/real/negative): the call the model did not write.
        'Instead of returning {"name": "get_weather", "arguments": {"city": "Oslo"}}, the model writes prose.',
        'Instead of emitting <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>, it answers from memory.',
        # One call shown in several formats, each under its family's name (thetypicalset.com): the cue, then labels.
        "The same call in three wire formats:\n\nHermes:\n\n"
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n\nLlama 3.2:\n\n'
        "[get_weather(city='Oslo')]\n\nMistral:\n\n"
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]\n',
        "Models write it in different ways:\nQwen:\n"
        '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\nGemma:\n[get_weather()]',
    ],
)
def test_a_call_the_text_says_was_not_written_or_shows_in_several_formats_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # No example was shown before the label line: the model's own call under its own label.
        ('Weather:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', ["get_weather"]),
        # An example, then prose that ends it, then the model's call after a sentence (no label line).
        (
            'For example: [get_weather(city="Oslo")]\n\nNow the real question. Checking it now.\n'
            '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            ["get_weather"],
        ),
        # "instead of" about something other than writing a call.
        (
            'Instead of guessing, I will check.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            ["get_weather"],
        ),
        # "in two steps" is no list of formats.
        (
            'I will do it in two steps:\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            ["get_weather"],
        ),
    ],
)
def test_a_call_under_a_label_without_examples_before_or_after_other_instead_of_is_still_a_call(
    text: str, names: list[str]
) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert [c["name"] for c in result["calls"]] == names


@pytest.mark.parametrize(
    "text",
    [
        # A document showing a family's structure with a template's slots for the name (ik_llama.cpp's docs).
        "Structure:\n```\n<|tool_calls_section_begin|>\n<|tool_call_begin|>\nfunctions.{name}:{index}"
        "<|tool_call_argument_begin|>\n{JSON arguments}\n<|tool_call_end|>\n<|tool_calls_section_end|>\n```\n",
        "<|tool_call_begin|>functions.{name}:{index}<|tool_call_argument_begin|>{}<|tool_call_end|>",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.{tool}:0 <|tool_call_argument_begin|>"
        '{"key": "value"}<|tool_call_end|><|tool_calls_section_end|>',
        # A slot in any family's name, in braces or angle brackets.
        '<tool_call>{"name": "mcp__{server}__{tool}", "arguments": {}}</tool_call>',
        '<tool_call>{"name": "functions.<name>", "arguments": {"a": 1}}</tool_call>',
        "<function={name}>\n<parameter={key}>value</parameter>\n</function>",
    ],
)
def test_a_call_whose_name_holds_a_templates_slot_is_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=4)
    assert (result["calls"], result["errors"], result["text"]) == ([], [], text)


@pytest.mark.parametrize(
    "text",
    [
        # The real heads next to the slots: an index, a glued object, the arguments right after the separator.
        '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Rome"}<|tool_call_end|>',
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:1  {"city": "Rome"}<|tool_call_end|>'
        "<|tool_calls_section_end|>",
        '<|tool_call_begin|>get_weather{"city": "Rome"}<|tool_call_end|>',
    ],
)
def test_a_sectioned_call_with_a_real_name_next_to_the_slot_rule_is_still_a_call(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert result["calls"] == [{"name": "get_weather", "arguments": {"city": "Rome"}}]


@pytest.mark.parametrize(
    "text",
    [
        # A rendered prompt ending in the assistant's open turn (kani's cached Qwen3 prompt): its reasoning tag too.
        "<|im_start|>user\nWhat is 15 plus 27?<|im_end|>\n<|im_start|>assistant\n<think>\n",
        "<|im_start|>system\nTools.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\nok</think>",
        "User: Oslo?\nAssistant: <think>the weather</think>\n",
    ],
)
def test_a_reasoning_tag_after_another_roles_turn_is_part_of_the_transcript(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert (result["calls"], result["reasoning"], result["text"]) == ([], "", text)


@pytest.mark.parametrize(
    "text",
    [
        "<think>\nRome.\n</think>\n\nSunny.",
        "<|im_start|>assistant\n<think>\nRome.\n</think>\n\nSunny.",
        "The user asks about Rome.\n<think>\nRome.\n</think>\n\nSunny.",
    ],
)
def test_a_reasoning_tag_with_no_other_roles_turn_before_it_is_still_reasoning(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=2)
    assert result["reasoning"].strip() == "Rome."


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # open-agent-harness: a bad example on the presenting line, then the model's real tagged call
            'Example of a bad call: {"name": "not_this", "arguments": {}}\n'
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call>',
            [("get_weather", {"city": "Lima"})],
            'Example of a bad call: {"name": "not_this", "arguments": {}}',
        ),
        (  # a labelled wrong call, its object over two lines, then a bare call of an offered tool
            'Wrong: {"name": "special_function",\n "args": 1}\n{"name": "get_weather", "arguments": {"city": "Oslo"}}',
            [("get_weather", {"city": "Oslo"})],
            'Wrong: {"name": "special_function", "args": 1}',
        ),
        (  # a cue in another language, the example an array
            'Por ejemplo: [{"name": "x", "arguments": {}}]\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            [("get_weather", dict[str, object]())],
            'Por ejemplo: [{"name": "x", "arguments": {}}]',
        ),
    ],
)
def test_a_json_example_on_the_presenting_line_is_shown_up_to_its_end_and_a_call_after_it_is_a_call(
    text: str, calls: list[tuple[str, dict[str, object]]], visible: str
) -> None:
    result = parse_everywhere(text, TOOLS)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == calls
    assert " ".join(result["text"].split()) == " ".join(visible.split())


@pytest.mark.parametrize(
    "text",
    [
        # the example opens a line under the presenting words: the paragraph is a list of examples
        'For example:\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n'
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>',
        'Examples:\n{"name": "get_weather", "arguments": {}}\n{"name": "special_function", "arguments": {}}',
        # the example on the presenting line, and the words after it still present what follows
        'For example, {"name": "get_weather", "arguments": {}} looks like this:\n'
        '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
    ],
)
def test_a_json_example_under_presenting_words_or_presenting_the_next_block_keeps_it_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS)
    assert result["calls"] == []
    assert result["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        'For example:\r\n<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call>',
        "## Action Space\r\n\r\nget_weather(city='Lima')\r\n",
        "The fields, such as:\r\n\r\n- Action: get_weather\r\n- Action Input: Lima\r\n",
        'Use the following format:\r\n```json\r\n{"name": "get_weather", "arguments": {"city": "Lima"}}\r\n```',
    ],
)
def test_a_call_presented_in_text_with_windows_line_breaks_is_text_as_with_unix_ones(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=len(text) < 140, seeds=6)
    assert (result["calls"], result["text"]) == ([], text)
