"""Incremental, string-aware scan of one lenient JSON value, as it streams in.

The scanner answers, chunk by chunk, the questions the tag state machine cannot: is this brace inside a
string, has the value ended, is what we have so far complete except for closing brackets? It also pulls
out the call's name as soon as its string closes, and re-emits the ``arguments`` object as strict JSON
text while it streams (single quotes, comments, trailing commas, Python literals normalised), so argument
chunks can be shown live and still concatenate to valid JSON.

It never rescans: each character is looked at once, with regular expressions taking long runs (string
bodies, whitespace) in one step. A token cut by a chunk boundary (``tr``, ``\\u00``) is left unconsumed
and the caller hands it back with the next chunk.

The string and number normalisation lives here and `lenient_json` (the whole-text reader) uses it, so the
argument chunks streamed always decode to what ``lenient_json.loads`` returns.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, cast

import regex

from shim.parsing.pythonic import folded_arithmetic

__all__ = [
    "ARG_KEYS",
    "ARITHMETIC",
    "MAX_DEPTH",
    "NAME_KEYS",
    "QUOTE_ENDS",
    "SCALAR_KINDS",
    "STRAY_ESCAPE",
    "TYPOGRAPHIC",
    "WRAPPER_KEYS",
    "JsonScanner",
    "Status",
    "closing_quote",
    "normalize_number",
    "normalize_string_unit",
    "retyped",
]

MAX_DEPTH = 100
"""Deepest nesting of brackets read as JSON; deeper input is an error, never a crash (``RecursionError``)."""

NAME_KEYS = ("name", "tool_name", "function_name", "tool", "function", "method")
NAME_EQUALS = re.compile(
    r"[ \t]*(?:name|tool_name|function_name|tool|function)[ \t]*=[ \t]*(?P<name>[^\s=\"\\]{1,128})[ \t]*"
)
"""A member written as one key, ``"function=NAME"`` (Qwen3.5 mixing Qwen3-Coder's ``<function=NAME>`` into its JSON
call, qvac #2677): the call's name."""
"""Keys that may hold the tool name at the top level of a call object."""
ARG_KEYS = ("arguments", "parameters", "args", "input", "tool_input", "params", "argument")
"""Keys that may hold the arguments object."""
WRAPPER_KEYS = ("function", "tool", "tool_call", "call")
"""Keys whose object value is itself the call (``{"function": {"name": …, "arguments": …}}``)."""


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
    if esc == "'" or (len(esc) == 1 and esc.isprintable() and not esc.isalnum() and not esc.isspace()):
        # A punctuation escape JSON lacks (\$ from a template literal, \` \# \!): the character itself, as
        # JavaScript string literals, JSON5 and the JS-side repairers read it.
        return _escape_char(esc)
    # An unknown letter or digit escape (\d, \s, \u12): keep the backslash as a literal character, as Python
    # would: a regex class or a Windows path, where the backslash is meant.
    return "\\\\" + "".join(_escape_char(c) for c in esc)


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


_EXACT = {
    "integer": re.compile(r"-?(?:0|[1-9]\d*)"),
    "number": _STRICT_NUMBER,
    "boolean": re.compile(r"true|false|True|False"),
}
_CONTAINERS = {"array": ("[", "]", list), "object": ("{", "}", dict)}
SCALAR_KINDS = frozenset(_EXACT) | frozenset(_CONTAINERS)
"""Schema types a string argument may be read as (`retyped`)."""


def retyped(kind: str | None, value: Any) -> Any:
    """A string that is exactly a JSON literal of the schema's scalar ``kind`` (``"2"`` for an integer,
    ``"0.5"`` for a number, ``"true"`` for a boolean: small models quote every value) as that literal; any other
    value as it is (``"007"``, ``" 2"``, ``"2 people"`` stay strings: nothing is guessed). For an ``array`` or
    ``object`` parameter, a string that is whole one JSON (or Python) literal of that type (``"[1, 2]"``,
    ``"['Wi-Fi']"``: Llama 3.1 quoting its lists in BFCL runs) is that value."""
    if isinstance(value, str) and kind in _CONTAINERS:
        return _container(kind, value)
    if not isinstance(value, str) or kind not in _EXACT or not _EXACT[kind].fullmatch(value):
        return value
    return value.lower() == "true" if kind == "boolean" else json.loads(value)


def _container(kind: str, value: str) -> Any:
    opener, closer, expected = _CONTAINERS[kind]
    text = value.strip()
    if not (text.startswith(opener) and text.endswith(closer)):
        return value
    try:
        decoded: Any = json.loads(text)
    except ValueError:
        try:
            decoded = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return value
        try:  # a Python literal only if it is JSON data (no sets or bytes inside; a tuple is a list)
            decoded = json.loads(json.dumps(decoded))
        except (TypeError, ValueError):
            return value
    return cast(Any, decoded) if isinstance(decoded, expected) else value


class Status(Enum):
    MORE = "more"
    """Everything given was consumed (or a split token was left for the next chunk)."""
    DONE = "done"
    """The value is complete; the returned position is just past it."""
    STOP = "stop"
    """A character that cannot be JSON here but may start a tag (``<``, ``[``); the caller decides."""
    ERROR = "error"
    """Not JSON, even leniently; ``error`` says why."""


_VALUE, _KEY, _COLON, _AFTER, _JOIN = range(5)  # _JOIN: after `"abc" +`, the next string literal continues it

_WS = re.compile(r"[ \t\r\n]+")
_RUNS = {'"': re.compile(r'[^"\\\x00-\x1f]+'), "'": re.compile(r"[^'\"\\\x00-\x1f]+")}
TYPOGRAPHIC = {"\u201c": "\u201c", "\u201d": "\u201c", "\u2018": "\u2018"}
"""A typographic quote that opens a string (`JsonScanner.typographic`), and the quote its string is kept under: ``“``
or ``”`` opens one that the next ``“`` or ``”`` ends (a word processor or a chat UI turns either way), U+2018 one that
the next U+2019 not followed by a letter or digit ends (an apostrophe inside a word stays in). The grammar's
TYPO_STRING."""
_TYPO_RUNS = {
    "\u201c": re.compile(r'[^\u201c\u201d"\\\x00-\x1f]+'),
    "\u2018": re.compile(r'[^\u2019"\\\x00-\x1f]+'),
}
_WORD_CHAR = re.compile(r"\w")
_TOKEN = re.compile(r"[A-Za-z0-9_$+\-.]+")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
"""A number as the grammar's NUMBER reads one (a token it does not match whole is a word: ``1_000``, ``1.5.3``)."""
BARE_WORD = re.compile(
    r"(?:[^\s,:{}\[\]\"'()<#/`\u201c\u201d\u2018]|/(?![/*]))(?:[^\n,{}\[\]\"'()<`]*[^\s,{}\[\]\"'()<`])?"
)
"""An unquoted string value (``Seoul``, ``/home``, ``Viale Francesco Redi``): the grammar's BARE_WORD. It runs to
the next ``,`` ``}`` ``]`` or line end, blanks at its end left out; a quote, a bracket, a parenthesis (a call
expression: ``get_current_date ()``), ``<`` (a tag) or a backtick ends it, and what follows is then an error. It never
opens with a typographic quote (`TYPOGRAPHIC`: an unclosed typographic string is no word)."""
_ARITHMETIC_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?![A-Za-z0-9_$+\-.])"
_ARITHMETIC_OPERAND = rf"(?:[-+]?\([ \t]*)*{_ARITHMETIC_NUMBER}(?:[ \t]*\))*"
_ARITHMETIC_STEP = rf"[ \t]+[-+*/][ \t]+{_ARITHMETIC_OPERAND}"
ARITHMETIC = regex.compile(rf"{_ARITHMETIC_OPERAND}(?:{_ARITHMETIC_STEP})+")
"""Arithmetic on number literals as a value (``"amount": 1600 - (250 + 250)``, ``"x": 10 - 5``: Qwen3-4B, Qwen2.5-7B
doing the sum in the call): the grammar's ARITHMETIC, folded by `pythonic.folded_arithmetic` (the one owner of what
arithmetic is folded). Each number is whole as NUMBER reads it and each operator has blanks on both sides, so a word
such as ``2024-05-01``, ``3/4`` or ``555-1234`` is never a sum; any other expression is no value."""
_ARITHMETIC_MORE = regex.compile(_ARITHMETIC_STEP)
"""One more operator and operand after a whole sum: seen in part at a chunk's end, the sum may go on."""
_ARITHMETIC_START = frozenset("0123456789.+-(")
_KEY_RUNS = {'"': re.compile(r'[^"\'>(=: \\\x00-\x1f]+'), "'": re.compile(r"[^'\">(=\\\x00-\x1f]+")}
_RUNS.update(_TYPO_RUNS)
_KEY_RUNS.update(_TYPO_RUNS)
"""A key's body runs to a quote of either kind or a separator a damaged key may end in (`_damaged_key_end`)."""
_WORD_KEY = re.compile(r"[A-Za-z_$][\w$\-]{0,63}")
_MIXED_COLON = re.compile(r"[ \t]*:")
KEY_GOES_ON = {quote: regex.compile(rf"(?:[^{quote}\\\n]|\\.)*{quote}[ \t\r\n]*:") for quote in ('"', "'")}
"""Inside a key opened by ``quote``: the rest of it up to its own closing quote and a colon on the line. A key's
character that would end a damaged key (the other quote before a colon, ``>`` before a brace) is the key's own where
this follows it, for the string is then a valid key (``{"a':": 1}``, ``{'A({': None}``): the grammar's MIXED_KEY and
GLUED_KEY look ahead for the same."""
_EMBEDDED = regex.compile(r'"\{[ \t]*"[A-Za-z_$][A-Za-z0-9_$\-]{0,63}"[ \t]*:')
"""A string value opening with an object whose first key's quotes are unescaped (``"{"city": "SF"}"``): the string
holds that object, read as the object (the grammar's _EMBED_OPEN); a valid string never continues so."""
_STRING_AHEAD = r"""(?:"[^"\\]*(?:\\[\s\S][^"\\]*)*"|'[^'\\]*(?:\\[\s\S][^'\\]*)*')[ \t\r\n]*"""
"""A whole string ahead, as the grammar's STRING reads one (raw line breaks and any escape inside)."""
_WORD_KEYS_AHEAD = (
    r"""|["'][A-Za-z_$][\w$\-]{0,63}(?:["'][ \t]*:|[>(=][ \t]*[{\[]|:[ \t]*\{)"""
    rf"""|["'](?:{"|".join(NAME_KEYS)})["'][ \t\r\n]*,"""
    r"""|[\w$\-]+(?:["'][ \t]*|[ \t\r\n]*):"""
)
_STRAY = r"""\\(?:[nrt]|[!#$%&()*+\-./;<=>?@^`|~])(?=[ \t\r\n]*["'}\],\\])"""
_BLANKS = rf"(?:[ \t\r\n]|{_STRAY})*"
"""Blanks, and backslash escapes that stand where a blank may (`STRAY_ESCAPE`)."""
_JOIN_AHEAD = r"""\+[ \t\r\n]*(?:["'#]|//|/\*)"""
_GOES_ON = r"[}\]<\[#]|//|/\*|" + _JOIN_AHEAD


