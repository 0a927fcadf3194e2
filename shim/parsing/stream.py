"""`StreamParser`: pull tool calls out of a model's token stream as they complete, losing nothing.

```python
p = StreamParser(tools=["get_weather"])
events = p.feed(chunk)      # any number of times, chunks of any size
events += p.close()         # end of stream
```

Sans-IO and incremental: each character is examined a bounded number of times (a marker split across
chunks is the only thing carried over, and it is a few characters), so a 1 MB argument costs the same per
byte as a 1 KB one. Invariants, tested on every chunking: the ``raw`` of all events concatenates to the
input; calls, text and errors do not depend on how the input was split; prose without ``<``, ``[`` or a
backtick comes out of the very ``feed()`` that delivered it.

How a stream is read: in text, the parser looks for the opener of a row of the family table
(`shim.parsing.readers.DEFAULT_DIALECTS`) at every character that can start one; at the start of a
message, with known tools, also for an untagged form (a JSON value, a pythonic call list). An opener hands
the stream to that family's `Reader`, which reads the body and says who reads on: itself, the next phase of
the block (after the body: closers, more calls), or text again. The parser's state is a `TagState` (in
text, opener seen, inside a body, body done) that the loop dispatches on and ``StreamParser.state`` exposes;
readers move it through the context (starting, ending or failing a call, streaming reasoning). This module
owns what every family shares: the carry-over of split markers, the raw accounting, ids, events, runs of
text, and the message a model gets back when its call cannot be used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import regex

from shim.errors import ParserClosedError
from shim.events import Event, ParseIssue, ReasoningDelta, TextDelta, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.ids import IdGenerator
from shim.parsing.boundary import BoundaryTokens, LastTurnEnd
from shim.parsing.readers import DEFAULT_DIALECTS, MORE, Block, Dialect, Reader, reader_for, rows_for
from shim.parsing.readers.block_end import TURN_END, Closed
from shim.parsing.readers.prose import PRESENTED_ONLY, TRANSCRIPT, Quoted, continues_examples, placeholder, presents
from shim.parsing.readers.reasoning import ReasoningBody
from shim.parsing.shapes import ToolIndex, call_arguments, call_id
from shim.parsing.tags import PARTIAL, Markers, TagState, compile_marker, first_chars
from shim.parsing.xml_values import typed_arguments
from shim.types import ToolSpec

__all__ = ["StreamParser", "parse_text"]

_PHRASE = regex.compile(r"\S\s+\S")
"""Words with spaces between them: a tool's description or title, never a name (a name is an identifier)."""
_SHOWN = "shown"
"""The id of a call that is withheld (a placeholder's): its input is text once it ends."""
_DECLINED = "declined"
"""The id of a call of no tool (`ToolIndex.declines`: ``{"tool": "none"}``): the model's choice of no call, its input
markup once it ends."""

_EXAMPLE_MARK = 40
"""How much of a shown example's end marks where it ended (`StreamParser.example_shown`)."""
_WS = regex.compile(r"[ \t\r\n]+")
_TAIL = 160
"""How much of the latest visible text the rule for prose looks at before an opener."""
_RECENT = 64
"""How many pieces of visible text are kept before they are searched for a user's turn and cut to their tail."""
_FENCE_LINE = regex.compile(r"(?:^|\n)[ \t]{0,3}(?:```|~~~)")
"""A line that opens or closes a Markdown fence, in the visible text."""
_FENCE_CLOSER = regex.compile(r"(?P<lead>[ \t]{0,8}\r?\n)?[ \t]{0,3}(?:```|~~~)[ \t]{0,8}(?=\r?\n)")
"""A fence alone on its line (a closer has no info string), its line break in the opener that matched there."""
_FENCE = regex.compile(r"[ \t\r\n]*(?:```|~~~)(?![ \t]{0,2}[\w.\-]{0,40}?(?:tool|call|function))", regex.IGNORECASE)
"""An opener that is a Markdown fence with no call word (``tool_code``, ``function_call``) after it: a fence of code or
JSON, which holds a call only when one is written in it."""
_WHOLE = regex.compile(r"/[ \t]{0,4}>|</[^<>]{0,80}>")
"""An opener that closes its own element (``<tool_use name="x" />``, ``<toolcall>name="x"</toolcall>``): a whole call
read by its row, not the start of one."""
_BODY_START = " \t\r\n[{("
"""What may follow an opener before its body says anything: blanks, and the bracket the body opens with."""

ToolsArg = Iterable[str | Mapping[str, Any] | ToolSpec] | ToolIndex | None


class ParserProfile(Protocol):
    """What a parser takes from a `shim.profiles.ModelProfile`: its rows (a derived syntax's first) and whether
    the stream starts inside reasoning."""

    @property
    def starts_in_reasoning(self) -> bool: ...

    def parser_dialects(self) -> list[Dialect] | None: ...


