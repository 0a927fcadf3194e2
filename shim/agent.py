"""The agent loop: messages + tools → prompt → backend stream → parser events → MCP calls → results → again.

```python
async with ToolRouter.from_config("mcp.json") as router:
    agent = Agent(get_backend("ollama:qwen2.5:7b"), router)
    async for event in agent.stream("What time is it in Tokyo?"):
        ...                                   # text, reasoning, calls, results, turn ends, as they happen
    agent.messages                            # the conversation so far (OpenAI-style), kept on cancel too
```

Each turn renders the conversation for a model without native tool calling (`render_messages`), streams
the reply through a fresh `StreamParser` built from the model's profile (ids from one generator, so they
never repeat), runs the calls of the turn concurrently, and appends the assistant turn and the results in call
order. Malformed calls, unknown tools and invalid arguments go back to the model as errors; the loop ends
when the model answers without calling a tool, or at a bound (turns, consecutive failed turns,
a call repeated verbatim).

Tools the caller runs itself (``external_tools``, e.g. the tools of a client of `shim serve`) are offered
alongside the source's tools; a turn that calls one of them ends the loop with ``reason="tool_calls"`` and
those calls in `AgentEnd.calls` (the source's calls of that turn run first), for the caller to run and
answer with ``tool`` messages in its next `stream`. Their arguments are checked against their schemas
first: a call that does not match goes back to the model, like a bad call to one of the source's tools.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from shim.agent_types import (
    AgentResult,
    AgentSettings,
    BaseToolSource,
    Offload,
    SettingsArgs,
    ToolSource,
    TurnOutcome,
    constrained_options,
    in_place,
    item_events,
    response_record,
)
from shim.backends.base import Backend, Completion, GenerationOptions, item_record
from shim.constrain.turn import HEADER as CALL_CONSTRAINT
from shim.errors import BackendResponseError, StreamInterruptedError
from shim.events import (
    AgentEnd,
    AgentEvent,
    CallRouted,
    Event,
    ToolCallEnd,
    ToolCallStart,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
)
from shim.ids import IdGenerator
from shim.notices import notice
from shim.profiles import DEFAULT_PROFILE, ModelProfile
from shim.prompting import assistant_message, chat_messages, render_messages, tool_message, user_message
from shim.request_values import asks_for_several, grounded, named_choices, request_values
from shim.tool_choice import NO_TOOLS, ExternalTools, TurnChoice
from shim.trace import TraceWriter
from shim.types import ChatMessage, ContentBlock, Message, ToolCall, ToolResult, ToolSpec, tool_specs

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "Agent",
    "AgentEnd",
    "AgentEvent",
    "AgentResult",
    "AgentSettings",
    "BaseToolSource",
    "CallRouted",
    "Offload",
    "ToolResultEvent",
    "ToolSource",
    "TurnEnd",
    "TurnStart",
]


OptionsArg: TypeAlias = "GenerationOptions | Callable[[int], GenerationOptions] | None"


class Agent:
    """Run a model without native tool calling against real tools.

    Args:
        backend: the model (`shim.backends.get_backend`).
        tools: where calls go (a `ToolRouter`), or None for plain chat.
        settings: how the loop runs (`AgentSettings`); its fields may also be given one by one as keywords.
        dialect: the call syntax taught in the prompt (``function_call``, ``tool_call``, ``mistral``, or a
            template path); default: the profile's.
        profile: facts about the model's family (`shim.profiles.find_profile`): the prompt dialect, the parser
            rows tried first (every family is still read), whether the output starts inside reasoning.
            Default: `DEFAULT_PROFILE` (shim's own ``<function_call>``, the parser's table as it is).
        options: sampling options, or a function of the turn number returning them (e.g. a grammar that
            forces a call on the first turn only).
        trace: a JSONL file that records every prompt, event and tool exchange (secrets redacted); its
            ``response`` lines replay with the ``replay:`` backend.
        secrets: extra strings to redact from the trace (the tool source's secrets are added).
        ids: the call id generator (one per agent by default).
        external_tools: tools the caller runs itself, offered with the source's (an external tool hides a
            source tool of the same name); calling one ends the loop with ``reason="tool_calls"``.
        offload: how the loop runs its CPU-heavy steps (reading the messages it is given, building each turn's
            parser, rendering each prompt: seconds for thousands of tools or messages). Default: in place. A
            server passes one that runs them on a worker thread (`shim.server.chat.off_loop`), so its other
            clients are answered meanwhile; the CLI has no one else to answer and saves the thread hop.
    """

    def __init__(
        self,
        backend: Backend,
        tools: ToolSource | None = None,
        *,
        settings: AgentSettings | None = None,
        dialect: str | Path | None = None,
        profile: ModelProfile | None = None,
        options: OptionsArg = None,
        trace: str | Path | TraceWriter | None = None,
        secrets: Sequence[str] = (),
        ids: IdGenerator | None = None,
        external_tools: Sequence[ToolSpec | Mapping[str, Any]] = (),
        offload: Offload = in_place,
        **overrides: Unpack[SettingsArgs],
    ) -> None:
        self.backend = backend
        self.tools = tools
        self.settings = replace(settings or AgentSettings(), **overrides)
        self.external = ExternalTools(tool_specs(external_tools))
        self.profile = profile or DEFAULT_PROFILE
        """The model family's facts: they choose the prompt dialect and build each turn's parser."""
        self.dialect: str | Path = self.profile.dialect if dialect is None else dialect
        self.conversation: list[ChatMessage] = []
        """The conversation, typed, updated as each turn completes; kept when a run is cancelled."""
        self._options = options
        self._ids = ids or IdGenerator()
        self._native: bool | None = None
        self._offload = offload
        own_secrets = tools.secrets if tools is not None else ()
        if isinstance(trace, TraceWriter) or trace is None:
            self._trace = trace
        else:
            self._trace = TraceWriter(trace, secrets=[*secrets, *own_secrets])

    @property
    def external_tools(self) -> tuple[ToolSpec, ...]:
        """The tools the caller runs itself."""
        return self.external.specs

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation as OpenAI-style messages (plain JSON; content with images as ``image_url`` parts)."""
        return [message.to_dict() for message in self.conversation]

    @messages.setter
    def messages(self, messages: Sequence[ChatMessage | Mapping[str, Any]]) -> None:
        self.conversation = chat_messages(messages)

    def reset(self) -> None:
        """Forget the conversation."""
        self.conversation = []

    async def run(self, prompt: str | Sequence[Mapping[str, Any]]) -> AgentResult:
        """Run to the end and return the outcome (see `stream` for the events)."""
        results: list[ToolResultEvent] = []
        end: AgentEnd | None = None
        async for event in self.stream(prompt):
            if isinstance(event, ToolResultEvent):
                results.append(event)
            elif isinstance(event, AgentEnd):
                end = event
        assert end is not None
        return AgentResult(
            reason=end.reason, text=end.text, messages=list(self.messages), calls=results, detail=end.detail
        )

    async def stream(self, prompt: str | Sequence[ChatMessage | Mapping[str, Any]]) -> AsyncIterator[AgentEvent]:
        """Add ``prompt`` (a user message, or whole messages) to the conversation and run the loop.

        Every ending goes through one place, which records the trace's ``done`` line. Typed messages (a
        server surface's, read once by its wire check) are taken as they are.

        Raises:
            BackendError: the model could not be reached or refused the request.
        """
        if isinstance(prompt, str):
            self.conversation.append(user_message(prompt))
        else:  # offloaded: 200,000 content parts take seconds to read
            self.conversation.extend(await self._offload(partial(chat_messages, prompt)))
        end: AgentEnd | None = None
        async with aclosing(self._loop()) as events:
            async for event in events:
                if isinstance(event, AgentEnd):
                    end = event
                    break
                yield event
        assert end is not None  # the loop always ends with one
        self._record("done", reason=end.reason)
        yield end

    async def prompt(self, prompt: str | Sequence[ChatMessage | Mapping[str, Any]] = ()) -> list[Message]:
        """The prompt the next turn would send with ``prompt`` added, as the engine would get it (to count its
        tokens); the conversation is left as it is. The tool choice is decided as `stream` decides it.

        Raises:
            ToolChoiceError: the tool choice names a tool no one offers, or asks for a call with no tools.
        """
        if isinstance(prompt, str):
            added = [user_message(prompt)]
        else:
            added = await self._offload(partial(chat_messages, prompt))
        tools = await self._list_tools()
        decided = TurnChoice.of(self.settings.tool_choice, tools)
        native = bool(tools) and await self._native_tools()
        return await self._offload(partial(self._render, tools, native=native, choice=decided, added=added))

    async def _loop(self) -> AsyncGenerator[AgentEvent, None]:
        """The turns; the last event is always the `AgentEnd`."""
        limits = self.settings
        failed_turns = 0
        reminded = False  # asked the model to answer in text after a call it could not make
        repeats: tuple[str, int] = ("", 0)
        text = ""
        choice = limits.tool_choice
        for turn in range(1, limits.max_turns + 1):
            yield TurnStart(turn=turn)
            tools = await self._list_tools()
            asked = TurnChoice.of(choice, tools)
            decided = asked.when_matched(self.profile.call_when_matched, self.conversation, tools)
            outcome = TurnOutcome(held=[] if decided is not asked and self.profile.ground_matched_calls else None)
            # aclosing: a consumer that stops reading mid-turn must stop the engine now, not at garbage collection.
            async with aclosing(self._model_turn(turn, tools, outcome, decided)) as events:
                async for event in events:
                    yield event
            if outcome.ungrounded:
                # The word match forced a call the request holds no values for: asked again, the model decides.
                decided, outcome = asked, TurnOutcome()
                async with aclosing(self._model_turn(turn, tools, outcome, decided)) as events:
                    async for event in events:
                        yield event
            text = outcome.fold.text.strip()
            yield TurnEnd(turn=turn, finish_reason=outcome.finish_reason, usage=outcome.usage)
            calls, errors = outcome.fold.calls, outcome.fold.errors
            if outcome.interrupted or (decided.mode == "none" and (calls or errors)) or not (calls or errors):
                self._append_turn(outcome, [])
            if outcome.interrupted:
                yield AgentEnd(reason="interrupted", text=text, detail=outcome.interrupted)
                return
            if not calls and not errors:
                forced = decided.forced and outcome.finish_reason != "length"
                if forced and failed_turns < limits.max_retries:
                    failed_turns += 1
                    self.conversation.append(user_message(decided.reminder()))
                    continue
                length = outcome.finish_reason == "length"
                detail = "the model hit its token limit" if length else ""
                if forced:
                    detail = f"tool_choice {choice!r} asked for a call; the model answered in text instead"
                yield AgentEnd(reason="length" if length else "answer", text=text, detail=detail)
                return
            if decided.mode == "none":
                # No tool may be called (tool_choice "none", or no tools at all): a call written anyway is not
                # made, and the text around it is the answer; with no text, the model is asked once to answer.
                if not text and not reminded:
                    reminded = True
                    self.conversation.append(user_message(NO_TOOLS))
                    continue
                detail = "the model wrote a tool call; no tools were available"
                yield AgentEnd(reason="answer", text=text, detail=detail)
                return
            made = [c for c in calls if outcome.routes[c.id].route != "refused"]
            if decided.met_by(made):
                # Met: later turns may answer, or call what they like. A refused call (arguments that miss the
                # schema) was not made, so the retry is still held to the choice.
                choice = "auto"
            handed_back = tuple(c for c in calls if outcome.routes[c.id].route == "client")
            signature = json.dumps([[c.name, c.arguments] for c in calls], sort_keys=True)
            repeats = (signature, repeats[1] + 1 if repeats[0] == signature else 1)
            if not handed_back and calls and repeats[1] > limits.max_repeats:
                self._append_turn(outcome, [])
                detail = f"the model made the same call {repeats[1]} times in a row: {signature}"
                yield AgentEnd(reason="repeated_call", text=text, detail=detail)
                return
            self._append_turn(outcome, calls)
            own = [c for c in calls if c not in handed_back]  # refused ones get their reason as result
            results: list[ToolResultEvent] = []
            async for event in self._run_calls(own, outcome.refused()):
                results.append(event)
                yield event
            if handed_back:
                yield AgentEnd(reason="tool_calls", text=text, calls=handed_back)
                return
            if errors:
                problems = "\n".join(f"- {error.message}" for error in errors)
                self.conversation.append(user_message(f"Your tool call could not be used:\n{problems}"))
            all_failed = bool(errors) or (bool(results) and all(r.result.is_error for r in results))
            failed_turns = failed_turns + 1 if all_failed else 0
            if failed_turns > limits.max_retries:
                detail = f"{failed_turns} turns in a row had only failed calls"
                yield AgentEnd(reason="too_many_errors", text=text, detail=detail)
                return
        yield AgentEnd(reason="max_turns", text=text, detail=f"stopped after {limits.max_turns} turns")

    def _append_turn(self, outcome: TurnOutcome, calls: Sequence[ToolCall]) -> None:
        """The assistant's turn into the conversation: its visible text, with each failed block as the model wrote
        it (so it can see what it got wrong), and ``calls`` (good calls are re-rendered from ``tool_calls``)."""
        self.conversation.append(assistant_message(outcome.fold.history.strip(), calls))

    # -- one model turn --------------------------------------------------------------------------------

    async def _model_turn(
        self, turn: int, tools: list[ToolSpec], outcome: TurnOutcome, decided: TurnChoice
    ) -> AsyncGenerator[Event | CallRouted, None]:
        options = self._options(turn) if callable(self._options) else self._options
        outcome.call_limit = self._reply_limit(tools)
        native = bool(tools) and await self._native_tools()
        # Building the parser (a regex of every tool name) and rendering the prompt take seconds for thousands of
        # tools or messages: offloaded (see ``offload``).
        parser = await self._offload(partial(self.profile.parser, tools, ids=self._ids))
        items: list[str | dict[str, Any]] = []  # the trace's record of what the engine sent
        completion: Completion | None = None
        for attempt in (1, 2):
            prompt = await self._offload(partial(self._render, tools, native=native, choice=decided))
            self._record("prompt", turn=turn, native_tools=native, messages=[m.to_dict() for m in prompt])
            turn_options = self._turn_options(options, tools, native, decided, outcome.call_limit)
            if turn == 1 and tools:
                # The loop's own decision, told to the response being served (a no-op outside `shim serve`).
                constrained = turn_options is not None and turn_options.constraint is not None
                notice(CALL_CONSTRAINT, "grammar" if constrained else "none")
            stream = self.backend.stream(prompt, options=turn_options)
            try:
                async with stream:
                    async for item in stream:
                        items.append(item_record(item))
                        for event in parser.feed(item) if isinstance(item, str) else item_events(item):
                            for taken in self._take(turn, event, outcome, decided, tools):
                                yield taken
                        if outcome.ended_early:
                            break  # the block is complete: leaving the context stops the engine
                completion = stream.result
            except StreamInterruptedError as exc:
                outcome.interrupted = str(exc)
            except BackendResponseError as exc:
                # Ollama can list the `tools` capability and still refuse them for a model: render them instead.
                if not (native and attempt == 1 and exc.status_code == 400 and not items):
                    raise
                native = self._native = False
                continue
            break
        finish = completion.finish_reason if completion is not None else "cancelled"
        if outcome.ended_early:
            finish = "stop"  # we stopped it on purpose
        for event in parser.close(truncated=finish == "length" or bool(outcome.interrupted)):
            for taken in self._take(turn, event, outcome, decided, tools):
                yield taken
        if outcome.held:  # the reply ended without a complete call: what was held back is passed on as it is
            released, outcome.held = outcome.held, None
            for event in released:
                for taken in self._pass(event, outcome, decided):
                    yield taken
        outcome.finish_reason = finish
        outcome.usage = completion.usage if completion is not None else None
        constrained = completion is not None and completion.constrained
        self._record("response", turn=turn, **response_record(items, finish, constrained=constrained))

    def _turn_options(
        self,
        options: GenerationOptions | None,
        tools: list[ToolSpec],
        native: bool,
        decided: TurnChoice,
        call_limit: int | None,
    ) -> GenerationOptions | None:
        if native:
            return replace(options or GenerationOptions(), tools=tuple(tools))
        copy_from, choices = self._copy_from(tools)
        return constrained_options(
            options,
            backend=self.backend,
            tools=tools,
            dialect=self.dialect,
            choice=decided,
            mode=self.settings.constrain,
            max_calls=call_limit,
            bounds=self.profile.call_bounds,
            steer=self._steer(),
            copy_from=copy_from,
            choices=choices,
        )

    def _reply_limit(self, tools: Sequence[ToolSpec]) -> int | None:
        """`call_limit`, or 1 on the turn right after a user's message that asks for one thing, for a profile
        with ``several_calls_when_asked`` (`shim.request_values.asks_for_several`)."""
        limit = self.call_limit
        last = self.conversation[-1] if self.conversation else None
        if not self.profile.several_calls_when_asked or limit == 1 or last is None or last.role != "user":
            return limit
        return limit if asks_for_several(last.text(), tools) else 1

    def _steer(self) -> tuple[str, ...]:
        """The values of the user's request a small model's further calls are steered toward (the profile's
        ``steer_further_calls``), on the turn right after the user's message."""
        last = self.conversation[-1] if self.conversation else None
        if not self.profile.steer_further_calls or last is None or last.role != "user":
            return ()
        return request_values(last.text())

    def _copy_from(self, tools: Sequence[ToolSpec]) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """The request whose spans a small model's string values are copied whole from, and the enumerated
        choices it names (the profile's ``copy_request_spans``), on the turn right after the user's message."""
        last = self.conversation[-1] if self.conversation else None
        if not self.profile.copy_request_spans or last is None or last.role != "user":
            return "", ()
        text = last.text()
        return text, named_choices(text, tools)

    def _grounded(self, call: ToolCallEnd, tools: Sequence[ToolSpec]) -> bool:
        """Whether the request right before this turn holds the required values of ``call``
        (`shim.request_values.grounded`); a call of a tool not offered is left to routing."""
        last = self.conversation[-1] if self.conversation else None
        tool = next((t for t in tools if t.name == call.name), None)
        if last is None or last.role != "user" or tool is None:
            return True
        return grounded(last.text(), call.arguments, tool)

    def _take(
        self, turn: int, event: Event, outcome: TurnOutcome, decided: TurnChoice, tools: Sequence[ToolSpec]
    ) -> list[Event | CallRouted]:
        """Record a parser event and pass it on (`_pass`); in a reply whose first call is held back
        (``TurnOutcome.held``), hold it until that call is complete."""
        self._record("event", turn=turn, event=event.to_dict())
        if outcome.ended_early:
            # Generation was stopped at the reply's last call: what the engine had already sent after it (the
            # start of the closing tag, another call) is not part of the turn.
            return []
        if outcome.held is None:
            return self._pass(event, outcome, decided)
        # A call the word match forced is held back until it is complete: its values decide whether it is made.
        if not isinstance(event, ToolCallEnd):
            outcome.held.append(event)
            return []
        released, outcome.held = outcome.held, None
        if not self._grounded(event, tools):
            outcome.ungrounded = outcome.ended_early = True
            return []
        return [taken for held in [*released, event] for taken in self._pass(held, outcome, decided)]

    def _pass(self, event: Event, outcome: TurnOutcome, decided: TurnChoice) -> list[Event | CallRouted]:
        """Pass an event of the reply on, with the routing decision after a complete call."""
        made = outcome.fold.calls
        if self.profile.further_calls_same_tool and made and _names_another_tool(event, made[0].name):
            # A further call to another tool than the reply's first: for a small model, a wrong one (the
            # profile's ``further_calls_same_tool``). It is not made, and generation stops.
            outcome.ended_early = True
            return []
        if isinstance(event, ToolCallEnd) and any(
            c.name == event.name and c.arguments == event.arguments for c in made
        ):
            # The same call again in one reply: small models under a forced grammar repeat their call until the
            # token limit. The repeat is dropped (never routed, so no surface shows it) and generation stops.
            outcome.ended_early = True
            return []
        outcome.fold.add(event)
        if not isinstance(event, ToolCallEnd):
            return [event]
        limit = outcome.call_limit
        if limit is not None and len(outcome.fold.calls) >= limit:
            outcome.ended_early = True  # the reply's last call: generation stops here
        routed = decided.route(outcome.fold.calls[-1], self.external)
        outcome.routes[event.id] = routed
        return [event, routed]

    @property
    def call_limit(self) -> int | None:
        """The most calls one reply may hold: 1 when the caller asked for one call per turn, else the profile's
        ``max_calls_per_turn`` (None: no bound)."""
        return 1 if self.settings.one_call_per_turn else self.profile.max_calls_per_turn

    def _render(
        self, tools: list[ToolSpec], *, native: bool, choice: TurnChoice, added: Sequence[ChatMessage] = ()
    ) -> list[Message]:
        system = self.settings.system
        history = [ChatMessage(role="system", content=(ContentBlock(kind="text", text=system),))] if system else []
        history += [*self.conversation, *added]
        shown = [] if native else tools  # native engines get the tools as request fields, not prompt text
        return render_messages(history, shown, dialect=self.dialect, tool_choice=choice.normalized if shown else "none")

    async def _list_tools(self) -> list[ToolSpec]:
        return self.external.offered_with(await self.tools.list_tools() if self.tools is not None else [])

    async def _native_tools(self) -> bool:
        """True when the engine calls tools natively (Ollama models with the `tools` capability)."""
        if self._native is None:
            self._native = await self.backend.resolve_tool_mode() == "native"
        return self._native

    async def _run_calls(self, calls: list[ToolCall], refused: Mapping[str, str]) -> AsyncIterator[ToolResultEvent]:
        """Run ``calls`` concurrently and yield their results in call order; ``refused`` (id -> reason, see
        `CallRouted`) are not run, and their reason is their result."""
        tools = self.tools
        run = [c for c in calls if c.id not in refused]
        results = await tools.call_many(run) if tools is not None and run else []
        done = {c.id: result for c, result in zip(run, results, strict=False)}  # none without a tool source
        for call in calls:
            if call.id in refused:
                result = ToolResult.error(call, refused[call.id])
            else:
                result = done[call.id] if call.id in done else ToolResult.error(call, self.external.unknown(call))
            self.conversation.append(tool_message(result))
            server = tools.server_of(call.name) if tools is not None else None
            event = ToolResultEvent(call=call, result=result, server=server)
            self._record("tool_result", **event.to_dict())
            yield event

    def _record(self, kind: str, **data: Any) -> None:
        if self._trace is not None:
            self._trace.write(kind, **data)


def _names_another_tool(event: Event, name: str) -> bool:
    """``event`` starts or ends a call whose tool is not ``name``."""
    return isinstance(event, ToolCallStart | ToolCallEnd) and bool(event.name) and event.name != name