def closing_quote(*, in_list: bool, end: str = r"\Z") -> str:
    """What may follow a string value's closing quote in an object (``in_list`` False) or a list, as a pattern.

    After blanks: a closer, a tag or a comment, a ``+`` joining another literal, the end (``end``), a comma before a
    key (in an object: a quoted key and its colon, object or list, a whole string before a closer, a damaged word key,
    a call's name key and the comma written for its colon, a word key and its colon) or before anything (in a list);
    after a gap, such a key (its comma left out) or a whole string before a closer (two values no comma joins: an
    error, as before); right after it, a quote that does not itself close the string (``"get_weather""arguments"``).
    A quote followed by nothing of these cannot end the string (``"grep 'class="x">' f"``, ``"echo "hi""``): it is
    the string's own (`QUOTE_ENDS`). Every valid JSON text's closing quotes are followed so; the grammar's
    MEMBER_STRING and LIST_STRING spell the same patterns."""
    key = rf"{_STRING_AHEAD}(?:[:{{\[}}\]]|{end}){_WORD_KEYS_AHEAD}"
    comma = "," if in_list else rf",{_BLANKS}(?:{key}|[}}\]#]|//|/\*|{end})"
    glued = r"""["'][^ \t\r\n}\]<\[#/+,]"""
    return rf"[ \t\r\n]+(?:{key})|{glued}|{_BLANKS}(?:{_GOES_ON}|{comma}|{end})"


