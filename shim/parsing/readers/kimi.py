"""Kimi K2: calls between special tokens, each named ``functions.NAME:INDEX``.

    <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>
    {"city": "Beijing"}<|tool_call_end|><|tool_calls_section_end|>

(On one line; token spellings: vLLM ``kimi_k2_tool_parser.py``, SGLang ``function_call/kimik2_detector.py``.) The
``functions.`` prefix and the ``:INDEX`` suffix are optional.
"""

from __future__ import annotations

from shim.parsing.readers.base import Dialect
from shim.parsing.readers.sectioned import SEPARATOR, Tokens, head_name, section_reader

__all__ = ["ROWS", "TOKENS"]

SECTION_BEGIN, SECTION_END = r"<\|tool_calls_section_begin\|>", r"<\|tool_calls_section_end\|>"
CALL_BEGIN, CALL_END = r"<\|tool_call_begin\|>", r"<\|tool_call_end\|>"
TOKENS = Tokens(CALL_BEGIN, SEPARATOR, CALL_END, SECTION_END, head_name)
EXAMPLE = (
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>"
    '{"key": "value"}<|tool_call_end|><|tool_calls_section_end|>'
)


ROWS = [
    Dialect("kimi_k2", SECTION_BEGIN, SECTION_END, reader=section_reader(TOKENS), example=EXAMPLE),
    Dialect("kimi_k2_call", CALL_BEGIN, CALL_END, reader=section_reader(TOKENS, "head"), example=EXAMPLE),
]
