"""Python-style calls spelled with ``key: value`` keywords and backtick-fenced values, as harness prompts define
them (ToolCallFormat.jl's ``read_file(path: "/a.txt")``, ``bash(script: ```⏎ls⏎```)``): `colon_calls` writes
such a call in Python's own spelling, so `shim.parsing.pythonic` reads it with the same rules as any other.

- ``key: value`` is ``key=value`` where ``key`` is a declared parameter of the tool the call names (the offered
  tool's schema is the evidence: ``f(x: int)`` of a tool with no parameter ``x`` stays no call). Only keywords of a
  call's own parentheses: a colon inside braces (``{"k": 1}``) or brackets (``[1:2]``) is left as written, and so
  are ``::`` and ``:=``.
- A value fenced with a run of three or more backticks (`FENCE_RUN`) where a value starts (after ``(``, ``,``,
  ``:``, ``=`` or ``[``) is the string between the run and the next run of exactly the same length (a longer or
  shorter run inside is content: ````` ````echo ```x``````` `````), without one line break right after the opener
  and one before the closer (with the closer's indentation). A word right after the opener on its line is content
  (``content: ```python⏎print(1)⏎```` is ``"python\\nprint(1)"``), as ToolCallFormat.jl reads it: inside a call,
  the fence is the value's quotes, not a Markdown code block with a language.

`shim.parsing.pythonic.PythonicScanner` finds the call's end with the same fences.

Where the call itself is the evidence of a value's spelling (a label says it is a call: ``Tool call: NAME (key:
value, …)``, autonomy's text fallback), `colon_words` reads one call's values written without quotes: each runs from
its ``key:`` to the next ``, KEY:`` of a parameter the tool declares, or to the call's closing parenthesis.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

import regex

__all__ = ["FENCE_RUN", "VALUE_START", "colon_calls", "colon_words", "fenced_value"]

FENCE_RUN = 3
"""The fewest backticks that fence a value."""
VALUE_START = frozenset(":=(,[")
"""What stands before a value (blanks aside)."""

_STRING = regex.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\]|\\.)*\"""", regex.DOTALL)
_TICKS = regex.compile(r"`+")
_KEY = regex.compile(r"(?P<key>[A-Za-z_]\w{0,63})(?P<gap>[ \t]{0,4}):(?![:=])")
_CALL = regex.compile(r"(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,4}\(")
_KEY_START = frozenset("(,")
_NAME_PART = frozenset("_.-")
_LEAD = regex.compile(r"\r?\n")
_TRAIL = regex.compile(r"\r?\n[ \t]*\Z")


def fenced_value(body: str) -> str:
    """The string a fence holds: ``body`` without one line break right after the opener and one (with the
    closer's indentation) before the closer."""
    lead = _LEAD.match(body)
    body = body[lead.end() :] if lead is not None else body
    trail = _TRAIL.search(body)
    return body[: trail.start()] if trail is not None else body


def colon_calls(text: str, parameters: Callable[[str], Sequence[str]]) -> str | None:
    """``text`` (calls, maybe in a list) with its colon keywords and fenced values in Python's spelling (the
    module docstring); None when it holds neither, or a fence is left open."""
    out: list[str] = []
    stack: list[str | None] = []  # per open bracket: the name of the call it opened, if a call's
    last = ""
    changed = False
    pos, n = 0, len(text)
    while pos < n:
        found = _STRING.match(text, pos)
        if found is not None:
            out.append(found.group())
            last, pos = found.group()[0], found.end()
            continue
        found = _TICKS.match(text, pos)
        if found is not None:
            run = len(found.group())
            if run >= FENCE_RUN and last in VALUE_START:
                closer = regex.compile(rf"(?<!`)`{{{run}}}(?!`)").search(text, found.end())
                if closer is None:
                    return None
                out.append(repr(fenced_value(text[found.end() : closer.start()])))
                changed, last, pos = True, "`", closer.end()
                continue
            out.append(found.group())
            last, pos = "`", found.end()
            continue
        if last in _KEY_START and stack and stack[-1] is not None:
            found = _KEY.match(text, pos)
            if found is not None and found.group("key") in parameters(stack[-1]):
                out.append(f"{found.group('key')}{found.group('gap')}=")
                changed, last, pos = True, "=", found.end()
                continue
        found = _CALL.match(text, pos) if not (last.isalnum() or last in _NAME_PART) else None
        if found is not None:
            out.append(found.group())
            stack.append(found.group("name"))
            last, pos = "(", found.end()
            continue
        char = text[pos]
        if char in "([{":
            stack.append(None)
        elif char in ")]}" and stack:
            stack.pop()
        out.append(char)
        last = char if not char.isspace() else last
        pos += 1
    return "".join(out) if changed else None


_ONE_CALL = regex.compile(
    r"[ \t\r\n]*\[?[ \t\r\n]*(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]{0,4}\((?P<body>.*)\)[ \t\r\n]*\]?[ \t\r\n]*",
    regex.DOTALL,
)
_LITERAL_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})
_TYPE_WORDS = frozenset({"string", "str", "integer", "int", "number", "float", "boolean", "bool", "array", "object"})


def colon_words(text: str, parameters: Callable[[str], Sequence[str]]) -> tuple[str, set[str]] | None:
    """``text``, one call (maybe alone in a list) whose ``key: value`` keywords name parameters the tool declares,
    in Python's spelling, each value that is no literal quoted as the text it spells (trimmed); with the keys so
    quoted. A value runs to the next ``, KEY:`` of a declared ``KEY`` or to the call's closing parenthesis. None: not
    one call, or its parentheses hold anything before the first declared key."""
    call = _ONE_CALL.fullmatch(text)
    if call is None:
        return None
    name, body = call.group("name"), call.group("body")
    if not body.strip():
        return f"[{name}()]", set()
    keys = [regex.escape(key) for key in parameters(name) if key]
    if not keys:
        return None
    found = list(regex.finditer(rf"(?:^[ \t\r\n]*|,[ \t]*)(?P<key>{'|'.join(keys)})[ \t]{{0,4}}:(?![:=])", body))
    if not found or found[0].start() != 0:
        return None
    quoted: set[str] = set()
    pieces: list[str] = []
    for at, key in enumerate(found):
        end = found[at + 1].start() if at + 1 < len(found) else len(body)
        value = body[key.end() : end].strip()
        if not value or value in _TYPE_WORDS:  # `path: string`: a signature's type, no value
            return None
        if value not in _LITERAL_WORDS:
            try:
                ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                quoted.add(key.group("key"))
                value = repr(value)
        pieces.append(f"{key.group('key')}={value}")
    return f"[{name}({', '.join(pieces)})]", quoted
