"""Pythonic calls, as Llama 3.2 and Llama 4 write them: ``[get_weather(city='Lima', unit='celsius'), …]``.

Untagged, so they count only as a whole message naming known tools (like bare JSON). The list is scanned
incrementally for its closing bracket (string- and bracket-aware), then read with Python's own `ast`:
keyword arguments (and positional ones, bound to an offered tool's parameters in order) with literal values
(``ast.literal_eval``), never evaluated code.

Leniencies, for what models write around that form (BFCL's prompt-mode results show each), each tried only when
Python refuses the text:

- a closer that skips open brackets closes them too, and closers of nothing at the end are stray
  (``f(days=["x", "y")]]``), as lenient JSON reads brackets;
- keyword arguments left as list items after their call's ``)`` join that call (``[f(a=1), b=2]``);
- a keyword's value written bare, without quotes (``email=john@example.com``, ``service=Netflix``): read as its
  text, when the strict reading fails and the value is one run of word-like tokens (letters, digits and
  ``@ . : / + - # % ~ ? & =``: addresses, paths, dates; single blanks between words) right before ``,`` or ``)``;
  an expression (``x + 1``, ``f(1)``, ``x[0]``) stays no call;
- a backslash before a digit in a string is a backslash (``"C:\\1_Git"``), never an octal escape (`backslashes_kept`);
- a set literal as a value (``predictors={'Age', 'Income'}``) is the list of its items in the order written, and
  arithmetic on number literals alone (``mu0=4.0 * 3.14159e-04``: ``+ - * /``) is its value (`_AsData`);
- each call written as a string of the list (``['gcd(a=1)', 'lcm(b=2)']``: Snowflake Arctic's BFCL results):
  every item must be one string holding exactly one call; where the strings' quotes are damaged (the call's own
  double quotes end the item early, ``"get("https://a.b")``, or the item closes with the other quote,
  ``"run(cmd='ls')'``: Gemma 3 in BFCL's results), a list written one item a line is read line by line, each line
  one quote, one call whose brackets balance and at most a closing quote of either kind and a comma
  (`_call_line`);
- a call's name written as a string (``['requests.get'(url='…')]``: Mistral NeMo's BFCL results), which Python
  could only call to fail: the name it spells, in a list that is the message's call block (``lenient``);
- JSON's and JavaScript's ``true``, ``false`` and ``null`` written bare (``value=true``: BFCL's JavaScript prompts,
  Llama 4) are those literals (`JSON_LITERALS`), whatever the parameter's declared type: reserved words in
  JavaScript and Java, they can name no variable there, so they are never an identifier spelled as its text.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import regex

from shim.parsing.colon_calls import FENCE_RUN, VALUE_START, colon_calls, colon_words

__all__ = [
    "JSON_LITERALS",
    "MARKDOWN_ESCAPE",
    "PYTHONIC_START",
    "QUOTED_START",
    "PythonicScanner",
    "as_data",
    "backslashes_kept",
    "brace_entries",
    "folded_arithmetic",
    "parse_pythonic",
]

_NAME = r"(?:[A-Za-z_]|\\_)(?:[A-Za-z0-9_.\-]|\\[_*.\-]){0,127}"
"""A tool's name in a call, its punctuation maybe escaped as Markdown escapes it (``calculate\\_circumference``,
Mixtral 8x7B in BFCL's results): `MARKDOWN_ESCAPE`."""
PYTHONIC_START = regex.compile(rf"\[[ \t\r\n]{{0,8}}{_NAME}\(")
"""How a pythonic call list opens (matched with ``partial=True`` at the start of a message)."""
QUOTED_START = regex.compile(rf"""\[[ \t\r\n]{{0,8}}(?P<quote>['"]){_NAME}(?P=quote)?\(""")
"""How a list of calls written as strings opens (``['gcd(``), or of calls whose names are quoted (``['get'(``)."""
MARKDOWN_ESCAPE = regex.compile(r"\\(?=[_*.\-])")
"""A backslash Markdown writes before punctuation (``\\_``): in code outside strings it is no Python, only the
Markdown a model wrote its answer in."""

