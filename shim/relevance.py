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

The score of a tool counts the request's content words by where the tool has them: 1 for a word of its name or of
a value its parameters enumerate (``"enum": ["PIZZA", "BURGER"]``: a request naming one is asking for the tool),
0.5 for a word only in its description, 0.25 for one only in its parameters' names and descriptions. Words are
compared by their first five letters (``temperature`` and ``temperatures`` agree), camelCase and snake_case
names are split, and words of two letters or fewer and the common question and command words in `STOP_WORDS`
do not count. A tool that needs a number (a required parameter that is a number, or a list of them, with no
enumerated values) cannot be filled from a request without a digit, and matches nothing then
(`can_fill`): "the probability of getting a face card in a standard deck" is not a question for a coin toss
tool that needs the number of tosses and of heads. It reads English: a request in another language matches
nothing and is left to the model.

A request also matches a tool whose name it holds whole, below the threshold (`names_tool`: a one-word name
such as ``multiply`` or ``calculate_sum`` can score 1 at most). Chosen on questions 25 to 124 (questions
matched: simple 88% to 89%, multiple 80% to 82%, parallel 96% to 96%, live_simple 65% to 69%; irrelevance 12%
to 13%, live_irrelevance 1% to 1%) and checked once on 125 to 399: simple 90% to 91%, multiple 95% to 95%,
parallel 95% to 96%, live_simple 58% to 62%; irrelevance 10% to 10%, live_irrelevance 10.5% to 11.3%.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import cast

from shim.types import ToolSpec

__all__ = ["MATCH_THRESHOLD", "STOP_WORDS", "can_fill", "names_tool", "relevance", "request_matches"]

MATCH_THRESHOLD = 1.5
"""The score from which a request is taken to ask for a tool: one word of the tool's name and one of its
description, two of its name, or three of its description. Chosen on BFCL questions 25 to 74 of simple,
multiple, parallel, live_simple, irrelevance and live_irrelevance: it matches 79% of the questions a tool
answers and 11% of the others (at 1.0: 91% and 21%; at 2.0: 66% and 6%), the best balance of the three.
The weights of parameter words and enumerated values and the `can_fill` rule were chosen on questions 25 to
124 of the same six categories (100 each), against name and description alone at this threshold: simple 89%
to 88% of the questions matched, multiple 80% to 80%, parallel 93% to 96%, live_simple 63% to 65%;
irrelevance 16% to 12%, live_irrelevance 1% to 1%; checked once on questions 125 to 399 (as many as each
category has): simple 87% to 90%, multiple 88% to 95%, parallel 95% to 95%, live_simple 52% to 58%,
irrelevance 12% to 10%, live_irrelevance 10% to 10%."""

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


_DIGIT = re.compile(r"\d")
_NUMBER_TYPES = frozenset({"number", "integer"})


def schema_properties(schema: object) -> dict[str, dict[str, object]]:
    """A JSON schema's properties that are objects, by name (nothing for anything else)."""
    if not isinstance(schema, dict):
        return {}
    props = cast("dict[str, object]", schema).get("properties")
    if not isinstance(props, dict):
        return {}
    return {
        str(k): cast("dict[str, object]", v)
        for k, v in cast("dict[object, object]", props).items()
        if isinstance(v, dict)
    }


def _enumerated(prop: dict[str, object]) -> list[object]:
    values = prop.get("enum")
    items = prop.get("items")
    if not isinstance(values, list) and isinstance(items, dict):
        values = cast("dict[str, object]", items).get("enum")
    return cast("list[object]", values) if isinstance(values, list) else []


def _parameter_words(tool: ToolSpec) -> tuple[set[str], set[str]]:
    """The words of the tool's parameters' names and descriptions, and those of their enumerated values."""
    described: set[str] = set()
    values: set[str] = set()
    for name, prop in schema_properties(tool.input_schema).items():
        described |= _words(name)
        text = prop.get("description")
        described |= _words(text) if isinstance(text, str) else set()
        values |= {w for v in _enumerated(prop) if isinstance(v, str) for w in _words(v)}
    return described, values


def _needs_number(prop: dict[str, object]) -> bool:
    if _enumerated(prop):
        return False  # an enumerated value can be named in words
    kind = prop.get("type")
    items = prop.get("items")
    if kind == "array" and isinstance(items, dict):
        kind = cast("dict[str, object]", items).get("type")
    return isinstance(kind, str) and kind in _NUMBER_TYPES


def can_fill(request: str, tool: ToolSpec) -> bool:
    """Whether ``request`` could give the tool its required numbers: False only for a tool with a required
    number parameter (or list of numbers, not enumerated) and a request without a single digit."""
    if _DIGIT.search(request):
        return True
    schema = tool.input_schema
    required = schema.get("required")
    names = [str(n) for n in cast("list[object]", required)] if isinstance(required, list) else []
    props = schema_properties(schema)
    return not any(_needs_number(props[n]) for n in names if n in props)


def relevance(request: str, tool: ToolSpec) -> float:
    """How much ``request`` is about ``tool``: its content words in the tool's name or enumerated values count 1,
    those only in its description 0.5, those only in its parameters' names and descriptions 0.25 (see the
    module docstring)."""
    asked = _words(request)
    parameters, values = _parameter_words(tool)
    strong = _words(tool.name) | values
    described = _words(tool.description) - strong
    parameters -= strong | described
    return len(asked & strong) + 0.5 * len(asked & described) + 0.25 * len(asked & parameters)


def names_tool(request: str, tool: ToolSpec) -> bool:
    """Every content word of the tool's name is in ``request`` ("the sum of 133 and 34" for ``calculate_sum``,
    "the multiplication of 3 and 2" for ``multiply``): a request that names the tool whole asks for it, however
    few words that name has."""
    name = _words(tool.name)
    return bool(name) and name <= _words(request)


def request_matches(request: str, tools: Iterable[ToolSpec], threshold: float = MATCH_THRESHOLD) -> bool:
    """Some tool the request `can_fill` has a `relevance` to it that reaches ``threshold``, or is named whole
    by it (`names_tool`)."""
    return any(
        (relevance(request, tool) >= threshold or names_tool(request, tool)) and can_fill(request, tool)
        for tool in tools
    )
