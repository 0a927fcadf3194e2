"""Llama 4: ``<|python_start|>[get_weather(location='Tokyo')]<|python_end|>``.

A pythonic call list (or JSON) between special tokens, read by `shim.parsing.readers.pycall`.
"""

from __future__ import annotations

from shim.parsing.readers.base import Dialect
from shim.parsing.readers.pycall import inner_row, open_list

__all__ = ["ROWS"]


ROWS = [
    Dialect("llama4_python", r"<\|python_start\|>", r"<\|python_end\|>", reader=open_list),
    inner_row("llama4_call", ("llama4_python",)),
]