JSON_LITERALS: dict[str, bool | None] = {"true": True, "false": False, "null": None}
"""Bare words a pythonic call borrows from JSON and JavaScript, read as the literals they are there."""

_STRING_RUNS = {"'": regex.compile(r"[^'\\]+"), '"': regex.compile(r'[^"\\]+')}
_LINE_STRING_RUNS = {"'": regex.compile(r"[^'\\\n]+"), '"': regex.compile(r'[^"\\\n]+')}
_PLAIN = regex.compile(r"[^'\"\[\]\(\)\{\}`]+")
_GLUED_WORD = regex.compile(r"\w+\Z")
_STRING_PREFIXES = frozenset({"r", "u", "b", "f", "br", "rb", "fr", "rf"})
"""Python's string prefixes (``b'…'``, ``rf'…'``): a quote right after one opens a string; after any other word it is
an apostrophe (``Conway's``), which no Python outside a string writes."""
_FENCE_BODY = regex.compile(r"[^`]+")
_TICKS = regex.compile(r"`+")

_CALL_LINE = regex.compile(
    rf"""[ \t]{{0,16}}\[?[ \t]{{0,8}}['"](?P<call>{_NAME}\(.*\))[ \t]{{0,8}}['"]?[ \t]{{0,8}},?[ \t]{{0,8}}\r?"""
)


def _call_line(line: str) -> str | None:
    """The call a line of a list of call strings holds when the line is that one item, its quotes maybe damaged:
    a quote, an offered-looking call (``name(``) whose brackets balance up to its last ``)``, then at most a
    closing quote of either kind and a comma (``"get("https://a.b")``, ``"run(cmd='ls')'``); else None."""
    found = _CALL_LINE.fullmatch(line)
    if found is None:
        return None
    call = found.group("call")
    scanner = PythonicScanner()
    return call if scanner.feed(call, 0) == len(call) and scanner.done else None


def _call_lines(text: str) -> list[str] | None:
    """The calls of a list of call strings written one item a line (`_call_line`), or None."""
    text = text.strip()
    if not text.startswith("[") or not text.endswith("]"):
        return None
    calls: list[str] = []
    for line in text[:-1].splitlines():
        if not line.strip() or line.strip() == "[":
            continue
        call = _call_line(line)
        if call is None:
            return None
        calls.append(call)
    return calls or None


