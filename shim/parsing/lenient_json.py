"""Lenient JSON: strict ``json.loads`` first, the Lark grammar in ``grammars/lenient_json.lark`` when it fails.

The grammar's header lists every leniency. Two things it cannot express live here: closing brackets
missing at the end of the input (found with the interactive parser's ``accepts()``, so a cut after ``:``
or inside a string is still an error), and the string/number normalisation that the incremental scanner
(``json_scan``) shares, so the argument chunks it streams always decode to what this module returns.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, v_args  # pyright: ignore[reportUnknownVariableType]
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from shim.resources import data_dir

__all__ = ["MAX_DEPTH", "LenientJSONError", "loads", "nesting_depth", "normalize_number", "normalize_string_unit"]

MAX_DEPTH = 100
"""Deepest nesting of brackets read as JSON; deeper input is an error, never a crash (``RecursionError``)."""


class LenientJSONError(ValueError):
    """The text is not JSON even by the lenient grammar; the message says where and why."""


_SIMPLE_ESCAPES = frozenset('"\\/bfnrt')
_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _escape_char(char: str) -> str:
    """JSON-escape one character that may not appear raw in a JSON string."""
    if char == '"':
        return '\\"'
    if char == "\\":
        return "\\\\"
    if char in _CONTROL:
        return _CONTROL[char]
    if ord(char) < 0x20:
        return f"\\u{ord(char):04x}"
    return char


def normalize_string_unit(unit: str) -> str:
    """Turn one unit of a lenient string body into strict JSON string-body text.

    A unit is an escape sequence (``\\n``, ``\\u00e9``, ``\\'``, ``\\d``), or a single character that strict
    JSON forbids raw (a ``"`` inside a single-quoted string, a control character).
    """
    if unit[0] != "\\":
        return _escape_char(unit)
    esc = unit[1:]
    if esc[:1] == "u" and len(esc) == 5:
        return unit
    if esc in _SIMPLE_ESCAPES:
        return unit
    if esc == "'":
        return "'"
    # An unknown escape (\d, \s, \u12): keep the backslash as a literal character, as Python would.
    return "\\\\" + "".join(_escape_char(c) for c in esc)


_UNIT = re.compile(r"\\u[0-9a-fA-F]{4}|\\[\s\S]|[\"\x00-\x1f]")


def _decode_string(token: str) -> str:
    body = token[1:-1]
    if token[0] == '"':
        try:
            return json.loads(token)
        except ValueError:
            pass
    return json.loads('"' + _UNIT.sub(lambda m: normalize_string_unit(m.group()), body) + '"')


_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


def normalize_number(token: str) -> str | None:
    """Strict JSON text for a lenient number token (``+1``, ``.5``, ``1.``, ``007``), or None if not a number."""
    if _STRICT_NUMBER.fullmatch(token):
        return token
    try:
        value: int | float = int(token) if re.fullmatch(r"[+-]?\d+", token) else float(token)
    except ValueError:
        return None
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    return json.dumps(value)


class _ToPython(Transformer[Token, Any]):
    @v_args(inline=True)
    def string(self, token: Token) -> str:
        return _decode_string(str(token))

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


def loads(text: str, *, strict: bool = False) -> Any:
    """Parse JSON as models write it.

    Args:
        strict: accept strict JSON only (still never raising anything but `LenientJSONError`).

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
        return _ToPython().transform(tree)
    except LenientJSONError:
        raise
    except UnexpectedCharacters as exc:
        raise LenientJSONError(
            _position_message(text, exc, f"unexpected character {text[exc.pos_in_stream]!r}")
        ) from None
    except UnexpectedToken as exc:
        token: Any = exc.token
        what = "the end of the text" if getattr(token, "type", None) == "$END" else repr(str(token))
        raise LenientJSONError(_position_message(text, exc, f"unexpected {what}")) from None
    except UnexpectedEOF:
        raise LenientJSONError("the JSON ends before it is complete") from None
    except LarkError as exc:  # grammar-level failures carry no position
        raise LenientJSONError(f"not valid JSON: {exc}") from None
    except RecursionError:  # the depth check above makes this unreachable; kept so no input can crash
        raise LenientJSONError(f"the JSON is nested more than {MAX_DEPTH} levels deep") from None


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
