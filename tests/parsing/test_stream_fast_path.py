"""The fast path for prose (`StreamParser.feed` without the scanner's machinery) gives what the scanner gives.

The fast path decides, for a chunk in text, whether the text scanner would stop anywhere in it: at a character an
opener begins with, at an untagged opener's leading word (``Action``, ``commentary``), or at the start of such a
word cut off by the chunk's end (held back until the next chunk says whether it is one). These tests split
openers and their words at every point, in ASCII and other text, and compare with the whole text read at once.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from shim.events import TextDelta, ToolCallEnd
from shim.parsing.stream import StreamParser
from tests.parsing.chunking import check_event_invariants, chunkings, folded, parse_chunks

TOOLS = [
    {"name": "get_weather", "inputSchema": {"properties": {"city": {"type": "string"}}}},
    {"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}},
]

_REACT = 'We need the forecast, then a coat.\nAction: get_weather\nAction Input: {"city": "Paris"}\n'
_HARMONY = 'Checking the act of weather.\ncommentary to=functions.get_weather {"city": "Paris"}'


@pytest.mark.parametrize("text", [_REACT, _HARMONY], ids=["react", "harmony commentary"])
def test_an_untagged_opener_whose_word_is_split_anywhere_is_still_read(text: str) -> None:
    whole = folded(parse_chunks([text], TOOLS))
    assert [c["name"] for c in whole["calls"]] == ["get_weather"]
    for chunks in chunkings(text, seeds=10):
        events = parse_chunks(chunks, TOOLS)
        check_event_invariants(text, events)
        assert folded(events) == whole


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7])
def test_prose_full_of_opener_word_starts_reads_the_same_at_every_chunk_size(size: int) -> None:
    # Words that begin like an opener's word (act, comment, Acti, Com) end many chunks: each is held back only
    # while it may be the word, and every character still comes out once, as text.
    text = "An actor commented: Acting comes with commas, accents and Comics, a c ac co Act Com.\n" * 3
    events = parse_chunks([text[i : i + size] for i in range(0, len(text), size)], TOOLS)
    check_event_invariants(text, events)
    assert events and all(isinstance(e, TextDelta) for e in events)
    assert "".join(e.text for e in events) == text


def test_text_held_at_a_chunks_end_is_released_by_the_next_chunk() -> None:
    parser = StreamParser(TOOLS)
    parser.feed("Hello there. ")
    held = parser.feed("Then comm")  # may be the start of `commentary to=…`
    released = parser.feed("ents follow.")
    assert "".join(e.raw for e in held + released) == "Then comments follow."
    assert "".join(e.text for e in released).endswith("ents follow.")


def test_non_ascii_prose_reads_like_ascii_prose_at_every_split() -> None:
    text = "Café au lait ✿ naïve Ａction — ünïcödé comment, résumé: ACTİON commentary-free.\n"  # noqa: RUF001
    whole = folded(parse_chunks([text], TOOLS))
    assert whole["calls"] == [] and whole["text"] == text
    for chunks in chunkings(text, seeds=10):
        events = parse_chunks(chunks, TOOLS)
        check_event_invariants(text, events)
        assert folded(events) == whole


def test_random_mixes_of_prose_and_opener_pieces_read_the_same_however_split() -> None:
    # Pieces that stop the scanner (`<`, `[`, a backtick, a newline, opener words and their starts, non-ASCII)
    # between plain words, including a real call: every chunking gives the whole text's result.
    pieces = ["the ", "act", "Action", "comm", "commentary ", "a", "C", "<", "[", "`", "\n", "é", "✿", "k ", ", "]
    call = '\nAction: get_weather\nAction Input: {"city": "Lima"}\n'
    rng = random.Random(5)
    for _ in range(12):
        text = "".join(rng.choice(pieces) for _ in range(30)) + call + "".join(rng.choice(pieces) for _ in range(10))
        whole = folded(parse_chunks([text], TOOLS))
        for chunks in chunkings(text, seeds=4, every_split=False):
            events = parse_chunks(chunks, TOOLS)
            check_event_invariants(text, events)
            assert folded(events) == whole


def test_a_call_after_fast_path_prose_is_read() -> None:
    parser = StreamParser(TOOLS)
    events = parser.feed("Let me look at it. ")
    events += parser.feed('<tool_call>{"name": "read_file", "arguments": {"path": "a.py"}}</tool_call>')
    events += parser.close()
    assert [e.arguments for e in events if isinstance(e, ToolCallEnd)] == [{"path": "a.py"}]


def test_text_events_of_the_fast_path_are_whole_text_deltas() -> None:
    # The fast path builds its `TextDelta` field by field: every field is set, and it equals the constructor's.
    # (It ends on no start of a word the scanner stops at: `at` would hold its `t` back, which may begin `to=`, and
    # `here` its `re`, which may begin the offered `read_file`: `prose_call`.)
    events = StreamParser(TOOLS).feed("plain words, nothing to see now")
    assert events == [TextDelta(text="plain words, nothing to see now", raw="plain words, nothing to see now")]
    assert dataclasses.asdict(events[0]) == dataclasses.asdict(TextDelta(text=events[0].text, raw=events[0].raw))
    assert events[0].to_dict() == {"type": "text", "text": events[0].text, "raw": events[0].raw}


@pytest.mark.parametrize("fences", [False, True])
def test_where_no_opener_may_begin_no_marker_matches(fences: bool) -> None:
    # The fast path takes `Markers.may_open` at its word: where it says no opener begins, `match` finds nothing.
    markers = StreamParser(TOOLS).markers
    chars = [chr(c) for c in range(1, 0x250)] + ["✿", "｜", "\u2028", "İ", "ſ", "K"]  # noqa: RUF001
    for char in chars:
        if not markers.may_open(char, fences=fences):
            text = char + "Action commentary <tool_call> [TOOL_CALLS] ```json\n{" * 2
            assert markers.match(text, 0, False, fences=fences) is None, char


def test_an_offered_names_word_inside_longer_words_reads_the_same_however_split() -> None:
    # `get` and `read` (the offered names' leading words) open only where a word begins: inside `target`,
    # `forget` or `thread` they neither stop the scanner nor hold a chunk's end back; at a word's start they may
    # open a call in prose, which is read at every split.
    text = 'We target the thread, forget regrets, already spread. Then read_file({"path": "a.py"}) and get it.\n'
    whole = folded(parse_chunks([text], TOOLS))
    assert [c["name"] for c in whole["calls"]] == ["read_file"]
    for chunks in chunkings(text, seeds=6):
        events = parse_chunks(chunks, TOOLS)
        check_event_invariants(text, events)
        assert folded(events) == whole