class PythonicScanner:
    """Find where a pythonic call list ends: feed chunks, `done` turns True after its last ``]``.

    ``call_lines``: the list holds calls as strings, one a line, where a line break inside an item's string ends
    that string when the line holds one whole call (`_call_line`): the item's closing quote was damaged, and a
    string of a list written one item a line never runs on to the next."""

    def __init__(self, *, call_lines: bool = False, apostrophes: bool = False) -> None:
        self.depth = 0
        self.done = False
        self._quote: str | None = None
        self._escaped = False
        self._call_lines = call_lines
        self._apostrophes = apostrophes
        """A quote glued to a word no string prefix spells is an apostrophe (``Conway's``), not a string's quote: for
        a call whose values may be words (`colon_words`); elsewhere it may close a damaged item (``'f(x='Oslo')'``)."""
        self._line = ""
        """``call_lines``: the current line's text before this chunk."""
        self._last = ""
        """The last character read outside strings and fences, blanks aside."""
        self._word = ""
        """The word the text read last ends with, glued to what comes next (``Conway`` before ``'s``)."""
        self._ticks = 0
        """A run of backticks being counted (it may go on in the next chunk)."""
        self._fence = 0
        """The length of the backtick fence holding a value (``cmd: ```ls`````), 0 outside one: only a run of
        exactly that length closes it (`shim.parsing.colon_calls`)."""

    @property
    def only_closer_missing(self) -> bool:
        """One call open, outside any string (``click('81'``): at most its ``)`` is missing."""
        return self.depth == 1 and self._quote is None and not self._escaped

    def with_list_closed(self, body: str) -> str | None:
        """``body`` (all fed so far) with the list's ``]`` written, when the output ended right after a call's
        ``)`` and that ``]`` is all that is missing (CoALM-8B in BFCL's result files); else None: inside a
        string or a call, the list is no list yet."""
        body = body.rstrip()
        return f"{body}]" if body.endswith(")") and self.only_closer_missing else None

    def feed(self, text: str, pos: int) -> int:
        """Consume from ``pos``; return where it stopped (just past the list once `done`)."""
        start = pos
        pos = self._feed(text, pos, start)
        if self._call_lines:
            self._line = (self._line + text[start:pos]).rsplit("\n", 1)[-1]
        return pos

    def _feed(self, text: str, pos: int, start: int) -> int:
        n = len(text)
        runs = _LINE_STRING_RUNS if self._call_lines else _STRING_RUNS
        while pos < n and not self.done:
            if self._ticks and text[pos] != "`":
                self._end_ticks()
                continue
            if self._quote is None and (self._fence or text[pos] == "`"):
                run = (_TICKS if text[pos] == "`" else _FENCE_BODY).match(text, pos)
                assert run is not None
                if text[pos] == "`":
                    self._ticks += len(run.group())
                pos = run.end()
                continue
            if self._quote is not None:
                if self._escaped:
                    self._escaped = False
                    pos += 1
                    continue
                run = runs[self._quote].match(text, pos)
                if run is not None:
                    pos = run.end()
                    continue
                if text[pos] == "\\":
                    self._escaped = True
                elif text[pos] != "\n":
                    self._quote = None
                elif self.depth == 1 and _call_line((self._line + text[start:pos]).rsplit("\n", 1)[-1]) is not None:
                    self._quote = None  # an item's damaged string ends with its line (the class docstring)
                pos += 1
                continue
            plain = _PLAIN.match(text, pos)
            if plain is not None:
                pos = plain.end()
                self._last = plain.group().rstrip()[-1:] or self._last
                glued = _GLUED_WORD.search(plain.group())
                # a run that is one word goes on the word the last chunk ended with (`Conw` + `ay`)
                self._word = "" if glued is None else glued.group() if glued.start() else self._word + glued.group()
                continue
            char = text[pos]
            self._last = char
            word, self._word = self._word, ""
            if char == "'" and self._apostrophes and word and word.lower() not in _STRING_PREFIXES:
                pass  # `Conway's`: an apostrophe glued to a word no string prefix spells opens no string
            elif char in "'\"":
                self._quote = char
            elif char in "([{":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth <= 0:
                    self.done = True
            pos += 1
        return pos

    def _end_ticks(self) -> None:
        """A run of backticks ended: it closes the open fence when it is as long, opens one where a value starts
        (three or more), and is plain text otherwise (`shim.parsing.colon_calls`)."""
        ticks, self._ticks = self._ticks, 0
        if self._fence:
            self._fence = 0 if ticks == self._fence else self._fence
        elif ticks >= FENCE_RUN and self._last in VALUE_START:
            self._fence = ticks
            return
        self._last = "`"


_STRING_OR_NAME = regex.compile(
    r"""(?P<s>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<![\w.\-])(?P<n>[A-Za-z_][\w.]*(?:-[\w.]+)+)(?=[ \t]*\()""",
    regex.DOTALL,
)


_STRING_OR_ESCAPE = regex.compile(r"""(?P<s>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|\\(?=[_*.\-])""", regex.DOTALL)


def _unescaped(text: str) -> str:
    """The Markdown escapes (`MARKDOWN_ESCAPE`) outside strings dropped: ``[calculate\\_circumference(r=4)]``."""
    if "\\" not in text:
        return text
    return _STRING_OR_ESCAPE.sub(lambda found: found.group() if found.group("s") is not None else "", text)


def _spell_names(text: str) -> tuple[str, dict[str, str]]:
    """Tool names Python cannot spell (``web-search(…)``, MCP-style hyphens) as placeholder identifiers, outside
    strings, so `ast` reads the call; returns the text and the placeholders' real names."""
    text = _unescaped(text)
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