class StreamParser:
    """Turn a stream of model output into text, reasoning and tool-call events.

    Args:
        tools: the tools the model was offered: names, MCP ``tools/list`` entries, OpenAI tools or
            `ToolSpec`. They let untagged forms count as a call (only when they name one of them), map a
            title or description used as a name to the tool, and type XML-style parameters.
        ids: makes call ids; share one `IdGenerator` across a conversation so ids never repeat.
        dialects: the families to recognise (default: every row of `DEFAULT_DIALECTS`). A list without
            untagged rows still gets the table's untagged forms (they need known tools anyway).
        in_reasoning: the stream starts inside a reasoning block (templates that open ``<think>`` in the
            prompt, so the model's output only closes it).
        profile: a `shim.profiles.ModelProfile`: its rows first (a template-derived syntax's reader among
            them) and its reasoning start.
    """

    def __init__(
        self,
        tools: ToolsArg = None,
        *,
        ids: Callable[[], str] | None = None,
        dialects: Sequence[Dialect] | None = None,
        in_reasoning: bool = False,
        profile: ParserProfile | None = None,
    ) -> None:
        if profile is not None:  # the profile's rows and reasoning start, unless given explicitly
            dialects = profile.parser_dialects() if dialects is None else dialects
            in_reasoning = in_reasoning or profile.starts_in_reasoning
        self.tools = tools if isinstance(tools, ToolIndex) else ToolIndex(tools or ())
        self._ids = ids or IdGenerator()
        self._boundary = BoundaryTokens()  # leaked boundary tokens: out of the text, back into the raw
        self._last = LastTurnEnd()  # the end-of-turn tokens the stream ends with: held back, then markup
        self._ahead = 0  # characters of (stripped) text fed and not yet returned in events' raw (held back)
        layout = _layout(None if dialects is None else tuple(dialects), self.tools)
        self.markers = layout.markers
        self._message_rows = layout.message_rows
        self._start_markup = layout.start_markup
        self._message_chars = layout.message_chars
        self._fence_chars = layout.fence_chars
        self._text_stop = layout.text_stop
        gate = layout.gate
        self._plain_chars, self._plain_words, self._plain_shortest = gate.chars, gate.words, gate.shortest
        self._plain_heads, self._plain_ends, self._plain_tails = gate.heads, gate.ends, gate.tails
        self._plain_firsts = layout.plain_firsts
        self._reader: Reader | None = None  # None: in text
        self._state = TagState.NONE
        self._dialect: Dialect | None = None  # the call block's row, for the retry message; None when untagged
        self._raw: list[str] = []  # consumed input not yet carried by an event
        self._call_id: str | None = None
        self._phrase: str | None = None  # the open call's name, a phrase of no offered tool: its start waits
        self._shown_block = False  # the block holds a placeholder's call: its events are withheld, all is text
        self._call_raw: list[str] = []  # the raw of the last call's events: its opener and body as written
        self._carry = ""
        self._at_start = True
        self._shown = False  # visible text other than whitespace went out
        self._reasoning_block = False  # the active block is reasoning
        self._text_is_reasoning = False  # rereading a reasoning block's calls: its text is reasoning to its closer
        self._closed = False
        self._out: list[Event] = []
        self._span_kind: type[TextDelta] | type[ReasoningDelta] | None = None  # the run being collected
        self._span_text: list[str] = []
        self._span_raw: list[str] = []
        self._recent: list[str] = []  # the latest visible text, for the rule for prose (`presents`)
        self._transcript = False  # a user's turn was seen in the visible text: calls after it are shown
        self._examples = False  # a block was shown as an example: the next one under a label line is one too
        self._example_end = ("", "")  # the last block shown as an example: its row, its text's end (`example_shown`)
        self._fences = 0  # lines of the visible text that open or close a Markdown fence (`_in_line_of_fence`)
        self._unsearched = 0  # pieces of `_recent` not yet searched for a user's turn
        self._edge = "\n"  # the end of the text searched so far (a label may straddle two pieces)
        self._outer: regex.Pattern[str] | None = None  # a wrapper's closer due after its calls (`expect_outer`)
        self._outer_fence = False  # that wrapper sits in a ``` fence: the fence's closer after it is markup too
        self._turn_ends: set[str] = set()  # turn-end tokens that went out as markup (`turn_over`)
        self._held: _Held | None = None  # the opener of a tag held as the calls' wrapper (`hold_wrapper`)
        self._wrappers: set[str] = set()  # closers of reply wrappers whose opener went out as markup (`open_wrapper`)
        self._opener = ""  # the opener of the call block being read, where a line begins (`_bare_opener`)
        self._opener_untagged = False  # that block is an untagged form's (a call only with an offered tool's evidence)
        self._cut_off: int | None = None  # where in `_out` that opener went back to text at the end (`_cut_off_opener`)
        if in_reasoning and layout.reasoning_closers:
            # The prompt opened reasoning: the block ends at the closer of any reasoning row (the template's
            # family may write `</think>` or its own token, `<|close|>think<|sep|>`).
            self._at_start = False
            self._reasoning_block = True
            self._reader = ReasoningBody(self, compile_marker(layout.reasoning_closers), watch_calls=True)
            self._state = TagState.INSIDE

    # -- public -------------------------------------------------------------------------------------

    @property
    def state(self) -> TagState:
        """Where the parser is relative to a block (`TagState`): in text, after an opener, inside a body, or
        after a body."""
        return self._state

    def feed(self, chunk: str) -> list[Event]:
        """Consume a chunk; return the events it completes.

        Raises:
            ParserClosedError: the parser was already closed.
        """
        if self._closed:
            raise ParserClosedError("this StreamParser is closed; create a new one for the next stream")
        if "]" in chunk or self._boundary.hold:
            chunk = self._boundary.strip(chunk, ahead=self._ahead + len(self._last.hold), final=False)
        if "<" in chunk or self._last.hold:
            chunk = self._last.strip(chunk)
        if self._reader is None and not self._at_start and self._held is None:  # in text: the fast path
            carry = self._carry
            text = carry + chunk if carry else chunk
            if not text.isascii():  # `_text_stop` decides (`_plain_gate`: the same answer for ASCII, faster)
                stop = self._text_stop.search(text, partial=True)
                if stop is None or stop.start() >= len(text):
                    return self._prose(text, carry)
            elif self._plain_chars(text) is None:
                lower = text.lower()  # the words and their starts are searched lower-cased: faster than ignoring case
                if len(text) < self._plain_shortest or self._plain_words(lower) is None:
                    if text[-1:] not in self._plain_ends or not lower.endswith(self._plain_heads):
                        return self._prose(text, carry)
                    plain = self._plain_end(text, lower)  # it ends with the start of an opener's word: a marker's?
                    if plain is not None:
                        return self._prose_held(text, carry, *plain)
        self._ahead += len(chunk)
        text = self._carry + chunk
        self._carry = ""
        self._run(text, final=False)
        return self._returned(self._flush_out())

    def close(self, *, truncated: bool = False) -> list[Event]:
        """End of stream: flush held-back text and finish or fail an open call.

        Args:
            truncated: the model stopped because of its token limit; an open call is then rejected
                (reported as an error, never completed), since its arguments may be cut short.

        Raises:
            ParserClosedError: called twice.
        """
        if self._closed:
            raise ParserClosedError("this StreamParser is already closed")
        self._closed = True
        held = self._boundary.strip("", ahead=self._ahead + len(self._last.hold), final=True)
        held = self._last.strip(held)
        # The run of end-of-turn tokens the stream ends with is the engine's stop: markup, whatever is open before
        # it; but a transcript's tokens are all the document's (`TRANSCRIPT`).
        last = "" if self._in_transcript() else self._last.take()
        held += self._last.rest()
        self._ahead += len(held)
        text, self._carry = self._carry + held, ""
        self._run(text, final=True)
        while True:
            if self._carry:  # only a split escape inside an unfinished string can remain
                self._raw.append(self._carry)
                self._carry = ""
            reader, self._reader = self._reader, None
            if reader is None:
                break
            reader.finish(truncated)  # in the reader's state; may read held-back text again (`reread`)
            if self._reader is None:
                self._state = TagState.NONE
        self._state = TagState.NONE
        if self._raw:  # nothing may be dropped
            self._text("", self.take_raw())
        if self._held is not None:  # its closer never came: a wrapper of the calls may leave it out, a tag after a
            self._release_wrapper(text=self._held.after_call)  # call is no wrapper of them
        self._cut_off_opener()
        events = self._returned(self._flush_out(), final=True)
        return [*events, TextDelta(text="", raw=last)] if last else events

    def _prose(self, text: str, carry: str, cuts: Sequence[int] = ()) -> list[Event]:
        """The fast path: what `_run` does with ``text`` (``carry`` and the chunk) when it can open nothing there:
        one run of text, returned whole, without the machinery. ``cuts``: where `_in_text` would stop on the way
        (a character that opens nothing), which splits what it remembers."""
        if carry:
            self._carry = ""
            self._ahead -= len(carry)  # counted when it was fed; returned now
        if not text:
            return []
        if not self._shown or self._outer is not None:
            self._text_seen(text)
        if cuts:
            last = 0
            for cut in cuts:
                if cut > last:
                    self._remember(text[last:cut])
                self._remember(text[cut])
                last = cut + 1
            if last < len(text):
                self._remember(text[last:])
        else:
            recent = self._recent  # `_remember`, inline
            recent.append(text)
            if len(recent) > _RECENT:
                self._compact()
        event = _new_event(TextDelta)  # `TextDelta(text=text, raw=text)`: a call with keywords costs more than
        _set_text(event, text)  # all the rest of the fast path
        _set_raw(event, text)
        _set_type(event, "text")
        return self._boundary.restore([event]) if self._boundary.tokens else [event]

    def _prose_held(self, text: str, carry: str, end: int, cuts: Sequence[int]) -> list[Event]:
        """`_prose` up to ``end``, where a marker may begin: the rest is held for the next chunk."""
        self._ahead += len(text) - len(carry) - end  # the chunk counted, the text before ``end`` returned
        events = self._prose(text[:end], "", cuts)
        self._carry = text[end:]
        return events

    def _plain_end(self, text: str, lower: str) -> tuple[int, list[int]] | None:
        """Where the text scanner would hold ``text`` back (its length: nowhere) and where it stops on the way,
        when ``text`` (``lower`` lower-cased) ends with starts of an opener's word and holds nothing else to stop at;
        None if a marker matches there (the slow path reads it). As `_in_text` does: each start, longest first
        (``_text_stop`` finds it), is a marker's (held) or is text (a cut)."""
        cuts: list[int] = []
        for head, bounded in self._plain_tails[lower[-1]]:
            if not lower.endswith(head):
                continue
            at = len(text) - len(head)
            if bounded and at and _word_char(text[at - 1]):
                continue  # a start of a word that opens only where a word begins, inside a longer word
            if text[at] in self._plain_firsts:
                found = self.markers.match(text, at, False, fences=text[at] in self._fence_chars)
                if found is PARTIAL:
                    return at, cuts
                if found is not None:
                    return None
            cuts.append(at)
        return len(text), cuts

    # -- driver -------------------------------------------------------------------------------------

    def _run(self, text: str, *, final: bool) -> None:
        pos, end, stalls = 0, len(text), 0
        while pos < end:
            before = (pos, self._reader)
            reader = self._reader
            if self._state is TagState.NONE or reader is None:
                pos = self._in_text(text, pos, final)
            else:
                pos, after = reader.feed(text, pos, final)
                if after is MORE:
                    self._carry = text[pos:]
                    return
                self._reader = after
                if after is None:
                    self._state = TagState.NONE
                    self._shown_block = False
                    if self._reasoning_block and not self._shown:
                        self._at_start = True  # the message begins after its reasoning (`<think>…</think>[{…}]`)
            stalls = stalls + 1 if (pos, self._reader) == before else 0
            if stalls > 2:  # every step consumes input or changes reader; this would be a parser bug
                raise AssertionError(f"StreamParser made no progress in {self._reader!r} at {text[pos : pos + 20]!r}")

    def _in_text(self, text: str, pos: int, final: bool) -> int:
        if self._at_start:
            ws = _WS.match(text, pos)
            if ws is not None:
                self._text(ws.group())
                pos = ws.end()
            if pos >= len(text):
                return pos
            for row in self._start_markup:  # a sequence's or turn's edge token where the message begins: markup
                match = row.compiled_open().match(text, pos, partial=not final)
                if match is not None and (match.partial or (not final and match.end() + _START_SEEN > len(text))):
                    return self._more(text, pos)  # decided once the text after it is seen (whose turn follows)
                if match is not None:
                    self._at_start = False  # back to True once the token is read and nothing was shown
                    return self._open(row, match)
            if text[pos] in self._message_chars:  # untagged forms may open the message
                found = self.markers.match(text, pos, final)
                if found is PARTIAL:
                    return self._more(text, pos)
                # A form that opens the message wins over a rule for prose there (a Python fence holding only the
                # calls is the answer, `pythonic_list.MESSAGE_FENCE`); over any other marker it does not.
                prose = found is not None and found.dialect is not None and found.dialect.kind == "prose"
                for row in self._message_rows if found is None or prose else ():
                    match = row.compiled_open().match(text, pos, partial=not final)
                    if match is None:
                        continue
                    if match.partial:
                        return self._more(text, pos)
                    self._at_start = False
                    return self._open(row, match)
            self._at_start = False
        at = self._stop(text, pos, final)
        if at is None:
            self._text(text[pos:])
            return len(text)
        self._text(text[pos:at])
        if self._outer is not None and text[at] in "<\r\n":  # the closer of a wrapper around the calls just read
            # on its own line too: the line break before it is text, as after any call (`block_end._ends`)
            start = at if text[at] == "<" else _WS.match(text, at).end()  # type: ignore[union-attr]  # always matches
            if start >= len(text) and not final:
                return self._more(text, at)
            outer = self._outer.match(text, start, partial=not final)
            if outer is not None and outer.partial:
                return self._more(text, at)
            if outer is not None:
                self._text(text[at:start])
                self._outer = None
                if self._held is not None:
                    self._release_wrapper(text=False)
                self._raw.append(outer.group())
                # a closer written twice is markup too, and so is the closer of a fence around the wrapper
                self._state, self._reader = TagState.START, Closed(self, fence=self._outer_fence)
                return outer.end()
        found = self.markers.match(text, at, final, fences=text[at] in self._fence_chars)
        if found is PARTIAL:
            return self._more(text, at)
        if found is None:
            self._text(text[at])
            return at + 1
        assert found.dialect is not None
        return self._open(found.dialect, found.match)

    def _stop(self, text: str, pos: int, final: bool) -> int | None:
        """Where text must be looked at next (a possible opener, or its start at the very end), if anywhere."""
        stop = self._text_stop.search(text, pos, partial=not final)
        return None if stop is None or stop.start() >= len(text) else stop.start()

    def _more(self, text: str, pos: int) -> int:
        """The text ends inside what may be a marker: keep it for the next chunk."""
        self._carry = text[pos:]
        return len(text)

    def _open(self, row: Dialect, match: regex.Match[str]) -> int:
        closer = self._closes_fence(match)
        if closer:  # the closer of a fence the visible text opened: text, and what follows it is read as usual
            self._text(match.group()[:closer])
            return match.start() + closer
        self._raw.append(match.group())
        self._shown_block = False
        self._opener = ""
        if (
            row.kind in ("call", "untagged")
            and self._recent
            and (
                self._in_transcript()
                or self._in_line_of_fence(match)
                or (presents(self._tail()) and not row.glued)
                or (self._examples and (continues_examples(self._tail()) or self._example_goes_on(row)))
            )
        ):
            self._examples = True  # later blocks under a label line go on with the examples
            self._state = TagState.START  # shown in prose (quoted, or an example): its text is text
            self._reader = Quoted(self, row, match.group())
            return match.end()
        if row.kind in ("markup", "reasoning") and self._recent and self._in_transcript():
            self._text(self.take_raw())  # a quoted conversation's turn tokens and reasoning tags are quoted too
            return match.end()
        if row.name in PRESENTED_ONLY and row.kind == "prose" and not (self._recent and presents(self._tail())):
            self._text(self.take_raw())  # not presented: only the opener is text, its content is read as usual
            return match.end()
        if row.kind == "call":
            self._dialect = row
        if (row.kind == "call" or (row.kind == "untagged" and not _FENCE.match(match.group()))) and self._line_begins(
            match.group()
        ):
            self._opener = "" if _WHOLE.search(match.group()) else match.group()
            self._opener_untagged = row.kind == "untagged"
        if row.kind == "markup" and row.name.startswith("orphan_"):
            self._text_is_reasoning = False  # the reread reasoning block closes here
        self._reasoning_block = row.kind in ("reasoning", "markup")  # the message has not begun after either
        self._state = TagState.START
        self._reader = reader_for(row)(self, Block(None if row.kind == "untagged" else row), match)
        return match.end()

    # -- the Context readers use ----------------------------------------------------------------------

    @property
    def call_open(self) -> bool:
        return self._call_id is not None

    @property
    def shown(self) -> bool:
        return self._shown

    @property
    def last_call_raw(self) -> str:
        return "".join(self._call_raw)

    @property
    def in_fence(self) -> bool:
        self._in_transcript()  # brings the count of fence lines up to date
        return self._fences % 2 == 1

    def consume(self, piece: str) -> None:
        if self._state is TagState.START:
            self._state = TagState.INSIDE  # the reader took input past the opener: the body has begun
        self._raw.append(piece)

    def tail(self) -> str:
        return self._tail()

    def example_shown(self, form: str) -> None:
        self._example_end = (form, self._tail()[-_EXAMPLE_MARK:])

    def _example_goes_on(self, row: Dialect) -> bool:
        """A block of the same form as the last one shown as an example, only blanks and no blank line after it: the
        same paragraph's next example (``For example:`` then two ``<tool_call>`` lines), shown too."""
        form, mark = self._example_end
        if form != row.name:
            return False
        tail = self._tail()
        at = tail.rfind(mark) if mark else -1
        if at < 0:
            return False
        since = tail[at + len(mark) :]
        return not since.strip() and since.replace("\r", "").count("\n") < 2

    def take_raw(self, extra: str = "") -> str:
        raw = "".join(self._raw) + extra
        self._raw.clear()
        return raw

    def text(self, text: str, raw: str | None = None) -> None:
        self._text(text, raw)

    def reasoning(self, text: str, raw: str) -> None:
        if self._state is TagState.START:
            self._state = TagState.INSIDE
        self._extend_span(ReasoningDelta, text, raw)

    def markup(self, marker: str) -> None:
        if self._shown_block:  # the closer of a placeholder's call is shown with it
            self._text(self.take_raw(marker))
            return
        raw = self.take_raw(marker)
        if self._held is not None and self._held.closer.search(raw) is not None:
            self._release_wrapper(text=False)
        if "<" in raw or "[" in raw:
            self._turn_ends.update(token.group().lower() for token in TURN_END.finditer(raw))
        self._text("", raw)

    def turn_over(self, token: str) -> bool:
        return token.lower() in self._turn_ends

    def open_wrapper(self, closer: str) -> None:
        self._wrappers.add(closer.lower())

    def wrapper_open(self, closer: str) -> bool:
        return closer.strip().lower() in self._wrappers

    def hold_wrapper(self, closer: regex.Pattern[str]) -> None:
        opener = self.take_raw()
        self._text("", opener)
        self._held = _Held(opener=opener, closer=closer, after_call=bool(self._call_raw))

    def _release_wrapper(self, *, text: bool) -> None:
        """The tag held as a wrapper (`hold_wrapper`) is decided: with ``text`` its opener was text (text came before
        its closer), given back now, where the text goes on (its input went out as markup: the event carries none);
        else it was the calls' markup (its closer came). The blanks held since go out after it either way."""
        held, self._held = self._held, None
        assert held is not None
        if self._outer is held.closer:
            self._outer = None  # decided: a later closer is text
        shown = (held.opener if text else "") + "".join(held.blanks)
        if shown:
            self._remember(shown)
            self._extend_span(TextDelta, shown, "")

    def markup_as_text(self) -> None:
        raw = self.take_raw()
        self._text(raw if self._shown_block else "".join(c for c in raw if c.isspace()), raw)

    def revert(self) -> None:
        raw = self.take_raw()
        if self._closed and self._bare_opener(raw):
            # An error if nothing but blanks follows it (`_cut_off_opener`); a reader may read on after it (`reread`).
            self._flush_span()
            self._text(raw)
            self._flush_span()
            self._cut_off = len(self._out) - 1
            return
        self._text(raw)

    def _cut_off_opener(self) -> None:
        """At the end of `close`: the opener given back as text (`_bare_opener`) with nothing but blanks after it in the
        output is a call cut off at its opener, an error event carrying it."""
        at, self._cut_off = self._cut_off, None
        self._flush_span()
        if at is None or any(not isinstance(e, TextDelta) or e.text.strip() for e in self._out[at + 1 :]):
            return
        raw = self._out[at].raw
        problem = "the output ends with its opener, before the call"
        self._out[at] = ParseIssue(id=None, message=self._retry_message(problem), raw=raw)

    def _line_begins(self, opener: str) -> bool:
        """``opener`` stands at the start of its line (or of the message), blanks aside, not inside a sentence: the
        text shown so far ends where a line begins, or the opener begins with its line break."""
        if not self._recent or opener.lstrip(" \t")[:1] in ("\r", "\n"):
            return True
        tail = self._tail()
        if "\n" not in tail and len(tail) >= _TAIL:
            return False
        return not tail[tail.rfind("\n") + 1 :].strip()

    def _bare_opener(self, raw: str) -> bool:
        """``raw``, given back as text at the end of the output, is a call's opener alone at the start of its line
        (``<tool_call>``, ``call:calculator(``; blanks and the bracket its body opens with after it aside; nothing but
        blanks after it in the output, `_cut_off_opener` checks): the model
        was cut off (or stopped) before its call, which the output does not hold; an error carrying the opener, not
        text. An opener inside a sentence (``wrap it in <tool_call>``) names the form: `_open` notes none there, and it
        stays text."""
        opener, self._opener = self._opener, ""
        opener = opener.strip(" \t\r\n")
        raw = raw.strip(" \t\r\n")
        if not opener or not raw.startswith(opener) or raw[len(opener) :].strip(_BODY_START):
            return False
        # An untagged form's opener is no call by itself (`<execute_bash>` with nothing to run, `### Response:`): only
        # with the arguments opened after an offered tool's name (`call:calculator(`, `functools[`) is it one cut off.
        return not self._opener_untagged or raw[-1:] in "([{"

    def reread(self, text: str, *, reasoning: bool = False) -> None:
        self._reader, self._state = None, TagState.NONE
        self._reasoning_block = False
        self._text_is_reasoning = reasoning
        self._run(text, final=True)
        self._text_is_reasoning = False

    def skip_ws(self, text: str, pos: int) -> int:
        ws = _WS.match(text, pos)
        if ws is None:
            return pos
        self._raw.append(ws.group())
        return ws.end()

    def unskip(self, blanks: str) -> None:
        last = self._raw[-1] if self._raw else ""
        assert blanks and last.endswith(blanks), "only blanks `skip_ws` took last are given back"
        self._raw[-1] = last[: -len(blanks)]

    def start_call(self, name: str) -> None:
        self._state = TagState.INSIDE
        if placeholder(name) and not self.tools.is_known(name):  # `function_name`: the format shown, not a call
            self._shown_block = True
            self._call_id = _SHOWN
            return
        if self.tools.declines(name):  # `none`: the model says it calls nothing; one decision for every family
            self._call_id = _DECLINED
            return
        self._call_id = self._ids()
        if self.tools and not self.tools.is_known(name) and (_PHRASE.search(name) or call_id(name) or not name.strip()):
            self._phrase = name  # its start waits for the arguments, which say the tool (`end_call`)
            return
        self._emit(ToolCallStart(id=self._call_id, name=self.tools.resolve(name), raw=self.take_raw()))

    def chunk(self, arguments_chunk: str) -> None:
        assert self._call_id is not None
        if self._call_id is _SHOWN or self._call_id is _DECLINED or self._phrase is not None:
            return  # its input stays in the raw, to go out when the call ends
        self._emit(ToolCallChunk(id=self._call_id, arguments_chunk=arguments_chunk, raw=self.take_raw()))

    def end_call(self, name: str, arguments: dict[str, Any], *, streamed: bool) -> None:
        if self._call_id is None:
            self.start_call(name)
        assert self._call_id is not None
        if self._call_id is _SHOWN or self._call_id is _DECLINED:
            raw = self.take_raw()
            self._text(raw if self._call_id is _SHOWN else "", raw)
            self._call_id = None
            self._state = TagState.END
            return
        if self._phrase is not None:
            # A phrase for a name (the tool's description, "Apply tags to a document", Qwen2.5 in Ollama #17274): a
            # tool is named by an identifier, never by words with spaces between them, so the phrase describes the
            # tool it means: the one offered tool whose schema takes these arguments, if exactly one does. A call id
            # in the name slot (`call_id`) is decided the same way, and so is a name left out (an empty name tag,
            # q27's `<tool_name>` before the parameters): with no one tool fitting, no call can be made of it.
            name = self.tools.taking(arguments) or self._phrase
            if not name.strip():
                self.fail_call("the call names no tool, and its arguments fit no one offered tool")
                return
            self._phrase, streamed = None, False
            self._emit(ToolCallStart(id=self._call_id, name=self.tools.resolve(name), raw=self.take_raw()))
        name = self.tools.resolve(name)
        if not streamed:  # decided whole: a family's arguments nested once more than asked are unwrapped here
            arguments = call_arguments(self.tools, name, arguments)
        arguments = typed_arguments(self.tools, name, arguments)  # "2" for an integer: once, for every family
        if not streamed:
            self.chunk(json.dumps(arguments, ensure_ascii=False))
        self._emit(ToolCallEnd(id=self._call_id, name=name, arguments=arguments, raw=self.take_raw()))
        self._call_id = None
        self._state = TagState.END

    def fail_call(self, problem: str, extra_raw: str = "") -> None:
        if self._phrase is not None or self._call_id is _DECLINED:  # no start went out: the error names no call
            self._phrase, self._call_id = None, None
        if self._call_id is _SHOWN:
            self._text(self.take_raw(extra_raw))
            self._call_id = None
            self._state = TagState.END
            return
        message = self._retry_message(problem)
        self._emit(ParseIssue(id=self._call_id, message=message, raw=self.take_raw(extra_raw)))
        self._call_id = None
        self._state = TagState.END

    def _retry_message(self, problem: str) -> str:
        dialect = self._dialect
        if dialect is not None and dialect.example:
            form = dialect.example
        elif dialect is not None and dialect.body == "xml":
            form = "<function=NAME><parameter=KEY>VALUE</parameter></function>"
        else:
            tag = (
                dialect.name
                if dialect is not None and dialect.close and dialect.open.startswith("<")
                else "function_call"
            )
            form = f'<{tag}>{{"name": "<tool name>", "arguments": {{...}}}}</{tag}>'
        return f"The tool call could not be used: {problem}. Write each call as {form}, with valid JSON, and try again."

    # -- emitting -----------------------------------------------------------------------------------

    def _returned(self, events: list[Event], *, final: bool = False) -> list[Event]:
        """``events`` as returned: any boundary token taken out of their text put back into their raw."""
        for event in events:
            self._ahead -= len(event.raw)
        if self._boundary.tokens:
            return self._boundary.restore(events, final=final)
        return events

    def _flush_out(self) -> list[Event]:
        self._flush_span()
        out, self._out = self._out, []
        return out

    def _emit(self, event: Event) -> None:
        """Append a call or error event, after the run of text or reasoning that came before it."""
        self._flush_span()
        if isinstance(event, ToolCallStart):
            self._call_raw.clear()
        if isinstance(event, (ToolCallStart, ToolCallChunk, ToolCallEnd)):
            self._call_raw.append(event.raw)
        self._out.append(event)

    def expect_outer(self, closer: regex.Pattern[str], *, fence: bool = False) -> None:
        self._outer = closer
        self._outer_fence = fence

    def _text(self, text: str, raw: str | None = None) -> None:
        if self._outer is not None and text.strip():
            self._outer = None  # text after the calls: the wrapper was no wrapper of calls only
        if self._held is not None and text:
            if not text.strip() and not self._text_is_reasoning:  # blanks after the calls: shown after the opener,
                self._held.blanks.append(text)  # if it goes back to text
                self._extend_span(TextDelta, "", text if raw is None else raw)
                return
            self._release_wrapper(text=True)
        if self._text_is_reasoning:
            self._extend_span(ReasoningDelta, text, text if raw is None else raw)
            return
        if not self._shown and text.strip():
            self._shown = True
        if text:
            self._remember(text)
        self._extend_span(TextDelta, text, text if raw is None else raw)

    def _text_seen(self, text: str) -> None:
        """What `_text` notes of visible ``text`` (the fast path's): a wrapper's closer is no longer due after
        it, and the message has begun."""
        if text.strip():
            self._outer = None
            self._shown = True

    def _remember(self, text: str) -> None:
        # Appending is all the fast path can afford per chunk; the tail is joined only when an opener needs it.
        recent = self._recent
        recent.append(text)
        if len(recent) > _RECENT:
            self._compact()

    def _compact(self) -> None:
        self._in_transcript()
        self._recent = [self._tail()]
        self._unsearched = 1

    def _in_transcript(self) -> bool:
        """Whether the visible text so far opened a user's turn (`TRANSCRIPT`); each piece is searched once (and
        for the lines that open or close a Markdown fence, `_in_line_of_fence`)."""
        if self._unsearched < len(self._recent):
            probe = self._edge + "".join(self._recent[self._unsearched :])
            if not self._transcript:
                self._transcript = TRANSCRIPT.search(probe) is not None
            edge = len(self._edge)
            self._fences += sum(1 for f in _FENCE_LINE.finditer(probe) if f.end() > edge)
            self._unsearched = len(self._recent)
            self._edge = probe[-32:]  # as long as any lookbehind of `TRANSCRIPT`
        return self._transcript

    def _in_line_of_fence(self, opener: regex.Match[str]) -> bool:
        """Whether the opener about to be read sits inside a Markdown fence of the visible text with other text before
        it on its line (``tool_loop : vanilla emits valid <tool_call>…``): a sample quoted in a log or a report, shown,
        not made. A model that fences its own call writes it at the start of a line."""
        if opener.group()[:1] in "\r\n":
            return False  # the opener begins a line of its own
        tail = self._tail()
        line = tail[tail.rfind("\n") + 1 :]
        if not line.strip() or ("\n" not in tail and len(tail) >= _TAIL):
            return False
        self._in_transcript()  # brings the count of fence lines up to date
        return self._fences % 2 == 1

    def _closes_fence(self, opener: regex.Match[str]) -> int:
        """How much of ``opener`` is the closer of a Markdown fence the visible text opened (a fence no row
        claimed: ```` ```text ````, ```` ```src/main.py ````, a bare fence of prose), or 0. A fence's closer is a
        line of its own, the fence alone, so a row that opens with a fence (gptme's fenced example, a fenced call
        list) does not take it as its own opener; the count of fence lines is the one `_in_line_of_fence` keeps."""
        found = _FENCE_CLOSER.match(opener.group())
        if found is None or not self._recent:
            return 0
        if not found.group("lead"):
            tail = self._tail()
            if tail[tail.rfind("\n") + 1 :].strip(" \t") or "\n" not in tail:
                return 0  # not at a line's start, or too little of the text is known to tell
        self._in_transcript()  # brings the count of fence lines up to date
        return found.end() if self._fences % 2 == 1 else 0

    def _tail(self) -> str:
        return "".join(piece[-_TAIL:] for piece in self._recent)[-_TAIL:]

    def _extend_span(self, kind: type[TextDelta] | type[ReasoningDelta], text: str, raw: str) -> None:
        # One event per run of text (or reasoning) within a feed, built once from its pieces: merging into
        # the previous event instead would copy the run again for every piece (quadratic on a big chunk).
        if not raw and not text:
            return
        if kind is not self._span_kind:
            self._flush_span()
            self._span_kind = kind
        self._span_text.append(text)
        self._span_raw.append(raw)

    def _flush_span(self) -> None:
        if self._span_raw:
            assert self._span_kind is not None
            self._out.append(self._span_kind(text="".join(self._span_text), raw="".join(self._span_raw)))
            self._span_text.clear()
            self._span_raw.clear()
        self._span_kind = None


