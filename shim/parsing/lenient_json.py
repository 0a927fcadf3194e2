"""Lenient JSON: strict ``json.loads`` first, the Lark grammar in ``grammars/lenient_json.lark`` when it fails.

The grammar's header lists every leniency. What it cannot express lives here: closing brackets missing at
the end of the input (found with the interactive parser's ``accepts()``, so a cut after ``:`` or inside a
string is still an error). The string/number normalisation is the incremental scanner's (``json_scan``), so
the argument chunks it streams always decode to what this module returns.

This module is the one entry point for JSON in model text: `loads` for a whole text, `value_at` for the value
that starts at a position inside a longer text (its extent found by the scanner, so each candidate is read once).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer, v_args  # pyright: ignore[reportUnknownVariableType]
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from shim.parsing.json_scan import MAX_DEPTH, JsonScanner, Status, normalize_number, normalize_string_unit
from shim.parsing.pythonic import folded_arithmetic
from shim.resources import data_dir

__all__ = [
    "MAX_DEPTH",
    "LenientJSONError",
    "loads",
    "loads_object",
    "matched_closers",
    "nesting_depth",
    "normalize_number",
    "normalize_string_unit",
    "value_at",
]


class LenientJSONError(ValueError):
    """The text is not JSON even by the lenient grammar; the message says where and why."""


_UNIT = re.compile(r"\\u[0-9a-fA-F]{4}|\\[\s\S]|[\"\x00-\x1f]")


def _decode_string(token: str) -> str:
    body = token[1:-1]
    if token[0] == '"':
        try:
            return json.loads(token)
        except ValueError:
            pass
    return json.loads('"' + _UNIT.sub(lambda m: normalize_string_unit(m.group()), body) + '"')


class _ToPython(Transformer[Token, Any]):
    def __init__(self, *, bare_words: bool, typographic: bool) -> None:
        super().__init__()
        self.bare_words = bare_words
        self.typographic = typographic

    def string(self, tokens: list[Token]) -> str:
        return "".join(_decode_string(str(token)) for token in tokens)  # `"abc" + "def"`: one string

    def typo_string(self, tokens: list[Token]) -> str:
        if not self.typographic:
            raise LenientJSONError(f"{str(tokens[0])[:1]!r} is no JSON quote (strings need straight quotes)")
        return _decode_string(str(tokens[0]))

    @v_args(inline=True)
    def bare_word(self, token: Token) -> str:
        if not self.bare_words:
            raise LenientJSONError(f"unquoted text {str(token)!r} is not a JSON value (strings need quotes)")
        return str(token)

    @v_args(inline=True)
    def arithmetic(self, token: Token) -> int | float:
        value = folded_arithmetic(str(token))
        if value is None:
            raise LenientJSONError(f"{str(token)!r} is no arithmetic on numbers")
        return value

    @v_args(inline=True)
    def number(self, token: Token) -> int | float:
        text = normalize_number(str(token))
        if text is None:
            raise LenientJSONError(f"{str(token)!r} is not a number")
        result: int | float = json.loads(text)
        return result

    def true(self, _: list[Any]) -> bool:
        return True

    def false(self, _: list[Any]) -> bool:
        return False

    def null(self, _: list[Any]) -> None:
        return None

    @v_args(inline=True)
    def key(self, token: Token | str) -> str:
        return str(token)

    @v_args(inline=True)
    def pair(self, key: str, value: Any) -> tuple[str, Any]:
        return key, value

    @v_args(inline=True)
    def glued_key(self, token: Token) -> str:
        return str(token)[1:-1]  # `"data'`: the word between the mismatched quotes

    @v_args(inline=True)
    def unopened_key(self, token: Token) -> str:
        return str(token)[:-1]  # `maxDists"`: the word before the quote that closes it

    @v_args(inline=True)
    def glued_pair(self, token: Token, value: Any) -> tuple[str, Any]:
        return str(token)[1:-1], value  # `"parameters>` / `"name"` before a comma: the word inside

    @v_args(inline=True)
    def open_key_pair(self, token: Token, value: Any) -> tuple[str, Any]:
        return str(token)[1:], value  # `"arguments` (its closing quote left out): the word after the quote

    def object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        return dict(pairs)

    def array(self, items: list[Any]) -> list[Any]:
        return list(items)


@cache
def _parser() -> Lark:
    grammar = (data_dir("grammars") / "lenient_json.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False)


_CLOSERS = {"RBRACE": "}", "RSQB": "]"}


_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|\'[^\'\\]*(?:\\.[^\'\\]*)*\'?|[\[\]{}]', re.DOTALL)


def nesting_depth(text: str) -> int:
    """How deeply brackets nest outside strings (a quick count first: most texts have few brackets)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0
    depth = deepest = 0
    for token in _NESTING.findall(text):
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