_ESCAPE_PAIR = regex.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^{}\n]{1,64}\}|.)", regex.DOTALL)


_PYTHON_ESCAPES = frozenset("\n\\'\"abfnrtv")
"""What Python gives a meaning after a backslash in a string alone (``\\x`` ``\\u`` ``\\U`` ``\\N`` need what
follows: `_ESCAPE_PAIR`; digits, octal, are kept as written: `backslashes_kept`)."""


def backslashes_kept(text: str) -> str:
    """``text`` with each backslash in a quoted string that is no Python escape, or is an octal one, written as a
    backslash: ``"C:\\1_Git\\LocaLLM"`` and ``"C:\\Users"`` are Windows paths (a model never means ``\\1`` as a
    control character, as lenient JSON reads an unknown digit escape), and ``\\L`` is what Python itself reads, only
    without the warning it gives (an error where warnings are). Raw strings (``r"…"``) are left alone."""
    if "\\" not in text:
        return text

    def keep(found: regex.Match[str]) -> str:
        string = found.group("s")
        if string is None or "\\" not in string or text[found.start() - 1 : found.start()] in ("r", "R"):
            return found.group()
        return _ESCAPE_PAIR.sub(
            lambda pair: (
                pair.group() if len(pair.group(1)) > 1 or pair.group(1) in _PYTHON_ESCAPES else "\\\\" + pair.group(1)
            ),
            string,
        )

    return _STRING_OR_NAME.sub(keep, text)


def parse_pythonic(
    text: str,
    parameters: Callable[[str], Sequence[str]] | None = None,
    spelled: Callable[[str, str], bool] | None = None,
    declared: Callable[[str, str], bool] | None = None,
    *,
    lenient: bool = False,
    words: bool = False,
    unquoted: bool = False,
) -> list[tuple[str, dict[str, Any]]] | None:
    """The calls in ``[name(k=v, …), …]``, or None when it is not exactly that (tool names may hold ``-``).

    ``parameters``: a tool's parameter names in its schema's order; with it, literal positional arguments take
    them in order, as Python binds them (BrowserGym's ``click('81')``, OllamAssist's
    ``CreateFile('a.java', '…')``); more positional arguments than names, or a name given twice, is no call.

    A value written bare is text on one of two kinds of evidence. ``lenient``: the list is the message's call
    block, so any bare value is the text it spells, and a list of strings may hold the calls (the module
    docstring); a call on a line of prose (``search(query=q)``) may be code, and otherwise keeps Python's own
    reading. ``spelled(tool, key)``: whether the parameter takes a string its schema does not constrain otherwise
    (declared a string, or untyped); there an identifier written unquoted (``controller=mapController``,
    ``source=db.main``: a Java or Python name where BFCL's Java and JavaScript prompts want the value) is that
    string as written, wherever the call stands, where the key is written too (``read(file_path)`` names a
    parameter, it gives no value). ``words``: the call opens the message (its answer, not code on a line of prose):
    there a bare run of word-like tokens Python cannot read (``new_time=13:00``, ``email=jo@example.com``) is the
    text it spells too, where every key so written is ``spelled``. ``unquoted``: a label says the call is one
    (``Tool call: NAME (key: value, …)``): ``key: value`` keywords whose values are written without quotes read as
    `shim.parsing.colon_calls.colon_words` reads them, where every key so written is ``spelled``.

    ``declared(tool, key)``: whether the parameter is declared a string; there a number written bare
    (``roll(sides=6)``) is the text it is written as (``"6"``), as a harness that keeps every value as written
    reads it (hollingsbot's ``TOOL_CALL:`` lines, mlx-swift's LFM2 tests). ``True``, ``None`` and JSON's literals
    stay the constants they are (BFCL's Java and JavaScript prompts declare their booleans as strings).
    """
    calls = _parse(text, parameters, spelled, declared, strings=lenient)
    if calls is None and lenient and "=" in text:
        bare = _quote_bare(text)
        calls = _parse(bare, parameters, spelled, declared, strings=False) if bare != text else None
    if calls is None and words and not lenient and spelled is not None and "=" in text:
        # Words no Python name spells (`new_time=13:00`), for keys the schema declares strings, in a call opening
        # the message (KMLLMChat's harness prompt): the text they spell.
        keys: set[str] = set()
        bare = _quote_bare(text, keys)
        found = _parse(bare, parameters, spelled, declared, strings=False) if bare != text else None
        if found is not None and all(
            spelled(name, key) for name, arguments in found for key in keys & arguments.keys()
        ):
            calls = found
    if calls is None and lenient:  # call strings one a line, their quotes damaged
        lines = _call_lines(text)
        calls = _string_calls(lines, parameters) if lines is not None else None
    if calls is None and parameters is not None and (":" in text or "`" in text):
        # `read_file(path: "/a")`, `bash(cmd: ```ls```)`: a harness's spelling of the same call (`colon_calls`),
        # its values literals only: a bare word there is a type (`schedule(title: string)`, a signature), no value
        spelled_text = colon_calls(text, parameters)
        if spelled_text is not None:
            calls = _parse(spelled_text, parameters, strings=False)
    if calls is None and unquoted and parameters is not None and spelled is not None and ":" in text:
        # `Tool call: NAME (key: value, …)` (autonomy's text fallback): under a label saying it is a call, values
        # written without quotes are the text they spell (`colon_words`), for keys the schema declares strings
        found = colon_words(text, parameters)
        read = _parse(found[0], parameters, strings=False) if found is not None else None
        if (
            found is not None
            and read is not None
            and all(spelled(name, key) for name, arguments in read for key in found[1] & arguments.keys())
        ):
            calls = read
    return calls


