"""The strategies shim is measured against, each reproduced as faithfully as a few lines allow.

All of them produce the event dicts of ``shim.events`` (``to_dict()`` forms), so one fold and one set of
metrics scores every parser. Each assigns every input character to exactly one event's ``raw`` so the
lossless metric is comparable; a block's whole text rides on its final event.

- ``regex`` - accumulate-and-regex, the desktop clients that first did prompt-based tools: append each chunk
  to the message, re-run ``/<function_call>([\\s\\S]*?)<\\/function_call>/`` over the *whole* message and
  ``JSON.parse`` every match after every chunk (a re-render); text outside matches is shown.
- ``regex+repair`` - the same with ``json_repair`` on each body instead of a strict parse.
- ``hermes-partial`` - the server engines' Hermes-style streaming parser (vLLM ``hermes_tool_parser``):
  text passes through until the start tag is in the accumulated text (tags are assumed to arrive as single
  special tokens, so a tag split across chunks leaks its first part), then the body is re-parsed with
  ``partial_json_parser`` after every chunk to stream the name and arguments; the closing tag or the end
  of the stream ends the call, parsed strictly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, cast

import json_repair
import partial_json_parser  # pyright: ignore[reportMissingTypeStubs]
from partial_json_parser import Allow  # pyright: ignore[reportMissingTypeStubs]

from shim.ids import IdGenerator

__all__ = ["HermesPartial", "RegexAccumulate", "RegexRepair"]

EventDict = dict[str, Any]

_BLOCK = re.compile(r"<function_call>([\s\S]*?)</function_call>")


def _call_events(ids: IdGenerator, obj: Any, raw: str) -> list[EventDict]:
    """Events for one parsed body: a call when it is ``{"name": str, "arguments": object}``, else an error."""
    data = cast("dict[str, Any]", obj) if isinstance(obj, dict) else {}
    name: Any = data.get("name")
    if isinstance(name, str):
        args: Any = data.get("arguments", {})
        if isinstance(args, dict):
            call_id = ids()
            return [
                {"type": "tool_call_start", "id": call_id, "name": name, "raw": ""},
                {"type": "tool_call_end", "id": call_id, "name": name, "arguments": args, "raw": raw},
            ]
    return [{"type": "error", "id": None, "message": "not a {name, arguments} object", "raw": raw}]


class RegexAccumulate:
    """Accumulate the message, re-scan it with one regex after every chunk, ``json.loads`` each match."""

    name = "regex"

    def __init__(self, tools: Sequence[str | dict[str, Any]] = ()) -> None:
        del tools  # the strategy knows nothing about the tools
        self._text = ""
        self._done = 0  # matches already reported
        self._shown = 0  # characters of the message already given out as events
        self._ids = IdGenerator(seed=0)

    def _parse(self, body: str) -> Any:
        try:
            return json.loads(body)
        except ValueError:
            return None

    def feed(self, chunk: str) -> list[EventDict]:
        self._text += chunk
        return self._scan(final=False)

    def close(self) -> list[EventDict]:
        return self._scan(final=True)

    def _scan(self, *, final: bool) -> list[EventDict]:
        events: list[EventDict] = []
        matches = list(_BLOCK.finditer(self._text))
        parsed = [self._parse(m.group(1)) for m in matches]  # a re-render parses every block again
        for match, obj in zip(matches[self._done :], parsed[self._done :], strict=True):
            if match.start() > self._shown:
                before = self._text[self._shown : match.start()]
                events.append({"type": "text", "text": before, "raw": before})
            events.extend(_call_events(self._ids, obj, match.group(0)))
            self._shown = match.end()
        self._done = len(matches)
        if final and self._shown < len(self._text):
            rest = self._text[self._shown :]
            events.append({"type": "text", "text": rest, "raw": rest})
            self._shown = len(self._text)
        return events


class RegexRepair(RegexAccumulate):
    """``RegexAccumulate`` with ``json_repair`` on each body (what clients add after the first bug reports)."""

    name = "regex+repair"

    def _parse(self, body: str) -> Any:
        try:
            return json_repair.loads(body)
        except Exception:  # the library's own failure modes are part of the strategy being measured
            return None


_HERMES_TAGS = (("<function_call>", "</function_call>"), ("<tool_call>", "</tool_call>"))


class HermesPartial:
    """vLLM-style Hermes streaming: tag detection on the accumulated text, partial JSON re-parsed per chunk."""

    name = "hermes-partial"

    def __init__(self, tools: Sequence[str | dict[str, Any]] = ()) -> None:
        del tools
        self._buf = ""
        self._pos = 0  # characters already given out as events (text) or owned by the open block
        self._block_start = 0  # first character of the open block not yet given out as text
        self._body_start = -1  # -1: outside a call
        self._end_tag = ""
        self._call_id: str | None = None
        self._sent_args = ""
        self._ids = IdGenerator(seed=0)

    def feed(self, chunk: str) -> list[EventDict]:
        self._buf += chunk
        events: list[EventDict] = []
        while True:
            if self._body_start < 0:
                if not self._find_start(events):
                    return events
            elif not self._advance_call(events):
                return events

    def _find_start(self, events: list[EventDict]) -> bool:
        # The tag may begin in text already passed through: the engine looks for it in the whole text.
        found = [
            (i, open_, close)
            for open_, close in _HERMES_TAGS
            if (i := self._buf.find(open_, max(0, self._pos - len(open_) + 1))) >= 0
        ]
        if not found:
            # No start tag in the text: the delta goes out as content, whatever it looks like.
            rest = self._buf[self._pos :]
            if rest:
                events.append({"type": "text", "text": rest, "raw": rest})
            self._pos = len(self._buf)
            return False
        i, open_, close = min(found)
        if i > self._pos:
            before = self._buf[self._pos : i]
            events.append({"type": "text", "text": before, "raw": before})
        self._block_start = max(i, self._pos)
        self._body_start = i + len(open_)
        self._pos = self._body_start
        self._end_tag = close
        self._call_id = None
        self._sent_args = ""
        return True

    def _advance_call(self, events: list[EventDict]) -> bool:
        end = self._buf.find(self._end_tag, self._body_start)
        if end >= 0:
            stop = end + len(self._end_tag)
            self._finish(events, self._buf[self._body_start : end], self._buf[self._block_start : stop])
            self._pos = stop
            return True
        self._stream_partial(events, self._buf[self._body_start :])
        self._pos = len(self._buf)
        return False

    def _stream_partial(self, events: list[EventDict], body: str) -> None:
        # Re-parse the whole body so far, as the engine does on every delta (quadratic in the body).
        flags = Allow.ALL if self._call_id else Allow.ALL & ~Allow.STR
        try:
            obj: Any = partial_json_parser.loads(body.strip() or "{}", flags)
        except Exception:  # malformed so far: the engine waits for more text
            return
        if not isinstance(obj, dict):
            return
        data = cast("dict[str, Any]", obj)
        name: Any = data.get("name")
        if self._call_id is None:
            if isinstance(name, str) and name:
                self._call_id = self._ids()
                events.append({"type": "tool_call_start", "id": self._call_id, "name": name, "raw": ""})
            return
        args: Any = data.get("arguments")
        if isinstance(args, dict):
            # Stream only the prefix that cannot change: drop the closers the partial parser invented.
            text = json.dumps(args).rstrip('}]"')
            if text.startswith(self._sent_args) and len(text) > len(self._sent_args):
                delta = text[len(self._sent_args) :]
                self._sent_args = text
                events.append({"type": "tool_call_chunk", "id": self._call_id, "arguments_chunk": delta, "raw": ""})

    def _finish(self, events: list[EventDict], body: str, raw: str) -> None:
        try:
            obj: Any = json.loads(body)
        except ValueError:
            obj = None
        done = _call_events(self._ids, obj, raw)
        if self._call_id is not None:
            if done[0]["type"] == "tool_call_start" and done[0]["name"] == obj["name"]:
                done = [{**done[1], "id": self._call_id}]
            else:
                done = [{**done[-1], "id": self._call_id}]
        events.extend(done)
        self._body_start = -1

    def close(self) -> list[EventDict]:
        events: list[EventDict] = []
        if self._body_start >= 0:
            # The engine's end-of-request path: an unclosed block is parsed as it stands.
            self._finish(events, self._buf[self._body_start :].strip(), self._buf[self._block_start :])
        elif self._pos < len(self._buf):
            rest = self._buf[self._pos :]
            events.append({"type": "text", "text": rest, "raw": rest})
        self._pos = len(self._buf)
        return events
