"""The values a user's request names (numbers, quoted text, capitalised names), which a small model's further
calls in one reply are steered toward when no call has used them yet.

SmolLM2-135M under a forced grammar does write a second call when asked for several things ("the factorial of
5, 10 and 15"), but greedy decoding copies the first call's values into it, and the repeat ends the reply
(`shim.agent`). A profile with ``steer_further_calls`` hands the engine these values: inside a further call,
where a value starts, the first token of each value no call has used yet gets a logit bonus
(`shim.backends.llamacpp_grammar`), so the next call takes the next thing the user asked for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import cast

from shim.relevance import STOP_WORDS, relevance, schema_properties
from shim.types import ToolSpec

__all__ = ["asks_for_several", "further_values", "grounded", "named_choices", "request_values", "span_continuations"]

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?")
_QUOTED = re.compile(r"'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"")
_NAME = re.compile(r"\b[A-Z][\w.&-]*(?:\s+(?:[A-Z][\w.&-]*|\d+\b))*")
_SENTENCE_START = re.compile(r"(?:^|[.?!]\s+)$")
_MAX_VALUES = 32


def request_values(request: str) -> tuple[str, ...]:
    """The values ``request`` names, in order, without repeats: numbers (thousands separators dropped),
    quoted text, and runs of capitalised words (a leading question or command word left out, and a single
    capitalised word that starts a sentence)."""
    values: list[str] = []
    for _, value in _named(request):
        if value not in values:
            values.append(value)
    return tuple(values[:_MAX_VALUES])


def _named(request: str) -> list[tuple[int, str]]:
    """Where each value `request_values` finds starts, and the value, in order, repeats kept."""
    found: list[tuple[int, str]] = []
    for match in _NUMBER.finditer(request):
        found.append((match.start(), match.group(0).replace(",", "")))
    for match in _QUOTED.finditer(request):
        found.append((match.start(), match.group(1) or match.group(2)))
    for match in _NAME.finditer(request):
        words = match.group(0).split()
        while words and words[0].lower() in STOP_WORDS | _LEADING:
            words.pop(0)
        if len(words) == 1 and _SENTENCE_START.search(request[: match.start()]):
            continue  # a sentence's first word ("Play songs from..."), not a name
        if words:
            found.append((match.start(), " ".join(words).rstrip(".")))
    return [(at, value) for at, value in sorted(found) if value]


_LEADING_TEXT = (
    "i i'd i'm im can could would will what what's whats how find get give show tell calculate compute please "
    "is are do does the a an in on for of and or to my me also plus then"
)
_LEADING = frozenset(_LEADING_TEXT.split())


_SEVERAL_WORDS = re.compile(
    r"\b(also|another|same|each|both|again|as well|respectively|separately|individually)\b", re.IGNORECASE
)
_NAMES_AND = re.compile(r"\b[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*,?\s+and\s+(?:the\s+)?[A-Z]")
_QUOTED_AND = re.compile(r"['\"][^'\"]+['\"],?\s+(?:and|,)\s+['\"]")
_LIST = re.compile(r"\[[^\]]*\]")
_NUMBER_TYPES = frozenset({"number", "integer", "float"})


def asks_for_several(request: str, tools: Sequence[ToolSpec]) -> bool:
    """Whether ``request`` asks for the same thing several times (the cue that a reply holds several calls):
    more numbers than one call of the likeliest tool has number parameters ("the factorial of 5, 10 and 15"),
    a word that says so ("also", "each", "respectively"...), or names or quoted values joined by "and"
    ("Taylor Swift and Maroon 5"). Numbers inside a bracketed list are one value. Chosen on BFCL questions 25
    to 124: true for 89% of parallel questions and for 12% of simple, 9% of multiple and 15% of live_simple
    ones."""
    if _SEVERAL_WORDS.search(request) or _NAMES_AND.search(request) or _QUOTED_AND.search(request):
        return True
    numbers = len(_NUMBER.findall(_LIST.sub(" ", request)))
    if numbers < 2 or not tools:
        return False
    tool = max(tools, key=lambda t: relevance(request, t))
    return numbers > _number_slots(tool)


def _number_slots(tool: ToolSpec) -> int:
    """How many numbers one call of ``tool`` holds (an array parameter holds any number)."""
    slots = 0
    for prop in schema_properties(tool.input_schema).values():
        kind = prop.get("type")
        if kind == "array":
            return 1_000
        slots += kind in _NUMBER_TYPES
    return slots


_SPAN_WORD = r"\w(?:[\w./'&-]*\w)?"
_SPAN_START = re.compile(_SPAN_WORD)
_SPAN_NEXT = re.compile(rf"(?:,\s*(?=[A-Z])|\s+(?=[A-Z0-9]))({_SPAN_WORD})")


def span_continuations(request: str, so_far: str) -> tuple[str, ...]:
    """What may continue ``so_far`` (a string value being written) as a span of ``request``: one text for each
    place the request has it at a word's start with more of its span after it, without repeats.

    A span is a word of the request and the words after it that begin with a capital or a digit, joined by
    spaces (or by commas, before a capital: "2017, 2018" is a list, not one value), up to a lowercase word, a
    sentence's end or a common word ("2020 Addison Street, Berkeley, CA, USA", "New York, NY", "Chennai, Tamil
    Nadu"): a place, a name, an address. A word ends in a letter or a digit (a closing quote or a full stop is
    not part of it). SmolLM2-135M stops such a value at its first comma ("Berkeley" for "Berkeley, CA") or
    misspells its end; when what it wrote so far starts a span of the request,
    the rest of that span is what should follow."""
    if not any(ch.isalnum() for ch in so_far):
        return ()
    found: list[str] = []
    at = request.find(so_far)
    while at >= 0:
        if at == 0 or not request[at - 1].isalnum():
            end = _span_end(request, at)
            rest = request[at + len(so_far) : end]
            if rest and rest not in found:
                found.append(rest)
        at = request.find(so_far, at + 1)
    return tuple(found)


def _span_end(request: str, start: int) -> int:
    first = _SPAN_START.match(request, start)
    if first is None:
        return start
    end = first.end()
    while (nxt := _SPAN_NEXT.match(request, end)) is not None and nxt.group(1).lower() not in STOP_WORDS | _LEADING:
        end = nxt.end()
    return end


def named_choices(request: str, tools: Sequence[ToolSpec]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per parameter of ``tools`` that enumerates strings, the choices ``request`` names as whole words (any
    case): ``(("unit", ("fahrenheit",)),)`` for "...in Fahrenheit?" and a ``unit`` of celsius or fahrenheit.
    SmolLM2-135M picks an enumeration's first choice whatever the request says; a named one is what it should
    pick."""
    found: dict[str, list[str]] = {}
    for tool in tools:
        for name, prop in schema_properties(tool.input_schema).items():
            choices = prop.get("enum")
            if not isinstance(choices, list):
                continue
            for choice in cast("list[object]", choices):
                if not isinstance(choice, str) or not choice.strip():
                    continue
                named = re.search(rf"(?<!\w){re.escape(choice)}(?!\w)", request, re.IGNORECASE)
                if named is not None and choice not in found.setdefault(name, []):
                    found[name].append(choice)
    return tuple((name, tuple(values)) for name, values in found.items() if values)


