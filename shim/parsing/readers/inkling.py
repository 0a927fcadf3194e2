"""Inkling's message frames around plain text: markup, as the frames around its calls are.

Inkling writes each message of its turn between frame tokens, the content's kind named by a token after
``<|message_model|>``::

    <|message_model|><|content_text|>I'll check.<|end_message|>
    <|message_model|>search<|content_invoke_tool_json|>{"name": "search", "args": {…}}<|end_message|>
    <|content_model_end_sampling|>

A call's frame is `token_call`'s (a tool's name between special tokens); a text message's frame
(``<|message_model|><|content_text|>``, two tokens: a sentence does not write them) is markup wherever it stands,
blanks between its tokens layout; the frame's and the turn's ends are turn ends (`block_end.TurnEnd`): markup where
the message ends or another token follows, text when a sentence goes on after one (a token named in prose).
"""

from __future__ import annotations

from shim.parsing.readers.base import Dialect
from shim.parsing.readers.block_end import open_markup, open_turn_end

__all__ = ["ROWS"]

_GAP = r"[ \t\r\n]{0,4}"

ROWS = [
    Dialect(
        "inkling_text_frame",
        rf"<\|message_model\|>{_GAP}<\|content_text\|>",
        None,
        kind="markup",
        first="<",
        reader=open_markup,
    ),
    Dialect(
        "inkling_frame_end",
        r"<\|end_message\|>|<\|content_model_end_sampling\|>",
        None,
        kind="markup",
        first="<",
        reader=open_turn_end,
    ),
]
