"""A call envelope written as YAML in a ```` ```yaml ```` fence (CAMEL's MCPAgent reads these):

    ```yaml
    tool_name: search
    tool_args:
      query: cats
    ```

The fence is read whole, to its closing line, then decided: a YAML mapping that is one call of an offered tool
by the shape rules every family uses (`shapes.to_call`: ``name`` / ``tool_name`` and ``arguments`` /
``tool_args``, routing keys such as ``server_idx`` aside) is the call, the fence its markup; anything else (a
config file, a list, YAML this subset does not read) is text, every character, as any code fence is. The
subset: block mappings by indentation, ``- item`` lists, plain and quoted scalars, ``|`` / ``>`` block
scalars and JSON-style flow values (``{…}``, ``[…]``). A plain scalar is typed as YAML types it (``2``, ``true``,
``null``) unless the tool's schema says the parameter is a string.
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.shapes import ShapeError, to_call

__all__ = ["ROWS", "YamlFence", "load_yaml"]

_CLOSE = regex.compile(r"\r?\n[ \t]{0,3}```")
_EMPTY = regex.compile(r"```")
_KEY = regex.compile(r"""(?P<key>[^\s:#'"\-][^:#]{0,127}?|"[^"\n]{1,128}"|'[^'\n]{1,128}')[ \t]*:(?:[ \t]+|$)""")
_PLAIN_TYPES = regex.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|~", regex.IGNORECASE)


class _Unreadable(ValueError):
    """YAML outside the subset read here."""


class _Plain(str):
    """A plain scalar as written (typed later, by the schema where it says)."""

    __slots__ = ()


def _typed(value: Any) -> Any:
    if isinstance(value, _Plain):
        if _PLAIN_TYPES.fullmatch(value):
            text = value.lower()
            return None if text in ("null", "~") else lenient_json.loads(text)
        return str(value)
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [_typed(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _scalar(text: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].replace("''", "'") if text[0] == "'" else lenient_json.loads(text)
    if text[:1] in "{[":
        try:
            return lenient_json.loads(text)
        except lenient_json.LenientJSONError:
            raise _Unreadable(text) from None
    if text[:1] in "&*!%@`":
        raise _Unreadable(text)
    return _Plain(text.split(" #", 1)[0].rstrip())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[str], i: int, indent: int) -> tuple[Any, int]:
    """The node whose lines start at ``lines[i]``, all indented ``indent`` (a mapping or a list)."""
    if lines[i].lstrip(" ").startswith("- ") or lines[i].strip() == "-":
        items: list[Any] = []
        while i < len(lines) and _indent(lines[i]) == indent and lines[i].lstrip(" ").startswith("-"):
            rest = lines[i].strip()[1:].strip()
            if not rest:
                raise _Unreadable(lines[i])
            items.append(_scalar(rest))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and _indent(lines[i]) == indent:
        line = lines[i][indent:]
        found = _KEY.match(line)
        if found is None:
            raise _Unreadable(line)
        key = found.group("key").strip().strip("\"'")
        rest = line[found.end() :].strip()
        i += 1
        if rest in ("|", ">", "|-", ">-"):
            body: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
                body.append(lines[i])
                i += 1
            cut = min((_indent(b) for b in body if b.strip()), default=0)
            joined = ("\n" if rest[0] == "|" else " ").join(b[cut:] for b in body).rstrip("\n")
            mapping[key] = joined if rest.endswith("-") else joined + "\n"
        elif rest and not rest.startswith("#"):
            mapping[key] = _scalar(rest)
        elif i < len(lines) and _indent(lines[i]) > indent:
            mapping[key], i = _block(lines, i, _indent(lines[i]))
        elif i < len(lines) and _indent(lines[i]) == indent and lines[i].lstrip(" ").startswith("- "):
            mapping[key], i = _block(lines, i, indent)  # a list at the key's own indentation
        else:
            mapping[key] = None
    if i < len(lines) and _indent(lines[i]) > indent:
        raise _Unreadable(lines[i])
    return mapping, i


def load_yaml(text: str) -> Any:
    """The subset of YAML described in the module docstring, plain scalars kept as `_Plain` text.

    Raises:
        ValueError: the text is not in the subset.
    """
    lines = [
        line for line in text.replace("\r\n", "\n").split("\n") if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines or any("\t" in line[: _indent(line) + 1] for line in lines):
        raise _Unreadable(text)
    value, i = _block(lines, 0, _indent(lines[0]))
    if i != len(lines):
        raise _Unreadable(lines[i])
    return value


class YamlFence:
    """The fence's content up to its closing line, then the decision."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.body: list[str] = []
        self.started = False  # some of the content was read (an empty fence closes at once)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.started and text.startswith("```"[: len(text) - pos], pos):
            if len(text) - pos < 3:
                return (pos, MORE) if not final else (pos, self)
            found: regex.Match[str] | None = _EMPTY.match(text, pos)  # the fence closes right away
        else:
            found = _CLOSE.search(text, pos, partial=not final)
        stop = len(text) if found is None else found.start()
        self.ctx.consume(text[pos:stop])
        self.body.append(text[pos:stop])
        self.started = self.started or stop > pos
        if found is not None and found.partial:
            return stop, MORE
        if found is None:
            if final:
                self.ctx.revert()
                return stop, None
            return stop, self
        self.ctx.consume(found.group())
        self._decide()
        return found.end(), None

    def _decide(self) -> None:
        ctx = self.ctx
        try:
            data = load_yaml("".join(self.body))
            shape = to_call(data, ctx.tools)
        except (ValueError, ShapeError):
            ctx.revert()
            return
        name = ctx.tools.resolve(shape.name)
        if not shape.canonical or name not in ctx.tools.specs:
            ctx.revert()
            return
        arguments = {
            k: str(v) if isinstance(v, _Plain) and ctx.tools.property_type(name, k) == "string" else _typed(v)
            for k, v in shape.arguments.items()
        }
        ctx.end_call(name, arguments, streamed=False)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()  # a fence the output ends inside: text


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> YamlFence:
    del block, match
    return YamlFence(ctx)


# A call-kind row, so it is tried before the code-fence row and the prose rule (a presented example) applies;
# with no tool offered every fence is text, as a code fence is.
ROWS = [Dialect("yaml_fence", r"```(?:yaml|yml)[ \t]*\r?\n", None, first="`", reader=_open)]
