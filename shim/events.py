"""The events of a model turn and of the agent loop, and the one fold that turns them back into a result.

Every parser event carries ``raw``: the exact slice of model output it consumed. Concatenating ``raw`` over
all events of a text stream, in order, reproduces the stream; nothing is ever dropped. Items the engine sends
on its own channels (Ollama's ``thinking`` field, its native ``tool_calls``) are not text: their events'
``raw`` is what the engine sent (the reasoning text; the call as a JSON object ``{"name": ..., "arguments": ...}``
split over its ``ToolCallStart``, ``ToolCallChunk`` and ``ToolCallEnd``: the head, the arguments, the closing
brace, `shim.backends.base.native_raw_parts`), so concatenating ``raw`` over a turn gives the text, with
reasoning and native calls where they arrived.
``to_dict()`` forms are a public contract (the CLI prints them; traces store them; tests and benchmarks
compare them).

A call streams as one ``ToolCallStart``, zero or more ``ToolCallChunk`` and then either a ``ToolCallEnd``
or a ``ParseIssue`` carrying the same id (the block looked like a call but could not be made into one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from shim.types import ToolCall, ToolResult

if TYPE_CHECKING:
    from shim.backends.base import Usage  # a turn's token counts are the engine's (a floor below the events)

__all__ = [
    "AgentEnd",
    "AgentEvent",
    "CallFold",
    "CallRouted",
    "Event",
    "ParseError",
    "ParseIssue",
    "ParseResult",
    "ReasoningDelta",
    "Route",
    "StopReason",
    "TextDelta",
    "ToolCallChunk",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolResultEvent",
    "TurnEnd",
    "TurnStart",
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


class CallFold:
    """The one fold from parser events to what a turn produced, fed one event at a time.

    `ParseResult`, the agent's turn and the server's view of a turn (`shim.server.chat`, which holds a call until
    it is routed) all use it; ``add`` may be called while the stream is still running.
    """

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        """Complete calls, in order."""
        self.errors: list[ParseError] = []
        """Failed blocks, each with its whole raw text."""
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._history: list[str] = []
        self._open: dict[str, list[str]] = {}  # raw of calls started but not yet ended, by id
        self._chunks: dict[str, list[str]] = {}  # argument chunks of each call, by id
        self._ended: dict[str, ToolCall] = {}

    @property
    def text(self) -> str:
        """The visible text."""
        return "".join(self._text)

    @property
    def reasoning(self) -> str:
        """The reasoning text."""
        return "".join(self._reasoning)

    def complete(self, call_id: str) -> tuple[ToolCall, tuple[str, ...]] | None:
        """The complete call of this id and its arguments as the chunks that streamed them (they concatenate
        to the arguments' JSON text); None while it is open, or when its block failed."""
        call = self._ended.get(call_id)
        return None if call is None else (call, tuple(self._chunks.get(call_id, ())))

    @property
    def history(self) -> str:
        """The visible text with each failed block where the model wrote it, as it wrote it (good calls are
        left out: a conversation records them apart)."""
        return "".join(self._history)

    def add(self, event: Event) -> None:
        """Fold in the next event."""
        match event:
            case TextDelta():
                self._text.append(event.text)
                self._history.append(event.text)
            case ReasoningDelta():
                self._reasoning.append(event.text)
            case ToolCallStart():
                self._open[event.id] = [event.raw]
                self._chunks[event.id] = []
            case ToolCallChunk():
                self._open.setdefault(event.id, []).append(event.raw)
                self._chunks.setdefault(event.id, []).append(event.arguments_chunk)
            case ToolCallEnd():
                self._open.pop(event.id, None)
                call = ToolCall(id=event.id, name=event.name, arguments=event.arguments)
                self.calls.append(call)
                self._ended[event.id] = call
            case ParseIssue():
                before = self._open.pop(event.id, []) if event.id is not None else []
                if event.id is not None:
                    self._chunks.pop(event.id, None)
                error = ParseError(message=event.message, raw="".join(before) + event.raw)
                self.errors.append(error)
                self._history.append(error.raw)


@dataclass(frozen=True, kw_only=True)
class ParseResult:
    """A stream's events folded back into final values (what ``shim parse`` prints)."""

    text: str
    reasoning: str
    calls: list[ToolCall]
    errors: list[ParseError]

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> ParseResult:
        fold = CallFold()
        for event in events:
            fold.add(event)
        return cls(text=fold.text, reasoning=fold.reasoning, calls=fold.calls, errors=fold.errors)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "calls": [c.to_dict() for c in self.calls],
            "errors": [e.to_dict() for e in self.errors],
            "reasoning": self.reasoning,
        }


# -- the agent loop's own events, around the parser's ---------------------------------------------------------

StopReason: TypeAlias = Literal[
    "answer", "tool_calls", "max_turns", "too_many_errors", "repeated_call", "length", "interrupted"
]


@dataclass(frozen=True, kw_only=True)
class TurnStart:
    """A model turn begins (``turn`` counts from 1)."""

    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "turn_start", "turn": self.turn}


@dataclass(frozen=True, kw_only=True)
class ToolResultEvent:
    """A call of the turn finished (or was refused); results come in call order."""

    call: ToolCall
    result: ToolResult
    server: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "tool_result",
            "id": self.call.id,
            "name": self.call.name,
            "server": self.server,
            "is_error": self.result.is_error,
            "content": self.result.render(),
        }


Route: TypeAlias = Literal["client", "run", "refused"]


@dataclass(frozen=True, kw_only=True)
class CallRouted:
    """The loop's decision for a complete call, published right after its `ToolCallEnd`; made once, in
    `shim.tool_choice.TurnChoice.route`.

    ``client``: handed back to the caller (an external tool, arguments valid, allowed by the tool choice);
    ``run``: run by the loop's tool source (or answered as unknown); ``refused``: not run, and ``reason``
    goes back to the model (the tool choice forbids it, or its arguments fail the caller's schema).
    Consumers (the server) map these one to one and never decide again.
    """

    id: str
    name: str
    route: Route
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "call_routed", "id": self.id, "name": self.name, "route": self.route, "reason": self.reason}


@dataclass(frozen=True, kw_only=True)
class TurnEnd:
    """The model's turn is over: why it stopped, and its token counts where the engine reports them."""

    turn: int
    finish_reason: str
    usage: Usage | None = None

    def to_dict(self) -> dict[str, Any]:
        usage = (
            None
            if self.usage is None
            else {"prompt_tokens": self.usage.prompt_tokens, "completion_tokens": self.usage.completion_tokens}
        )
        return {"type": "turn_end", "turn": self.turn, "finish_reason": self.finish_reason, "usage": usage}


@dataclass(frozen=True, kw_only=True)
class AgentEnd:
    """The loop is over. ``reason`` is ``answer`` on success; ``text`` is the last turn's visible text."""

    reason: StopReason
    text: str
    detail: str = ""
    calls: tuple[ToolCall, ...] = ()
    """With ``reason="tool_calls"``: the calls to external tools, in order, for the caller to run."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "done", "reason": self.reason, "text": self.text, "detail": self.detail}
        if self.calls:
            data["calls"] = [call.to_dict() for call in self.calls]
        return data


AgentEvent: TypeAlias = "Event | TurnStart | CallRouted | ToolResultEvent | TurnEnd | AgentEnd"
