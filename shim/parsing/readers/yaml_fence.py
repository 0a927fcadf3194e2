"""A call envelope written as YAML in a ```` ```yaml ```` fence (CAMEL's MCPAgent reads these):

    ```yaml
    tool_name: search
    tool_args:
      query: cats
    ```

The fence is read whole, to its closing line, then decided: a YAML mapping that is one call of an offered tool
by the shape rules every family uses (`shapes.to_call`: ``name`` / ``tool_name`` and ``arguments`` /
``tool_args``, routing keys such as ``server_idx`` aside) is the call, the fence its markup; anything else (a
config file, a list, text that is not YAML) is text, every character, as any code fence is. PyYAML reads the
fence; a plain scalar is typed as JSON would type it (``2``, ``true``, ``null``) unless the tool's schema says
the parameter is a string, so ``007`` or ``yes`` given for a string stays as written.
"""

from __future__ import annotations

from typing import Any

import regex
import yaml

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.shapes import ShapeError, to_call

__all__ = ["ROWS", "YamlFence", "load_yaml", "yaml_typed"]

_CLOSE = regex.compile(r"\r?\n[ \t]{0,3}```")
_EMPTY = regex.compile(r"```")
_PLAIN_TYPES = regex.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|~", regex.IGNORECASE)


class _Unreadable(ValueError):
    """Not YAML, or YAML this reader refuses (aliases, tags of other types)."""


class _Plain(str):
    """A plain scalar as written (typed later, by the schema where it says)."""

    __slots__ = ()


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with no implicit typing: a plain scalar stays the text written (`_Plain`), so the
    tool's schema decides whether ``007`` or ``yes`` is a string; quoted scalars are strings; an alias is
    refused (a fence of nested aliases would otherwise expand without bound)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise _Unreadable("an alias")
        return super().compose_node(parent, index)  # pyright: ignore[reportUnknownMemberType]


def _string(loader: _Loader, node: yaml.ScalarNode) -> str:
    value = str(loader.construct_scalar(node))
    return _Plain(value) if node.style is None else value


_Loader.yaml_implicit_resolvers = {}  # no implicit typing: every plain scalar resolves to a string
_Loader.add_constructor("tag:yaml.org,2002:str", _string)


def yaml_typed(value: Any) -> Any:
    """A loaded tree with each plain scalar typed as YAML types it (a number, a boolean, null; else text); quoted
    scalars stay text."""
    if isinstance(value, _Plain):
        if not value:
            return None  # `key:` with nothing after it
        if _PLAIN_TYPES.fullmatch(value):
            text = value.lower()
            return None if text in ("null", "~") else lenient_json.loads(text)
        return str(value)
    if isinstance(value, dict):
        return {k: yaml_typed(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [yaml_typed(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def load_yaml(text: str) -> Any:
    """The YAML document ``text`` (PyYAML), plain scalars kept as `_Plain` text.

    Raises:
        ValueError: the text is not YAML this reader accepts.
    """
    try:
        return yaml.load(text, Loader=_Loader)  # a SafeLoader subclass
    except (yaml.YAMLError, RecursionError) as exc:  # nesting deeper than the stack: not a call envelope
        raise _Unreadable(str(exc)) from None


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
            data = load_yaml("".join(self.body) + "\n")  # the closing fence's line break ends the last line
            shape = to_call(data, ctx.tools)
        except (ValueError, ShapeError):
            ctx.revert()
            return
        name = ctx.tools.resolve(shape.name)
        if not shape.canonical or name not in ctx.tools.specs:
            ctx.revert()
            return
        arguments = {
            k: str(v) if isinstance(v, _Plain) and ctx.tools.property_type(name, k) == "string" else yaml_typed(v)
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
