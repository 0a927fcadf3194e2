"""The events a `StreamParser` emits, and the fold that turns a list of them back into a result.

Every event carries ``raw``: the exact slice of model output it consumed. Concatenating ``raw`` over all
events of a stream, in order, reproduces the stream; nothing is ever dropped. ``to_dict()`` forms are a
public contract (the CLI prints them; tests and benchmarks compare them).

A call streams as one ``ToolCallStart``, zero or more ``ToolCallChunk`` and then either a ``ToolCallEnd``
or a ``ParseIssue`` carrying the same id (the block looked like a call but could not be made into one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from shim.types import ToolCall

__all__ = [
    "Event",
    "ParseIssue",
    "ParseResult",
    "ReasoningDelta",
    "TextDelta",
    "ToolCallChunk",
    "ToolCallEnd",
    "ToolCallStart",
    "event_from_dict",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class TextDelta:
    """Visible text for the user. ``text`` may be empty when ``raw`` is markup (a closing tag)."""

    text: str
    raw: str
    type: Literal["text"] = field(default="text", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text, "raw": self.raw}


@dataclass(frozen=True, kw_only=True, slots=True)
class ReasoningDelta:
    """The inside of a ``<think>`` (or similar) block; calls written there are drafts, not calls."""

    text: str
    raw: str
    type: Literal["reasoning"] = field(default="reasoning", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "reasoning", "text": self.text, "raw": self.raw}


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallStart:
    """A call block was recognised and its tool name is known."""

    id: str
    name: str
    raw: str
    type: Literal["tool_call_start"] = field(default="tool_call_start", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tool_call_start", "id": self.id, "name": self.name, "raw": self.raw}


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallChunk:
    """A piece of the call's arguments as JSON text (maps 1:1 onto OpenAI ``function.arguments`` deltas).

    The chunks of one call concatenate to a JSON document equal to the final ``ToolCallEnd.arguments``;
    lenient input (single quotes, comments, trailing commas) is normalised on the way.
    """

    id: str
    arguments_chunk: str
    raw: str
    type: Literal["tool_call_chunk"] = field(default="tool_call_chunk", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tool_call_chunk", "id": self.id, "arguments_chunk": self.arguments_chunk, "raw": self.raw}


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallEnd:
    """The call is complete; ``arguments`` is the parsed object."""

    id: str
    name: str
    arguments: dict[str, Any]
    raw: str
    type: Literal["tool_call_end"] = field(default="tool_call_end", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tool_call_end", "id": self.id, "name": self.name, "arguments": self.arguments, "raw": self.raw}


@dataclass(frozen=True, kw_only=True, slots=True)
class ParseIssue:
    """A block looked like a call but could not be made into one.

    ``message`` is written for the model, so it can be shown to it to make it retry. ``id`` is the id of
    the ``ToolCallStart`` already emitted for this block, or None when none was.
    """

    id: str | None
    message: str
    raw: str
    type: Literal["error"] = field(default="error", init=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "error", "id": self.id, "message": self.message, "raw": self.raw}


Event: TypeAlias = "TextDelta | ReasoningDelta | ToolCallStart | ToolCallChunk | ToolCallEnd | ParseIssue"


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of ``to_dict()`` (for traces and recorded fixtures).

    Raises:
        ValueError: ``data`` is not one of the event forms.
    """
    kind = data.get("type")
    try:
        if kind == "text":
            return TextDelta(text=data["text"], raw=data["raw"])
        if kind == "reasoning":
            return ReasoningDelta(text=data["text"], raw=data["raw"])
        if kind == "tool_call_start":
            return ToolCallStart(id=data["id"], name=data["name"], raw=data["raw"])
        if kind == "tool_call_chunk":
            return ToolCallChunk(id=data["id"], arguments_chunk=data["arguments_chunk"], raw=data["raw"])
        if kind == "tool_call_end":
            return ToolCallEnd(id=data["id"], name=data["name"], arguments=data["arguments"], raw=data["raw"])
        if kind == "error":
            return ParseIssue(id=data.get("id"), message=data["message"], raw=data["raw"])
    except KeyError as exc:
        raise ValueError(f"event of type {kind!r} lacks field {exc.args[0]!r}: {data!r}") from None
    raise ValueError(
        f"unknown event type {kind!r}; expected one of text, reasoning, tool_call_start, "
        f"tool_call_chunk, tool_call_end, error"
    )


@dataclass(frozen=True, kw_only=True)
class ParseError:
    """A failed block in a folded `ParseResult`."""

    message: str
    raw: str
    """The whole block as the model wrote it, including any part already streamed as a call."""

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "raw": self.raw}


@dataclass(frozen=True, kw_only=True)
class ParseResult:
    """A stream's events folded back into final values (what ``shim parse`` prints)."""

    text: str
    reasoning: str
    calls: list[ToolCall]
    errors: list[ParseError]

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> ParseResult:
        text: list[str] = []
        reasoning: list[str] = []
        calls: list[ToolCall] = []
        errors: list[ParseError] = []
        open_raw: dict[str, list[str]] = {}  # raw of calls started but not yet ended, by id
        for event in events:
            match event:
                case TextDelta():
                    text.append(event.text)
                case ReasoningDelta():
                    reasoning.append(event.text)
                case ToolCallStart():
                    open_raw[event.id] = [event.raw]
                case ToolCallChunk():
                    open_raw.setdefault(event.id, []).append(event.raw)
                case ToolCallEnd():
                    open_raw.pop(event.id, None)
                    calls.append(ToolCall(id=event.id, name=event.name, arguments=event.arguments))
                case ParseIssue():
                    before = open_raw.pop(event.id, []) if event.id is not None else []
                    errors.append(ParseError(message=event.message, raw="".join(before) + event.raw))
        return cls(text="".join(text), reasoning="".join(reasoning), calls=calls, errors=errors)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "calls": [c.to_dict() for c in self.calls],
            "errors": [e.to_dict() for e in self.errors],
            "reasoning": self.reasoning,
        }