@dataclass
class _Held:
    """The opener of a tag of no call family read as the calls' wrapper (`StreamParser.hold_wrapper`) until its closer
    or text decides it."""

    opener: str
    closer: regex.Pattern[str]
    after_call: bool
    """A call came before it: a tag between calls, no wrapper of them, unless its closer comes."""
    blanks: list[str] = field(default_factory=lambda: [])
    """Visible blanks since, held back to go out after the opener if it goes back to text."""


class _Gate(NamedTuple):
    """For ASCII text, what ``_text_stop`` (a `regex` search, with partial matches at the end) finds, in `re`
    and `str` methods (several times faster on a short chunk)."""

    chars: Callable[[str], object]
    """Search for a character an opener begins with."""
    words: Callable[[str], object]
    """Search lower-cased text for an untagged opener's leading word (``action``, ``commentary``); one that opens
    only where a word begins (`Markers.bounded_stops`) only there, as ``_text_stop`` does."""
    shortest: int
    """The shortest word's length: a shorter text holds none."""
    heads: tuple[str, ...]
    """Every proper start of a word, lower-cased: a text that ends with one may end inside the word."""
    ends: frozenset[str]
    """The characters those starts end with, in either case: most text ends with none and skips that test."""
    tails: dict[str, tuple[tuple[str, bool], ...]]
    """The starts by their last character (lower-cased), longest first, each with whether its word opens only where
    a word begins (`Markers.bounded_stops`): inside a longer word such a start neither holds nor stops."""


