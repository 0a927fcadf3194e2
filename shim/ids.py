"""Ids: tool-call ids (``call_`` + 24 lowercase hex digits, unique within a generator) and the ids of the objects a
surface answers with (``chatcmpl-…``, ``msg_…``, ``resp_…``): the one source of both.

One generator can be shared by every parser of a conversation so ids never repeat across turns; a seeded
generator gives reproducible ids for tests and recorded traces.
"""

from __future__ import annotations

import random
import secrets

__all__ = ["IdGenerator", "is_call_id", "object_id"]

_HEX = frozenset("0123456789abcdef")


class IdGenerator:
    """Make call ids. Random by default; ``seed`` makes the sequence reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None
        self._seen: set[str] = set()

    def __call__(self) -> str:
        while True:
            digits = f"{self._rng.getrandbits(96):024x}" if self._rng else secrets.token_hex(12)
            new = "call_" + digits
            if new not in self._seen:  # a collision is astronomically rare, but uniqueness is a promise
                self._seen.add(new)
                return new


def is_call_id(value: str) -> bool:
    """True for ``call_`` followed by exactly 24 lowercase hex digits."""
    return len(value) == 29 and value.startswith("call_") and set(value[5:]) <= _HEX


def object_id(prefix: str) -> str:
    """A new id for a response object: ``prefix`` (with its separator, ``"msg_"``, ``"chatcmpl-"``) and 24 random
    lowercase hex digits, as the vendors' own ids look."""
    return prefix + secrets.token_hex(12)
