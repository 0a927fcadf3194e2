"""Whether a request is about one of the offered tools, from the words they share: the call decision for models
too small to make it.

Measured on BFCL questions the README's table does not score (`shim.bench.models_track`): SmolLM2-135M-Instruct's
own signals do not tell a question a tool answers from one it does not (60 questions, 25 to 36 of simple,
multiple, irrelevance, live_simple and live_irrelevance: ROC AUC 0.62 for the chance it gives the call opener,
0.27 for "yes" over "no" asked in words, 0.47 for a tool's name over "none"), while the words a request shares
with a tool's name and description do (300 questions, 25 to 74 of those and parallel: AUC 0.90).
A profile with ``call_when_matched`` (`shim.profiles.ModelProfile`) hands that decision to `request_matches`:
a matching request gets a forced call (the grammar picks the tool and writes valid arguments; the model fills
in the values), any other is the model's to answer.

The score of a tool is the number of the request's content words found in the tool's name plus half the number
found only in its description; words are compared by their first five letters (``temperature`` and
``temperatures`` agree), camelCase and snake_case names are split, and words of two letters or fewer and the
common question and command words in `STOP_WORDS` do not count. It reads English: a request in another
language matches nothing and is left to the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from shim.types import ToolSpec

__all__ = ["MATCH_THRESHOLD", "STOP_WORDS", "relevance", "request_matches"]

MATCH_THRESHOLD = 1.5
"""The score from which a request is taken to ask for a tool: one word of the tool's name and one of its
description, two of its name, or three of its description. Chosen on BFCL questions 25 to 74 of simple,
multiple, parallel, live_simple, irrelevance and live_irrelevance: it matches 79% of the questions a tool
answers and 11% of the others (at 1.0: 91% and 21%; at 2.0: 66% and 6%), the best balance of the three."""

_STOP_TEXT = (
    "the and for with what how you this that from can please give find get calculate tell about which who "
    "when where does using use want need some any all into out are was were will would could should has "
    "have had not its our your their there here then than them they tool tools function value values"
)
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""Words too common in requests and tool descriptions to say what either is about."""

_STEM = 5
_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"([a-z])([A-Z])")


def _words(text: str) -> set[str]:
    split = _CAMEL.sub(r"\1 \2", text).replace("_", " ").replace(".", " ")
    found = (w.lower() for w in _WORD.findall(split))
    return {w[:_STEM] for w in found if len(w) > 2 and w not in STOP_WORDS}


def relevance(request: str, tool: ToolSpec) -> float:
    """How much ``request`` is about ``tool``: its content words in the tool's name count 1, those only in the
    tool's description 0.5 (see the module docstring)."""
    asked = _words(request)
    name = _words(tool.name)
    described = _words(tool.description) - name
    return len(asked & name) + 0.5 * len(asked & described)


def request_matches(request: str, tools: Iterable[ToolSpec], threshold: float = MATCH_THRESHOLD) -> bool:
    """Some tool's `relevance` to ``request`` reaches ``threshold``."""
    return any(relevance(request, tool) >= threshold for tool in tools)