class _Layout(NamedTuple):
    """What a parser derives from its rows and tools before reading a character (shared, never mutated)."""

    markers: Markers[Dialect]
    message_rows: list[Dialect]
    message_chars: str
    start_markup: list[Dialect]
    fence_chars: str
    text_stop: regex.Pattern[str]
    gate: _Gate
    plain_firsts: frozenset[str]
    reasoning_closers: str


_LAYOUTS: dict[tuple[Any, ...], _Layout] = {}
_LAYOUTS_MAX = 256


_START_SEEN = 24
"""Characters after an edge token opening the message read before it is taken as markup: another role's header
there (``<s>[INST]``) makes the text a rendered prompt, shown whole."""


def _layout(dialects: tuple[Dialect, ...] | None, tools: ToolIndex) -> _Layout:
    """The rows, markers and text gates for these dialects and tools, built once per process and tool set.

    Building them costs milliseconds (openers made from every offered name, a hundred patterns sorted by first
    character) while reading a short reply costs less: a server builds a parser per request with the same
    tools, and a benchmark one per chunking. The key holds the table's rows themselves, so a row registered
    later (`register_dialect`) makes a new layout."""
    key = (dialects if dialects is not None else ("table", *DEFAULT_DIALECTS), tools.key)
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    rows = rows_for(dialects, tools)
    markers = Markers(rows, _ranks(rows))
    # Untagged forms count only with offered tools as evidence (a fence still closes a tagged body).
    untagged = [d for d in rows if d.kind == "untagged" and d.start == "message"]
    message_rows = untagged if tools else []  # compiled where a message begins with one's first character
    fence_stops = tuple(markers.fence_stops) if tools else ()
    # Where text must be looked at: every opener's first character, and untagged openers' leading words.
    stops = [f"[{regex.escape(markers.opener_chars)}]"] if markers.opener_chars else []
    bounded = markers.bounded_stops if tools else frozenset[str]()
    stops += [_BOUNDED + regex.escape(s) if s in bounded else regex.escape(s) for s in fence_stops]
    fence_chars = markers.fence_chars if tools else ""
    # The fast path's test of the same (`_plain_gate`), and where a word's start at a chunk's end may open.
    gate = _plain_gate(markers.opener_chars, fence_stops, tuple(sorted(bounded)))
    firsts = {c for head in gate.heads for c in (head[0], head[0].upper())}
    found = _Layout(
        markers=markers,
        message_rows=message_rows,
        message_chars="".join(c for d in message_rows for c in first_chars(d)),
        start_markup=[d for d in rows if d.kind == "markup" and d.start == "message"],
        fence_chars=fence_chars,
        text_stop=compile_marker("|".join(stops) or r"(?!)"),
        gate=gate,
        plain_firsts=frozenset(c for c in firsts if markers.may_open(c, fences=c in fence_chars)),
        # The prompt may open reasoning: the block then ends at the closer of any reasoning row (the template's
        # family may write `</think>` or its own token, `<|close|>think<|sep|>`).
        reasoning_closers="|".join(d.close for d in rows if d.kind == "reasoning" and d.close),
    )
    if len(_LAYOUTS) >= _LAYOUTS_MAX:
        _LAYOUTS.pop(next(iter(_LAYOUTS)))  # the oldest: tool sets seen once (a benchmark's cases) pass through
    _LAYOUTS[key] = found
    return found