def _parse(
    text: str,
    parameters: Callable[[str], Sequence[str]] | None,
    spelled: Callable[[str, str], bool] | None = None,
    declared: Callable[[str, str], bool] | None = None,
    *,
    strings: bool,
) -> list[tuple[str, dict[str, Any]]] | None:
    text, names = _spell_names(text)
    text = backslashes_kept(_escape_breaks(text))
    source = text.strip()
    tree = _parsed(source)
    if tree is None:  # damaged brackets (BFCL's prompt mode): read again once repaired, if that reads
        repaired = _rebalanced(text.strip())
        source = repaired or ""
        tree = _parsed(repaired) if repaired is not None else None
        if tree is None:
            moved = _late_keywords(repaired if repaired is not None else text.strip())
            source = moved or ""
            tree = _parsed(moved) if moved is not None else None
        if tree is None:
            keyed = brace_entries(text.strip())
            source = keyed or ""
            tree = _parsed(keyed) if keyed is not None else None
    if tree is None:
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
        quoted = node.func.value if isinstance(node.func, ast.Constant) else None
        if strings and isinstance(quoted, str) and _QUOTED_NAME.fullmatch(quoted):
            node = ast.Call(func=ast.Name(id=quoted), args=node.args, keywords=node.keywords)  # `'get'(…)`: named
            name = quoted
        else:
            name = ast.unparse(node.func)
        name = names.get(name, name)
        named = {id(k) for k in node.keywords}  # written `key=value`: an identifier there may be a spelled value
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
            if (
                spelled is not None
                and id(keyword) in named
                and _is_identifier(keyword.value)
                and spelled(name, keyword.arg)
            ):
                arguments[keyword.arg] = ast.unparse(keyword.value)
                continue
            try:
                value = _json_value(ast.literal_eval(as_data(keyword.value)))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
            if declared is not None and _number_written(keyword.value) and declared(name, keyword.arg):
                value = ast.get_source_segment(source, keyword.value) or value  # `sides=6` for a string: "6"
            arguments[keyword.arg] = value
        calls.append((name, arguments))
    return calls


_QUOTED_NAME = regex.compile(r"[A-Za-z_][\w.\-]{0,127}")
"""A tool's name written as a string in a call's place (``'requests.get'(…)``)."""


def _parsed(text: str) -> ast.Expression | None:
    try:
        return ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # too deep is not a call either
        return None


