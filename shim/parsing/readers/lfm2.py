"""LFM2 (Liquid): ``<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>``.

A pythonic call list between special tokens (read by `shim.parsing.readers.pycall`); a JSON list there is
read too. With the tokens stripped by the engine, the bare list is the untagged pythonic form.
"""

from __future__ import annotations

from shim.parsing.readers.base import Dialect
from shim.parsing.readers.pycall import inner_row, open_list

__all__ = ["ROWS"]


ROWS = [
    Dialect("lfm2", r"<\|tool_call_start\|>", r"<\|tool_call_end\|>", reader=open_list),
    inner_row("lfm2_call", ("lfm2",)),
]