def further_values(request: str, previous: Mapping[str, object]) -> dict[str, str]:
    """What each argument of a further call should hold, by analogy with the call before it (``previous``, its
    arguments): the request's values after the last one that call used, of the same kind (a number or a text),
    take the places of its arguments whose values came from the request, the last ones first ("Tokyo to
    Sydney on May 18th" after "San Francisco to Tokyo on May 3rd" changes both cities and the date; "in Berlin
    and Madrid" only the city); an argument they do not reach keeps its value (the same company, "also 2018");
    one whose value the request does not hold is left to the model, and so is every one when the request names
    nothing after the values the call used. Values as JSON writes them, without a string's quotes; only arguments
    that are a number or a string.

    SmolLM2-135M's second call takes the unused values but puts them in the wrong places ("Sydney" as where the
    flight leaves from) or keeps a value it should change."""
    named = _named(request)
    # 'Dara Inc' is one value (found quoted and as a name, one character apart), "Tokyo, then Tokyo" two.
    distinct = [i for i in range(len(named)) if i == 0 or named[i][0] > named[i - 1][0] + len(named[i - 1][1]) + 1]
    places = [named[i][0] for i in distinct]
    elements = [named[i][1] for i in distinct]
    used: dict[str, int] = {}  # argument -> the index of the (first) element its value holds
    last = -1
    for key, value in previous.items():
        # An array's items count as used (the stops of one route), but only a number or a string is a place.
        items = cast("list[object]", value) if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                continue
            text = item if isinstance(item, str) else json.dumps(item)
            held = [i for i, e in enumerate(elements) if _same(text, e) or _inside(e, text) or _inside(text, e)]
            if not held:
                continue
            end = held[0]
            # A value that spans several elements ("May 3rd 2022") ends where its text would; not at a repeat.
            while end + 1 in held and places[end + 1] < places[held[0]] + len(text):
                end += 1
            last = max(last, end)
            if item is value:
                used[key] = held[0]
    targets: dict[str, str] = {}
    if not elements[last + 1 :]:
        return targets  # nothing named after what the call used: the unused ones earlier are the model's to place
    for kind in (True, False):  # numbers, then texts
        keys = [key for _, key in sorted((i, key) for key, i in used.items() if _is_number(elements[i]) is kind)]
        new = [e for e in elements[last + 1 :] if _is_number(e) is kind]
        kept = max(len(keys) - len(new), 0)
        for key in keys[:kept]:
            value = previous[key]
            targets[key] = value if isinstance(value, str) else json.dumps(value)
        targets.update(zip(keys[kept:], new, strict=False))
    return targets