QUOTE_ENDS = {
    (in_list, final): regex.compile(closing_quote(in_list=in_list, end=r"\Z" if final else "(?!)"))
    for in_list in (False, True)
    for final in (False, True)
}
"""Whether a quote inside a string value in an object or list (``in_list``) ends it, the text's end seen (``final``) or
not: a partial match waits for more text; no match makes the quote the string's own character."""
STRAY_ESCAPE = regex.compile(_STRAY)
"""A backslash escape outside a string before a quote, a closer, a comma or another one (``{\\>"city": …}``: Llama 3.2
3B; ``\\n`` written between members): JSON defines none there, so it stands where a blank may and is skipped as one,
as the grammar's STRAY_ESCAPE is ignored. ``\\\\``, a quote, a bracket or a word after the backslash is no such
escape."""
_UNOPENED_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$\-]{0,63}")
"""A word key that may have lost its opening quote (``maxDists": …``): the grammar's UNOPENED_KEY before its quote."""
_GLUED_VALUE = re.compile(r"[ \t]*[{\[]")
_STRAY_TAIL = re.compile(r"[\s}\]]*")
_QUOTES_ONLY = regex.compile(r'"{1,2}[ \t\r\n]*(?P<brace>\})[ \t\r\n}\]]*(?P<after></|<\||```)?')
"""An object holding nothing but one or two quotes (``{"}}``, ``{""}``: Qwen3-4B for a tool without parameters):
empty, as the grammar's _QUOTES_ONLY reads it, where nothing but closers follow its brace to a closing tag, a special
token, a fence or the end. A key ``{"}": 1}``, ``{"}}": null}`` or ``{"}<": 1}`` has its closing quote after them."""
_KEY_AFTER_QUOTE = regex.compile(r'"?(?:[^"\\\n]|\\.)*"[ \t]*:')
"""What makes a quote before a brace a key's (``{"}</": 1}``, ``{"}</\\"": 1}``): a quote and a colon on its line,
escaped quotes inside the key skipped (`_QUOTES_ONLY`)."""
_AFTER_QUOTES = "</", "<|", "```"
"""What may follow an object of quotes alone and its closers, besides the end (`_QUOTES_ONLY`'s last group)."""
_OPEN_KEY = regex.compile(r'(?::[ \t]*|[ \t]+)\{[ \t\r\n]*"[A-Za-z_$][\w$\-]{0,63}"[ \t]*:')
"""After a word key, its closing quote left out: the colon, the object's brace, the object's first key
(``{"name": "f", "arguments: {"city": "Paris"}}``: Qwen3-4B), or its whole ``":`` left out and a blank before the
brace (``"parameters {"city": "Tokyo"}``: Llama 3.2 3B), as the grammar's OPEN_KEY reads it."""
_BARE_RUN = re.compile(r"[^\n,{}\[\]\"'()<`]*")
_BARE_KEY = re.compile(r"[A-Za-z_$0-9][A-Za-z0-9_$\-]*")
_HEX = frozenset("0123456789abcdefABCDEF")
_LITERALS = {"true": "true", "True": "true", "false": "false", "False": "false", "null": "null", "None": "null"}
_LINE_END = re.compile(r"\n")
_BLOCK_END = re.compile(r"\*/")


