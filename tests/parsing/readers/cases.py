"""Fixtures of a family: real outputs quoted with their source, each checked at every split point."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.parsing.chunking import parse_everywhere


@dataclass
class Real:
    source: str
    """Where the text was quoted from: ``owner/repo:path@commit`` or a thread's URL."""
    text: str
    calls: list[tuple[str, dict[str, Any]]]
    visible: str = ""
    """The visible text, with runs of whitespace folded to one space and the ends stripped."""
    tools: list[Any] | None = None
    errors: int = 0
    in_reasoning: bool = False
    reasoning: str | None = None

    @property
    def id(self) -> str:
        return self.source.rsplit("/", 1)[-1][:60]


def fold(text: str) -> str:
    return " ".join(text.split())


def check(case: Real, *, every_split: bool = True, visible: bool = True) -> dict[str, Any]:
    tools = case.tools if case.tools is not None else sorted({name for name, _ in case.calls}) or None
    result = parse_everywhere(case.text, tools, every_split=every_split, in_reasoning=case.in_reasoning)
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == case.calls
    if visible:
        assert fold(result["text"]) == fold(case.visible)
    assert len(result["errors"]) == case.errors, result["errors"]
    if case.reasoning is not None:
        assert fold(result["reasoning"]) == fold(case.reasoning)
    return result


def tool(name: str, **types: str) -> dict[str, Any]:
    """An MCP tool entry whose parameters have the given JSON Schema types."""
    properties = {key: {"type": kind} for key, kind in types.items()}
    return {"name": name, "inputSchema": {"type": "object", "properties": properties}}
