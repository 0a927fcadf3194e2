# ruff: noqa: RUF001, RUF002  (the full-width bars are DeepSeek's real tokens)
"""DeepSeek V3 / V3.1 / R1 special tokens, with full-width bars ``｜`` (or ASCII ``|``) and ``▁``.

    <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"location": "Paris"}<｜tool▁call▁end｜>
    <｜tool▁calls▁end｜>
    <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
    ```json
    {"location": "Paris"}
    ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>

The first is V3.1 (on one line), the second V3 and R1 (token spellings: vLLM ``deepseekv3_tool_parser.py`` and
``deepseekv31_tool_parser.py``, Ollama ``model/parsers/deepseek3.go``). ``<｜end▁of▁sentence｜>`` after the
section is the end-of-sequence token, absorbed as markup.

DeepSeek's result tokens (``<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>…<｜tool▁output▁end｜>``, then
``<｜tool▁outputs▁end｜>``: its template's frame of a tool's answer) are turn structure wherever they
stand: a model that prints them in its answer (Ollama's DeepSeek parser tests:
``Here's the weather: <｜tool▁output▁begin｜>22°C<｜tool▁output▁end｜>``) wrote markup, and the text between
them stays visible.
"""

from __future__ import annotations

from shim.parsing.readers.base import Dialect
from shim.parsing.readers.block_end import open_markup
from shim.parsing.readers.sectioned import SEPARATOR, Tokens, head_name, section_reader

__all__ = ["ROWS", "TOKENS"]


def _token(words: str) -> str:
    return "<[｜|]" + "[▁_]".join(words.split()) + "[｜|]>"  # `▁` or `_` (engines' tests spell both)


CALLS_BEGIN, CALLS_END = _token("tool calls begin"), _token("tool calls end")
CALL_BEGIN, CALL_END = _token("tool call begin"), _token("tool call end")
END_OF_SENTENCE = _token("end of sentence")
OUTPUT_TOKENS = "|".join(_token(f"tool {which} {end}") for which in ("output", "outputs") for end in ("begin", "end"))

TOKENS = Tokens(
    call_begin=CALL_BEGIN,
    separator=SEPARATOR,
    call_end=CALL_END,
    section_end=CALLS_END,
    name_of=head_name,
)
EXAMPLE = (
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>"
    '{"key": "value"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
)


ROWS = [
    Dialect("deepseek", CALLS_BEGIN, f"{CALLS_END}|{END_OF_SENTENCE}", reader=section_reader(TOKENS), example=EXAMPLE),
    # A call whose section opener was left out.
    Dialect("deepseek_call", CALL_BEGIN, CALL_END, reader=section_reader(TOKENS, "head"), example=EXAMPLE),
    # The frame of a tool's result, printed in the answer: markup; what it holds stays text.
    Dialect("deepseek_tool_output", OUTPUT_TOKENS, None, kind="markup", first="<", reader=open_markup),
]
