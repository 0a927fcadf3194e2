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

How a stream is read (the `TagState` machine, with the JSON scanner inside bodies):

- NONE: text. An opening marker of a call dialect moves to START; a reasoning marker to INSIDE/reasoning;
  with known tools, a ```json fence or a JSON value opening the message becomes an *untagged candidate*.
- START: after an opener. A body must begin (``{``, ``[``, ```` ```json ````, ``json``, ``<function=``);
  anything else means the tag was prose, and it goes back out as text.
- INSIDE: the body. JSON is scanned string-aware, so ``"</function_call>"`` inside a string stays there;
  the name opens the call (`ToolCallStart`) and the arguments stream (`ToolCallChunk`) as they arrive.
- END: the body is complete and `ToolCallEnd` is out. A closing marker, stray brackets or a fence are
  absorbed; ``{`` or a new opener starts another call; anything else ends the block (the closer is optional).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import regex

from shim.errors import ParserClosedError
from shim.events import Event, ParseIssue, ReasoningDelta, TextDelta, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.parsing import lenient_json
from shim.parsing.dialects import DEFAULT_DIALECTS, Dialect
from shim.parsing.ids import IdGenerator
from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.pythonic import PYTHONIC_START, PythonicScanner, parse_pythonic
from shim.parsing.shapes import CallShape, ShapeError, ToolIndex, to_call
from shim.parsing.tags import PARTIAL, MarkerMatch, Markers, TagState
from shim.parsing.xml_body import XmlCall
from shim.types import ToolSpec

__all__ = ["StreamParser", "parse_text"]

_WS = regex.compile(r"[ \t\r\n]+")
_BODY_PREFIX = regex.compile(r"```[A-Za-z_]*[ \t]*\r?\n?|json", regex.IGNORECASE)
_QWEN_FUNCTION = regex.compile(r"<function=(?P<name>[^>\n]{1,128})>", regex.IGNORECASE)
_MISTRAL_NAME = regex.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})\[ARGS\]")

ToolsArg = Iterable[str | Mapping[str, Any] | ToolSpec] | ToolIndex | None