_PAIRS = {")": "(", "]": "[", "}": "{"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_BRACKET_TOKEN = regex.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[()\[\]{}]|[^'"()\[\]{}]+""", regex.DOTALL)


def _rebalanced(text: str) -> str | None:
    """``text`` with damaged brackets set right, as lenient JSON sets them (`shim.parsing.lenient_json`): a closer
    that skips open brackets closes them too (``["RGB", "HEX")`` closes the list, then the call), and closers
    that close nothing at the end are dropped (``…)]]``); None when nothing needed repair or a quote is open."""
    out: list[str] = []
    stack: list[str] = []
    changed = False
    for token in _BRACKET_TOKEN.findall(text):
        if token in _CLOSERS:
            stack.append(token)
        elif token in _PAIRS:
            opener = _PAIRS[token]
            if stack and stack[-1] == opener:
                stack.pop()
            elif opener in stack:
                while stack[-1] != opener:
                    out.append(_CLOSERS[stack.pop()])
                stack.pop()
                changed = True
            else:
                changed = True
                continue  # a closer of nothing open: stray
        elif token[:1] in "'\"" and (len(token) < 2 or token[-1] != token[0]):
            return None
        out.append(token)
    return "".join(out) if changed and not stack else None


_BRACE_ENTRY = regex.compile(r"(?P<lead>^|,)(?P<gap>[ \t\r\n]*)(?P<key>[A-Za-z_]\w{0,63})(?P<eq>[ \t]*=)(?!=)")


def brace_entries(text: str) -> str | None:
    """``text`` with each object literal written with keyword entries (``{order_id=1, address={city="SF"}}``: a
    keyword argument's ``=`` inside braces, as Llama 3.2 3B copies an object from its history; Lua's tables) spelled
    as a dict (``{'order_id': 1, 'address': {'city': "SF"}}``); None when no brace holds such an entry or a quote
    is open. Entries are ``NAME=`` at the brace's start or after a comma, outside strings; ``==`` is no entry."""
    out: list[str] = []
    stack: list[str] = []
    changed = False
    tokens: list[str] = _BRACKET_TOKEN.findall(text)
    if sum(map(len, tokens)) != len(text):  # a quote left open (no token holds it)
        return None
    for token in tokens:
        if token in _CLOSERS:
            stack.append(token)
        elif token in _PAIRS:
            if stack and stack[-1] == _PAIRS[token]:
                stack.pop()
        elif token[:1] in "'\"":
            pass
        elif stack and stack[-1] == "{" and (out[-1:] == ["{"] or "," in token):
            keyed = _BRACE_ENTRY.sub(lambda m: f"{m['lead']}{m['gap']}{m['key']!r}{m['eq'][:-1]}:", token)
            changed = changed or keyed != token
            token = keyed
        out.append(token)
    return "".join(out) if changed else None


_LATE_KEYWORD = regex.compile(r"\)(?P<gap>[ \t\r\n]*,[ \t\r\n]*)(?=[A-Za-z_]\w*[ \t]*=(?!=))")


def _late_keywords(text: str) -> str | None:
    """A list whose last call closed before its last keyword arguments, left as items of the list
    (``[f(a=1), b=2]``): the ``)`` moved after them; None when no item is such a keyword, or a call follows."""
    if not text.startswith("[") or not text.endswith("]"):
        return None
    body = text[1:-1]
    depth = 0
    moved: int | None = None
    for token in _BRACKET_TOKEN.finditer(body):
        piece = token.group()
        if moved is not None and piece == "(":
            return None  # another call after the keywords: not this damage
        if piece in _CLOSERS:
            depth += 1
        elif piece in _PAIRS:
            depth -= 1
            if depth == 0 and piece == ")" and moved is None and _LATE_KEYWORD.match(body, token.start()):
                moved = token.start()
    if moved is None:
        return None
    return "[" + body[:moved] + body[moved + 1 :].rstrip() + ")]"


def _number_written(node: ast.expr) -> bool:
    """A number literal, maybe signed (``6``, ``-2.5``): no arithmetic, no constant."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def _is_identifier(node: ast.expr) -> bool:
    """A name or a dotted name (``mapController``, ``this.view``), not a literal: ``True`` and ``None`` are
    constants, and so are JavaScript's ``true``, ``false`` and ``null`` (`JSON_LITERALS`)."""
    if isinstance(node, ast.Name) and node.id in JSON_LITERALS:
        return False
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


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
    rf"|(?<=[(,][ \t\r\n]{{0,8}}(?P<k>[A-Za-z_]\w{{0,63}})[ \t]{{0,4}}=[ \t]{{0,4}})"
    rf"(?P<v>{_TOKEN}(?: {_TOKEN}){{0,15}})"
    r"(?=[ \t]{0,4}[,)])",
    regex.DOTALL,
)


def _quote_bare(text: str, keys: set[str] | None = None) -> str:
    """Keyword values written without quotes (``email=john@example.com``) quoted as the strings they spell;
    literals (``5``, ``True``, ``None``) and quoted strings stay as written. ``keys`` gets the keys quoted."""

    def quote(found: regex.Match[str]) -> str:
        value = found.group("v")
        if value is None or value in JSON_LITERALS:
            return found.group()
        try:
            ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
        else:
            return value
        if " " in value and _is_expression(value):  # `1 if b else 2`: code, not words
            return value
        if keys is not None:
            keys.add(found.group("k"))
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


_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


class _AsData(ast.NodeTransformer):
    """A value as the data a model means by it: a set literal (``{'Age', 'Income'}``, Qwen2.5 in BFCL's results) is
    the list of its items in the order written (`ast.literal_eval` would return an unordered set, which JSON cannot
    hold), arithmetic on number literals alone (``mu0=4.0 * 3.14159e-04``) is its value, and ``true``, ``false``
    and ``null`` are JSON's literals (`JSON_LITERALS`); any other name, a call or ``**`` anywhere stays no literal
    (never evaluated code)."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in JSON_LITERALS:
            return ast.Constant(value=JSON_LITERALS[node.id])
        return node

    def visit_Set(self, node: ast.Set) -> ast.AST:
        return ast.List(elts=[self.visit(elt) for elt in node.elts], ctx=ast.Load())

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        operand = self.visit(node.operand)
        if isinstance(node.op, (ast.USub, ast.UAdd)) and _number(operand):
            value = operand.value  # pyright: ignore[reportAttributeAccessIssue]
            return ast.Constant(value=-value if isinstance(node.op, ast.USub) else value)
        return ast.UnaryOp(op=node.op, operand=operand)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        left, right = self.visit(node.left), self.visit(node.right)
        operate = _ARITHMETIC.get(type(node.op))
        if operate is None or not (_number(left) and _number(right)):
            return ast.BinOp(left=left, op=node.op, right=right)  # literal_eval refuses it (or reads a complex)
        try:
            value = operate(left.value, right.value)  # pyright: ignore[reportAttributeAccessIssue]
        except (ZeroDivisionError, OverflowError):
            raise ValueError("the arithmetic has no finite value") from None
        if not math.isfinite(value):
            raise ValueError("the arithmetic has no finite value")
        return ast.Constant(value=value)


def _number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def as_data(node: ast.expr) -> ast.expr:
    """``node`` with set literals as lists and number arithmetic folded (`_AsData`).

    Raises:
        ValueError: arithmetic with no finite value (``1 / 0``, an overflow).
    """
    return cast("ast.expr", _AsData().visit(node))


def folded_arithmetic(text: str) -> int | float | None:
    """The value of ``text`` when it is arithmetic on number literals alone (``1600 - (250 + 250)``,
    ``4.0 * 3.14159e-04``: ``+ - * /``, unary signs and parentheses, folded as `as_data` folds a call's value), else
    None: a name, a call, ``**``, an unbalanced parenthesis or no finite value (``1 / 0``) is no number. The one
    reading of "what arithmetic we fold" for JSON values (`json_scan.ARITHMETIC`) as for Python-style calls."""
    try:
        node = as_data(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Constant) or type(node.value) not in (int, float):
        return None
    return cast("int | float", node.value)


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
