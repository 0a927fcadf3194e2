"""How models mark tool calls and reasoning, as data: the family table the user can extend.

Kept for its callers: the table, its row type and `register_dialect` live in `shim.parsing.readers`.
Each `Dialect` is an opening pattern, an optional closing pattern, and the reader of its body. Patterns are
`regex` expressions matched case-insensitively; the parser matches them with ``partial=True`` so a marker
split across chunks (``<tool_`` + ``call>``) is held back, never leaked as text.
"""

from __future__ import annotations

from shim.parsing.readers import DEFAULT_DIALECTS, register_dialect
from shim.parsing.readers.base import Dialect

__all__ = ["DEFAULT_DIALECTS", "Dialect", "register_dialect"]
