"""Compound mutations: several independent defects in one call, drawn at random (category ``compound``).

Real outputs rarely have one defect alone: a small model that writes single quotes also drops the closing
tag. Each variant draws a tag, a call shape and a set of lenient-JSON defects; combinations that would make
the expectation ambiguous are not drawn (a body missing its closers is only written with a closing tag after
it, and prose only follows a closed block).
"""

from __future__ import annotations

from typing import Any

from shim.bench.mutations import Call, Draw, Mutant, OperatorList
from shim.bench.render import JsonStyle, dumps

__all__ = ["OPERATORS"]

OPERATORS = OperatorList()

_TAGS = ("function_call", "tool_call", "FUNCTION_CALL", "functioncall", "tool")
_KEYS = ("arguments", "parameters", "args", "input", "tool_input")


def _shape(draw: Draw, call: Call) -> dict[str, Any]:
    key = draw.choice(_KEYS)
    inner: dict[str, Any] = {"name": call.name, key: call.arguments}
    wrapper = draw.rng.randrange(4)
    if wrapper == 1:
        return {"function": inner}
    if wrapper == 2:
        return {"type": "function", "function": inner}
    return inner


def _body(draw: Draw, data: dict[str, Any], *, closed: bool) -> str:
    rng = draw.rng
    style = JsonStyle(
        quote=rng.choice(('"', "'")),
        python_literals=rng.random() < 0.5,
        unquoted_keys=rng.random() < 0.3,
        trailing_commas=rng.random() < 0.3,
        indent=rng.choice((None, 2)),
    )
    text = dumps(data, style)
    if style.indent is not None and rng.random() < 0.4:
        lines = text.split("\n")
        lines.insert(1, "  " + rng.choice(("// the call", "# the call")))
        text = "\n".join(lines)
    elif closed and not style.trailing_commas and rng.random() < 0.3:
        text = text.rstrip("}")  # every closer off: all values are complete, the closing tag ends the block
    wrapping = rng.randrange(4)
    if wrapping == 1:
        return "\n```json\n" + text + "\n```\n"
    if wrapping == 2:
        return "json\n" + text
    return rng.choice(("", "\n")) + text + rng.choice(("", "\n"))


@OPERATORS.add("compound", wrap=False, repeat=8)
def compound_defects(draw: Draw) -> Mutant:
    """A random tag variant, call shape and set of lenient-JSON defects together, with or without prose."""
    rng = draw.rng
    call = draw.call()
    closed = rng.random() < 0.7
    tag = draw.choice(_TAGS)
    space = " " if rng.random() < 0.2 else ""
    body = _body(draw, _shape(draw, call), closed=closed)
    if not closed and body.endswith("```\n"):
        closed = True  # a fence left open at the end of the stream is a different failure; keep this one clean
    pre = draw.pre() + rng.choice(("\n", " ")) if rng.random() < 0.5 else ""
    post = rng.choice(("\n", " ")) + draw.post() if closed and rng.random() < 0.5 else ""
    block = f"<{tag}{space}>{body}" + (f"</{tag}{space}>" if closed else "")
    return Mutant(text=pre + block + post, calls=[call], visible=pre + post)
