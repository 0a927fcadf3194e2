"""Bookkeeping for Ollama's constrained replies, which take several requests (see `shim.backends.ollama`)."""

from __future__ import annotations

__all__ = ["MAX_CONSTRAINED_CALLS", "OpenerWatch", "Tally"]

MAX_CONSTRAINED_CALLS = 8
"""Calls one constrained reply may make before it is ended (each costs a round trip)."""


class Tally:
    """Token counts summed over the phases of one constrained reply, against its ``max_tokens``."""

    def __init__(self, *, budget: int | None) -> None:
        self.budget = budget
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.exhausted = False

    @property
    def remaining(self) -> int | None:
        return None if self.budget is None else max(1, self.budget - self.completion_tokens)

    def add(self, prompt: int | None, completion: int | None, reason: str | None) -> None:
        self.prompt_tokens += prompt or 0
        self.completion_tokens += completion or 0
        if reason == "length" or (self.budget is not None and self.completion_tokens >= self.budget):
            self.exhausted = True


class OpenerWatch:
    """Passes free text through until the call opener; holds back what may be the start of one."""

    def __init__(self, trigger: str) -> None:
        self._trigger = trigger
        self._held = ""
        self.opened = False

    def feed(self, piece: str) -> str:
        text = self._held + piece
        at = text.find(self._trigger)
        if at >= 0:
            self.opened = True
            self._held = ""
            return text[: at + len(self._trigger)]  # anything after the opener is regenerated under `format`
        keep = next(
            (n for n in range(min(len(self._trigger) - 1, len(text)), 0, -1) if text.endswith(self._trigger[:n])), 0
        )
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep]

    def flush(self) -> str:
        held, self._held = self._held, ""
        return held
