"""Steering a small model's further calls toward the values its user named that no call has used yet.

Under a forced grammar SmolLM2-135M writes a second call when asked for several things, but greedy decoding
copies the first call's values into it (`shim.request_values`). `Steer` follows the reply's text; inside the
arguments of a call after the first, where a value starts (after ``:``, ``[`` or an array's ``,``, and right
after a string's opening quote), it adds `BONUS` to the logit of the first token of every value of the request
that no call in the reply holds yet (but not a token that also starts a value a call holds: "6" starts both 6
and 60). Once the current call holds one of them it stops steering that call. The
grammar still decides what is valid, and the model still decides where a value goes: the bonus only makes an
unused value the likelier choice where the model would otherwise copy.

It also winds a call up before the token budget ends (`WRAP_UP_TOKENS`): a model that repeats itself in a
value within the profile's bounds (a list of ten beer pairings of a hundred characters) would otherwise be cut
off mid-call, a malformed call; near the end, the tokens that close a string, an array or an object are
favoured, so the reply ends in a complete call.

And in every call it copies values from the request whole (a profile's ``copy_request_spans``): inside a string
value, when what the model wrote so far starts a span of the request (`shim.request_values.span_continuations`:
"Berkeley" of "Berkeley, CA, USA"), the tokens that continue the span get `COPY_BONUS` (where it starts several,
those of the spans no earlier call holds: "May " of "May 3rd 2022" and "May 18th 2022"); and where a string
value starts under a key whose enumeration the request names ("in Fahrenheit" for a ``unit`` of celsius or
fahrenheit, `shim.request_values.named_choices`), the tokens that begin the named choice get it too.
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Sequence
from typing import Any, cast

from shim.request_values import further_values, request_values, span_continuations

__all__ = ["BONUS", "COPY_BONUS", "WRAP_UP_BONUS", "WRAP_UP_TOKENS", "Steer"]

BONUS = 10.0
"""Added to a steered token's logit."""
COPY_BONUS = 10.0
"""Added to the logit of a token that continues a span of the request, or begins a choice the request names."""
WRAP_UP_TOKENS = 24
"""How many tokens before the end of the budget a call starts to be wound up."""
WRAP_UP_BONUS = 100.0
"""Added to the logit of a closing token while winding up: the grammar still forbids any that does not fit."""