def loads(text: str, *, strict: bool = False, bare_words: bool = False, typographic: bool | None = None) -> Any:
    """Parse JSON as models write it.

    Args:
        strict: accept strict JSON only (still never raising anything but `LenientJSONError`).
        bare_words: read an unquoted word as a string (``{"city": Seoul}``): only for the body of a tagged call
            block, where the tag vouches for the call; in prose an unquoted value means it was never JSON.
        typographic: read a string or key in typographic quotes (``{“city”: “Paris”}``) as one; by default where bare
            words are read (the grammar's TYPO_STRING).

    Raises:
        LenientJSONError: not JSON even leniently (or nested deeper than `MAX_DEPTH`); the message names the
            position and what was expected.
    """
    if nesting_depth(text) > MAX_DEPTH:
        raise LenientJSONError(f"the JSON is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text)
    except ValueError:
        if strict:
            raise LenientJSONError("not strict JSON") from None
    typographic = bare_words if typographic is None else typographic
    try:
        return _lenient(text, bare_words=bare_words, typographic=typographic)
    except LenientJSONError:
        repaired = matched_closers(text)
        if repaired == text:
            raise
        try:
            return _lenient(repaired, bare_words=bare_words, typographic=typographic)
        except LenientJSONError:
            pass
        raise


def loads_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, read as `loads` reads it; None when it is no JSON or no object (the
    readers' question "are these the arguments?", asked the same way everywhere)."""
    try:
        value = loads(text)
    except LenientJSONError:
        return None
    return cast("dict[str, Any]", value) if isinstance(value, dict) else None


def matched_closers(text: str) -> str:
    """``text`` with the brackets a closer skips closed before it (``[{'a': {'b': 1}]``: a ``}`` left out, the
    list closed over it), outside strings; the grammar then decides whether every value in them was whole."""
    stack: list[str] = []
    out: list[str] = []
    last = 0
    for found in _NESTING.finditer(text):
        token = found.group()
        if token in ("[", "{"):
            stack.append(token)
        elif token in ("]", "}"):
            opener = "[" if token == "]" else "{"
            if stack and stack[-1] != opener and opener in stack:
                missing: list[str] = []
                while stack[-1] != opener:
                    missing.append("}" if stack.pop() == "{" else "]")
                out.append(text[last : found.start()] + "".join(missing))
                last = found.start()
            if stack:
                stack.pop()
    return "".join(out) + text[last:] if out else text


_KEY_AHEAD = re.compile(r'"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*"[ \t]*:')
_MAX_COMMAS = 8
"""How many commas left out before keys `loads` puts back in one text."""


def _missing_comma(text: str, at: int, *, bare_words: bool = False) -> str | None:
    """``text`` with a comma where one was left out before a key (``"id": "x"`` then ``"function": …`` on the next
    line, as models write objects one member a line, or after a blank on the same line), or None: the grammar
    stopped at ``at`` on a ``"key":`` that a gap, and no comma, separates from the value before it."""
    if _KEY_AHEAD.match(text, at) is None:
        return None
    value_end = len(text[:at].rstrip(" \t\r\n"))
    ends = ",:{[" if bare_words else None  # a bare word may end in any other character
    last = text[value_end - 1 : value_end]
    if value_end == at or (last in ends if ends is not None else last not in tuple("\"'}]el0123456789")):
        return None  # no gap, or no value (a string, object, list, literal, number) before it
    return text[:value_end] + "," + text[value_end:]


def _lenient(text: str, commas: int = _MAX_COMMAS, *, bare_words: bool = False, typographic: bool = False) -> Any:
    parser = _parser()
    try:
        interactive: Any = parser.parse_interactive(text)  # pyright: ignore[reportUnknownMemberType]  # untyped in lark
        interactive.exhaust_lexer()
        # Add closing brackets while the grammar wants nothing else: this completes `{"a": {"b": 1}`
        # but not `{"a": ` (which wants a value) nor an open string (the lexer already failed on it).
        for _ in range(text.count("{") + text.count("[") + 1):
            accepts: set[str] = interactive.accepts()
            if "$END" in accepts:
                break
            closers = [name for name in accepts if name in _CLOSERS]
            if len(closers) != 1:
                raise LenientJSONError(_incomplete_message(text, accepts))
            interactive.feed_token(Token(closers[0], _CLOSERS[closers[0]]))
        tree: Any = interactive.feed_eof()
        return _ToPython(bare_words=bare_words, typographic=typographic).transform(tree)
    except LenientJSONError:
        raise
    except UnexpectedCharacters as exc:
        raise LenientJSONError(
            _position_message(text, exc, f"unexpected character {text[exc.pos_in_stream]!r}")
        ) from None
    except UnexpectedToken as exc:
        token: Any = exc.token
        start = getattr(token, "start_pos", None)
        if (
            commas
            and isinstance(start, int)
            and (repaired := _missing_comma(text, start, bare_words=bare_words)) is not None
        ):
            return _lenient(repaired, commas - 1, bare_words=bare_words, typographic=typographic)
        what = "the end of the text" if getattr(token, "type", None) == "$END" else repr(str(token))
        raise LenientJSONError(_position_message(text, exc, f"unexpected {what}")) from None
    except UnexpectedEOF:
        raise LenientJSONError("the JSON ends before it is complete") from None
    except VisitError as exc:  # the transformer refused a value (a bare word where none is allowed)
        if isinstance(exc.orig_exc, LenientJSONError):
            raise exc.orig_exc from None
        raise LenientJSONError(f"not valid JSON: {exc.orig_exc}") from None
    except LarkError as exc:  # grammar-level failures carry no position
        raise LenientJSONError(f"not valid JSON: {exc}") from None
    except RecursionError:  # the depth check above makes this unreachable; kept so no input can crash
        raise LenientJSONError(f"the JSON is nested more than {MAX_DEPTH} levels deep") from None


_STRICT = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


def value_at(text: str, start: int = 0) -> tuple[Any, int] | None:
    """The JSON value that begins at ``start`` (after any whitespace) and the index just past it, or None.

    Read as `loads` reads (strict JSON first, then ``{'a': 'b'}``, trailing commas, comments), except that
    missing closers are not added: the value must end within the text. Nested deeper than `MAX_DEPTH` is None.
    What follows the value is left alone, so a value inside prose, a code fence or a template's rendering is
    found where it stands.
    """
    start = _SPACE.match(text, start).end()  # type: ignore[union-attr]  # `*` always matches
    try:
        value, end = _STRICT.raw_decode(text, start)
    except (ValueError, RecursionError):  # not strict JSON (or nested too deep for the C decoder)
        pass
    else:
        return None if nesting_depth(text[start:end]) > MAX_DEPTH else (value, end)
    end, status = JsonScanner(stop_chars="", capture=False).feed(text, start, final=True)
    if status is not Status.DONE:
        return None
    try:
        return loads(text[start:end]), end
    except LenientJSONError:
        return None


def _position_message(text: str, exc: UnexpectedInput, what: str) -> str:
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    where = f" at line {line}, column {column}" if isinstance(line, int) and line > 0 else ""
    if text.count('"') % 2 == 1 or text.count("'") % 2 == 1:
        what += " (is a string left unclosed?)"
    return f"not valid JSON: {what}{where}"


_WANTS = {"COLON": "':'", "COMMA": "','", "RBRACE": "'}'", "RSQB": "']'", "NAME": "a key", "DQ_STRING": "a value"}


def _incomplete_message(text: str, expected: set[str]) -> str:
    tail = text.rstrip()[-20:]
    wants = sorted({_WANTS.get(name, "a value") for name in expected - {"$END"}}) or ["more input"]
    return f"the JSON is cut off after {tail!r}: it still needs {' or '.join(wants)}"
