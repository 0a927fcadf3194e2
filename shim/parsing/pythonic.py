"""Pythonic calls, as Llama 3.2 and Llama 4 write them: ``[get_weather(city='Lima', unit='celsius'), …]``.

Untagged, so they count only as a whole message naming known tools (like bare JSON). The list is scanned
incrementally for its closing bracket (string- and bracket-aware), then read with Python's own `ast`:
keyword arguments (and positional ones, bound to an offered tool's parameters in order) with literal values
(``ast.literal_eval``), never evaluated code.

Two leniencies, for what models write around that form:

- a keyword's value written bare, without quotes (``email=john@example.com``, ``service=Netflix``): read as its
  text, when the strict reading fails and the value is one run of word-like tokens (letters, digits and
  ``@ . : / + - # % ~ ? & =``: addresses, paths, dates; single blanks between words) right before ``,`` or ``)``;
  an expression (``x + 1``, ``f(1)``, ``x[0]``) stays no call;
- each call written as a string of the list (``['gcd(a=1)', 'lcm(b=2)']``: Snowflake Arctic's BFCL results):
  every item must be one string holding exactly one call.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any, cast

import regex

__all__ = ["PYTHONIC_START", "QUOTED_START", "PythonicScanner", "parse_pythonic"]

PYTHONIC_START = regex.compile(r"\[[ \t\r\n]{0,8}[A-Za-z_][A-Za-z0-9_.\-]{0,127}\(")
"""How a pythonic call list opens (matched with ``partial=True`` at the start of a message)."""
QUOTED_START = regex.compile(r"""\[[ \t\r\n]{0,8}['"][A-Za-z_][A-Za-z0-9_.\-]{0,127}\(""")
"""How a list of calls written as strings opens (``['gcd(``)."""

_STRING_RUNS = {"'": regex.compile(r"[^'\\]+"), '"': regex.compile(r'[^"\\]+')}
_PLAIN = regex.compile(r"[^'\"\[\]\(\)\{\}]+")


class PythonicScanner:
    """Find where a pythonic call list ends: feed chunks, `done` turns True after its last ``]``."""

    def __init__(self) -> None:
        self.depth = 0
        self.done = False
        self._quote: str | None = None
        self._escaped = False

    @property
    def only_closer_missing(self) -> bool:
        """One call open, outside any string (``click('81'``): at most its ``)`` is missing."""
        return self.depth == 1 and self._quote is None and not self._escaped

    def feed(self, text: str, pos: int) -> int:
        """Consume from ``pos``; return where it stopped (just past the list once `done`)."""
        n = len(text)
        while pos < n and not self.done:
            if self._quote is not None:
                if self._escaped:
                    self._escaped = False
                    pos += 1
                    continue
                run = _STRING_RUNS[self._quote].match(text, pos)
                if run is not None:
                    pos = run.end()
                    continue
                if text[pos] == "\\":
                    self._escaped = True
                else:
                    self._quote = None
                pos += 1
                continue
            plain = _PLAIN.match(text, pos)
            if plain is not None:
                pos = plain.end()
                continue
            char = text[pos]
            if char in "'\"":
                self._quote = char
            elif char in "([{":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth <= 0:
                    self.done = True
            pos += 1
        return pos


_STRING_OR_NAME = regex.compile(
    r"""(?P<s>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<![\w.\-])(?P<n>[A-Za-z_][\w.]*(?:-[\w.]+)+)(?=[ \t]*\()""",
    regex.DOTALL,
)


def _spell_names(text: str) -> tuple[str, dict[str, str]]:
    """Tool names Python cannot spell (``web-search(…)``, MCP-style hyphens) as placeholder identifiers, outside
    strings, so `ast` reads the call; returns the text and the placeholders' real names."""
    names: dict[str, str] = {}

    def swap(found: regex.Match[str]) -> str:
        if found.group("n") is None:
            return found.group()
        key = f"_shim_name_{len(names)}_"
        names[key] = found.group("n")
        return key

    return _STRING_OR_NAME.sub(swap, text) if "-" in text else text, names


def _escape_breaks(text: str) -> str:
    """Line breaks written inside a quoted string as escapes: a model writes a multi-line value (a file's text,
    ``type(content='doubao.com⏎')``) between plain quotes, which Python refuses and JSON would escape."""
    if "\n" not in text and "\r" not in text:
        return text

    def escape(found: regex.Match[str]) -> str:
        string = found.group("s")
        if string is None or ("\n" not in string and "\r" not in string):
            return found.group()
        # A writer that leaves a line break raw escapes nothing else either (a chat template printing the value
        # as it is: `C:\temp` is a backslash and a `t`), but for its own quote written with a backslash.
        quote, body = string[0], string[1:-1]
        body = regex.sub(r"\\(?!" + regex.escape(quote) + ")", r"\\\\", body)
        return quote + body.replace("\r", "\\r").replace("\n", "\\n") + quote

    return _STRING_OR_NAME.sub(escape, text)


def parse_pythonic(
    text: str, parameters: Callable[[str], Sequence[str]] | None = None, *, lenient: bool = False
) -> list[tuple[str, dict[str, Any]]] | None:
    """The calls in ``[name(k=v, …), …]``, or None when it is not exactly that (tool names may hold ``-``).

    ``parameters``: a tool's parameter names in its schema's order; with it, literal positional arguments take
    them in order, as Python binds them (BrowserGym's ``click('81')``, OllamAssist's
    ``CreateFile('a.java', '…')``); more positional arguments than names, or a name given twice, is no call.
    ``lenient``: the two leniencies of the module docstring too (bare values, calls as strings), for a list
    that is the message's call block; a call on a line of prose (``search(query=q)``) may be code, and keeps
    Python's own reading.
    """
    calls = _parse(text, parameters, strings=lenient)
    if calls is None and lenient and "=" in text:
        bare = _quote_bare(text)
        calls = _parse(bare, parameters, strings=False) if bare != text else None
    return calls


def _parse(
    text: str, parameters: Callable[[str], Sequence[str]] | None, *, strings: bool
) -> list[tuple[str, dict[str, Any]]] | None:
    text, names = _spell_names(text)
    text = _escape_breaks(text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # too deep is not a call either
        return None
    if not isinstance(tree.body, ast.List) or not tree.body.elts:
        return None
    items = tree.body.elts
    if strings and all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items):
        return _string_calls([cast("str", cast("ast.Constant", item).value) for item in items], parameters)
    calls: list[tuple[str, dict[str, Any]]] = []
    for node in items:
        if not isinstance(node, ast.Call):
            return None
        name = ast.unparse(node.func)
        name = names.get(name, name)
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Dict):
            # `get_weather({"city": "Paris"})`: one object literal as the arguments
            node = ast.Call(func=node.func, args=[], keywords=_dict_keywords(node.args[0]))
        elif node.args:
            bound = _bind(node, parameters(name) if parameters is not None else ())
            if bound is None:
                return None
            node = bound
        if not isinstance(node.func, (ast.Name, ast.Attribute)):
            return None
        arguments: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                return None
            try:
                value = _json_value(ast.literal_eval(keyword.value))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
            arguments[keyword.arg] = value
        calls.append((name, arguments))
    return calls


def _string_calls(
    items: list[str], parameters: Callable[[str], Sequence[str]] | None
) -> list[tuple[str, dict[str, Any]]] | None:
    """``['gcd(a=1)', 'lcm(b=2)']``: each string one call (read by the same rules, bare values too), or None."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        inner = f"[{item.strip()}]"
        call = _parse(inner, parameters, strings=False)
        if call is None and "=" in item:
            bare = _quote_bare(inner)
            call = _parse(bare, parameters, strings=False) if bare != inner else None
        if call is None or len(call) != 1:
            return None
        calls += call
    return calls


_TOKEN = r"[\w@.#~/][\w@.:/+\-#%~?&=]{0,255}"
_BARE_VALUE = regex.compile(
    r"""(?P<s>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
    rf"|(?<=[(,][ \t\r\n]{{0,8}}[A-Za-z_]\w{{0,63}}[ \t]{{0,4}}=[ \t]{{0,4}})(?P<v>{_TOKEN}(?: {_TOKEN}){{0,15}})"
    r"(?=[ \t]{0,4}[,)])",
    regex.DOTALL,
)


def _quote_bare(text: str) -> str:
    """Keyword values written without quotes (``email=john@example.com``) quoted as the strings they spell;
    literals (``5``, ``True``, ``None``) and quoted strings stay as written."""

    def quote(found: regex.Match[str]) -> str:
        value = found.group("v")
        if value is None:
            return found.group()
        try:
            ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
        else:
            return value
        if " " in value and _is_expression(value):  # `1 if b else 2`: code, not words
            return value
        return repr(value)

    return _BARE_VALUE.sub(quote, text)


def _is_expression(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _bind(node: ast.Call, names: Sequence[str]) -> ast.Call | None:
    """The call with its positional arguments given the names they bind to, or None if they cannot be."""
    if len(node.args) > len(names) or any(isinstance(arg, ast.Starred) for arg in node.args):
        return None
    given = [ast.keyword(arg=key, value=arg) for key, arg in zip(names, node.args, strict=False)]
    taken = {k.arg for k in given}
    if any(k.arg is None or k.arg in taken for k in node.keywords):
        return None
    return ast.Call(func=node.func, args=[], keywords=[*given, *node.keywords])


def _dict_keywords(node: ast.Dict) -> list[ast.keyword]:
    """An object literal's entries as keyword arguments (keys must be strings)."""
    keywords: list[ast.keyword] = []
    for key, value in zip(node.keys, node.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            return [ast.keyword(arg=None, value=value)]  # refused below, like `**kwargs`
        keywords.append(ast.keyword(arg=key.value, value=value))
    return keywords


def _json_value(value: Any) -> Any:
    """The literal as JSON data (tuples become lists); anything JSON cannot hold raises ValueError."""
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in cast("list[Any]", value)]
    if isinstance(value, dict):
        items = cast("dict[Any, Any]", value)
        if all(isinstance(k, str) for k in items):
            return {k: _json_value(v) for k, v in items.items()}
    raise ValueError(f"{kind} is not JSON")
