"""The vocabulary of mutation operators: what one produces, how they register, and the clean calls they start from.

A mutation operator takes a random source and writes one model output with one named failure mode, together
with what a perfect parser makes of it: the calls, the visible text and the number of failed blocks. The
operators themselves live in :mod:`shim.bench.ops_json` (JSON bodies and call shapes) and
:mod:`shim.bench.ops_stream` (tags, dialects, several calls, reasoning, strings, size, truncation, decoys).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "TITLES",
    "TOOLS",
    "TOOL_SPECS",
    "Call",
    "Draw",
    "Mutant",
    "Operator",
    "OperatorList",
    "strict",
    "tagged",
]

TOOLS: tuple[str, ...] = (
    "get_weather",
    "search_web",
    "read_file",
    "write_file",
    "run_command",
    "create_event",
    "get_time",
)
"""The tools every case is parsed against (bare-JSON dialects only count objects naming one of these)."""

TITLES: dict[str, str] = {"get_weather": "Weather lookup", "search_web": "Web search", "read_file": "Read file"}

TOOL_SPECS: tuple[dict[str, Any], ...] = tuple(
    {
        "name": name,
        **({"title": TITLES[name]} if name in TITLES else {}),
        "description": f"The {name.replace('_', ' ')} tool.",
        "inputSchema": {"type": "object"},
    }
    for name in TOOLS
)
"""The same tools as MCP ``tools/list`` entries (with titles), as a parser that knows its tools receives them."""

_CITIES = ("Paris", "Tokyo", "New York", "Berlin", "Lagos", "Lima", "Oslo")
_QUERIES = ("best pizza near me", "python asyncio tutorial", "weather radar", "mcp protocol spec")
_PATHS = ("README.md", "src/main.py", "docs/index.md", "notes/todo.txt")
_COMMANDS = ("ls -la", "git status", "python -m pytest -q", "df -h")
_PRE = (
    "Let me check that for you.",
    "Sure, I will look it up.",
    "I need a tool for this.",
    "One moment.",
    "Okay.",
)
_POST = (
    "I will report back once I have the result.",
    "Waiting for the tool result.",
    "Then I can answer.",
)


@dataclass(frozen=True, kw_only=True)
class Call:
    """A tool call as a perfect parser reports it."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict[str, Any])

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments}


@dataclass(frozen=True, kw_only=True)
class Mutant:
    """One operator's output: the model text and what should be read out of it."""

    text: str
    calls: list[Call]
    visible: str = ""
    """Visible text the parser should return (compared after whitespace folding)."""
    errors: int | None = 0
    """Blocks that must come out as errors; None where either an error or silence is acceptable."""


@dataclass(frozen=True, kw_only=True)
class Operator:
    """A named failure mode."""

    name: str
    category: str
    doc: str
    """What the operator writes and where that shape is seen."""
    make: Callable[[Draw], Mutant]
    wrap: bool = True
    """Whether prose may be put around the output (False for dialects that must be the whole message)."""
    tail: bool = True
    """Whether prose may follow the output (False where the stream must end right after it)."""
    repeat: int = 1
    """Variants per corpus variant (random compound operators need more draws to cover their space)."""


class OperatorList(list[Operator]):
    """A list of operators with a decorator that appends to it (one list per operator module)."""

    def add(
        self, category: str, *, wrap: bool = True, tail: bool = True, repeat: int = 1
    ) -> Callable[[Callable[[Draw], Mutant]], Callable[[Draw], Mutant]]:
        def register(make: Callable[[Draw], Mutant]) -> Callable[[Draw], Mutant]:
            doc = " ".join((make.__doc__ or "").split())
            self.append(
                Operator(name=make.__name__, category=category, doc=doc, make=make, wrap=wrap, tail=tail, repeat=repeat)
            )
            return make

        return register


class Draw:
    """A seeded source of clean calls, prose and sizes for the operators."""

    def __init__(self, rng: random.Random, *, huge_chars: int = 16_000) -> None:
        self.rng = rng
        self.huge_chars = huge_chars
        """Size of the "huge argument" payloads (the quick run uses a smaller one)."""

    def choice(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def call(self) -> Call:
        """A clean call with plain ASCII values (no quotes, backslashes or newlines)."""
        kind = self.rng.randrange(5)
        if kind == 0:
            unit = self.choice(("celsius", "fahrenheit"))
            return Call(name="get_weather", arguments={"city": self.choice(_CITIES), "unit": unit})
        if kind == 1:
            args = {"query": self.choice(_QUERIES), "limit": self.rng.randint(1, 20)}
            return Call(name="search_web", arguments=args)
        if kind == 2:
            return Call(name="read_file", arguments={"path": self.choice(_PATHS)})
        if kind == 3:
            args = {"command": self.choice(_COMMANDS), "timeout": self.rng.choice((10, 30, 60))}
            return Call(name="run_command", arguments=args)
        return self.rich_call()

    def rich_call(self) -> Call:
        """A call whose arguments hold every JSON type: booleans, null, a list, a nested object, a float."""
        args: dict[str, Any] = {
            "title": self.choice(("Standup", "Lunch with Ana", "Release review")),
            "all_day": self.rng.random() < 0.5,
            "reminder": None,
            "attendees": self.rng.sample(["ana", "bo", "chen", "dev"], k=2),
            "location": {"room": self.choice(("A1", "B2")), "floor": self.rng.randint(1, 9)},
            "duration_h": self.rng.choice((0.5, 1.5, 2.0)),
        }
        return Call(name="create_event", arguments=args)

    def calls(self, n: int) -> list[Call]:
        return [self.call() for _ in range(n)]

    def pre(self) -> str:
        return self.choice(_PRE)

    def post(self) -> str:
        return self.choice(_POST)


def strict(call: Call, *, key: str = "arguments", indent: int | None = None) -> str:
    """The call as strict JSON ``{"name": ..., key: {...}}``."""
    return json.dumps({"name": call.name, key: call.arguments}, ensure_ascii=False, indent=indent)


def tagged(body: str, tag: str = "function_call", *, close: str | None = None) -> str:
    """``body`` between an opening and a closing tag (``close`` overrides the closing tag text)."""
    return f"<{tag}>{body}{close if close is not None else f'</{tag}>'}"
