"""JSON calls between a model's own special tokens: the body is a call object or a list of them, read by
`TaggedStart` and the shape rules; only the markers differ.

- InternLM 2 / 2.5, Intern-S1: ``<|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>``
- Command R7B: ``<|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": {…}}]<|END_ACTION|>``
  (its ``<|START_THINKING|>`` is a reasoning row, its ``<|START_RESPONSE|>`` / ``<|END_RESPONSE|>`` markup, and
  so are the ``<co>`` / ``</co: 0:[1,2]>`` tags of its grounded citations; the cited text stays text)
- Apertus: ``<|tools_prefix|>[{"NAME": {…arguments…}}]<|tools_suffix|>`` (a call keyed by its tool's name)
- Nemotron Nano 2 ``<TOOLCALL>[…]</TOOLCALL>``, Apriel ``<tool_calls>[…]</tool_calls>``: in `tagged_json`.

Newlines or spaces between two tokens of one marker (``<|action_start|>\\n<|plugin|>``) are layout.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import Block, Context, Dialect
from shim.parsing.readers.block_end import TURN_END, open_markup, open_turn_end
from shim.parsing.readers.tagged_json import TaggedStart

__all__ = ["ROWS", "TURN_END_ROWS"]

_GAP = r"[ \t\r\n]{0,4}"


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


ROWS = [
    Dialect(
        "internlm_action",
        rf"<\|action_start\|>{_GAP}<\|plugin\|>",
        r"<\|action_end\|>",
        reader=_open,
        example='<|action_start|><|plugin|>{"name": "NAME", "parameters": {...}}<|action_end|>',
    ),
    Dialect(
        "command_action",
        r"<\|START_ACTION\|>",
        r"<\|END_ACTION\|>",
        reader=_open,
        example='<|START_ACTION|>[{"tool_name": "NAME", "parameters": {...}}]<|END_ACTION|>',
    ),
    Dialect(
        "apertus_tools",
        r"<\|tools_prefix\|>",
        r"<\|tools_suffix\|>",
        reader=_open,
        example='<|tools_prefix|>[{"NAME": {...}}]<|tools_suffix|>',
    ),
    # Command R / A's frames of plain text: `<|START_RESPONSE|>…<|END_RESPONSE|>`, `<|START_TEXT|>…<|END_TEXT|>`
    # (Command A after its action block, smg's cohere tests).
    Dialect("command_response", r"<\|(?:START|END)_(?:RESPONSE|TEXT)\|>", None, kind="markup", reader=open_markup),
    # Command R / A grounded citations around cited text: `foo <co>bar</co: 0:[1,2],1:[3,4]>` (vLLM's cohere
    # parser strips both tags and keeps the text). The closer's document:[spans] list is the evidence.
    Dialect(
        "command_citation",
        r"<co>(?=[^<>\n]{0,400}</co:)"
        r"|</co:[ \t]*\d{1,4}:\[[\d, ]{0,80}\](?:,[ \t]*\d{1,4}:\[[\d, ]{0,80}\]){0,16}[ \t]*>",
        None,
        kind="markup",
        first="<",
        reader=open_markup,
    ),
]

TURN_END_ROWS = [
    # A sequence's or a turn's edge token where the message begins (a raw completion prints its BOS, Mistral's
    # `[/INST]`, the previous turn's `<|eot_id|>`): turn structure, never text; the message begins after it
    # (`shim.parsing.stream` tries this row only there: `<s>` in HTML mid-text is a tag).
    Dialect(
        "turn_start",
        r"(?:<s>|<bos>|<\|begin_of_text\|>|<\|startoftext\|>|<[|\uff5c]begin[_\u2581]of[_\u2581]sentence[|\uff5c]>"
        r"|\[/INST\]|<\|(?:eot_id|eom_id|im_end|end|endoftext|end_of_turn)\|>|</s>|<eos>|<end_of_turn>)[ \t]{0,4}"
        # not before another role's turn: a rendered prompt shown whole (`<s>[INST]…`) is a document, all text
        r"(?![ \t\r\n]{0,4}(?:\[(?:INST|AVAILABLE_TOOLS|SYSTEM_PROMPT)\]|<\|start_header_id\|>(?!assistant)"
        r"|<\|im_start\|>(?!assistant)|<start_of_turn>(?!model)|<[|\uff5c](?:User|System)[|\uff5c]>))",
        None,
        kind="markup",
        start="message",
        first="<[",
        reader=open_markup,
    ),
    # Last in the table: any call form opening with one of these tokens (`<|call|>NAME<|args|>`) is tried first.
    # A turn-end token after text, where the message ends or another special token follows: markup (`TurnEnd`).
    Dialect("turn_end", TURN_END.pattern, None, kind="markup", first="<[", reader=open_turn_end),
    # The model's own turn header (its template's generation prompt printed again): markup. Another role's
    # header makes the text a transcript (`prose.TRANSCRIPT`), where every token stays text.
    Dialect(
        "own_turn_header",
        r"<\|im_start\|>[ \t]{0,2}assistant[ \t]{0,4}\r?\n|<\|start_header_id\|>assistant<\|end_header_id\|>"
        r"|<start_of_turn>model[ \t]{0,4}\r?\n|<\|assistant\|>"
        # A turn's opener with its role left out, right before a JSON call (mcp-client-for-ollama's tests).
        r'|(?:<\|im_start\|>|<start_of_turn>)(?=[ \t]{0,4}(?:\r?\n[ \t]{0,4})?\[?[ \t]{0,4}\{[ \t\r\n]{0,8}")'
        # The separator of a role from its content (Phi-4's and MiniCPM's `<|im_start|>assistant<|im_sep|>`) written
        # right before a call tag or a JSON call: the turn's structure next to the call.
        r"|<\|im_sep\|>(?=[ \t]{0,4}(?:\r?\n[ \t]{0,4})?"
        r'(?:<[ \t]{0,2}(?:tool|function)|\[?[ \t]{0,4}\{[ \t\r\n]{0,8}"))',
        None,
        kind="markup",
        first="<",
        reader=open_markup,
    ),
]
