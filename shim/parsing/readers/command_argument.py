"""A call written as a command and its argument: an offered tool's name, then its one string argument, alone on
its line; a JSON object on the next lines fills the tool's one object parameter.

    GET http://localhost:8080/fhir/Patient?identifier=S6227720

    POST http://localhost:8080/fhir/ServiceRequest
    {"resourceType": "ServiceRequest", "status": "active"}

MedAgentBench's prompt asks for exactly this (``GET url?params``, ``POST url`` and the payload on the next lines):
gpt-4o(-mini), Llama 3.3 and DeepSeek-V3 write it bare, Gemini 2.0 in a ```` ```tool_code ```` fence (the fence
of calls Gemma's family is taught, `shim.parsing.readers.gemma`). Any tool shaped the same is read the same
way (``read_file src/main.py``, ``open_url https://…``).

Plain words, so the evidence is strict, as for `shim.parsing.readers.command_line`:

- the tool's schema: exactly one string parameter the argument can be (its only parameter, or its only required
  one), and at most one other, of type object, required or not (the payload);
- the name exactly as offered (case too: ``Get the …`` is no call of ``GET``), at the message's start or an
  unindented line's, or on the first line of a ```` ```tool_code ```` fence;
- one to four blanks, then the argument: one run of non-blank characters that reaches the end of the line (blanks
  may trail), holds a character no English word has (a ``/``, ``.``, ``?``, ``=``, ``:``, a digit…: ``GET requests``
  is a phrase) and does not end in sentence punctuation (``search for.``);
- for a tool with an object parameter, a ``{`` opening the next line (blank lines allowed between) begins its value,
  read as lenient JSON to its matching ``}``; a value that is not JSON is an error event (the call is clearly
  meant). No ``{`` there: the call has only its string.

A sentence beginning with the name (``POST requests are …``), the name inside a sentence, or a URL in prose is text,
unchanged, with no error. A ```` ``` ```` fence of another language, or a passage presenting an example, keeps the
form text (`shim.parsing.readers.code_fence`, `shim.parsing.readers.prose`). Each such line is one call: several
lines are several calls (the next line's row opens the next).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.readers.base import MORE, NAME_START, Block, Context, Dialect, Next, keep_line_break
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["FENCE_ROWS", "ROWS", "CommandArgument", "command_parameters"]

_MAX_ARG = 4000
_SENTENCE_END = ".,;:!?"
_EXAMPLE = (
    "NAME ARGUMENT alone on its line, then (for a tool with an object parameter) its JSON object on the next lines"
)
_PAYLOAD = regex.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n){0,2}[ \t]{0,8}(?=\{)")
"""From the argument's end to the payload's ``{`` opening a later line (up to two blank lines between)."""


def command_parameters(tools: ToolIndex, name: str) -> tuple[str, str | None] | None:
    """The string parameter a command's argument fills and the object parameter a payload fills (None: the tool
    has none), or None when the tool is not shaped for the form."""
    spec = tools.specs.get(name)
    if spec is None:
        return None
    props: Any = spec.input_schema.get("properties") or {}
    required: Any = spec.input_schema.get("required") or []
    if not isinstance(props, dict) or not isinstance(required, list):
        return None
    keys = [str(k) for k in cast(dict[str, Any], props)]
    needed = [str(k) for k in cast(list[Any], required)]
    strings = [k for k in keys if tools.property_type(name, k) == "string"]
    objects = [k for k in keys if tools.property_type(name, k) == "object"]
    if len(keys) == 1 and strings:
        return strings[0], None
    if len(keys) != 2 or len(strings) != 1 or len(objects) != 1 or strings[0] not in needed:
        return None
    return strings[0], objects[0]


def _is_argument(value: str) -> bool:
    return not value.isalpha() and value[-1] not in _SENTENCE_END


class CommandArgument:
    """The argument to the line's end, then (for a tool that takes one) the payload object on the next lines."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = ctx.tools.resolve(name)
        params = command_parameters(ctx.tools, self.name)
        assert params is not None  # the opener names fitting tools only
        self.key, self.payload_key = params
        self.value: str | None = None
        self.scanner: JsonScanner | None = None
        self.body: list[str] = []

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.scanner is not None:
            return self._payload(text, pos, final)
        if self.value is None:
            return self._argument(text, pos, final)
        found = _PAYLOAD.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:
            return self._call(pos, {self.key: self.value})
        self.ctx.consume(found.group())
        self.scanner = JsonScanner(stop_chars="", capture=False)
        return self._payload(text, found.end(), final)

    def _argument(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = pos
        limit = min(len(text), pos + _MAX_ARG + 1)
        while end < limit and not text[end].isspace():
            end += 1
        blanks = end
        while blanks < len(text) and text[blanks] in " \t":
            blanks += 1
        if blanks >= len(text) and not final and end - pos <= _MAX_ARG:
            return pos, MORE  # the argument, or the blanks after it, may go on
        value = text[pos:end]
        at_end = blanks >= len(text) or text[blanks] in "\r\n"
        if not value or end - pos > _MAX_ARG or not at_end or not _is_argument(value):
            self.ctx.revert()
            return pos, None
        self.ctx.consume(value)
        self.value = value
        if self.payload_key is None:
            return self._call(end, {self.key: value})
        return end, self

    def _payload(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        assert self.scanner is not None
        end, status = self.scanner.feed(text, pos, final=final)
        if end > pos:
            self.ctx.consume(text[pos:end])
            self.body.append(text[pos:end])
        if status is Status.MORE:
            if final:
                self.ctx.fail_call(CUT_OFF)
                return end, None
            return end, self if end >= len(text) else MORE  # a token split at the chunk's end waits
        if status is Status.DONE:
            try:
                payload = lenient_json.loads("".join(self.body))
            except lenient_json.LenientJSONError as exc:
                self.ctx.fail_call(f"the JSON after the {self.name} line is not valid: {exc}")
                return end, None
            if isinstance(payload, dict):
                assert self.value is not None and self.payload_key is not None
                return self._call(end, {self.key: self.value, self.payload_key: payload})
        problem = self.scanner.error or "expected a JSON object"
        line_end = end
        while line_end < len(text) and text[line_end] not in "\r\n":
            line_end += 1
        if line_end >= len(text) and not final:
            return end, MORE  # the rest of the failed line goes with the error
        self.ctx.fail_call(f"the JSON after the {self.name} line is not valid: {problem}", text[end:line_end])
        return line_end, None

    def _call(self, pos: int, arguments: dict[str, Any]) -> tuple[int, Next]:
        self.ctx.end_call(self.name, arguments, streamed=False)
        return pos, AfterBody(self.ctx, self.block) if self.block.fence else None  # the line's end stays text

    def finish(self, truncated: bool) -> None:
        if self.scanner is not None:
            self.ctx.fail_call(CUT_OFF)
        elif self.value is None:
            self.ctx.revert()
        elif truncated and self.payload_key is not None:
            self.ctx.fail_call(CUT_OFF)
        else:
            self._call(0, {self.key: self.value})


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> CommandArgument:
    keep_line_break(ctx)  # the line break before the call stays text
    return CommandArgument(ctx, block, match.group("name"))


def _open_fenced(ctx: Context, block: Block, match: regex.Match[str]) -> CommandArgument:
    block.dialect = _FENCE
    block.fence = True
    return CommandArgument(ctx, block, match.group("name"))


def _opener(prefix: str) -> Callable[[ToolIndex], str | None]:
    def build(tools: ToolIndex) -> str | None:
        fits = [s for n, s in tools.specs.items() if command_parameters(tools, n) is not None]
        names = tool_name_pattern(ToolIndex(fits))
        # the name in its exact case, then blanks and the argument's first character; a `{` begins a JSON object,
        # the arguments of a tool-name-first call (`shim.parsing.readers.name_first`), never a command's argument
        return None if names is None else rf"{prefix}(?-i:(?P<name>{names}))[ \t]{{1,4}}(?=[^\s{{])"

    return build


_FENCE = Dialect(
    "command_argument_fence",
    "```",
    r"```",
    kind="untagged",
    first="`",
    reader=_open_fenced,
    example=_EXAMPLE,
    open_for_tools=_opener(r"```tool_code[ \t]{0,4}\r?\n[ \t]{0,8}"),
)

FENCE_ROWS = [_FENCE]
"""``NAME ARGUMENT`` opening a ```` ```tool_code ```` fence (before the fence's row of Python-style calls)."""

ROWS = [
    Dialect(
        "command_argument",
        "name",
        None,
        kind="untagged",
        start="message",
        first=NAME_START,
        reader=_open,
        example=_EXAMPLE,
        open_for_tools=_opener(""),
    ),
    Dialect(
        "command_argument_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open,
        example=_EXAMPLE,
        open_for_tools=_opener(r"\n"),
    ),
]
"""``NAME ARGUMENT`` (and its payload) opening the message or an unindented line."""
