"""The agent loop's settings (`AgentSettings`), what `Agent.run` returns (`AgentResult`), and what one model
turn is made of (`TurnOutcome`, `item_events`). Where calls go (`ToolSource`) is `shim.routing`'s seam.
`shim.agent` re-exports the public ones."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypedDict, TypeVar

from shim.backends.base import Backend, GenerationOptions, NativeCall, Reasoning, Usage, native_raw_parts
from shim.constrain.schema import ConstrainMode, build_constraint
from shim.constrain.turn import Bounds, expressible
from shim.errors import ConfigError
from shim.events import (
    CallFold,
    CallRouted,
    Event,
    ReasoningDelta,
    StopReason,
    ToolCallChunk,
    ToolCallEnd,
    ToolCallStart,
    ToolResultEvent,
)
from shim.routing import BaseToolSource, ToolSource
from shim.tool_choice import ToolChoice, TurnChoice
from shim.types import ToolSpec

__all__ = [
    "AgentResult",
    "AgentSettings",
    "BaseToolSource",
    "Offload",
    "SettingsArgs",
    "ToolSource",
    "TurnOutcome",
    "constrained_options",
    "in_place",
    "item_events",
    "response_record",
]

T = TypeVar("T")


class Offload(Protocol):
    """Runs a CPU-heavy step of the loop and returns its result (`Agent`'s ``offload``)."""

    def __call__(self, work: Callable[[], T], /) -> Awaitable[T]: ...


async def in_place(work: Callable[[], T]) -> T:
    """The default `Offload`: the step runs right here, on the caller's thread."""
    return work()


@dataclass(frozen=True, kw_only=True)
class AgentSettings:
    """How the loop runs; `Agent` also takes each field as a keyword argument."""

    system: str | None = None
    """Your own system message, merged into the tool prompt."""
    max_turns: int = 10
    """Model turns before giving up."""
    max_retries: int = 3
    """Consecutive turns whose calls all failed (malformed, unknown, invalid, errors) before giving up."""
    max_repeats: int = 3
    """The same call (name and arguments) this many times in a row is stopped, not run again."""
    one_call_per_turn: bool = False
    """Stop generating as soon as the first call block is complete."""
    tool_choice: ToolChoice = "auto"
    """``"auto"``, ``"none"``, ``"required"`` or one tool's name. A forced choice holds until the model makes a
    call that meets it: a turn that answers in text instead, or calls another tool than the named one, is sent
    back with a reminder (counted against ``max_retries``; when those run out, the text stands as the answer).
    Later turns use ``"auto"``, so a forced call cannot repeat forever (`shim.tool_choice`)."""
    constrain: ConstrainMode = "auto"
    """``"auto"``: on backends that can, every call the model opens is generated under a grammar of the offered
    tools (the whole reply, with a forced ``tool_choice``); ``"on"``: the same, or a `ConfigError` when the
    backend cannot; ``"off"``: never. The trace's ``response`` lines record ``constrained``."""


class SettingsArgs(TypedDict, total=False):
    """`AgentSettings` as keyword arguments (for `Agent`)."""

    system: str | None
    max_turns: int
    max_retries: int
    max_repeats: int
    one_call_per_turn: bool
    tool_choice: ToolChoice
    constrain: ConstrainMode


@dataclass(frozen=True, kw_only=True)
class AgentResult:
    """What `Agent.run` returns."""

    reason: StopReason
    text: str
    """The final answer (the visible text of the last turn)."""
    messages: list[dict[str, Any]]
    calls: list[ToolResultEvent] = field(default_factory=list[ToolResultEvent])
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.reason == "answer"


@dataclass
class TurnOutcome:
    """What one model turn produced: its events folded (`CallFold`), the routing decisions, how it ended."""

    fold: CallFold = field(default_factory=CallFold)
    finish_reason: str = "stop"
    usage: Usage | None = None
    interrupted: str = ""
    routes: dict[str, CallRouted] = field(default_factory=dict[str, CallRouted])
    call_limit: int | None = None
    """The most calls this reply may hold (`shim.agent.Agent.call_limit`, or 1 where the profile's
    ``several_calls_when_asked`` finds the request asks for one thing)."""
    ended_early: bool = False
    """Generation was stopped on purpose: the reply reached its call limit, or the model began a call that is
    not made (a repeat of one already in the reply, another tool than the first where the profile forbids it)."""

    held: list[Event] | None = None
    """The call events held back until the reply's first call is complete, for a call that may not be made
    (`shim.request_values.grounded`); None: events pass as they come."""
    ungrounded: bool = False
    """The reply's first call was forced by a word match and its required values are not in the request: it was
    not made (the profile's ``ground_matched_calls``)."""

    def refused(self) -> dict[str, str]:
        """Calls refused by the tool choice, by id, with the reason that goes back to the model."""
        return {id_: routed.reason for id_, routed in self.routes.items() if routed.route == "refused"}


def item_events(item: Reasoning | NativeCall) -> list[Event]:
    """The events of one typed stream item: the engine's own reasoning and calls are events already (their
    ``raw`` is what the engine sent; see `shim.events`); text items go through the turn's parser instead."""
    if isinstance(item, Reasoning):
        return [ReasoningDelta(text=item.text, raw=item.text)]
    call = item.call
    head, arguments, tail = native_raw_parts(call)
    return [
        ToolCallStart(id=call.id, name=call.name, raw=head),
        ToolCallChunk(id=call.id, arguments_chunk=arguments, raw=arguments),
        ToolCallEnd(id=call.id, name=call.name, arguments=call.arguments, raw=tail),
    ]


def response_record(items: list[str | dict[str, Any]], finish: str, *, constrained: bool) -> dict[str, Any]:
    """The trace's ``response`` line of one turn (what the ``replay:`` backend reads back): the text chunks, and
    every item (`shim.backends.base.item_record`) when the engine also sent reasoning or native calls."""
    chunks = [item for item in items if isinstance(item, str)]
    typed = {"items": items} if len(chunks) < len(items) else {}
    finish_reason = "length" if finish == "length" else "stop"
    return {
        "response": "".join(chunks),
        "chunks": chunks,
        "finish_reason": finish_reason,
        "constrained": constrained,
        **typed,
    }


def constrained_options(
    options: GenerationOptions | None,
    *,
    backend: Backend,
    tools: Sequence[ToolSpec],
    dialect: str | Path,
    choice: TurnChoice,
    mode: ConstrainMode,
    max_calls: int | None = None,
    bounds: Bounds | None = None,
    steer: tuple[str, ...] = (),
    copy_from: str = "",
    choices: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> GenerationOptions | None:
    """``options`` with the turn's `CallConstraint`, when ``mode`` and the backend allow one; ``choice`` is the
    turn's, already decided (`TurnChoice`); ``max_calls`` bounds the calls of a forced reply, ``bounds`` the
    strings and arrays of every call (`shim.constrain.turn.Bounds`); ``steer`` holds the request's values a
    forced reply's further calls are steered toward (`shim.request_values`); ``copy_from`` is the request whose
    spans string values are copied whole from, ``choices`` the enumerated choices it names (the same module).

    A caller's own ``grammar`` wins (it already constrains the whole reply).

    Raises:
        ConfigError: ``mode`` is ``on`` and the backend cannot constrain.
    """
    if mode == "off" or not tools or (options is not None and options.grammar):
        return options
    if not backend.can_constrain:
        if mode == "on":
            raise ConfigError(
                f"backend {backend.name!r} cannot constrain tool calls; use constrain 'auto' (constrain where the "
                "backend can) or 'off'"
            )
        return options
    constraint = build_constraint(tools, dialect, mode=choice.mode, named=choice.named, max_calls=max_calls)
    if constraint is None:
        return options
    constraint = replace(
        constraint,
        steer=steer,
        copy_from=copy_from,
        choices=choices,
        tools=tuple(replace(t, input_schema=expressible(t.input_schema, bounds)) for t in constraint.tools),
    )
    return replace(options or GenerationOptions(), constraint=constraint)
