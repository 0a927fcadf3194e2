"""The tool choice of a turn: what it allows, who takes each complete call, and when a forced choice is met.

The agent asks; this module decides. One `TurnChoice` per model turn holds the caller's choice reduced by
`shim.choice.normalize_tool_choice` (``auto``, ``none``, ``required`` or one tool by name); its `route`
is the only place a call's fate is decided (`CallRouted`): handed back to the caller (an external tool whose
arguments match its schema, checked with `shim.validation`), run by the loop's tool source, or refused with
a reason for the model. A forced choice (``required`` or a name) holds until a call meets it; a turn that
answers in text instead is sent back with `TurnChoice.reminder`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from shim.choice import NormalizedChoice, ToolChoice, normalize_tool_choice
from shim.events import CallRouted
from shim.relevance import request_matches
from shim.types import ChatMessage, ToolCall, ToolSpec
from shim.validation import SchemaCheck, arguments_message, schema_check, unknown_tool_message

__all__ = ["NO_TOOLS", "ExternalTools", "ToolChoice", "ToolChoiceError", "TurnChoice", "normalize_tool_choice"]

NO_TOOLS = "No tools can be called now. Answer the user in text, without a tool call."
"""The user turn sent back when the model wrote a call where none may be made and no text besides."""


class ExternalTools:
    """The tools the caller runs itself, with a cached schema check for each."""

    def __init__(self, specs: Sequence[ToolSpec]) -> None:
        self.specs = tuple(specs)
        self._checks: dict[str, tuple[ToolSpec, SchemaCheck]] = {
            t.name: (t, schema_check(t.input_schema)) for t in specs
        }

    def problem(self, call: ToolCall) -> str | None:
        """Why ``call`` cannot be handed back to the caller: ``"not external"``, or its arguments do not match
        the tool's schema (the message is for the model); None when it can."""
        if call.name not in self._checks:
            return "not external"
        spec, check = self._checks[call.name]
        violations = check.violations(call.arguments)
        return arguments_message(call.name, spec.input_schema, violations) if violations else None

    def offered_with(self, own: Sequence[ToolSpec]) -> list[ToolSpec]:
        """The tools of a turn: these, then the tool source's ``own`` (an external tool hides one of its name)."""
        names = {t.name for t in self.specs}
        return [*self.specs, *(t for t in own if t.name not in names)]

    def unknown(self, call: ToolCall) -> str:
        """The result of a call that no one can run (the loop has no tool source and it is not one of these)."""
        return unknown_tool_message(call.name, (t.name for t in self.specs))


class ToolChoiceError(ValueError):
    """The caller's tool choice cannot hold for the tools of the turn (it names a tool not offered, or asks for a
    call with no tools at all): the caller's mistake, which a server answers with a 400."""


@dataclass(frozen=True)
class TurnChoice:
    """The tool choice in force for one model turn."""

    choice: ToolChoice
    """As the caller gave it (for messages; the prompt and the call constraint take `normalized`)."""
    mode: Literal["auto", "none", "required", "named"]
    named: str | None
    """The one tool a ``named`` choice asks for."""

    @classmethod
    def of(cls, choice: ToolChoice, tools: Sequence[ToolSpec]) -> TurnChoice:
        """Reduce ``choice`` for a turn offering ``tools`` (every tool: the caller's and the tool source's), the
        one time it is reduced in the turn (no tools: nothing may be called).

        Raises:
            ToolChoiceError: the choice is not recognised, names a tool not offered, or is ``required`` with no
                tools.
        """
        try:
            mode, named = normalize_tool_choice(choice, [t.name for t in tools])
        except ValueError as exc:
            raise ToolChoiceError(str(exc)) from None
        if not tools:
            if mode == "required":
                raise ToolChoiceError("tool_choice 'required' needs at least one tool, and no tools were given")
            return cls(choice, "none", None)
        return cls(choice, mode, named)

    def when_matched(
        self, threshold: float | None, conversation: Sequence[ChatMessage], tools: Sequence[ToolSpec]
    ) -> TurnChoice:
        """For a model too small to decide when to call (a profile's ``call_when_matched``): an ``auto`` turn
        that answers a user request whose words match one of ``tools`` at ``threshold``
        (`shim.relevance.request_matches`) must call (``required``); any other turn is unchanged. Only a turn
        right after the user's message: after tool results the model answers, or calls again, as it likes."""
        if threshold is None or self.mode != "auto" or not conversation or conversation[-1].role != "user":
            return self
        if request_matches(conversation[-1].text(), tools, threshold):
            return TurnChoice(self.choice, "required", None)
        return self

    @property
    def normalized(self) -> NormalizedChoice:
        """The choice as the prompt and the call constraint take it (reduced here, never again)."""
        return NormalizedChoice(self.mode, self.named)

    @property
    def forced(self) -> bool:
        """The turn must call a tool (``required``, or a tool by name)."""
        return self.mode in ("required", "named")

    def met_by(self, calls: Sequence[ToolCall]) -> bool:
        """A call of the turn meets the choice: later turns go back to ``auto``, so it cannot repeat forever."""
        return any(self.named is None or call.name == self.named for call in calls)

    def reminder(self) -> str:
        """The user turn sent back when a forced choice was answered in text."""
        target = f"the tool {self.named!r}" if self.named else "one of the tools"
        return f"You must call {target} now, in the call format the system prompt shows, not answer in text."

    def route(self, call: ToolCall, external: ExternalTools) -> CallRouted:
        """Who takes ``call``: the one place this is decided (see `CallRouted`)."""

        def refused(reason: str) -> CallRouted:
            return CallRouted(id=call.id, name=call.name, route="refused", reason=reason)

        if self.mode == "none":
            return refused("No tools may be called now; answer in text.")
        if self.named is not None and call.name != self.named:
            return refused(f"{call.name!r} was not run: this turn must call {self.named!r}. Call {self.named!r} now.")
        problem = external.problem(call)
        if problem is None:
            return CallRouted(id=call.id, name=call.name, route="client")
        if problem != "not external":
            return refused(problem)
        return CallRouted(id=call.id, name=call.name, route="run")
