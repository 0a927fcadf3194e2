"""The end-of-turn tokens a stream ends with are the engine's stop: markup, whatever is open before them.

An engine that does not skip special tokens prints its stop (``<|im_end|>``, ``<|eot_id|>``, ``</s>``,
``<end_of_turn>``, ``<|end|>``) where the model's reply ends, and a reply may end anywhere: inside its reasoning,
inside a call whose closer it never wrote, inside a raw value, inside an example the prose presents. The token is
not part of any of them (`shim.parsing.boundary.LastTurnEnd`). The same token with text after it is read as
before; in a transcript (another role's turn in the text) every token is the document's.
"""

from __future__ import annotations

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, fold, tool

_TOKENS = ["<|im_end|>", "<|eot_id|>", "</s>", "<end_of_turn>", "<|end|>", "<|endoftext|>", "<eos>"]
_ENDS = ["{}", "{}\n", "{} \n\n", "{}<|endoftext|>", "{}\n<eos>"]


@pytest.mark.parametrize("token", _TOKENS)
@pytest.mark.parametrize(
    ("body", "calls", "visible", "reasoning"),
    [
        # reasoning the reply ended inside
        ("<think>\nThe user wants the weather.", [], "", "The user wants the weather."),
        ("Hi.\n<think>still deciding which tool", [], "Hi.", "still deciding which tool"),
        # a tagged call whose closer never came
        (
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}',
            [("get_weather", {"city": "Oslo"})],
            "",
            "",
        ),
        ("<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n", [("get_weather", {"city": "Lima"})], "", ""),
        # a raw value running to the end of the reply
        (
            "Thought: I need the weather.\nAction: get_weather\nAction Input: Paris",
            [("get_weather", {"city": "Paris"})],
            "Thought: I need the weather.",
            "",
        ),
        # an example the prose presents, up to the end of its paragraph: the end of the reply
        (
            'A model returns JSON such as {"tool": "get_weather", "params": {...}}. You parse it and run it.',
            [],
            'A model returns JSON such as {"tool": "get_weather", "params": {...}}. You parse it and run it.',
            "",
        ),
        # a code fence left open
        ("Here is the code:\n```python\nprint(42)\n", [], "Here is the code:\n```python\nprint(42)", ""),
    ],
    ids=["think", "text-then-think", "tool_call", "qwen-xml", "react-raw", "presented-example", "open-fence"],
)
@pytest.mark.parametrize("end", _ENDS[:3])
def test_end_of_turn_tokens_ending_the_stream_end_whatever_is_open_and_are_markup(
    token: str, body: str, calls: list[tuple[str, dict[str, str]]], visible: str, reasoning: str, end: str
) -> None:
    text = body + end.format(token) if "{}" in end else body + token
    case = Real(
        "written: a reply ending inside a block, then the engine's stop token",
        text,
        calls,
        visible=visible,
        tools=[tool("get_weather", city="string")],
        reasoning=reasoning,
    )
    check(case, every_split=token == "<|im_end|>" and end == "{}")


@pytest.mark.parametrize("end", _ENDS)
def test_a_run_of_end_tokens_with_blanks_between_all_end_the_stream(end: str) -> None:
    text = "<think>\nLet me check the weather in Kyoto." + end.format("<|im_end|>")
    result = parse_everywhere(text, [tool("get_weather", city="string")])
    assert fold(result["reasoning"]) == "Let me check the weather in Kyoto."
    assert result["text"].strip() == ""


@pytest.mark.parametrize(
    ("text", "reasoning", "visible"),
    [
        # text after the token: the token is read where it stands (named in reasoning, in prose)
        ("<think>the stop token <|im_end|> ends a turn", "the stop token <|im_end|> ends a turn", ""),
        ("<think>a</think>Write <|im_end|> to stop.", "a", "Write <|im_end|> to stop."),
        ("<think>a</think>Write `</s>` at the end", "a", "Write `</s>` at the end"),
        # a token cut off where the stream ends is the stream's own characters
        ("<think>I will stop <|im_en", "I will stop <|im_en", ""),
        ("Done. </", "", "Done. </"),
    ],
)
def test_a_token_with_text_after_it_or_cut_off_stays_where_it_is(text: str, reasoning: str, visible: str) -> None:
    result = parse_everywhere(text, [tool("get_weather", city="string")])
    assert fold(result["reasoning"]) == reasoning
    assert fold(result["text"]) == fold(visible)
    assert result["calls"] == []


@pytest.mark.parametrize("token", ["<|im_end|>", "</s>", "<|eot_id|>"])
def test_a_token_inside_a_closed_calls_value_is_the_values(token: str) -> None:
    text = f'<tool_call>{{"name": "note", "arguments": {{"text": "stop with {token}"}}}}</tool_call>'
    check(Real("written: a value that names a stop token", text, [("note", {"text": f"stop with {token}"})]))
    check(
        Real(
            "written: the same, the stream ending with the token",
            text + token,
            [("note", {"text": f"stop with {token}"})],
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "<|im_start|>user\nWhat is the weather?<|im_end|>",
        "A chat rendered with its template:\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nhello<|im_end|>\n",
        "User: What is the capital of France?\nAssistant: Paris.</s>",
    ],
)
def test_a_transcripts_last_token_is_the_documents_and_stays_text(text: str) -> None:
    result = parse_everywhere(text, [tool("get_weather", city="string")])
    assert result["calls"] == []
    assert fold(result["text"]) == fold(text)
