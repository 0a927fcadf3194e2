"""Python-style calls inside a tagged block: ``NAME(k="v", n=1)``, alone, one per line, or in ``[…, …]``.

Shared by the families that write calls this way between their own markers: LFM2
(``<|tool_call_start|>[…]<|tool_call_end|>``), Llama 4 (``<|python_start|>…<|python_end|>``), OLMo 3
(``<function_calls>`` one call per line), Gemma's ```` ```tool_code ```` fences. More lenient than
`shim.parsing.pythonic` (which reads untagged lists with Python's own grammar only): the markers are the
evidence, and models there write JSON literals (``true``, ``null``) and keyword names Python reserves
(``from="SFO"``). Values are literals only (read with `ast`, never evaluated), else lenient JSON.

`PyStart` reads where a block's body begins (``[``, a call, or a JSON object); `PyCall` reads one call up to
its closing parenthesis and hands over to `AfterBody` (closers, commas, ``]``, the next call of the block
through an ``inside`` row: see `inner_row`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.pythonic import PythonicScanner, as_data, backslashes_kept, brace_entries
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, match_at
from shim.parsing.readers.block_end import AfterBody, Closed, Revert, Skip
from shim.parsing.readers.json_body import CUT_OFF, JsonBody
from shim.parsing.readers.untagged import FENCE_LABEL, UntaggedJson

__all__ = ["CALL_OPEN", "PyCall", "PyStart", "inner_row", "open_list", "parse_arguments", "print_row"]

CALL_OPEN = regex.compile(
    r"(?:[A-Za-z_][A-Za-z0-9_]{0,63}[ \t]{0,4}=(?!=)[ \t]{0,4})?"
    r"(?P<print>print[ \t]{0,4}\([ \t]{0,4})?(?!print[ \t]{0,4}\()(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})[ \t]{0,4}\("
)
"""``NAME(``, also inside ``print(…)`` or assigned (``result = NAME(…)``): Gemma's ```` ```tool_code ```` calls are
Python it would run and print."""
PRINT_NAME = r"print[ \t]{0,4}\([ \t]{0,4}[A-Za-z_][A-Za-z0-9_]{0,63}[ \t]{0,4}\)"
"""``print(result)`` after ``result = NAME(…)`` in a block of calls: the harness prints what the call returned."""
_WRAP_CLOSE = regex.compile(r"[ \t]{0,4}\)")
_PIECES = regex.compile(r"""'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|[()\[\]{}]|,|[^'"()\[\]{},]+""", regex.DOTALL)
_KEYWORD = regex.compile(r"[ \t\r\n]*(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*(?:=(?!=)|:)(?P<value>.*)", regex.DOTALL)
_LIST_OF_CALLS = regex.compile(r"\[[ \t\r\n]{0,8}(?=[A-Za-z_])")
_NAMES = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}


