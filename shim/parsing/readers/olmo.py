"""OLMo 3: ``<function_calls>get_weather(location="NYC")</function_calls>``, one call per line.

Python-style calls with JSON literals (``true``, ``null``) inside the same wrapper Claude-style XML uses; the
wrapper is a plain word, so a call there counts only when it names an offered tool (`known_only`).
"""

from __future__ import annotations

from shim.parsing.readers.pycall import inner_row

__all__ = ["ROWS"]


# The <function_calls> wrapper row is Claude-style XML's (`minimax.py`): one row of that name in the table.
ROWS = [inner_row("olmo_call", ("function_calls",), known_only=True)]