class JsonScanner:
    """Scan one lenient JSON value incrementally. Feed it with `feed`, read `name` and `take_arguments`."""

    def __init__(
        self,
        *,
        stop_chars: str = "<",
        capture: bool = True,
        args_only: bool = False,
        kinds: Callable[[str | None], Mapping[str, str]] | None = None,
        bare_words: bool = False,
        bare_names: bool = False,
        typographic: bool | None = None,
    ) -> None:
        self.stop_chars = stop_chars
        """Characters outside strings that end the scan with `Status.STOP` (tag openers)."""
        self.bare_words = bare_words
        """Read an unquoted word as a string value (`BARE_WORD`; ``lenient_json.loads(bare_words=True)``): only in a
        tagged call block, never in prose."""
        self.bare_names = bare_names
        self.typographic = bare_words if typographic is None else typographic
        """Read a string or key in typographic quotes (``{“city”: “Paris”}``, `TYPOGRAPHIC`) as one: where a tag or
        a call's header vouches for the call (by default where bare words are read), never in prose. A typographic
        quote inside a string in straight quotes stays a character of it."""
        """Read an unquoted word as a string where it is the call's name (``{"name": get_weather, …}``) and nowhere
        else: an untagged candidate, which counts only if that word names an offered tool."""
        self.capture = capture and not args_only
        self.args_only = args_only
        """The whole value is the arguments object (the opener named the tool); it streams from its `{`."""
        self.name: str | None = None
        """The tool name, once its string has closed (top-level ``name`` or ``function.name``)."""
        self.streamed = False
        """True once the arguments object started streaming (its name was known before it began)."""
        self.bare_name: str | None = None
        """The call's name written without quotes (`bare_words`): it does not open the call as it streams."""
        self.error: str | None = None
        self.done = False
        self._stack: list[str] = []
        self._keys: list[str | None] = []
        self._expect = _VALUE
        self._closer_ok = False  # a closer may follow: after `{`, `[` or a (trailing) comma
        self._quote: str | None = None
        self._string_role: str | None = None  # "key", "name", or None
        self._parts: list[str] = []  # the current key or name string, as JSON string-body text
        self._comment: str | None = None  # "line" or "block"
        self._args_depth: int | None = None  # stack depth of the streaming arguments object
        self._out: list[str] = []  # normalised argument text not yet taken
        self._pending = ""  # a comma (and the whitespace after it) held until we know it is not trailing
        self._kinds_for = kinds
        """The schema's scalar type of each top-level argument, asked once the arguments start (`retyped`)."""
        self._kinds: Mapping[str, str] = {}
        self._held: list[str] | None = None  # a top-level string argument of a scalar type, until it closes
        self._line_after = False  # a blank or line break followed the last whole value (a comma left out there)
        self._joinable = False  # a string value ended but its closing quote waits: a `+` may join the next literal
        self._joint_ws = ""  # blanks after such a string, held with its quote (between joined literals they go)
        self._after_closer = False  # the last character taken was a closing bracket (a stray quote may follow)
        self._name_key = False  # the current key is a call's name key in quotes (the grammar's NAME_KEY)
        self._plain = False  # the current string value is a name key's: its first quote ends it (`QUOTE_ENDS` unasked)
        self._embedded: list[int] = []  # stack depths of objects written inside a string's quotes (`_EMBEDDED`)
        self._owe_quote = False  # such an object just closed: its string's closing quote comes next

    # -- public -------------------------------------------------------------------------------------

    def feed(self, text: str, pos: int, *, final: bool = False) -> tuple[int, Status]:
        """Consume ``text`` from ``pos``; return where it stopped and why.

        With ``final`` the input ends here, so a token at the very end is taken as complete.
        """
        n = len(text)
        while pos < n:
            if self.done:
                return pos, Status.DONE
            if self._quote is not None:
                pos = self._string(text, pos, final)
                if self.in_string and pos < n:  # split escape sequence
                    return pos, Status.MORE
                continue
            if self._comment is not None:
                end = self._skip_comment(text, pos)
                if end == pos:  # a '*' that may begin '*/' in the next chunk
                    return pos, Status.MORE
                pos = end
                continue
            char = text[pos]
            after_closer, self._after_closer = self._after_closer, False
            if self._owe_quote and char not in " \t\r\n/#":
                self._owe_quote = False
                if char == '"':  # `"{"city": "SF"}"`: the string's closing quote after its object (if written)
                    pos += 1
                    continue
            if char in "\"'" and after_closer and self._expect == _AFTER and not self._joinable:
                # A quote glued after a closer with only closers and blanks after it to the end (`]"}}`, `}"`: Llama
                # 3.2 3B): stray, as the grammar's STRAY_QUOTE; until the end is seen it is handed back.
                # A tag opener after them (a stop character: the block's closer) ends the value's text as the end does.
                tail = _STRAY_TAIL.match(text, pos + 1).end()  # type: ignore[union-attr]  # `*` always matches
                if tail >= n and not final:
                    self._after_closer = True
                    return pos, Status.MORE
                if tail >= n or text[tail] in self.stop_chars:
                    pos += 1
                    continue
            if self._joinable and char not in " \t\r\n/#":
                if char == "+" and self._expect == _AFTER:  # `"abc\n" +⏎ "def"`: JavaScript's join, one string
                    self._expect, self._joint_ws = _JOIN, ""
                    pos += 1
                    continue
                if char in "\"'" and self._expect == _JOIN:
                    self._joinable, self._joint_ws, self._quote = False, "", char  # the string goes on
                    pos += 1
                    continue
                if self._expect == _AFTER:
                    self._close_string()
            if char in " \t\r\n":
                end = _WS.match(text, pos).end()  # type: ignore[union-attr]  # a match is certain here
                if self._expect == _AFTER:
                    self._line_after = True
                if self._joinable:
                    self._joint_ws += text[pos:end]
                else:
                    self._emit_ws(text[pos:end])
                pos = end
            elif (char == "/" or char == "#") and not (
                char == "/"
                and self.bare_words
                and self._expect == _VALUE
                and self._stack
                and text[pos + 1 : pos + 2] not in "/*"
            ):
                if char == "/":
                    if pos + 1 >= n:
                        if final:
                            return self._fail(pos, "a stray '/'")
                        return pos, Status.MORE
                    if text[pos + 1] not in "/*":
                        return self._fail(pos, "a stray '/'")
                    self._comment = "block" if text[pos + 1] == "*" else "line"
                    pos += 2
                else:
                    self._comment = "line"
                    pos += 1
            elif char == "\\" and (stray := STRAY_ESCAPE.match(text, pos, partial=not final)) is not None:
                if stray.partial:
                    return pos, Status.MORE  # what follows the escape is not seen yet
                pos = stray.end()
            elif char in self.stop_chars:
                return pos, Status.STOP
            else:
                pos = self._structural(text, pos, final)
                if self.error is not None:
                    return pos, Status.ERROR
                if pos < 0:  # a token runs to the end of the chunk
                    return -pos - 1, Status.MORE
        return pos, (Status.DONE if self.done else Status.MORE)

    def force(self, text: str, pos: int) -> tuple[int, Status]:
        """Consume the stop character at ``pos`` as JSON (it was not a tag after all)."""
        saved, self.stop_chars = self.stop_chars, ""
        try:
            consumed, status = self.feed(text[pos : pos + 1], 0)
        finally:
            self.stop_chars = saved
        return pos + consumed, status

    @property
    def started(self) -> bool:
        """True once the first bracket was consumed."""
        return bool(self._stack) or self.done

    @property
    def in_string(self) -> bool:
        return self._quote is not None

    def completable(self) -> bool:
        """True when the value is complete except for closing brackets (every value in it is whole)."""
        if self.done:
            return True
        if self._quote is not None or not self._stack or self._comment == "block" or self._embedded:
            return False
        return self._expect == _AFTER or (self._closer_ok and self._expect in (_KEY, _VALUE))

    def closers(self) -> str:
        """The closing brackets that would complete the value."""
        return "".join("}" if c == "{" else "]" for c in reversed(self._stack))

    def complete(self) -> None:
        """Close every open bracket (only valid when `completable`), streaming the closers too."""
        self._comment = None
        closers = self.closers()
        self.feed(closers, 0, final=True)

    def take_arguments(self) -> str:
        """Normalised argument text produced since the last call."""
        if not self._out:
            return ""
        text = "".join(self._out)
        self._out.clear()
        return text

    # -- internals ----------------------------------------------------------------------------------

    def _fail(self, pos: int, what: str) -> tuple[int, Status]:
        self.error = what
        return pos, Status.ERROR

    def _in_args(self) -> bool:
        return self._args_depth is not None and len(self._stack) >= self._args_depth

    def _emit(self, piece: str) -> None:
        if self._held is not None:
            self._held.append(piece)
        elif self._in_args():
            if self._pending:
                self._out.append(self._pending[1:] if piece in "}]" else self._pending)
                self._pending = ""
            self._out.append(piece)

    def _emit_ws(self, ws: str) -> None:
        if self._in_args():
            if self._pending:
                self._pending += ws
            else:
                self._out.append(ws)

    def _path(self) -> tuple[str | None, ...]:
        return tuple(self._keys) if "[" not in self._stack else ()

    def _value_role(self) -> str | None:
        """What the value about to start is, for the call: 'name', 'args', or None."""
        if not self.capture:
            return None
        path = self._path()
        if len(path) == 1:
            key = path[0]
        elif len(path) == 2 and path[0] in WRAPPER_KEYS:
            key = path[1]
        else:
            return None
        if key in ARG_KEYS:
            return "args"
        if key in NAME_KEYS and (len(path) == 1 or key == "name"):
            return "name"
        return None

    def _name_slot(self) -> bool:
        """The value about to start is a call's name: under a name key of the call object (in a list of calls, or
        under a wrapper key), whatever `capture` says."""
        stack, keys = self._stack, self._keys
        if stack[:1] == ["["]:  # a list of calls
            stack, keys = stack[1:], keys[1:]
        if "[" in stack or not keys:
            return False
        if len(keys) == 1:
            return keys[0] in NAME_KEYS
        return len(keys) == 2 and keys[0] in WRAPPER_KEYS and keys[1] == "name"

    def _value_done(self) -> None:
        if not self._stack:
            self.done = True
        else:
            self._expect = _AFTER
            self._closer_ok = False
            self._line_after = False

    def _structural(self, text: str, pos: int, final: bool) -> int:
        char = text[pos]
        expect = self._expect
        if char in "{[" and expect == _COLON:  # `{"a" {"b": 1}}`: the colon left out before an object or list
            self._emit(":")
            self._expect = expect = _VALUE
        if char in "{[":
            if expect != _VALUE:
                self._fail(pos, f"unexpected {char!r}")
                return pos
            if len(self._stack) >= MAX_DEPTH:
                self._fail(pos, f"the JSON is nested more than {MAX_DEPTH} levels deep")
                return pos
            role = self._value_role()
            self._stack.append(char)
            self._keys.append(None)
            if self.args_only and len(self._stack) == 1 and char == "{":
                self._args_depth = 1
                self.streamed = True
                self._kinds = self._kinds_for(self.name) if self._kinds_for is not None else {}
            elif role == "args" and char == "{" and self.name is not None and not self.streamed:
                # Stream only when the name came first: a start event must precede argument chunks.
                self._args_depth = len(self._stack)
                self.streamed = True
                self._kinds = self._kinds_for(self.name) if self._kinds_for is not None else {}
            self._emit(char)
            self._expect = _KEY if char == "{" else _VALUE
            self._closer_ok = True
            return pos + 1
        if char in "}]":
            opener = "{" if char == "}" else "["
            while (
                len(self._stack) > 1
                and self._stack[-1] != opener
                and opener in self._stack
                and (expect == _AFTER or (self._closer_ok and expect in (_KEY, _VALUE)))
                and self._embedded[-1:] != [len(self._stack)]
            ):
                # A closer that skips open brackets whose values are whole (`[{"a": {"b": 1}]`, a `}` left
                # out): they are closed first, as `lenient_json.loads` reads the same text.
                self._emit("}" if self._stack[-1] == "{" else "]")
                self._stack.pop()
                self._keys.pop()
                self._value_done()
                expect = self._expect
            if (
                not self._stack
                or self._stack[-1] != opener
                or not (expect == _AFTER or (self._closer_ok and expect in (_KEY, _VALUE)))
            ):
                self._fail(pos, f"unexpected {char!r}")
                return pos
            self._emit(char)
            if self._args_depth is not None and len(self._stack) == self._args_depth:
                self._args_depth = None  # finished; `streamed` keeps it from starting again
            if self._embedded[-1:] == [len(self._stack)]:
                self._embedded.pop()
                self._owe_quote = True
            self._stack.pop()
            self._keys.pop()
            self._value_done()
            self._after_closer = True
            return pos + 1
        if char == ":":
            if expect != _COLON:
                self._fail(pos, "unexpected ':'")
                return pos
            self._emit(char)
            self._expect = _VALUE
            self._closer_ok = False
            return pos + 1
        if char in ",}" and expect == _COLON and len(self._stack) == 1 and self.capture and self.name is None:
            named = NAME_EQUALS.fullmatch(self._keys[-1] or "")
            if named is not None:  # `{"function=NAME", "arguments": {…}}`: the name written as a key, no value
                self.name = named.group("name")
                self._keys[-1] = None
                self._value_done()
                return pos  # the comma or brace again, after a whole member
        if char == "," and expect == _COLON and self._name_key:
            self._emit(":")  # `{"name", "get_weather", …}`: a comma where the name key's colon belongs
            self._expect = _VALUE
            self._closer_ok = False
            return pos + 1
        if char == ",":
            if expect != _AFTER or not self._stack:
                self._fail(pos, "unexpected ','")
                return pos
            if self._in_args():
                self._pending = ","
            self._expect = _KEY if self._stack[-1] == "{" else _VALUE
            self._closer_ok = True
            return pos + 1
        if char == '"' and expect == _KEY and self._closer_ok and self._stack[-1] == "{":
            only = _QUOTES_ONLY.match(text, pos, partial=not final)
            rest = text[only.end() :] if only is not None and not only.group("after") else None
            waits = rest is not None and any(after.startswith(rest) for after in _AFTER_QUOTES)
            if only is not None and not final and (only.partial or waits):
                return -pos - 1  # handed back until what follows the brace is seen
            if only is not None and (only.end() == len(text) or only.group("after")):
                key = _KEY_AFTER_QUOTE.match(text, pos + 1, partial=not final)
                if key is not None and key.partial:
                    return -pos - 1  # whether a quote and a colon close it as a key is not seen yet
                if key is None:
                    return only.start("brace")  # the `}` closes the object next
        if char == '"' and expect == _VALUE and self._stack:
            embedded = _EMBEDDED.match(text, pos, partial=not final)
            if embedded is not None and embedded.partial:
                return -pos - 1  # whether an object follows inside the quote is not seen yet
            if embedded is not None:
                # `"arguments":"{"city":"SF"}"` (osaurus's parser tests): an object written as a string whose inner
                # quotes lost their escapes, read as the object, as the grammar's _EMBED_OPEN reads it.
                self._embedded.append(len(self._stack) + 1)
                return pos + 1  # its `{` opens the value next
        typographic = self.typographic and char in TYPOGRAPHIC
        if char in "\"'" or typographic:
            if not typographic and expect == _AFTER and self._line_after and self._stack[-1:] == ["{"]:
                # A key after a whole value and a gap, the comma left out (at a line's end, as models write objects
                # one member a line, or on the same line: gptme's `{"a": "b" "c": "d"}`): the comma is read there,
                # as `lenient_json.loads` reads it.
                if self._in_args():
                    self._pending = ","
                expect = self._expect = _KEY
            if expect == _KEY:
                self._string_role = "key"
                self._name_key = False
            elif expect == _VALUE:
                self._string_role = "name" if self._value_role() == "name" and self.name is None else None
            else:
                self._fail(pos, "unexpected string")
                return pos
            self._parts = []
            self._quote = TYPOGRAPHIC[char] if typographic else char
            self._plain = expect == _VALUE and self._stack[-1:] == ["{"] and self._name_key
            self._emit('"')
            if self._string_role is None and self._scalar_key() is not None:
                self._held = [self._out.pop()]  # its opening quote: the whole string decides how it streams
            return pos + 1
        if expect == _VALUE and self._stack and char in _ARITHMETIC_START:
            end = self._arithmetic(text, pos, final)
            if end is not None:
                return end
        match = _TOKEN.match(text, pos)
        if match is not None and match.end() == len(text) and not final:
            return -pos - 1
        if expect == _VALUE and self._stack and (self.bare_words or (self.bare_names and self._name_slot())):
            token = match.group() if match is not None else ""
            if token not in _LITERALS and not _NUMBER.fullmatch(token):
                return self._bare_word(text, pos, final)
        if match is None:
            self._fail(pos, f"unexpected character {char!r}")
            return pos
        token = match.group()
        if expect == _KEY:
            if not _BARE_KEY.fullmatch(token):
                self._fail(pos, f"{token!r} is not a valid key")
                return pos
            end = match.end()
            if text[end : end + 1] in ('"', "'") and _UNOPENED_KEY.fullmatch(token):
                # `maxDists": "0.1"` (Llama 4): a word key whose opening quote was left out, closed right before its
                # colon, as the grammar's UNOPENED_KEY reads it.
                if _MIXED_COLON.match(text, end + 1) is not None:
                    end += 1
                elif not final and text[end + 1 :].strip(" \t") == "":
                    return -pos - 1  # whether a colon follows the quote is not seen yet
            self._emit(json.dumps(token))
            self._keys[-1] = token
            self._name_key = False
            self._expect = _COLON
            self._closer_ok = False
            return end
        if expect != _VALUE:
            self._fail(pos, f"unexpected {token!r}")
            return pos
        normal = _LITERALS.get(token) or (normalize_number(token) if _NUMBER.fullmatch(token) else None)
        if normal is None:
            self._fail(pos, f"unquoted text {token!r} is not a JSON value (strings need quotes)")
            return pos
        self._emit(normal)
        self._value_done()
        return match.end()

    def _arithmetic(self, text: str, pos: int, final: bool) -> int | None:
        """A value of number arithmetic (`ARITHMETIC`) streamed as the number it folds to; a number with only blanks
        after it to the chunk's end is handed back (an operator may follow); None when no arithmetic starts here."""
        found = ARITHMETIC.match(text, pos, partial=not final)
        if found is None:
            return None
        if found.partial or (
            not final
            and (found.end() == len(text) or _ARITHMETIC_MORE.match(text, found.end(), partial=True) is not None)
        ):
            return -pos - 1  # the chunk ends where the sum may still go on
        value = folded_arithmetic(found.group())
        if value is None:
            self._fail(pos, f"{found.group()!r} is no arithmetic on numbers")
            return pos
        self._emit(json.dumps(value))
        self._value_done()
        return found.end()

    def _bare_word(self, text: str, pos: int, final: bool) -> int:
        """An unquoted string value (`BARE_WORD`), streamed as a JSON string; a word that runs to the end of the
        chunk is handed back until it ends."""
        run = _BARE_RUN.match(text, pos)
        if run is not None and run.end() == len(text) and not final:
            return -pos - 1
        word = BARE_WORD.match(text, pos)
        if word is None:
            self._fail(pos, f"unexpected character {text[pos]!r}")
            return pos
        value = word.group()
        if self._value_role() == "name" and self.name is None:
            self.bare_name = value  # not `name`: an unquoted name counts only as an offered tool's (the reader knows)
        self._emit(json.dumps(value))  # never a literal of a scalar type (those are lexed as numbers and literals)
        self._value_done()
        return word.end()

    def _string(self, text: str, pos: int, final: bool) -> int:
        quote = self._quote
        assert quote is not None
        key = self._string_role == "key"
        run = _KEY_RUNS[quote] if key else _RUNS[quote]
        n = len(text)
        while pos < n:
            match = run.match(text, pos)
            if match is not None:
                self._string_piece(match.group())
                pos = match.end()
                continue
            char = text[pos]
            if quote in _TYPO_RUNS and char in "\u201c\u201d\u2019":
                end = self._typographic_end(text, pos, final)
                if end is not None:
                    return end
                self._string_piece(char)  # an apostrophe (U+2019 before a letter) inside U+2018…U+2019
                pos += 1
                continue
            if char == quote and not key and self._stack and not self._plain:
                ends = QUOTE_ENDS[self._stack[-1] == "[", final].match(text, pos + 1, partial=not final)
                if ends is not None and ends.partial:
                    return pos  # whether the quote ends the string is not seen yet: handed back with the next chunk
                if ends is None:
                    # `"cmd": "grep 'class="x">' f"`: a quote nothing valid can follow is the string's own (its
                    # escape lost), as the grammar's OBJECT_STRING and LIST_STRING read it.
                    self._string_piece(normalize_string_unit(char))
                    pos += 1
                    continue
            if char == quote:
                if key:  # `"name"` spelled so, closed by its own quote: the grammar's NAME_KEY
                    self._name_key = "".join(self._parts) in NAME_KEYS
                self._end_string()
                return pos + 1
            if key and char in "\"'>(=" and quote in "\"'":
                end = self._damaged_key_end(text, pos, final)
                if end is not None:
                    return end
            if key and char in ": \t" and quote == '"':
                end = self._open_key_end(text, pos, final)
                if end is not None:
                    return end
            if char == "\\":
                if pos + 1 >= n:
                    return pos  # the escape is split across chunks
                if text[pos + 1] == "u":
                    digits = text[pos + 2 : pos + 6]
                    hex_prefix = all(d in _HEX for d in digits)
                    if len(digits) < 4 and hex_prefix and not final:
                        return pos
                    unit = text[pos : pos + 6] if len(digits) == 4 and hex_prefix else "\\u"
                else:
                    unit = text[pos : pos + 2]
            else:
                unit = char
            self._string_piece(normalize_string_unit(unit))
            pos += len(unit)
        return pos

    def _typographic_end(self, text: str, pos: int, final: bool) -> int | None:
        """At a typographic quote that may close a string opened by one (`TYPOGRAPHIC`): past it where it does, ``pos``
        where the chunk ends before that is known (the caller hands the rest back), None where it is the string's own
        (an apostrophe: U+2019 before a letter or digit)."""
        if self._quote == "\u2018":
            if pos + 1 >= len(text) and not final:
                return pos
            if _WORD_CHAR.match(text, pos + 1) is not None:
                return None
        self._end_string()
        if self._joinable:
            self._close_string()  # no `+` joins a typographic string (the grammar's TYPO_STRING stands alone)
        return pos + 1

    def _open_key_end(self, text: str, pos: int, final: bool) -> int | None:
        """At a ``:`` or a blank inside a word key: the key's closing quote (and colon) was left out (`_OPEN_KEY`), so
        the key ends, a colon is read and the ``{`` opens the value. ``pos`` when the chunk ends before that is known
        (the caller hands the rest back); None when the character is the key's own."""
        if not _WORD_KEY.fullmatch("".join(self._parts)):
            return None
        found = _OPEN_KEY.match(text, pos, partial=not final)
        if found is None:
            return None
        if found.partial:
            return pos
        self._end_string()
        self._emit(":")
        self._expect = _VALUE
        self._closer_ok = False
        return text.index("{", pos)  # the `{` opens the value

    def _damaged_key_end(self, text: str, pos: int, final: bool) -> int | None:
        """Where a word key ends whose closing punctuation is damaged, as the grammar's MIXED_KEY and GLUED_KEY read
        it: closed by the other quote before its colon (``"data':``), or ``>`` ``(`` ``=`` where its ``":`` belongs
        before an object or list (``"parameters>{``). ``pos`` itself when the chunk ends before that is known (the
        caller hands the rest back); None when the character is the key's own."""
        if not _WORD_KEY.fullmatch("".join(self._parts)):
            return None
        char = text[pos]
        quote = self._quote
        assert quote is not None
        valid = KEY_GOES_ON[quote].match(text, pos, partial=not final)
        if valid is not None and valid.partial:
            return pos  # whether the key closes as a valid one is not seen yet
        if valid is not None:
            return None  # `{"a':": 1}`, `{'A({': None}`: a valid key's own character
        if char in "\"'":
            if _MIXED_COLON.match(text, pos + 1) is not None:
                self._end_string()
                return pos + 1  # the colon is read next, as after any key
            if not final and text[pos + 1 :].strip(" \t") == "":
                return pos
            return None
        after = _GLUED_VALUE.match(text, pos + 1)
        if after is not None:
            self._end_string()
            self._emit(":")
            self._expect = _VALUE
            self._closer_ok = False
            return after.end() - 1  # the `{` or `[` opens the value
        if not final and text[pos + 1 :].strip(" \t") == "":
            return pos
        return None

    def _string_piece(self, piece: str) -> None:
        if self._string_role is not None:
            self._parts.append(piece)
        self._emit(piece)

    def _scalar_key(self) -> str | None:
        """The key of a value starting directly in the streaming arguments object whose schema type is scalar."""
        if self._args_depth is None or len(self._stack) != self._args_depth or self._stack[-1] != "{":
            return None
        key = self._keys[-1]
        return key if key is not None and key in self._kinds else None

    def _close_string(self) -> None:
        """Emit the closing quote of a string value (held while a `+` could still join another literal to it)."""
        self._joinable = False
        self._emit('"')
        if self._held is not None:
            held, self._held = "".join(self._held), None
            typed: Any = retyped(self._kinds.get(self._keys[-1] or ""), json.loads(held))
            self._out.append(held if isinstance(typed, str) else json.dumps(typed))
        ws, self._joint_ws = self._joint_ws, ""
        if ws:
            self._emit_ws(ws)

    def _end_string(self) -> None:
        self._quote = None
        role, self._string_role = self._string_role, None
        if role is None and self._stack:  # a value in an object or list: its quote waits for a `+` (`_JOIN`)
            self._joinable = True
            self._value_done()
            return
        if role is None:
            self._close_string()
            self._value_done()
            return
        self._emit('"')
        value: str = json.loads('"' + "".join(self._parts) + '"')
        self._parts = []
        if role == "key":
            self._keys[-1] = value
            self._expect = _COLON
            self._closer_ok = False
            return
        if self._keys and self._keys[-1] == "method" and value == "tools/call":
            pass  # MCP JSON-RPC: the real name is params.name, found when the whole object is shaped
        else:
            self.name = value
        self._value_done()

    def _skip_comment(self, text: str, pos: int) -> int:
        if self._comment == "line":
            match = _LINE_END.search(text, pos)
            if match is None:
                return len(text)
            self._comment = None
            return match.start()
        match = _BLOCK_END.search(text, pos)
        if match is None:
            # keep a trailing '*' so a '*/' split across chunks is still found
            return len(text) - 1 if text.endswith("*") else len(text)
        self._comment = None
        return match.end()
