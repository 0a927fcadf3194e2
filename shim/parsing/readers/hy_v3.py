"""Tencent Hunyuan 3 (HY V3, Hy3): ``<tool_call>NAME<tool_sep>`` then JSON arguments or ``<arg_key>`` pairs.

    <tool_call:opensource>get_weather<tool_sep:opensource>{"city": "Paris"}<end_of_tool_call:opensource>
    <tool_calls><tool_call>get_weather<tool_sep>
    <arg_key>city</arg_key><arg_value>Paris</arg_value>
    </tool_call></tool_calls>

(Rapid-MLX ``vllm_mlx/tool_parsers/hy_v3_tool_parser.py``, ported from vLLM's ``HYV3ToolParser`` and SGLang's
``hunyuan_detector``.) Every token may carry the checkpoint's label after its name (``<tool_sep:opensource>``);
Rapid-MLX resolves it from the vocabulary, so any label is read, and none. The family is the ``<tool_call>`` row's
body read two ways, so this module holds its tokens and the rest of the table uses them:

- the name, then the separator token, then a JSON object: the name-first body of any call tag
  (`shim.parsing.readers.tagged_json`), which takes `SEP` where a colon may stand;
- the name, then ``<arg_key>``/``<arg_value>`` pairs (the separator optional): GLM's pairs
  (`shim.parsing.readers.glm`), which end at `END_OF_CALL` as they end at ``</tool_call>``.

Leniencies, each from the engines' parser tests or their notes on real 4-bit checkpoints:

- the call ends with ``<end_of_tool_call>`` (Rapid-MLX, the chat template's own emission) or ``</tool_call>``
  (vLLM's tests), inside ``<tool_calls>`` or not;
- a stray pair token (``<arg_value>``, ``</arg_value>``, ``<arg_key>``, ``<tool_sep>``) between the arguments and
  ``<end_of_tool_call>`` is the family's markup (a 4-bit checkpoint's ``{"radius": 5}<arg_value><end_of_tool_call>``);
- the name followed straight by a pair closer (``<tool_call>get_weather</arg_value>``, Rapid-MLX's salvage of
  another 4-bit shape) or by the call's end is a call with no arguments, as ``<tool_call>NAME</tool_call>`` is.
"""

from __future__ import annotations

__all__ = ["END_OF_CALL", "NAME_THEN_END", "SEP", "STRAY_CLOSER"]

_LABEL = r"(?::[A-Za-z0-9]{1,16})?"
"""The checkpoint's label after a token's name (``:opensource``), as `shim.parsing.readers.tagged_json.SUFFIX`."""

SEP = r"[ \t]{0,4}<[|\uff5c]?tool[_\u2581]sep" + _LABEL + r"[|\uff5c]?>"
"""The separator token between the name and the arguments (HY V3's ``<tool_sep>``; the full-width bars
of DeepSeek's tokens too): markup."""

_PAIR_TOKEN = r"<(?:/?arg_(?:key|value)|tool_sep)" + _LABEL + r">"
END_OF_CALL = rf"(?:{_PAIR_TOKEN}[ \t\r\n]{{0,4}}){{0,2}}<end_of_tool_call{_LABEL}>"
"""HY V3's end of one call, with up to two stray pair tokens a quantised checkpoint leaves before it: markup."""

STRAY_CLOSER = rf"</arg_value{_LABEL}>"
"""A pair's value closer where a pair (or the call's end) should begin: the call ends there, its pairs are over
(``<tool_call>get_weather</arg_value>``: a quantised checkpoint's call with no arguments)."""

NAME_THEN_END = rf"<end_of_tool_call{_LABEL}>|{STRAY_CLOSER}"
"""What may follow a bare name in ``<tool_call>`` for it to be a call with no arguments, besides ``</tool_call>``."""
