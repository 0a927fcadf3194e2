"""Qwen3-Coder style calls: ``<function=NAME><parameter=K>V</parameter>…</function>``.

Values are raw text, typed by the tool's input schema where it says (``"42"`` becomes 42 for an integer
parameter, stays ``"42"`` for a string one); without a schema, text that is valid JSON is read as JSON.
Arguments stream one parameter at a time, as JSON text that concatenates to the final object.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import regex

from shim.parsing import lenient_json
from shim.parsing.shapes import ToolIndex
from shim.parsing.tags import PARTIAL, Markers

__all__ = ["XmlCall"]

_WS = regex.compile(r"[ \t\r\n]+")
_PARAM_OPEN = regex.compile(r"<parameter=(?P<key>[^>\n]{1,128})>", regex.IGNORECASE)
_PARAM_CLOSE = r"<[ \t]{0,8}/[ \t]{0,8}parameter[ \t]{0,8}>"
_FUNC_CLOSE = regex.compile(r"<[ \t]{0,8}/[ \t]{0,8}function[ \t]{0,8}>", regex.IGNORECASE)

Outcome = Literal["more", "done", "error"]


class XmlCall:
    """One XML-style call being read; the opener already gave its name."""

    def __init__(self, name: str, tools: ToolIndex, markers: Markers) -> None:
        self.name = name
        self.arguments: dict[str, Any] = {}
        self.error = ""
        self._tools = tools
        self._markers = markers
        ends = [_PARAM_CLOSE, r"<parameter=", _FUNC_CLOSE.pattern] + [p.pattern for _, p in markers.call_closers]
        self._value_end = regex.compile("|".join(f"(?:{e})" for e in ends), regex.IGNORECASE)
        self._param_close = regex.compile(_PARAM_CLOSE, regex.IGNORECASE)
        self._in_value = False
        self._key = ""
        self._value: list[str] = []
        self._chunks: list[str] = []
        self._finished = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Outcome]:
        """Consume from ``pos``; "done" stops before a wrapping closer (``</tool_call>``), leaving it unread."""
        n = len(text)
        while pos < n:
            if self._in_value:
                found = self._value_end.search(text, pos, partial=not final)
                if found is None or (found.partial and found.start() >= n):
                    self._value.append(text[pos:])
                    return n, "more"
                self._value.append(text[pos : found.start()])
                if found.partial:
                    return found.start(), "more"
                self._end_param()
                closes_param = self._param_close.fullmatch(found.group()) is not None
                pos = found.end() if closes_param else found.start()
                continue
            ws = _WS.match(text, pos)
            if ws is not None:
                pos = ws.end()
                continue
            param = _PARAM_OPEN.match(text, pos, partial=not final)
            if param is not None and param.partial:
                return pos, "more"
            if param is not None:
                self._key = param.group("key").strip()
                self._in_value = True
                self._value = []
                pos = param.end()
                continue
            close = _FUNC_CLOSE.match(text, pos, partial=not final)
            if close is not None and close.partial:
                return pos, "more"
            if close is not None:
                self.complete()
                return close.end(), "done"
            wrapper = self._markers.match(text, pos, final, opens=False, closes=True)
            if wrapper is PARTIAL:
                return pos, "more"
            if wrapper is not None:  # </tool_call> with </function> forgotten
                self.complete()
                return pos, "done"
            self.error = f"expected <parameter=NAME> or </function>, found {text[pos]!r}"
            return pos, "error"
        return pos, "more"

    @property
    def fresh(self) -> bool:
        """Nothing read yet after ``<function=NAME>``."""
        return not self.arguments and not self._in_value and not self._finished

    def completable(self) -> bool:
        """True unless the stream stopped inside a parameter value."""
        return not self._in_value

    def complete(self) -> None:
        if not self._finished:
            self._finished = True
            self._chunks.append("}" if self.arguments else "{}")

    def take_chunks(self) -> list[str]:
        chunks, self._chunks = self._chunks, []
        return chunks

    def _end_param(self) -> None:
        raw = "".join(self._value)
        # The format puts each value on its own lines: drop exactly one newline on each side.
        raw = raw[1:] if raw.startswith("\n") else raw
        raw = raw[:-1] if raw.endswith("\n") else raw
        value = self._typed(raw)
        prefix = "{" if not self.arguments else ", "
        self.arguments[self._key] = value
        self._chunks.append(
            f"{prefix}{json.dumps(self._key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        )
        self._in_value = False
        self._value = []

    def _typed(self, raw: str) -> Any:
        kind = self._tools.property_type(self.name, self._key)
        if kind == "string":
            return raw
        try:
            return json.loads(raw)
        except ValueError:
            pass
        if kind is not None:
            try:
                return lenient_json.loads(raw)
            except lenient_json.LenientJSONError:
                pass
        return raw
