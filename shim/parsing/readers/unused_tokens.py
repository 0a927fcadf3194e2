"""A tokenizer's placeholder for a special token it cannot render, right around a JSON call: the call's markup.

Ollama (and llama.cpp builds of its time) detokenize InternLM2's ``<|action_start|><|plugin|>`` … ``<|action_end|>``
as ``[UNUSED_TOKEN_144][UNUSED_TOKEN_141]`` … ``[UNUSED_TOKEN_143]`` (ollama#5761): the model's vocabulary lists
its special tokens under placeholder names, and the runtime prints the placeholder. The general class: a run of
``[UNUSED_TOKEN_N]`` placeholders right before a JSON call (offered tools only, read by the untagged JSON reader)
is that call's opener, one right after it its closer (and a turn-end token after any call: `block_end.TURN_END`);
before anything else the placeholders stay text.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.untagged import UntaggedJson
from shim.parsing.tags import compile_marker

__all__ = ["ROWS", "UNUSED_TOKEN"]

UNUSED_TOKEN = r"\[UNUSED_TOKEN_\d{1,6}\]"
"""The placeholder a runtime prints for a special token its vocabulary names as unused."""

_CLOSER = compile_marker(rf"[ \t]{{0,4}}{UNUSED_TOKEN}")


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    return UntaggedJson(ctx, block, _CLOSER)


ROWS = [
    Dialect(
        "unused_tokens_around_json",
        rf"(?:{UNUSED_TOKEN}[ \t]{{0,4}}){{1,4}}\r?\n?[ \t]{{0,64}}(?=\{{|\[[ \t\r\n]{{0,64}}\{{)",
        None,
        kind="untagged",
        first="[",
        reader=_open,
    ),
]