def _ranks(rows: Sequence[Dialect]) -> dict[str, int] | None:
    """Each row's place in the default table, when ``rows`` try some of its rows in another order (a profile's
    preferred rows first): a row moved ahead keeps the narrower rows it overtook ahead of it (`Markers`). None when
    the table's rows keep its order."""
    ranks = {d.name: i for i, d in enumerate(DEFAULT_DIALECTS)}
    placed = [ranks[d.name] for d in rows if d.name in ranks]
    return None if placed == sorted(placed) else ranks


_BOUNDED = r"(?<![A-Za-z0-9])"
"""Before a stop that opens only where a word begins (`Markers.bounded_stops`)."""
_word_char = re.compile(r"[A-Za-z0-9]").match
"""A character such a stop does not open after (`_BOUNDED`'s, for `StreamParser._plain_end`)."""


@lru_cache(maxsize=256)
def _plain_gate(opener_chars: str, fence_stops: tuple[str, ...], bounded: tuple[str, ...] = ()) -> _Gate:
    chars = opener_chars + "".join(s for s in fence_stops if len(s) == 1)
    words: dict[str, bool] = {}  # each word, lower-cased: whether it opens only where a word begins
    for stop in fence_stops:
        if len(stop) > 1:  # the same word that opens anywhere too (``TOOL``, ``tool``) opens anywhere
            words[stop.lower()] = words.get(stop.lower(), True) and stop in bounded
    free = {w[:k] for w, only in words.items() if not only for k in range(1, len(w))}
    heads = free | {w[:k] for w, only in words.items() if only for k in range(1, len(w))}
    tails: dict[str, list[tuple[str, bool]]] = {}
    for head in sorted(heads, key=len, reverse=True):
        tails.setdefault(head[-1], []).append((head, head not in free))
    # `_BOUNDED` reads lower-cased text as it reads the text: no upper-case letter is left to see
    pattern = "|".join(f"{_BOUNDED}{re.escape(w)}" if only else re.escape(w) for w, only in words.items())
    return _Gate(
        chars=re.compile(f"[{re.escape(chars)}]" if chars else r"(?!)", re.IGNORECASE).search,
        words=re.compile(pattern or r"(?!)").search,
        shortest=min(map(len, words), default=0),
        heads=tuple(sorted(heads)),
        ends=frozenset(c for h in heads for c in (h[-1], h[-1].upper())),
        tails={c: tuple(found) for c, found in tails.items()},
    )


_new_event = object.__new__
_slots: Any = TextDelta  # its class attributes are its slots' descriptors (a type checker sees the fields' types)
_set_text, _set_raw, _set_type = _slots.text.__set__, _slots.raw.__set__, _slots.type.__set__
"""`TextDelta`'s fields, set one by one through its slots' descriptors (a frozen dataclass refuses ``setattr``)."""


def parse_text(text: str, tools: ToolsArg = None, *, chunk_size: int | None = None) -> list[Event]:
    """Parse a whole text (optionally fed in chunks of ``chunk_size``); return every event."""
    parser = StreamParser(tools)
    events: list[Event] = []
    step = chunk_size or max(len(text), 1)
    for start in range(0, len(text), step):
        events += parser.feed(text[start : start + step])
    return events + parser.close()