def _is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text) is not None


def _same(text: str, element: str) -> bool:
    if _is_number(text) and _is_number(element):
        return float(text) == float(element.replace(",", ""))
    return text.strip(" .").lower() == element.strip(" .").lower()


def _inside(part: str, whole: str) -> bool:
    """Whether ``part`` is part of text ``whole``: a number as a number (not "3" of "30"), a text of three
    characters or more in any case."""
    if _is_number(part):
        return not _is_number(whole) and re.search(rf"(?<![\d.]){re.escape(part)}(?![\d])", whole) is not None
    return len(part) >= 3 and part.lower() in whole.lower()


_ANY_NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?")
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "hundred": 100, "thousand": 1000,
    "dozen": 12, "half": 0.5, "quarter": 0.25, "double": 2, "twice": 2, "once": 1, "single": 1, "pair": 2,
    "first": 1, "second": 2, "third": 3,
}  # fmt: skip
_TEXT_WORD = re.compile(r"[a-z0-9]+")


def grounded(request: str, arguments: Mapping[str, object], tool: ToolSpec) -> bool:
    """Whether every required argument of a call of ``tool`` that is a number or a string has its value in
    ``request``: a number the request writes (in digits, as a share of a hundred, or as a word: "three",
    "half"), a string that shares a word (its first five letters) or a number with it.

    A call forced because the request's words match a tool (a profile's ``call_when_matched``) whose required
    values the request does not hold was made up: on BFCL's questions 25 to 49 every such call SmolLM2-135M
    wrote to a relevant question was wrong anyway (7 of 100), and one was to an irrelevant one."""
    numbers = _numbers(request)
    words = _text_words(request)
    properties = schema_properties(tool.input_schema)
    required = tool.input_schema.get("required", [])
    for name in cast("list[object]", required) if isinstance(required, list) else []:
        value = arguments.get(str(name))
        if str(name) not in properties or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and float(value) not in numbers:
            return False
        if isinstance(value, str) and value.strip() and not (_text_words(value) & words or _numbers(value) & numbers):
            return False
    return True


def _numbers(text: str) -> set[float]:
    found: set[float] = set()
    for match in _ANY_NUMBER.finditer(text):
        value = float(match.group(0).replace(",", ""))
        found |= {value, value / 100, value * 100}
    for word in _TEXT_WORD.findall(text.lower()):
        if word in _NUMBER_WORDS:
            found.add(float(_NUMBER_WORDS[word]))
    return found


def _text_words(text: str) -> set[str]:
    return {word[:5] for word in _TEXT_WORD.findall(text.lower()) if len(word) >= 3 and not word.isdigit()}
