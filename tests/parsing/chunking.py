"""Run a text through `StreamParser` under many chunkings and check every invariant on each.

Chunkings: the whole text, one character at a time, every split point into two chunks, fixed sizes, and
random coarse chunks from many seeds. For each: the events' ``raw`` rebuilds the input; the folded result
(text, calls, errors, reasoning) is the same as for the whole text; every call's argument chunks decode to
its final arguments; ids are ``call_`` + 24 hex digits and unique.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from shim.events import Event, ParseResult, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.ids import is_call_id
from shim.parsing.stream import StreamParser


def chunkings(text: str, *, seeds: int = 20, every_split: bool = True) -> Iterator[Sequence[str]]:
    yield [text]
    yield list(text)
    for size in (2, 3, 5, 16):
        yield [text[i : i + size] for i in range(0, len(text), size)]
    if every_split:
        for cut in range(1, len(text)):
            yield [text[:cut], text[cut:]]
    for seed in range(seeds):
        rng = random.Random(seed)
        cuts = sorted(rng.sample(range(1, len(text)), k=min(len(text) - 1, rng.randint(1, 8)))) if len(text) > 1 else []
        bounds = [0, *cuts, len(text)]
        yield [text[a:b] for a, b in itertools.pairwise(bounds)]


def parse_chunks(chunks: Sequence[str], tools: Any = None, **kwargs: Any) -> list[Event]:
    parser = StreamParser(tools, **kwargs)
    events: list[Event] = []
    for chunk in chunks:
        events += parser.feed(chunk)
    return events + parser.close()


def folded(events: list[Event]) -> dict[str, Any]:
    """The chunking-independent result: ids dropped (they are random)."""
    result = ParseResult.from_events(events).to_dict()
    for call in result["calls"]:
        del call["id"]
    return result


def check_event_invariants(text: str, events: list[Event]) -> None:
    assert "".join(e.raw for e in events) == text
    chunks: dict[str, list[str]] = {}
    started: set[str] = set()
    ended: list[str] = []
    for event in events:
        if isinstance(event, ToolCallStart):
            assert is_call_id(event.id) and event.id not in started
            started.add(event.id)
        elif isinstance(event, ToolCallChunk):
            assert event.id in started
            chunks.setdefault(event.id, []).append(event.arguments_chunk)
        elif isinstance(event, ToolCallEnd):
            assert event.id in started
            ended.append(event.id)
            assert json.loads("".join(chunks.get(event.id, []))) == event.arguments
    assert len(ended) == len(set(ended))


def parse_everywhere(
    text: str, tools: Any = None, *, every_split: bool = True, seeds: int = 20, **kwargs: Any
) -> dict[str, Any]:
    """Parse under every chunking, assert the invariants, and return the (common) folded result.

    ``kwargs`` go to `StreamParser` (``dialects=``, ``in_reasoning=``).
    """
    expected: dict[str, Any] | None = None
    for chunks in chunkings(text, seeds=seeds, every_split=every_split):
        events = parse_chunks(chunks, tools, **kwargs)
        check_event_invariants(text, events)
        result = folded(events)
        if expected is None:
            expected = result
        else:
            assert result == expected, f"chunking {list(chunks)!r} changed the result"
    assert expected is not None
    return expected
