"""One chat request, whatever the surface: the agent loop run for it, reduced to what a client may see.

Every surface (OpenAI chat and Responses, Anthropic, Ollama) parses its request into a `ChatRequest` (see
`shim.server.wire`) and encodes the `Output` items of `run_chat` in its own wire format. The loop is the
agent's: in pass-through mode it has no tools of its own and every tool is the client's
(`Agent.external_tools`); in MCP-executing mode it runs MCP calls itself and hands back only calls to the
client's tools.

What the client sees:

- text and reasoning as they stream;
- a call only once its block is complete and valid (its argument fragments are held until then), so a
  client never receives a half call that the model then botched; malformed blocks go back to the model,
  which retries (the agent's reask), and the client sees the retry;
- never a call to a tool the server runs itself, and never a finish before the loop's real end.

Which calls go to the client is the agent's decision, published as `CallRouted`; the reducer here maps it
one to one and decides nothing itself.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar, cast

import anyio.to_thread

from shim.agent import Agent, AgentEnd, AgentEvent, CallRouted, ToolSource, TurnEnd, TurnStart
from shim.backends.base import Backend
from shim.constrain.schema import ConstrainMode
from shim.constrain.turn import check_mode
from shim.errors import StreamInterruptedError
from shim.events import CallFold, ParseIssue, ReasoningDelta, TextDelta, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.ids import IdGenerator
from shim.profiles import DEFAULT_PROFILE, ModelProfile
from shim.server.exchange import CallOut, ChatRequest, Finish, FinishOut, Output, ReasoningOut, TextOut
from shim.server.store import RoundStore
from shim.server.structured import structured_chat
from shim.server.surfaces import RequestError
from shim.tool_choice import ToolChoiceError
from shim.types import Message

__all__ = [
    "CallOut",
    "ChatRequest",
    "FinishOut",
    "LoopSettings",
    "Output",
    "ReasoningOut",
    "TextOut",
    "off_loop",
    "prompt_of",
    "run_chat",
]

logger = logging.getLogger("shim.server")

T = TypeVar("T")


async def off_loop(work: Callable[[], T]) -> T:
    """Run a request's CPU-heavy work (reading its tools and messages: meta-schema checks, rendering, building the
    parser) on a worker thread, so that other clients are answered meanwhile (a tool with 20,000 properties takes
    seconds). The surfaces use it for the request's body, and the loop for each turn (`Agent`'s ``offload``)."""
    return await anyio.to_thread.run_sync(work)


@dataclass(frozen=True, kw_only=True)
class LoopSettings:
    """How the agent loop runs for every request (server-wide)."""

    dialect: str | Path | None = None
    """The prompt dialect for every model; None: each model's profile's (`shim.profiles`)."""
    max_turns: int = 10
    """Model turns per request, internal tool rounds included."""
    max_retries: int = 2
    """Consecutive turns of only malformed or failed calls before the server gives up and answers."""
    constrain: str = "auto"
    """Constrained decoding of calls (`shim.constrain`): ``auto`` where the backend can, ``on``, ``off``."""

    def __post_init__(self) -> None:
        check_mode(self.constrain)  # once, when the server is set up: a bad mode never reaches a request


async def run_chat(
    backend: Backend,
    request: ChatRequest,
    *,
    tools: ToolSource | None = None,
    settings: LoopSettings | None = None,
    rounds: RoundStore | None = None,
    profile: ModelProfile | None = None,
) -> AsyncGenerator[Output, None]:
    """Run the loop for one request and yield what the client sees; the last item is a `FinishOut`.

    ``profile`` (the model's, `shim.server.models.ModelRegistry.profile`) builds the prompt, the parser and the
    stop sequences; None: `DEFAULT_PROFILE`.

    Cancelling the task that iterates this stops generation and any tool call in flight.

    Raises:
        BackendError: the model failed; `StreamInterruptedError` once some output was already yielded.
        ConfigError: the engine refused an option (a bad grammar, an unknown extra).
    """
    if request.structured is not None:  # structured output: shim.constrain.structured runs this loop for it
        run = partial(run_chat, backend, tools=tools, settings=settings, rounds=rounds, profile=profile)
        async for output in structured_chat(backend, request, run, server_tools=tools is not None):
            yield output
        return
    settings = settings or LoopSettings()
    messages = request.messages
    if rounds is not None and tools is not None:
        messages = await rounds.restore(messages)
    agent = _agent(backend, request, tools=tools, settings=settings, profile=profile)
    forced = request.tool_choice == "required" or isinstance(request.tool_choice, dict)
    reducer = _Reducer(hold=forced)
    events = cast("AsyncGenerator[AgentEvent, None]", agent.stream(messages))
    async with aclosing(events):
        try:
            async for event in events:
                if isinstance(event, AgentEnd) and event.calls and rounds is not None:
                    await rounds.save(event.calls, agent.messages[len(messages) :])
                for output in reducer.feed(event):
                    yield output
                    if isinstance(output, FinishOut):
                        return
        except ToolChoiceError as exc:  # decided by the loop, against the server's tools too: the client's mistake
            raise RequestError(400, str(exc), param="tool_choice") from None


async def prompt_of(
    backend: Backend,
    request: ChatRequest,
    *,
    tools: ToolSource | None = None,
    settings: LoopSettings | None = None,
    profile: ModelProfile | None = None,
) -> list[Message]:
    """The prompt the loop's first turn would send for ``request`` (to count its tokens), rendered by the agent
    that would run it: the server's tools offered too, the tool choice decided as the run decides it.

    Raises:
        RequestError: 400, a tool choice that no offered tool meets.
    """
    agent = _agent(backend, request, tools=tools, settings=settings or LoopSettings(), profile=profile)
    try:
        return await agent.prompt(request.messages)
    except ToolChoiceError as exc:
        raise RequestError(400, str(exc), param="tool_choice") from None


def _agent(
    backend: Backend,
    request: ChatRequest,
    *,
    tools: ToolSource | None,
    settings: LoopSettings,
    profile: ModelProfile | None,
) -> Agent:
    """The agent that runs ``request``: the model's profile (None: `DEFAULT_PROFILE`), the client's tools beside
    the server's, its own id generator, and its heavy steps off the event loop."""
    profile = profile or DEFAULT_PROFILE
    return Agent(
        backend,
        tools,
        dialect=settings.dialect,
        profile=profile,
        options=profile.options(request.options),
        max_turns=settings.max_turns,
        max_retries=settings.max_retries,
        one_call_per_turn=not request.parallel_tool_calls,
        ids=IdGenerator(),  # each request its own: ids never depend on another client's stream
        external_tools=request.tools,
        tool_choice=request.tool_choice,
        constrain=cast("ConstrainMode", settings.constrain),
        offload=off_loop,
    )


class _Reducer:
    """Agent events -> what the client sees (see the module docstring). It decides nothing about calls: a
    call goes out when the agent routes it to the client (`CallRouted`), and only then."""

    def __init__(self, *, hold: bool = False) -> None:
        self.hold = hold
        """``tool_choice`` forces a call: a turn's text waits for its call, and a turn that made none is a failed
        attempt whose text is dropped when the model tries again, so a client whose retries run out gets one
        attempt's text, never every attempt's joined."""
        self.attempt: list[Output] = []  # text of this turn, held while ``hold``
        self.wrote_before = False  # ``wrote_text`` when this turn started (restored when its text is dropped)
        self.fold = CallFold()  # this turn's calls, as the agent's own fold reads them, until each is routed
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.wrote_text = False  # any text so far: a later turn's text is set apart from it
        self.turn_has_text = False
        self.pending = ""  # trailing whitespace, sent only if more text follows (not before a call or the end)
        self.turn_text = ""  # this turn's visible text
        self.turn_failed = False  # this turn wrote a call that went back to the model
        self.retried = ""  # the text of the failed turn before this one, which a retry often repeats
        self.echo = ""  # text of this turn held while it still repeats ``retried``

    def _text(self, text: str) -> list[Output]:
        self.turn_text += text
        if self.retried:
            # A retry after a failed call usually starts with the prose the client already has: hold this turn's
            # text while it repeats that prose, and send only what comes after it.
            candidate = (self.echo + text).lstrip()
            if self.retried.startswith(candidate):
                self.echo = candidate
                return []
            repeat = self.retried
            self.echo = self.retried = ""
            if not candidate.startswith(repeat):
                return self._emit(candidate)  # not a repeat after all: all of it is new
            text = candidate[len(repeat) :]
            self.turn_has_text = True  # it continues the text the client has, without a break
        return self._emit(text)

    def _emit(self, text: str) -> list[Output]:
        if self.wrote_text and not self.turn_has_text:
            text = "\n\n" + text.lstrip()  # a new turn after an internal tool round
            if text == "\n\n":
                return []
        body = text.rstrip()
        if not body:
            self.pending += text
            return []
        out = self.pending + body
        self.pending = text[len(body) :]
        self.turn_has_text = self.wrote_text = True
        return [TextOut(text=out)]

    def feed(self, event: AgentEvent) -> list[Output]:
        outputs = self._feed(event)
        if not self.hold:
            return outputs
        match event:
            case TurnStart() if self.attempt:  # the last turn made no call the client sees: a failed attempt
                self.attempt = []
                self.wrote_text = self.wrote_before
                self.retried = ""  # the client never saw it, so a retry that repeats it is not an echo
            case CallRouted() if event.route != "refused":  # a call: the choice is met, its text goes out
                self.hold = False
                outputs, self.attempt = [*self.attempt, *outputs], []
            case AgentEnd():
                outputs, self.attempt = [*self.attempt, *outputs], []
            case _:
                self.attempt += [o for o in outputs if isinstance(o, TextOut)]
                kept: list[Output] = [o for o in outputs if not isinstance(o, TextOut)]
                outputs = kept
        if isinstance(event, TurnStart):
            self.wrote_before = self.wrote_text
        return outputs

    def _feed(self, event: AgentEvent) -> list[Output]:
        match event:
            case TurnStart():
                # Text held as a repeat when the turn ended was a repeat: dropped.
                self.retried = self.turn_text.strip() if self.turn_failed and self.wrote_text else ""
                self.fold = CallFold()
                self.turn_has_text = self.turn_failed = False
                self.pending = self.echo = self.turn_text = ""
            case TextDelta() if event.text:
                return self._text(event.text)
            case ReasoningDelta() if event.text:
                return [ReasoningOut(text=event.text)]
            case ToolCallStart() | ToolCallChunk() | ToolCallEnd():
                self.fold.add(event)  # held until the call is routed
            case CallRouted():
                complete = self.fold.complete(event.id)
                if event.route == "refused":
                    self.turn_failed = True
                if event.route != "client" or complete is None:
                    return []  # the server's own tools, and calls that go back to the model, are not the client's
                call, fragments = complete
                self.calls += 1
                return [
                    CallOut(
                        index=self.calls - 1, id=call.id, name=call.name, fragments=fragments, arguments=call.arguments
                    )
                ]
            case ParseIssue():
                self.turn_failed = True
                self.fold.add(event)
                logger.info("the model wrote a call that could not be used (%s): %r", event.message, event.raw[:200])
            case TurnEnd():
                if event.usage is not None:
                    self.prompt_tokens += event.usage.prompt_tokens or 0
                    self.completion_tokens += event.usage.completion_tokens or 0
            case AgentEnd():
                reason = _finish(event, self.calls)
                return [
                    FinishOut(reason=reason, prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens)
                ]
            case _:
                pass
        return []


def _finish(end: AgentEnd, calls: int) -> Finish:
    if end.reason == "interrupted":
        raise StreamInterruptedError(f"the model's stream broke: {end.detail}", text=end.text)
    if end.reason == "tool_calls" and calls:
        return "tool_calls"
    if end.reason == "length":
        return "length"
    if end.reason not in ("answer", "tool_calls"):
        # The loop gave up (turn limit, repeated failures): the client gets what was written, as an answer.
        logger.warning("agent loop stopped (%s): %s", end.reason, end.detail)
    return "stop"
