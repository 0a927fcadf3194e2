"""Inkling's frames of plain text (`shim.parsing.readers.inkling`): markup around the reply, at every split point;
the frames of its calls are `token_call`'s."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

SMG = "lightseekorg/smg:crates/tool_parser/tests/tool_parser_inkling.rs@73da68ca9472bbc0ff5f63d31a8a21fbb8696359"

CASES = [
    Real(  # a text message, then two calls' messages, then the turn's end
        SMG,
        "<|message_model|><|content_text|>I'll check.<|end_message|><|message_model|>search"
        '<|content_invoke_tool_json|>{"name":"search","args":{"query":"Rust {language}"}}<|end_message|>'
        '<|message_model|>get_weather<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"Tokyo"}}'
        "<|end_message|><|content_model_end_sampling|>",
        [("search", {"query": "Rust {language}"}), ("get_weather", {"city": "Tokyo"})],
        visible="I'll check.",
    ),
    Real(  # variant: a text message only, the turn's end after it
        "written: an Inkling reply with no call",
        "<|message_model|><|content_text|>Paris is sunny today.<|end_message|><|content_model_end_sampling|>",
        [],
        visible="Paris is sunny today.",
    ),
    Real(  # variant: text after the call in a frame of its own, newlines between the frames
        "written: Inkling's call, then text",
        '<|message_model|>lookup<|content_invoke_tool_json|>{"name":"lookup","args":{"id":7}}<|end_message|>\n'
        "<|message_model|>\n<|content_text|>Looking up order 7.<|end_message|>\n<|content_model_end_sampling|>",
        [("lookup", {"id": 7})],
        visible="Looking up order 7.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_inkling_text_frames_are_markup(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        "The token <|end_message|> ends a frame in Inkling's template.",  # a token named in prose
        "Write `<|content_text|>` before plain text.",  # one token of the frame, in a code span
        "<|message_model|> opens each message.",  # the frame's first token alone
    ],
)
def test_inkling_tokens_named_in_prose_stay_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=["search"]))