class StreamParser:
    """Turn a stream of model output into text, reasoning and tool-call events.

    Args:
        tools: the tools the model was offered: names, MCP ``tools/list`` entries, OpenAI tools or
            `ToolSpec`. They let untagged JSON count as a call (only when it names one of them), map a
            title or description used as a name to the tool, and type XML-style parameters.
        ids: makes call ids; share one `IdGenerator` across a conversation so ids never repeat.
        dialects: the markers to recognise (default: every entry of `DEFAULT_DIALECTS`).
        in_reasoning: the stream starts inside a reasoning block (templates that open ``<think>`` in the
            prompt, so the model's output only closes it).
    """

    def __init__(
        self,
        tools: ToolsArg = None,
        *,
        ids: Callable[[], str] | None = None,
        dialects: Sequence[Dialect] | None = None,
        in_reasoning: bool = False,
    ) -> None:
        self.tools = tools if isinstance(tools, ToolIndex) else ToolIndex(tools or ())
        self._ids = ids or IdGenerator()
        self._dialects = list(DEFAULT_DIALECTS if dialects is None else dialects)
        self._markers = Markers(self._dialects)
        stops = self._markers.opener_chars + ("`" if self.tools else "")
        self._text_stop = regex.compile("[" + regex.escape(stops) + "]")
        self._state = TagState.NONE
        self._mode = ""  # inside INSIDE: json | untagged | xml | skip | reasoning
        self._dialect: Dialect | None = None  # the block's dialect; None for untagged JSON
        self._fence = False  # the untagged block sits in a ``` fence
        self._array = False  # inside `[ ... ]` of calls
        self._prefix_seen = False
        self._raw: list[str] = []  # consumed input not yet carried by an event
        self._body: list[str] = []  # the current JSON body, for the final parse
        self._scanner: JsonScanner | None = None
        self._xml: XmlCall | None = None
        self._pythonic: PythonicScanner | None = None
        self._call_id: str | None = None
        self._opener_name: str | None = None  # the opener named the tool ([TOOL_CALLS]name[ARGS]): body = arguments
        self._error = ""
        self._closer: regex.Pattern[str] | None = None  # reasoning block closer
        self._carry = ""
        self._at_start = True
        self._closed = False
        self._out: list[Event] = []
        self._span_kind: type[TextDelta] | type[ReasoningDelta] | None = None  # the run being collected
        self._span_text: list[str] = []
        self._span_raw: list[str] = []
        self._need_more = False
        if in_reasoning:
            reasoning = next((d for d in self._dialects if d.kind == "reasoning"), None)
            if reasoning is not None:
                self._enter(TagState.INSIDE, "reasoning")
                self._closer = reasoning.compiled_close()
                self._at_start = False

    # -- public -------------------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[Event]:
        """Consume a chunk; return the events it completes.

        Raises:
            ParserClosedError: the parser was already closed.
        """
        if self._closed:
            raise ParserClosedError("this StreamParser is closed; create a new one for the next stream")
        text = self._carry + chunk
        self._carry = ""
        return self._run(text, final=False)

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
        text, self._carry = self._carry, ""
        self._run(text, final=True, keep=True)
        if self._carry:  # only a split escape inside an unfinished string can remain
            self._raw.append(self._carry)
            self._carry = ""
        self._finish_stream(truncated)
        return self._flush_out()

    # -- driver -------------------------------------------------------------------------------------

    def _run(self, text: str, *, final: bool, keep: bool = False) -> list[Event]:
        pos, end, stalls = 0, len(text), 0
        while pos < end:
            before = (pos, self._state, self._mode)
            self._need_more = False
            pos = self._step(text, pos, final)
            if self._need_more:
                self._carry = text[pos:]
                break
            stalls = stalls + 1 if (pos, self._state, self._mode) == before else 0
            if stalls > 2:  # every step consumes input or changes state; this would be a parser bug
                raise AssertionError(
                    f"StreamParser made no progress in {self._state}/{self._mode} at {text[pos : pos + 20]!r}"
                )
        return self._out if keep else self._flush_out()

    def _step(self, text: str, pos: int, final: bool) -> int:
        state = self._state
        if state is TagState.NONE:
            return self._in_text(text, pos, final)
        if state is TagState.START:
            return self._at_body_start(text, pos, final)
        if state is TagState.END:
            return self._after_body(text, pos, final)
        mode = self._mode
        if mode == "json":
            return self._in_json(text, pos, final)
        if mode == "untagged":
            return self._in_untagged(text, pos, final)
        if mode == "xml":
            return self._in_xml(text, pos, final)
        if mode == "reasoning":
            return self._in_reasoning(text, pos, final)
        if mode == "pythonic":
            return self._in_pythonic(text, pos)
        return self._in_skip(text, pos, final)

    def _enter(self, state: TagState, mode: str = "") -> None:
        self._state, self._mode = state, mode

    def _more(self, pos: int) -> int:
        self._need_more = True
        return pos

    # -- emitting -----------------------------------------------------------------------------------

    def _flush_out(self) -> list[Event]:
        self._flush_span()
        out, self._out = self._out, []
        return out

    def _take_raw(self, extra: str = "") -> str:
        raw = "".join(self._raw) + extra
        self._raw.clear()
        return raw

    def _emit(self, event: Event) -> None:
        """Append a call or error event, after the run of text or reasoning that came before it."""
        self._flush_span()
        self._out.append(event)

    def _text(self, text: str, raw: str | None = None) -> None:
        self._extend_span(TextDelta, text, text if raw is None else raw)

    def _reasoning(self, text: str, raw: str) -> None:
        self._extend_span(ReasoningDelta, text, raw)

    def _extend_span(self, kind: type[TextDelta] | type[ReasoningDelta], text: str, raw: str) -> None:
        # One event per run of text (or reasoning) within a feed, built once from its pieces: merging into
        # the previous event instead would copy the run again for every piece (quadratic on a big chunk).
        if not raw:
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

    def _revert_to_text(self) -> None:
        """The block was not a call after all: everything consumed for it is text."""
        raw = self._take_raw()
        self._text(raw)
        self._reset_block()
        self._enter(TagState.NONE)

    def _markup_as_text(self) -> None:
        """Whitespace and stray brackets after a call, when no closer follows: keep the layout visible."""
        raw = self._take_raw()
        self._text("".join(c for c in raw if c.isspace()), raw)

    def _start_call(self, name: str) -> None:
        self._call_id = self._ids()
        self._emit(ToolCallStart(id=self._call_id, name=self.tools.resolve(name), raw=self._take_raw()))

    def _end_call(self, name: str, arguments: dict[str, Any], *, streamed: bool) -> None:
        if self._call_id is None:
            self._start_call(name)
        assert self._call_id is not None
        if not streamed:
            chunk = json.dumps(arguments, ensure_ascii=False)
            self._emit(ToolCallChunk(id=self._call_id, arguments_chunk=chunk, raw=self._take_raw()))
        name = self.tools.resolve(name)
        self._emit(ToolCallEnd(id=self._call_id, name=name, arguments=arguments, raw=self._take_raw()))
        self._call_id = None
        self._opener_name = None

    def _fail_call(self, problem: str, extra_raw: str = "") -> None:
        self._emit(ParseIssue(id=self._call_id, message=self._retry_message(problem), raw=self._take_raw(extra_raw)))
        self._call_id = None
        self._opener_name = None

    def _retry_message(self, problem: str) -> str:
        dialect = self._dialect
        if dialect is not None and dialect.body == "xml":
            form = "<function=NAME><parameter=KEY>VALUE</parameter></function>"
        else:
            tag = (
                dialect.name
                if dialect is not None and dialect.close and dialect.open.startswith("<")
                else "function_call"
            )
            form = f'<{tag}>{{"name": "<tool name>", "arguments": {{...}}}}</{tag}>'
        return f"The tool call could not be used: {problem}. Write each call as {form}, with valid JSON, and try again."

    def _skip_ws(self, text: str, pos: int) -> int:
        """Consume whitespace inside a block as markup (it goes out with the block's next event)."""
        ws = _WS.match(text, pos)
        if ws is None:
            return pos
        self._raw.append(ws.group())
        return ws.end()

    def _reset_block(self) -> None:
        self._scanner = None
        self._xml = None
        self._body.clear()
        self._prefix_seen = False

    # -- NONE: text -----------------------------------------------------------------------------------

    def _in_text(self, text: str, pos: int, final: bool) -> int:
        if self._at_start:
            ws = _WS.match(text, pos)
            if ws is not None:
                self._text(ws.group())
                pos = ws.end()
            if pos >= len(text):
                return pos
            if self.tools and text[pos] in "{[":
                found = self._markers.match(text, pos, final)
                if found is PARTIAL:
                    return self._more(pos)
                pythonic = PYTHONIC_START.match(text, pos, partial=not final) if found is None else None
                if pythonic is not None and pythonic.partial:
                    return self._more(pos)
                if pythonic is not None:  # `[get_weather(city='Lima')]` (Llama 3.2, Llama 4)
                    self._at_start = False
                    self._pythonic = PythonicScanner()
                    self._dialect, self._fence = None, False
                    self._body.clear()
                    self._enter(TagState.INSIDE, "pythonic")
                    return pos
                if found is None:  # a JSON value opens the message: maybe a bare call
                    self._at_start = False
                    return self._begin_untagged(text, pos, fence=False)
            self._at_start = False
        stop = self._text_stop.search(text, pos)
        if stop is None:
            self._text(text[pos:])
            return len(text)
        at = stop.start()
        self._text(text[pos:at])
        found = self._markers.match(text, at, final, fences=text[at] == "`")
        if found is PARTIAL:
            return self._more(at)
        if found is None:
            self._text(text[at])
            return at + 1
        kind, dialect, match = found.kind, found.dialect, found.match
        self._raw.append(match.group())
        if kind == "fence":
            self._dialect, self._fence = None, True
            self._enter(TagState.START)
        elif dialect is not None and dialect.kind == "reasoning":
            self._reasoning("", self._take_raw())
            self._closer = dialect.compiled_close()
            self._enter(TagState.INSIDE, "reasoning")
        elif dialect is not None and "name" in match.groupdict():
            self._dialect = dialect
            self._begin_xml(match.group("name"), wrapped=False)
        else:
            self._dialect, self._fence = dialect, False
            self._enter(TagState.START)
        return match.end()

    # -- START: after an opener, before the body ------------------------------------------------------

    def _at_body_start(self, text: str, pos: int, final: bool) -> int:
        pos = self._skip_ws(text, pos)
        if pos >= len(text):
            return pos
        char = text[pos]
        dialect = self._dialect
        if dialect is None:  # a ``` fence: only a JSON value makes it a candidate
            if char in "{[":
                return self._begin_untagged(text, pos, fence=True)
            self._revert_to_text()
            return pos
        if char == "{":
            self._begin_json()
            return pos
        if char == "[" and not self._array:
            self._raw.append(char)
            self._array = True
            return pos + 1
        if char == "]" and self._array:
            self._raw.append(char)
            self._array = False
            self._enter(TagState.END)
            return pos + 1
        if self._array or self._opener_name is not None:
            self._enter(TagState.INSIDE, "skip")
            self._error = "expected a JSON object {...} for each call"
            return pos
        if char == "<" and dialect.body == "json_or_xml":
            found = _QWEN_FUNCTION.match(text, pos, partial=not final)
            if found is not None and found.partial:
                return self._more(pos)
            if found is not None:
                self._raw.append(found.group())
                self._begin_xml(found.group("name"), wrapped=True)
                return found.end()
        if char in "<[" and not self._prefix_seen:
            again = self._markers.match(text, pos, final)
            if again is PARTIAL:
                return self._more(pos)
            if again is not None and again.dialect is not None and again.dialect.kind == "call":
                self._text("", self._take_raw())  # `<function_call><function_call>{…}`: the first is a stray
                self._enter(TagState.NONE)
                return pos
        if dialect.body == "mistral":
            found = _MISTRAL_NAME.match(text, pos, partial=not final)
            if found is not None and found.partial:
                return self._more(pos)
            if found is not None:  # [TOOL_CALLS]name[ARGS]{...}: the body is the arguments alone
                self._raw.append(found.group())
                self._opener_name = found.group("name")
                self._start_call(found.group("name"))
                return found.end()
        if not self._prefix_seen:
            found = _BODY_PREFIX.match(text, pos, partial=not final)
            if found is not None and (found.partial or (found.end() >= len(text) and not final)):
                return self._more(pos)  # a fence may still grow (```json\n) across the chunk boundary
            if found is not None and found.group().lower() == "json":  # the word, not `jsonify`
                end = found.end()
                if end >= len(text) and not final:
                    return self._more(pos)
                if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                    found = None
            if found is not None:
                self._raw.append(found.group())
                self._prefix_seen = True
                return found.end()
        self._revert_to_text()  # `<function_call>` mentioned in prose
        return pos

    # -- INSIDE: JSON bodies --------------------------------------------------------------------------

    def _begin_json(self) -> None:
        stops = "<" + ("[" if "[" in self._markers.opener_chars else "")
        self._scanner = JsonScanner(stop_chars=stops, args_only=self._opener_name is not None)
        self._scanner.name = self._opener_name
        self._body.clear()
        self._enter(TagState.INSIDE, "json")

    def _consume(self, text: str, start: int, end: int) -> None:
        if end > start:
            piece = text[start:end]
            self._raw.append(piece)
            self._body.append(piece)

    def _in_json(self, text: str, pos: int, final: bool) -> int:
        scanner = self._scanner
        assert scanner is not None
        new, status = scanner.feed(text, pos, final=final)
        self._consume(text, pos, new)
        self._stream_progress(scanner)
        if status is Status.MORE:
            return self._more(new) if new < len(text) else new
        if status is Status.DONE:
            self._finish_json()
            return new
        if status is Status.ERROR:
            self._enter(TagState.INSIDE, "skip")
            self._error = str(scanner.error)
            return new
        found = self._markers.match(text, new, final, closes=True)  # STOP: a '<' or '[' outside strings
        if found is PARTIAL:
            return self._more(new)
        if found is None:
            after, status = scanner.force(text, new)
            self._consume(text, new, after)
            if status is Status.ERROR:
                self._enter(TagState.INSIDE, "skip")
                self._error = str(scanner.error)
            return after
        kind, match = found.kind, found.match
        self._complete_or_fail(truncated=False)
        if kind == "close":
            self._text("", self._take_raw(match.group()))
            self._enter(TagState.END, "closed")
            return match.end()
        self._enter(TagState.NONE)  # a new opener closes this block; the text scanner opens the next
        return new

    def _stream_progress(self, scanner: JsonScanner) -> None:
        if self._call_id is None and scanner.name is not None:
            self._start_call(scanner.name)
        if self._call_id is not None and scanner.streamed:
            chunk = scanner.take_arguments()
            if chunk:
                self._emit(ToolCallChunk(id=self._call_id, arguments_chunk=chunk, raw=self._take_raw()))

    def _complete_or_fail(self, *, truncated: bool) -> None:
        """The body ended early (closer, new opener, end of stream): add missing closers if it is whole."""
        scanner = self._scanner
        assert scanner is not None
        if truncated:
            self._fail_call("the output was cut off (token limit) before the call was complete, so it was not run")
        elif scanner.completable():
            closers = scanner.closers()
            scanner.complete()
            self._stream_progress(scanner)
            self._finish_json(added=closers)
        else:
            where = "inside a string" if scanner.in_string else "before its JSON was complete"
            self._fail_call(f"the call ends {where}")
        self._reset_block()

    def _finish_json(self, added: str = "") -> None:
        scanner = self._scanner
        assert scanner is not None
        body = "".join(self._body) + added
        self._enter(TagState.END)
        try:
            value = json.loads(body)
        except ValueError:
            try:
                value = lenient_json.loads(body)
            except lenient_json.LenientJSONError as exc:
                self._fail_call(str(exc))
                self._reset_block()
                return
        try:
            if self._opener_name is not None:
                if not isinstance(value, dict):
                    raise ShapeError(f"the arguments of {self._opener_name!r} must be a JSON object")
                shape = CallShape(self._opener_name, value, canonical=True)  # type: ignore[arg-type]
            else:
                shape = to_call(value)
        except ShapeError as exc:
            self._fail_call(str(exc))
        else:
            self._end_call(shape.name, shape.arguments, streamed=scanner.streamed)
        self._reset_block()

    # -- INSIDE: untagged JSON (a ```json fence, or a value opening the message) -----------------------

    def _begin_untagged(self, text: str, pos: int, *, fence: bool) -> int:
        self._dialect, self._fence = None, fence
        self._scanner = JsonScanner(stop_chars="", capture=False)
        self._body.clear()
        self._enter(TagState.INSIDE, "untagged")
        return pos

    def _in_untagged(self, text: str, pos: int, final: bool) -> int:
        scanner = self._scanner
        assert scanner is not None
        new, status = scanner.feed(text, pos, final=final)
        self._consume(text, pos, new)
        if status is Status.MORE:
            return self._more(new) if new < len(text) else new
        if status is Status.DONE:
            self._classify_untagged("")
            return new
        self._revert_to_text()  # not JSON: the characters from `new` on are read as text again
        return new

    def _classify_untagged(self, added: str) -> None:
        """Untagged JSON is a call only if it has a call's shape and names a known tool; else it is text."""
        body = "".join(self._body) + added
        shapes: list[CallShape] = []
        try:
            value: Any = lenient_json.loads(body)
            items: list[Any] = value if isinstance(value, list) else [value]  # pyright: ignore[reportUnknownVariableType]
            for item in items:
                shape = to_call(item)
                if not shape.canonical or not self.tools.is_known(shape.name):
                    raise ShapeError("not a known tool")
                shapes.append(shape)
        except (lenient_json.LenientJSONError, ShapeError):
            shapes = []
        if not shapes:
            self._revert_to_text()
            return
        for shape in shapes:
            self._end_call(shape.name, shape.arguments, streamed=False)
        self._reset_block()
        self._enter(TagState.END)

    def _in_pythonic(self, text: str, pos: int) -> int:
        scanner = self._pythonic
        assert scanner is not None
        new = scanner.feed(text, pos)
        self._consume(text, pos, new)
        if not scanner.done:
            return new
        calls = parse_pythonic("".join(self._body))
        if not calls or not all(self.tools.is_known(name) for name, _ in calls):
            self._revert_to_text()
            return new
        for name, arguments in calls:
            self._end_call(name, arguments, streamed=False)
        self._reset_block()
        self._enter(TagState.END)
        return new

    # -- INSIDE: XML-style parameters (Qwen3-Coder) ----------------------------------------------------

    def _begin_xml(self, name: str, *, wrapped: bool) -> None:
        self._start_call(name)
        self._xml = XmlCall(self.tools.resolve(name), self.tools, self._markers)
        self._enter(TagState.INSIDE, "xml")

    def _in_xml(self, text: str, pos: int, final: bool) -> int:
        xml = self._xml
        assert xml is not None and self._call_id is not None
        if xml.fresh:
            pos = self._skip_ws(text, pos)
            if pos >= len(text):
                return pos
            if text[pos] == "{":  # Llama 3.1's `<function=NAME>{…}</function>`: the body is the arguments
                self._opener_name = xml.name
                self._xml = None
                self._begin_json()
                return pos
        new, outcome = xml.feed(text, pos, final)
        if new > pos:
            self._raw.append(text[pos:new])
        for chunk in xml.take_chunks():
            self._emit(ToolCallChunk(id=self._call_id, arguments_chunk=chunk, raw=self._take_raw()))
        if outcome == "more":
            return self._more(new) if new < len(text) else new
        if outcome == "error":
            self._enter(TagState.INSIDE, "skip")
            self._error = xml.error
            return new
        self._end_call(xml.name, xml.arguments, streamed=True)
        self._reset_block()
        self._enter(TagState.END)
        return new

    # -- INSIDE: reasoning, and skipping a failed block ------------------------------------------------

    def _in_reasoning(self, text: str, pos: int, final: bool) -> int:
        assert self._closer is not None
        found = self._closer.search(text, pos, partial=not final)
        if found is None or (found.partial and found.start() >= len(text)):
            self._reasoning(text[pos:], text[pos:])
            return len(text)
        self._reasoning(text[pos : found.start()], text[pos : found.start()])
        if found.partial:
            return self._more(found.start())
        self._reasoning("", found.group())
        self._enter(TagState.NONE)
        return found.end()

    def _in_skip(self, text: str, pos: int, final: bool) -> int:
        found = self._markers.search_call_marker(text, pos, final)
        if found is None or (found.partial and found.start() >= len(text)):
            self._raw.append(text[pos:])
            return len(text)
        self._raw.append(text[pos : found.start()])
        if found.partial:
            return self._more(found.start())
        marker = self._markers.match(text, found.start(), True, closes=True, opens=False)
        self._enter(TagState.NONE)
        self._reset_block()
        if isinstance(marker, MarkerMatch):
            self._fail_call(self._error, found.group())
            self._enter(TagState.END, "closed")
            return found.end()
        self._fail_call(self._error)  # a new opener: this block ends here, the next begins
        return found.start()

    # -- END: after a body ------------------------------------------------------------------------------

    def _after_body(self, text: str, pos: int, final: bool) -> int:
        pos = self._skip_ws(text, pos)
        if pos >= len(text):
            return pos
        char = text[pos]
        if self._mode == "closed":  # the block is closed: only a duplicated closing tag is still its markup
            if char in "<[":
                found = self._markers.match(text, pos, final, opens=False, closes=True)
                if found is PARTIAL:
                    return self._more(pos)
                if found is not None:
                    self._text("", self._take_raw(found.match.group()))
                    return found.match.end()
            self._markup_as_text()
            self._enter(TagState.NONE)
            return pos
        tagged = self._dialect is not None
        if char in "}]" or (char == "," and (tagged or self._array)):
            if char == "]":
                self._array = False
            self._raw.append(char)  # stray closers, separators between calls
            return pos + 1
        if char == "{" and not (tagged and self._dialect is not None and self._dialect.body == "xml"):
            if tagged:
                self._begin_json()
                return pos
            return self._begin_untagged(text, pos, fence=self._fence)  # glued `}{`: another candidate
        if char in "<[`":
            found = self._markers.match(text, pos, final, closes=True, fences=char == "`" and (self._fence or tagged))
            if found is PARTIAL:
                return self._more(pos)
            if found is not None:
                kind, match = found.kind, found.match
                if kind == "open":
                    self._markup_as_text()
                    self._array = False
                    self._enter(TagState.NONE)
                    return pos
                self._text("", self._take_raw(match.group()))
                if kind == "close":
                    self._array = False
                    self._enter(TagState.END, "closed")
                elif self._fence:
                    self._enter(TagState.NONE)
                return match.end()
        self._markup_as_text()  # the block simply ends: its closer is optional
        self._array = False
        self._enter(TagState.NONE)
        return pos

    # -- end of stream ------------------------------------------------------------------------------------

    def _finish_stream(self, truncated: bool) -> None:
        state, mode = self._state, self._mode
        if state is TagState.START:
            if self._call_id is not None:
                self._fail_call("the stream ended before the call's arguments")
            else:
                self._revert_to_text()
        elif state is TagState.END:
            self._markup_as_text()
        elif state is TagState.INSIDE:
            if mode == "json":
                self._complete_or_fail(truncated=truncated)
            elif mode == "pythonic":
                self._revert_to_text()
            elif mode == "untagged":
                scanner = self._scanner
                assert scanner is not None
                if not truncated and scanner.completable():
                    added = scanner.closers()
                    self._classify_untagged(added)
                else:
                    self._revert_to_text()
            elif mode == "xml":
                xml = self._xml
                assert xml is not None
                if truncated or not xml.completable():
                    self._fail_call(
                        "the output was cut off (token limit) before the call was complete, so it was not run"
                        if truncated
                        else "the call ends inside a parameter value"
                    )
                else:
                    xml.complete()
                    for chunk in xml.take_chunks():
                        assert self._call_id is not None
                        self._emit(ToolCallChunk(id=self._call_id, arguments_chunk=chunk, raw=self._take_raw()))
                    self._end_call(xml.name, xml.arguments, streamed=True)
            elif mode == "reasoning":
                self._reasoning("", self._take_raw())
            else:
                self._fail_call(self._error)
        self._reset_block()
        self._enter(TagState.NONE)
        if self._raw:  # nothing may be dropped
            self._text("", self._take_raw())


def parse_text(text: str, tools: ToolsArg = None, *, chunk_size: int | None = None) -> list[Event]:
    """Parse a whole text (optionally fed in chunks of ``chunk_size``); return every event."""
    parser = StreamParser(tools)
    events: list[Event] = []
    step = chunk_size or max(len(text), 1)
    for start in range(0, len(text), step):
        events += parser.feed(text[start : start + step])
    return events + parser.close()