def parse_arguments(text: str, parameters: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The arguments between a call's parentheses, as JSON data.

    With the offered tool's schema ``parameters`` (its ``properties``), Python-call leniencies that need the
    schema to be safe (Gemma 3 writes them): positional arguments bound to the parameters in the schema's
    order (``search_files('*.py')``), one JS object literal as the whole arguments
    (``get_weather({city: "London"})``), and an unquoted bare word for a string parameter
    (``get_weather(city: Antwerp)``), and a number written for a parameter declared a string as the text it is
    written as (``count=5``: ``"5"``). ``key: value`` is read as ``key=value`` in any case.

    Raises:
        ValueError: a positional argument with no parameter to bind it to, or a value that is no literal
            (the message says which).
    """
    arguments: dict[str, Any] = {}
    positional: list[Any] = []
    depth, piece = 0, list[str]()
    for token in [*_PIECES.findall(text), ","]:
        if token in "([{":
            depth += 1
        elif token in ")]}":
            depth -= 1
        if token != "," or depth > 0:
            piece.append(token)
            continue
        source, piece = "".join(piece), []
        if not source.strip():
            continue
        found = _KEYWORD.fullmatch(source)
        if found is None:
            if parameters is None or arguments:
                raise ValueError(f"{source.strip()[:40]!r} is not a keyword argument (write name=value)")
            positional.append(_literal(source.strip(), bare=True))
            continue
        key = found.group("key")
        value = found.group("value").strip()
        arguments[key] = _literal(value, bare=parameters is not None)
        if parameters is not None and _NUMBER.fullmatch(value) and _declared_string(parameters.get(key)):
            arguments[key] = value  # `sides=6` for a string parameter: the text as written (`parse_pythonic`)
    if parameters is not None:
        arguments = _bind(positional, arguments, parameters)
    return arguments


_NUMBER = regex.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _declared_string(schema: Any) -> bool:
    kind = cast("dict[str, Any]", schema).get("type") if isinstance(schema, dict) else None
    return kind == "string" or kind == ["string"]


class _Bare(str):
    """An unquoted word where a value belongs: a string only where the schema says the parameter is one."""


_BARE = regex.compile(r"[A-Za-z_][\w.\-/@]*(?:[ \t]+[\w.\-/@]+){0,8}")


def _bind(positional: list[Any], arguments: dict[str, Any], parameters: Mapping[str, Any]) -> dict[str, Any]:
    if len(positional) == 1 and not arguments and isinstance(positional[0], dict):
        literal = cast("dict[str, Any]", positional[0])
        first: Any = next(iter(parameters.values()), None)
        first_schema = cast("dict[str, Any]", first) if isinstance(first, dict) else {}
        holds_object = len(parameters) == 1 and first_schema.get("type") == "object"
        if literal and set(literal) <= set(parameters) and (not holds_object or _names_itself(literal, first_schema)):
            return literal  # get_weather({city: "London"}): the object is the arguments
    free = [name for name in parameters if name not in arguments]
    if len(positional) > len(free):
        raise ValueError(f"{len(positional)} positional arguments for {len(free)} parameters (write name=value)")
    arguments = {**dict(zip(free, positional, strict=False)), **arguments}
    for key, value in arguments.items():
        if isinstance(value, _Bare):
            schema: Any = parameters.get(key)
            kind = cast("dict[str, Any]", schema).get("type") if isinstance(schema, dict) else None
            if kind not in (None, "string"):
                raise ValueError(f"{str(value)[:40]!r} is not a literal value")
            arguments[key] = str(value)
    return arguments


def _names_itself(literal: dict[str, Any], schema: dict[str, Any]) -> bool:
    """``configure({"key": {…}})`` for a tool whose one parameter ``key`` takes an object: the object names its
    parameter, so it is the arguments (not the value of ``key`` holding a ``key``), unless the parameter's own
    schema has a property of that name too."""
    ((key, value),) = literal.items()
    inner: Any = schema.get("properties")
    return isinstance(value, dict) and not (isinstance(inner, dict) and key in inner)


def _python(source: str) -> Any:
    """``source`` read as a Python literal; raises what `ast.parse` and `as_data` raise on anything else."""
    return _value(as_data(ast.parse(backslashes_kept(source), mode="eval").body), 0)


_NOT_PYTHON = (SyntaxError, ValueError, RecursionError, MemoryError)


def _literal(source: str, *, bare: bool = False) -> Any:
    try:
        return _python(source)
    except _NOT_PYTHON:
        pass
    keyed = brace_entries(source) if "=" in source else None  # `{k=v, …}`: an object's entries written as keywords
    if keyed is not None:
        try:
            return _python(keyed)
        except _NOT_PYTHON:
            pass
    try:
        return lenient_json.loads(source)
    except lenient_json.LenientJSONError:
        if bare and source not in _NAMES and _BARE.fullmatch(source):
            return _Bare(source)
        raise ValueError(f"{source[:40]!r} is not a literal value") from None


def _value(node: ast.expr, depth: int) -> Any:
    if depth > lenient_json.MAX_DEPTH:
        raise ValueError("nested too deep")
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, int, float, bool))):
        return node.value
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value(node.operand, depth + 1)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(item, depth + 1) for item in node.elts]
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
        keys = [_value(key, depth + 1) for key in node.keys if key is not None]
        if all(isinstance(key, str) for key in keys):
            return dict(zip(keys, (_value(v, depth + 1) for v in node.values), strict=True))
    raise ValueError("not a literal")


class PyCall:
    """One call after its ``NAME(`` (already consumed); the opener named the tool, so the call starts at once."""

    def __init__(self, ctx: Context, block: Block, name: str, *, wrapped: bool = False) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.wrapped = wrapped
        """The call sits in ``print(…)``: one more ``)`` belongs to it."""
        self.scanner = PythonicScanner()
        self.scanner.depth = 1
        self.body: list[str] = []
        ctx.start_call(name)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.scanner.done:  # only the wrapper's `)` is still to come
            found = match_at(_WRAP_CLOSE, text, pos, final)
            if found is MORE:
                return pos, MORE
            if found is not None:
                self.ctx.consume(found.group())
                pos = found.end()
            self.wrapped = False
            return self._end(pos)
        new = self.scanner.feed(text, pos)
        self.ctx.consume(text[pos:new])
        self.body.append(text[pos:new])
        if not self.scanner.done:
            return new, self
        if self.wrapped:
            return new, self
        return self._end(new)

    def _end(self, new: int) -> tuple[int, Next]:
        try:
            tools = self.ctx.tools
            arguments = parse_arguments("".join(self.body)[:-1], tools.properties(tools.resolve(self.name)))
        except ValueError as exc:
            self.ctx.fail_call(f"the arguments of {self.name!r} could not be read: {exc}")
        else:
            self.ctx.end_call(self.name, arguments, streamed=False)
        return new, AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        if self.scanner.done and not truncated:
            self._end(0)
            return
        self.ctx.fail_call(CUT_OFF if truncated else f"the call to {self.name!r} ends before its closing parenthesis")


def open_call(known_only: bool) -> Callable[[Context, Block, regex.Match[str]], Any]:
    """The factory of a call row; ``known_only``: the wrapper is weak evidence, only offered tools count."""

    def factory(ctx: Context, block: Block, match: regex.Match[str]) -> Any:
        name = match.group("name")
        if known_only and not ctx.tools.is_known(name):
            return Revert(ctx)
        return PyCall(ctx, block, name, wrapped=match.groupdict().get("print") is not None)

    return factory


class _Printed:
    """``print(VAR)`` after a call in its block (already consumed): markup, then the block reads on."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return pos, AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        AfterBody(self.ctx, self.block).finish(truncated)


def print_row(name: str, wrappers: tuple[str, ...]) -> Dialect:
    """The row of ``print(VAR)`` inside the blocks of ``wrappers``, after a call: markup of the block."""
    return Dialect(name, PRINT_NAME, None, start="inside", inside=wrappers, reader=lambda c, b, m: _Printed(c, b))


def inner_row(name: str, wrappers: tuple[str, ...], *, known_only: bool = False) -> Dialect:
    """The row of a call inside the blocks of ``wrappers`` (so `AfterBody` reads the next call of a block)."""
    return Dialect(name, CALL_OPEN.pattern, None, start="inside", inside=wrappers, reader=open_call(known_only))


class PyStart:
    """Where the body of a block of Python-style calls begins: ``[``, ``NAME(`` or a JSON call object."""

    def __init__(self, ctx: Context, block: Block, *, known_only: bool = False, bare_name: bool = False) -> None:
        self.ctx = ctx
        self.block = block
        self.known_only = known_only
        self.bare_name = bare_name
        block.next_body = lambda: JsonBody(ctx, block)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx, block = self.ctx, self.block
        pos = ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        if block.fence and text[pos].isalpha():  # ```tool_code\nfunction_call\n{…}: the label is markup
            label = FENCE_LABEL.match(text, pos, partial=not final)
            if label is not None and label.partial:
                return pos, MORE
            if label is not None:
                ctx.consume(label.group())
                return label.end(), self
        if text[pos] in "[{" and self.known_only:  # a JSON list in a weak wrapper: offered tools only
            bracket = _LIST_OF_CALLS.match(text, pos, partial=not final)
            if bracket is not None and bracket.partial:
                return pos, MORE
            if bracket is None and not block.array:
                return pos, UntaggedJson(ctx, block)
        if text[pos] == "[" and not block.array:
            ctx.consume("[")
            block.array = True
            return pos + 1, self
        if text[pos] == "{":
            return pos, JsonBody(ctx, block)
        found = CALL_OPEN.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is not None:
            ctx.consume(found.group())
            return found.end(), open_call(self.known_only)(ctx, block, found)
        if block.array and not self.known_only:  # `<|tool_call_start|>[` and then no call
            return pos, Skip(ctx, "expected a call NAME(key=value, …) in the list")
        if self.bare_name and not block.array:
            named = _name_only(ctx, block, text, pos, final)
            if named is not None:
                return named
        ctx.revert()  # the marker was mentioned (code, docs): text
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


_BARE_NAME = regex.compile(r"(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t\r\n]{0,8}")


def _name_only(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """A block holding an offered tool's name alone, its closing token right after it
    (``<|tool_call_start|>system.get_system_info<|tool_call_end|>``: LocalCowork's LFM tests): a call with no
    arguments. A name no tool has, or anything else after it, is no call (None)."""
    found = _BARE_NAME.match(text, pos, partial=not final)
    close = block.dialect.compiled_close() if block.dialect is not None else None
    if found is None or close is None:
        return None
    if found.partial or found.end() >= len(text):
        return (pos, MORE) if not final else None
    end = close.match(text, found.end(), partial=not final)
    if end is None or not ctx.tools.is_known(found.group("name")):
        return None
    if end.partial:
        return pos, MORE
    ctx.consume(found.group())
    ctx.start_call(found.group("name"))
    ctx.end_call(found.group("name"), {}, streamed=False)
    ctx.markup(end.group())
    return end.end(), Closed(ctx)


def open_list(ctx: Context, block: Block, match: regex.Match[str]) -> PyStart:
    """The reader of a block between special tokens that holds a pythonic call list (LFM2, Llama 4), or an offered
    tool's name alone (`_name_only`)."""
    return PyStart(ctx, block, bare_name=True)