class Steer:
    """The logit bonuses of one constrained generation (see the module docstring)."""

    def __init__(
        self,
        llm: Any,
        values: Sequence[str],
        *,
        opener: str,
        closer: str,
        budget: int | None = None,
        forced: bool = True,
        bonus: float | None = None,
        request: str = "",
        choices: Sequence[tuple[str, Sequence[str]]] = (),
    ) -> None:
        self._budget = budget
        self._forced = forced
        self._generated = 0
        self._closing = _closing_tokens(llm) if budget is not None else {}
        self._end = int(llm.token_eos())
        self._values = list(values)
        self._opener = opener
        self._no_opening = _opening_tokens(llm, opener) if budget is not None and not forced else {}
        self._closer = closer
        self._bonus = BONUS if bonus is None else bonus
        self._first = {v: _first_tokens(llm, v) for v in self._values}
        self._request = request
        self._choices = {key: tuple(values) for key, values in choices}
        self._texts = _token_texts(llm) if request or self._choices else {}
        self._targets: dict[str, str] = {}  # argument -> the value a further call should hold
        self._asked_all = False  # the last call used the request's last values
        self._done: list[str] = []  # the text of each complete call
        self._call = ""  # the current call's text after its opener
        self._in_call = False
        self._tail = ""
        self.bias: dict[int, float] = {}
        """Token id -> bonus for the next token (empty: no steering now)."""

    def feed(self, piece: str) -> None:
        """Take the next generated token's text and work out the bonuses for the token after it."""
        self._generated += 1
        text = piece
        while text:
            if not self._in_call:
                self._tail += text
                at = self._tail.find(self._opener)
                if at < 0:
                    self._tail = self._tail[-len(self._opener) :]
                    break
                self._in_call, self._call, text = True, "", self._tail[at + len(self._opener) :]
                self._tail = ""
                continue
            self._call += text
            end = self._call.find(self._closer)
            if end < 0:
                break
            text = self._call[end + len(self._closer) :]
            self._done.append(self._call[:end])
            self._in_call, self._call = False, ""
            self._targets = further_values(self._request, _arguments(self._done[-1])) if self._request else {}
            # Every value the request names is in a call already: nothing is left to ask for.
            named = request_values(self._request) if self._request else ()
            self._asked_all = bool(named) and all(any(_holds(c, v) for c in self._done) for v in named)
        self.bias = self._wrap_up() or self._ending() or {**self._bonuses(), **self._copy(), **self._analogy()}

    def _wrap_up(self) -> dict[int, float]:
        """Near the end of the token budget, inside a call: every token that closes a string, an array or an
        object gets `WRAP_UP_BONUS`, so the call is finished (its required keys still come, the grammar sees
        to that) before the budget runs out; between the calls of a forced reply, the end of generation; in free
        text (a lazy grammar), no token that could begin the opener, since a call begun there could not end."""
        if self._budget is None or self._budget - self._generated > WRAP_UP_TOKENS:
            return {}
        if self._in_call:
            return self._closing
        return {self._end: WRAP_UP_BONUS} if self._forced else self._no_opening

    def _ending(self) -> dict[int, float]:
        """Between the calls of a forced reply, the end of generation once the calls hold every value the
        request names (`shim.request_values.request_values`)."""
        if self._in_call or not self._forced or not self._asked_all:
            return {}
        return {self._end: COPY_BONUS}

    def _bonuses(self) -> dict[int, float]:
        if not self._in_call or not self._done:
            return {}
        at = _value_text(self._call)
        where = _start_of(at)
        if where is None or (at is not None and at[0] in self._targets):
            return {}  # a value the call before says where to take from (`_analogy`)
        used = [v for v in self._values if any(_holds(call, v) for call in self._done)]
        unused = [v for v in self._values if v not in used]
        if not unused or any(_holds(self._call, v) for v in unused):
            return {}
        # A token that also starts a used value ("6" of 6 and of 60) would steer toward the copy as much as away.
        copied = {t for v in used for t in self._first[v][where]}
        return {t: self._bonus for v in unused for t in self._first[v][where] if t not in copied}

    def _analogy(self) -> dict[int, float]:
        """In a further call, the tokens that write the value the call before it says this argument should hold
        (`shim.request_values.further_values`)."""
        if not self._in_call or not self._targets:
            return {}
        at = _value_text(self._call)
        if at is None or at[0] not in self._targets:
            return {}
        key, quoted, so_far = at
        target = self._targets[key]
        if not quoted and not so_far:
            bare = target if _NUMBER.fullmatch(target) else '"' + target
            wanted = [bare, " " + bare]
        elif target.startswith(so_far) and len(so_far) < len(target):
            wanted = [target[len(so_far) :]]
        else:
            return {}
        return {
            token: COPY_BONUS
            for text in wanted
            for k in range(1, min(len(text), _LONGEST_TOKEN) + 1)
            for token in self._texts.get(text[:k], ())
        }

    def _copy(self) -> dict[int, float]:
        """The tokens that continue a span of the request the current string value starts, or begin a choice
        the request names for the current key (see the module docstring)."""
        if not self._in_call or not self._texts:
            return {}
        inside = _string_value(self._call)
        if inside is None:
            return {}
        key, so_far = inside
        if so_far:
            wanted = span_continuations(self._request, so_far)
            unused = [rest for rest in wanted if not any(_holds(call, so_far + rest) for call in self._done)]
            wanted = unused or wanted
        else:
            wanted = self._choices.get(key, ())
        return {
            token: COPY_BONUS
            for text in wanted
            for k in range(1, min(len(text), _LONGEST_TOKEN) + 1)
            for token in self._texts.get(text[:k], ())
        }


_LONGEST_TOKEN = 32
"""Characters: longer token texts are not looked for."""


def _vocabulary(llm: Any) -> _Vocabulary:
    """The model's token texts, read once per model and kept while it lives: each lookup below is a pass over
    them, where detokenizing the whole vocabulary (262,144 tokens for Gemma 3) at every generation took longer
    than the generation. Keyed by the model itself, so two models loaded at once keep theirs."""
    found = _vocabularies.get(llm)
    if found is None:
        found = _Vocabulary([llm.detokenize([t]).decode("utf-8", errors="ignore") for t in range(int(llm.n_vocab()))])
        _vocabularies[llm] = found
    return found


class _Vocabulary:
    """One model's token texts (by id) and what the steer derives from them, each derived once."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.by_text: dict[str, list[int]] | None = None
        self.closing: dict[int, float] | None = None
        self.opening: dict[str, dict[int, float]] = {}


_vocabularies: weakref.WeakKeyDictionary[Any, _Vocabulary] = weakref.WeakKeyDictionary()


def _token_texts(llm: Any) -> dict[str, list[int]]:
    """The model's tokens by their text (texts longer than any span the steer matches left out)."""
    vocabulary = _vocabulary(llm)
    if vocabulary.by_text is None:
        found: dict[str, list[int]] = {}
        for token, text in enumerate(vocabulary.texts):
            if text and len(text) <= _LONGEST_TOKEN:
                found.setdefault(text, []).append(token)
        vocabulary.by_text = found
    return vocabulary.by_text


