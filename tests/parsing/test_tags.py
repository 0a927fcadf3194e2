"""Openers built from the offered names are compiled only where their text may be (`tags.compile_opener`)."""

from __future__ import annotations

import itertools

import pytest
import regex

from shim import StreamParser, ToolCallEnd, ToolCallStart
from shim.bench.real import load_real
from shim.parsing import tags
from shim.parsing.readers import rows_for
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import MarkerMatch, ScreenedOpener, compile_marker, compile_opener


def _same(screened: ScreenedOpener, real: regex.Pattern[str], text: str, pos: int, partial: bool) -> None:
    mine, theirs = screened.match(text, pos, partial=partial), real.match(text, pos, partial=partial)
    if theirs is None and mine is not None:  # only a wait for more text at the end of an unfinished one
        assert partial and mine.partial, (real.pattern[:120], text[pos : pos + 60])
        return

    def shown(m: regex.Match[str] | None) -> object:
        return m and (m.span(), m.partial, None if m.partial else m.groupdict())

    assert shown(mine) == shown(theirs), (real.pattern[:120], text[pos : pos + 60], partial)


def _places(text: str) -> list[int]:
    """Where openers are tried: the start, after each line break, and at each character a marker may begin with."""
    return sorted(
        {0, *(i + 1 for i, c in enumerate(text) if c == "\n"), *(i for i, c in enumerate(text) if c in "<[{`(@>|")}
    )


def test_every_opener_built_from_real_tools_matches_as_its_full_pattern_does_on_real_outputs() -> None:
    # Every 60th real output with tools, every row built from its tools, at every place an opener is tried, on the
    # whole text and cut one and eight characters later (a partial match at a chunk's end): the screened opener
    # answers exactly as the pattern compiled with the names.
    cases = [c for c in load_real() if c.tools][::60]
    screened_rows = 0
    for case in cases:
        for row in rows_for(None, ToolIndex(list(case.tools or ()))):
            opener = row.compiled_open()
            if not isinstance(opener, ScreenedOpener):
                continue
            screened_rows += 1
            real = compile_marker(row.open)
            for pos in _places(case.text):
                _same(opener, real, case.text, pos, partial=False)
                for cut in (pos + 1, pos + 8):
                    _same(opener, real, case.text[:cut], pos, partial=True)
    assert screened_rows > 10 * len(cases)  # most tool-built rows are screened


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?>(?P<name>get[-_]weather|read))\(",  # atomic
        r"(?!(?P<name>get[-_]weather))\w+",  # a negative lookahead
        r"(?:<(?P<name>get[-_]weather|read)>)++",  # possessively repeated
    ],
)
def test_a_name_group_a_wider_name_could_make_fail_is_never_screened(pattern: str) -> None:
    assert not isinstance(compile_opener(pattern), ScreenedOpener)


def test_names_that_are_no_word_are_never_screened() -> None:
    assert not isinstance(compile_opener(r"<(?P<name>9lives|read)>"), ScreenedOpener)
    assert isinstance(compile_opener(r"<(?P<name>get[-_]weather|read\.file)>"), ScreenedOpener)


@pytest.mark.parametrize(
    "text", ["<read>", "<get-weather>", "<GET_WEATHER> x", "<read", "<reader>", "<unread>", "< read>", "read>"]
)
def test_a_screened_opener_matches_and_searches_as_the_pattern_with_the_names(text: str) -> None:
    pattern = r"<(?P<name>get[-_]weather|read)>"
    opener, real = compile_opener(pattern), compile_marker(pattern)
    assert isinstance(opener, ScreenedOpener)
    for pos, partial in itertools.product(range(len(text)), (False, True)):
        _same(opener, real, text, pos, partial)
        mine, theirs = opener.search(text, pos, partial=partial), real.search(text, pos, partial=partial)
        if mine is not None and mine.partial and (theirs is None or theirs.partial):  # a wait, never a later one
            assert partial and (theirs is None or mine.start() <= theirs.start())
        else:
            assert (mine and mine.span()) == (theirs and theirs.span())


def test_prose_never_compiles_the_openers_of_three_thousand_tools() -> None:
    tools = [{"name": f"tool_{i}", "parameters": {"type": "object"}} for i in range(3000)]
    rows = [r for r in rows_for(None, ToolIndex(tools)) if r.built_for_tools]
    parser = StreamParser(tools)
    # Cut right after line breaks and openers too: such a cut may begin a call, and the next chunk shows it does not.
    chunks = ["Done.\n", "The answer is 4.\n", "<", "tool_call>", "\n", "Nothing to call.", "</tool_call>\n", "Bye."]
    events = [e for chunk in chunks for e in parser.feed(chunk)] + parser.close()
    assert not [e for e in events if isinstance(e, ToolCallEnd)]
    compiled = [r.name for r in rows if isinstance(o := r.compiled_open(), ScreenedOpener) and o.compiled]
    assert compiled == []


def test_a_call_of_the_last_of_three_thousand_tools_is_read() -> None:
    tools = [{"name": f"tool_{i}", "parameters": {"type": "object"}} for i in range(3000)]
    parser = StreamParser(tools)
    events = parser.feed('<tool_call>{"name": "tool_2999", "arguments": {}}</tool_call>') + parser.close()
    assert [e.name for e in events if isinstance(e, ToolCallEnd)] == ["tool_2999"]


def test_a_screen_s_partial_match_never_holds_a_streamed_call_back_past_a_name() -> None:
    # A screen matches `<tool_call>{…` for any word in a name's place, and would go on matching partly as the call
    # streams: once the word is read, the real pattern decides, so the call starts before its closer arrives.
    tools = [{"name": f"tool_{i}", "parameters": {"type": "object"}} for i in range(300)]
    parser = StreamParser(tools)
    text = '<tool_call>{"name": "tool_7", "arguments": {"x": 1}}</tool_call> done'
    started_at = None
    for i, char in enumerate(text):
        if any(isinstance(e, ToolCallStart) for e in parser.feed(char)) and started_at is None:
            started_at = i
    assert started_at is not None and started_at < text.index("</tool_call>")


def _marker(found: object) -> object:
    return (found.kind, found.dialect, found.match.span()) if isinstance(found, MarkerMatch) else found


def test_rows_left_out_by_the_text_s_first_characters_could_never_have_matched_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `Markers._beginning` tries only the rows that may match text beginning with the next three characters: at
    # every place of every 40th real output with tools, whole and cut one and eight characters later, the answer
    # is the one trying every row gives.
    for case in [c for c in load_real() if c.tools][::40]:
        markers = StreamParser(list(case.tools or ())).markers
        for pos in _places(case.text):
            for text, final in ((case.text, True), (case.text[: pos + 1], False), (case.text[: pos + 8], False)):
                for flags in ({}, {"closes": True, "opens": False}, {"fences": True}):
                    quick = markers.match(text, pos, final, **flags)
                    with monkeypatch.context() as every_row:
                        every_row.setattr(tags, "_FEW", 10**9)
                        slow = markers.match(text, pos, final, **flags)
                    assert _marker(quick) == _marker(slow), (case.id, text[pos : pos + 40], flags)
