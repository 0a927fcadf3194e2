"""What grammar building may cost, and what happens when its engine is not installed.

The GBNF converter (llama-cpp-python's) writes a repetition bound out in full: ``maxLength: 10**7`` is an
80 MB grammar, ``maxLength: 10**9`` a MemoryError, and the pattern ``^a{0,100000000}$`` a 17-second stall
with 2 GB of memory. `check_grammar_bounds` refuses such a schema before the converter sees it, with a
`ConfigError` (a 400 at the server) that names the field. The bounds are far above what real tool schemas
use (lengths in the hundreds or thousands).

The converter comes from the optional ``llama`` extra. A server whose upstream is ``llama-server`` needs it
only to write the grammar; without it constraint is turned off (one log line for the process, and the
response header ``x-shim-constrain`` for each request it affects), never a failed request:
`converter_module` imports it or raises `GrammarUnavailable`, and tells the request (`shim.notices`).
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Mapping
from typing import Any, cast

from shim.errors import ConfigError, ShimError
from shim.notices import notice

__all__ = [
    "MAX_GRAMMAR_REPEAT",
    "MAX_PATTERN_SIZE",
    "GrammarUnavailable",
    "check_grammar_bounds",
    "converter_module",
    "pattern_size",
]

logger = logging.getLogger("shim.constrain")

MAX_GRAMMAR_REPEAT = 10_000
"""Largest ``maxLength``/``minLength``/``maxItems``/``minItems``/``maxProperties`` a grammar is built for."""
MAX_PATTERN_SIZE = 10_000
"""Largest size of a ``pattern`` once its repetitions are written out (``a{0,100}`` counts 100)."""
_MAX_WALK = 100_000
"""Most schema nodes looked at (the request reader bounds a schema's depth and size already)."""
_BOUND_KEYS = ("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties")


class GrammarUnavailable(ShimError):
    """llama-cpp-python, which writes GBNF grammars, is not installed (the ``llama`` extra)."""


_warned = False


def converter_module() -> Any:
    """``llama_cpp.llama_grammar``.

    Raises:
        GrammarUnavailable: llama-cpp-python is not installed; logged once for the process.
    """
    global _warned
    try:
        return importlib.import_module("llama_cpp.llama_grammar")
    except ImportError:
        if not _warned:
            _warned = True
            logger.warning(
                "constrained decoding is off: writing a GBNF grammar needs llama-cpp-python "
                "(pip install 'shim[llama]'); requests are served without it"
            )
        notice("x-shim-constrain", "off; llama-cpp-python is not installed")
        raise GrammarUnavailable("writing a GBNF grammar needs llama-cpp-python (pip install 'shim[llama]')") from None


def check_grammar_bounds(schema: Any, where: str) -> None:
    """Refuse a schema whose grammar would be too large to build (see the module docstring).

    Args:
        schema: The JSON schema.
        where: How the error names the schema (``tools[0].function.parameters``).

    Raises:
        ConfigError: a bound or a pattern over the limit, naming the field.
    """
    stack: list[tuple[Any, str]] = [(schema, where)]
    seen = 0
    while stack and seen < _MAX_WALK:
        node, path = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend((item, f"{path}[{n}]") for n, item in enumerate(node))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            continue
        if not isinstance(node, Mapping):
            continue
        data: Mapping[str, Any] = node  # pyright: ignore[reportUnknownVariableType]
        for key in _BOUND_KEYS:
            value = data.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > MAX_GRAMMAR_REPEAT:
                raise ConfigError(
                    f"{path}.{key} is {value:g}; constrained decoding takes at most {MAX_GRAMMAR_REPEAT} "
                    "(lower it, or drop it and let the answer be checked after generation)"
                )
        pattern = data.get("pattern")
        if isinstance(pattern, str) and pattern_size(pattern) > MAX_PATTERN_SIZE:
            raise ConfigError(
                f"{path}.pattern repeats too much for a grammar ({pattern[:60]!r}...): written out it would be "
                f"over {MAX_PATTERN_SIZE} items; use smaller repetition counts"
            )
        for key, value in data.items():
            if isinstance(value, (Mapping, list)):
                stack.append((cast(Any, value), f"{path}.{key}"))


_TOKEN = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]|\{(\d*)(?:,(\d*))?\}|[()|]|[*+?]|.", re.S)


def _count(digits: str) -> int:
    return int(digits) if 0 < len(digits) <= 12 else (10**12 if digits else 0)


def pattern_size(pattern: str) -> int:
    """How many items ``pattern`` becomes with its ``{m,n}`` repetitions written out (nested ones multiply,
    alternatives add); an upper estimate, computed in one pass without backtracking."""
    # Each open group keeps (size of its finished items, size of its last item).
    stack: list[list[int]] = [[0, 0]]
    for match in _TOKEN.finditer(pattern):
        token = match.group(0)
        top = stack[-1]
        if token == "(":
            stack.append([0, 0])
        elif token == ")" and len(stack) > 1:
            inner = stack.pop()
            group = inner[0] + inner[1]
            top = stack[-1]
            top[0] += top[1]
            top[1] = group
        elif token == "|":
            top[0] += top[1]
            top[1] = 0
        elif match.group(1) is not None:
            high = match.group(2)
            top[1] *= max(_count(match.group(1)), _count(high) if high else 0, 1)
        elif token in ("*", "+", "?"):
            pass  # unbounded repetition is a rule that refers to itself: no larger than its item
        else:
            top[0] += top[1]
            top[1] = 1
        if top[0] + top[1] > 10 * MAX_PATTERN_SIZE:
            return top[0] + top[1]  # enough to refuse; the rest need not be read
    while len(stack) > 1:  # unbalanced: close what is open
        inner = stack.pop()
        stack[-1][0] += stack[-1][1]
        stack[-1][1] = inner[0] + inner[1]
    return stack[0][0] + stack[0][1]
