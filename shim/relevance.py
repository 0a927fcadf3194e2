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

A tool the request's words match is still not the one asked for when the request asks for another thing of the
same subject (`asks_for_another`): "What is the acceleration a ball will reach if thrown upwards at 5 m/s?"
shares five words with a tool that computes the maximum height a thrown object reaches, and "Compute the
derivative of '2x' at 1" two with one that computes a definite integral. What a request asks for is the
noun phrase after its lead ("what is the ...", "compute the ..."); the tool does not name it (in its name,
its description or a value it enumerates), and the request names nothing of the tool's own name but a
generic verb ("compute"). Chosen on questions 25 to 124 (questions matched: irrelevance 13% to 11%, simple,
multiple, parallel, live_simple and live_irrelevance unchanged) and checked on 125 and up (every question each
category has): parallel 96% to 95% (the "total distance" asked of a Euclidean norm tool), live_irrelevance 22.3%
to 22.1%, the others unchanged. SmolLM2-135M asked the four questions of 25 and up whose decision changes got 0
of them right before and 3 after."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import cast

from shim.types import ToolSpec

__all__ = [
    "MATCH_THRESHOLD",
    "STOP_WORDS",
    "asked_for",
    "asks_for_another",
    "can_fill",
    "names_tool",
    "relevance",
    "request_matches",
]

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


_ASK = re.compile(
    r"(?:^|[.?!]\s+)(?:(?:hey|hi|hello|ok|okay|so)[,!]?\s+)?"
    r"(?:(?:please|can you|could you|would you|i want to|i need to|help me|i'd like to)\s+)?"
    r"(?:what(?:'s|\u2019s| is| are| was| were| will be| would be)"
    r"|(?:compute|calculate|find|determine|estimate|tell me|give me|get|show me)(?: me)?)"
    r"\s+the\s+([a-z][a-z\s-]*)",
    re.IGNORECASE,
)
"""A request's lead and the words after its definite article: "What is the acceleration a ball ...",
"Compute the derivative of ...". Only at the start of the request or of one of its sentences (a question
quoted inside a request is not what it asks), and only "the" (a thing asked for; "find a supermarket" asks
for one of a kind, which a tool may name otherwise)."""

_PHRASE_END_TEXT = (
    "of for in on at if when with to by from a an the that which who will would is are was be it its and or as "
    "after before between"
)
_PHRASE_END = frozenset(_PHRASE_END_TEXT.split())
"""The words that end the noun phrase a request asks for."""

_CONTAINERS_TEXT = "list number amount one kind type set name names details information info total"
_CONTAINERS = frozenset(_CONTAINERS_TEXT.split())
"""Words that say how much or which of a thing is asked for ("the list of ...", "the number of ..."): the
thing is the phrase after their "of"."""

_GENERIC_VERBS_TEXT = (
    "compute calculate get find fetch retrieve search lookup look check estimate determine perform make create run"
)
_GENERIC_VERBS = frozenset(_GENERIC_VERBS_TEXT.split())
"""The verbs tool names begin with: a request that shares only these with a name names not its
concept."""

_SHORT = 4
"""Asked-for words and the tool's words agree by their first four letters ("root" and "roots")."""


def asked_for(request: str) -> set[str] | None:
    """The content words of what ``request`` asks for (the noun phrase after "what is the", "compute the"
    and the like, at the start of one of its sentences), by their first four letters; None when no sentence
    starts so, or the phrase has no content word."""
    found = _ASK.search(request)
    if found is None:
        return None
    words = re.findall(r"[a-z]+", found.group(1).lower())
    while len(words) > 2 and words[0] in _CONTAINERS and words[1] == "of":
        words = words[2:]
        while words and words[0] in ("the", "a", "an", "all", "my", "some"):
            words = words[1:]
    phrase: list[str] = []
    for word in words:
        if word in _PHRASE_END:
            break
        phrase.append(word)
    asked = {w[:_SHORT] for w in _words(" ".join(phrase))}
    return asked or None


def asks_for_another(request: str, tool: ToolSpec) -> bool:
    """``request`` asks for something ``tool`` does not name (`asked_for` shares no word with the tool's name,
    description or enumerated values), and names nothing of the tool's own name but a generic verb: a tool on
    the same subject, not the one asked for (see the module docstring)."""
    asked = asked_for(request)
    if asked is None:
        return False
    _, values = _parameter_words(tool)
    named = _words(tool.name) | _words(tool.description) | values
    if asked & {w[:_SHORT] for w in named}:
        return False
    own = {w[:_SHORT] for w in _words(tool.name)} - {v[:_SHORT] for v in _GENERIC_VERBS}
    return not own & {w[:_SHORT] for w in _words(request)}


def request_matches(request: str, tools: Iterable[ToolSpec], threshold: float = MATCH_THRESHOLD) -> bool:
    """Some tool the request `can_fill` has a `relevance` to it that reaches ``threshold``, or is named whole
    by it (`names_tool`), and the request does not ask for another thing than that tool (`asks_for_another`)."""
    return any(
        (relevance(request, tool) >= threshold or names_tool(request, tool))
        and can_fill(request, tool)
        and not asks_for_another(request, tool)
        for tool in tools
    )