def _closing_tokens(llm: Any) -> dict[int, float]:
    """The model's tokens made only of closing quotes, brackets and braces (and spaces), with the wrap-up
    bonus."""
    vocabulary = _vocabulary(llm)
    if vocabulary.closing is None:
        vocabulary.closing = {
            token: WRAP_UP_BONUS
            for token, text in enumerate(vocabulary.texts)
            if text.strip() and set(text) <= _CLOSING_CHARS
        }
    return vocabulary.closing


_CLOSING_CHARS = frozenset('"]} ')


def _opening_tokens(llm: Any, opener: str) -> dict[int, float]:
    """The model's tokens whose text (spaces aside) could begin ``opener`` or holds it, with minus the wrap-up
    bonus."""
    vocabulary = _vocabulary(llm)
    found = vocabulary.opening.get(opener)
    if found is None:
        found = {}
        for token, text in enumerate(vocabulary.texts):
            text = text.lstrip()
            if text and (opener.startswith(text) or opener in text):
                found[token] = -WRAP_UP_BONUS
        vocabulary.opening[opener] = found
    return found


def _first_tokens(llm: Any, value: str) -> dict[str, list[int]]:
    """The tokens a value may start with: inside a string (after its quote), and as a bare value (after the
    colon, with or without a space; a number, or a string's quote with the text glued to it)."""

    def first(text: str) -> list[int]:
        tokens: list[int] = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return tokens[:1]

    return {"string": first(value), "bare": [*first(value), *first(" " + value)]}


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _arguments(call: str) -> dict[str, object]:
    """The arguments of a complete call's text (nothing when it cannot be read)."""
    try:
        body: Any = json.loads(call)
    except ValueError:
        return {}
    arguments: Any = cast("dict[str, Any]", body).get("arguments") if isinstance(body, dict) else None
    return cast("dict[str, object]", arguments) if isinstance(arguments, dict) else {}


def _holds(text: str, value: str) -> bool:
    if _NUMBER.fullmatch(value):
        return re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", text) is not None
    return value.lower() in text.lower()


def _start_of(at: tuple[str, bool, str] | None) -> str | None:
    """Of a `_value_text` result: ``"bare"`` where a value of the call's arguments may start, ``"string"`` right
    after the opening quote of a string value there, else None (something of the value is written already)."""
    if at is None or at[2]:
        return None
    return "string" if at[1] else "bare"


def _string_value(call: str) -> tuple[str, str] | None:
    """``(key, text so far)`` when ``call`` ends inside a string that is an argument's value (or an item of an
    argument's array), else None."""
    at = _value_text(call)
    return (at[0], at[2]) if at is not None and at[1] else None


def _value_text(call: str) -> tuple[str, bool, str] | None:
    """``(key, inside a string, text so far)`` when ``call`` ends where an argument's value (or an item of an
    argument's array) starts or is being written, else None. A bare value's text has no leading space."""
    stack: list[str] = []
    key = ""
    last_string = ""
    expect_value = in_string = is_value_string = escaped = False
    start = bare = -1  # where the string's text, and a bare value, started
    for at, ch in enumerate(call):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
                last_string = call[start:at]
            continue
        if ch == '"':
            in_string, start, bare = True, at + 1, -1
            is_value_string = expect_value or (bool(stack) and stack[-1] == "[")
            expect_value = False
        elif ch in "{[":
            stack.append(ch)
            expect_value, bare = ch == "[", -1
        elif ch in "}]":
            if stack:
                stack.pop()
            expect_value, bare = False, -1
        elif ch == ":":
            expect_value, bare = True, -1
            if stack and stack[-1] == "{":
                key = last_string
        elif ch == ",":
            expect_value, bare = bool(stack) and stack[-1] == "[", -1
        elif not ch.isspace():
            if expect_value:
                bare = at
            expect_value = False
        elif bare >= 0:
            bare = -2  # a space after a bare value: it is whole
    if len(stack) < 2:
        return None
    if in_string:
        return (key, True, call[start:]) if is_value_string else None
    if expect_value:
        return key, False, ""
    return (key, False, call[bare:]) if bare >= 0 else None
