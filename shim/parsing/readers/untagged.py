"""Untagged JSON calls: a JSON value opening the message, or a ```` ```json ```` fence anywhere.

A tag that is no call tag may hold such a value alone (Laguna's ``<user>{"name": …}</user>``, in Ollama's
parser tests): when the value is a call, the tag and its closer right after the value are the call's markup,
not visible text; otherwise the whole is text again.

Lenient forms need strict evidence: these count only when tools are known, and only if every value has a
call's shape (no keys besides name / arguments / metadata) and names an offered tool. Anything else,
including JSON that stops being JSON, goes back out as text, unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARG_KEYS, NAME_KEYS, JsonScanner, Status
from shim.parsing.readers.base import (
    INNER_UNTAGGED,
    MORE,
    Block,
    Context,
    Dialect,
    Next,
    WholeToEnd,
    keep_line_break,
    match_at,
)
from shim.parsing.readers.block_end import TURN_END, AfterBody, Closed
from shim.parsing.readers.code_fence import CODE_WORD, NOT_CODE
from shim.parsing.readers.name_lines import header_lines
from shim.parsing.shapes import CallShape, ShapeError, call_items, one_parameter, to_call
from shim.parsing.tags import PARTIAL, compile_marker

__all__ = [
    "BARE",
    "BULLETED",
    "FENCE",
    "FENCE_LABEL",
    "INSIDE_TAG",
    "WRAPPED",
    "WRAPPED_CALL",
    "XML_DECLARATION",
    "JsonCall",
    "JsonCandidate",
    "UntaggedJson",
    "call_of",
    "calls_of",
    "tagged_inside",
]

FENCE_OPEN = (
    r"```[ \t]{0,2}(?:json5?|jsonc|tool_calls?|function_calls?|tool_code|tools?|xml|html"
    rf"|(?!{NOT_CODE}|{CODE_WORD})[A-Za-z][\w+#.\-]{{0,31}}(?![\w+#.\-]))?[ \t]*(?:\r?\n|(?=[{{\[]))"
)
"""A fence of no language, of one that says "call", of markup, or named by a word that names no language
(```` ```homeassistant ````: a framework's own call block; `shim.parsing.readers.code_fence.LANGUAGES`). Blanks
may stand before the word (```` ``` json ````), as CommonMark trims them off a fence's info string. The JSON may
begin on the opener's own line (```` ```json {"name": …} ``` ````: a fence folded onto one line, as a page or a
log prints it): the body starts at its ``{`` or ``[``."""


FENCE_LABEL = regex.compile(r"(?:function_calls?|tool_calls?|tool_code|json)[ \t]{0,4}(?:\r?\n[ \t]{0,8})?(?=[{\[])")
"""A fence's first line naming the block a call (``function_call`` right after ```` ```tool_code ````: the
label a prompt asked for, written inside the fence), right before the JSON: the fence's markup."""


class JsonCandidate:
    """A JSON value read as a possible call: its text is consumed as it is scanned, so a revert gives it all back
    as text, and kept in `body` to be decoded once it is complete."""

    def __init__(self, ctx: Context, opener: str = "", *, revert: bool = True, bare_names: bool = False) -> None:
        """``revert``: an error gives the text back (else the caller decides what the text was). ``bare_names``: the
        call's name may be written without quotes (`JsonScanner.bare_names`)."""
        self.ctx = ctx
        self.revert = revert
        self.scanner = JsonScanner(stop_chars="", capture=False, bare_names=bare_names)
        used, _ = self.scanner.feed(opener, 0)
        self._opener_rest = opener[used:]
        """The opener's end the scanner handed back (a quote it decides on with what follows: `QUOTE_ENDS`)."""
        self.body = [opener] if opener else []

    def scan(self, text: str, pos: int, final: bool) -> tuple[int, Status]:
        """Scan on from ``pos``: `Status.MORE`, `Status.DONE` (the value is whole), or an error, already reverted
        (not JSON: the characters from the returned position on are read as text again)."""
        if self._opener_rest:
            rest = self._opener_rest
            used, status = self.scanner.feed(rest + text[pos:], 0, final=final)
            self._opener_rest = rest[used:]
            new = pos + max(0, used - len(rest))
        else:
            new, status = self.scanner.feed(text, pos, final=final)
        if new > pos:
            self.ctx.consume(text[pos:new])
            self.body.append(text[pos:new])
        if status is not Status.MORE and status is not Status.DONE and self.revert:
            self.ctx.revert()
        return new, status

    def text(self) -> str:
        return "".join(self.body)


def call_of(name: str) -> Callable[[str], str]:
    """A `JsonCall`'s ``as_call`` for a form that names the tool outside its arguments object (``[NAME, {…}]``,
    ``<<tool:NAME>>{…}``): the object's text written as the call object the shape rules read."""

    def as_call(arguments: str) -> str:
        return f'{{"name": {json.dumps(name)}, "arguments": {arguments}}}'

    return as_call


class JsonCall:
    """A JSON object held whole, then the markup after it (`ends`), read as one call of an offered tool.

    Readers whose opener has already named the call's place (``[NAME, {…}]``, a prefilled head) share this: the
    object must complete, `as_call` turns its text into the call object the shape rules read, exactly one call of
    an offered tool must come out, and each of `ends` in turn (a pattern and whether it must follow: a closer, else
    markup taken when it does; a fence's closer then a block's) is consumed with it. Anything else is text again,
    unchanged."""

    def __init__(
        self,
        ctx: Context,
        json: JsonCandidate,
        ends: list[tuple[regex.Pattern[str], bool]],
        *,
        as_call: Callable[[str], str] = str,
        follows: regex.Pattern[str] | None = None,
    ) -> None:
        self.ctx = ctx
        self.json = json
        self.ends = ends
        self.as_call = as_call
        self.follows = follows
        """What must come right after the call (and its ends), looked at and left as text (`prose_call`: a blank or a
        sentence's punctuation, not code going on); None: anything."""
        self.complete = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.complete:
            new, status = self.json.scan(text, pos, final)
            if status is Status.MORE:
                return new, MORE
            if status is not Status.DONE:
                return new, None  # not JSON: already text again (`JsonCandidate` reverts)
            self.complete = True
            pos = new
        while self.ends:
            pattern, required = self.ends[0]
            after = match_at(pattern, text, pos, final)
            if after is MORE:
                return pos, MORE
            if after is None and required:
                self.ctx.revert()
                return pos, None
            self.ends.pop(0)
            if after is not None:
                self.ctx.consume(after.group())
                pos = after.end()
        if self.follows is not None:
            seen = match_at(self.follows, text, pos, final)
            if seen is MORE:
                return pos, MORE
            if seen is None:
                self.ctx.revert()
                return pos, None
        shapes = calls_of(self.as_call(self.json.text()), self.ctx)
        if len(shapes) != 1:
            self.ctx.revert()
            return pos, None
        self.ctx.end_call(shapes[0].name, shapes[0].arguments, streamed=False)
        return pos, None

    def finish(self, truncated: bool) -> None:
        if self.complete and not truncated:
            self.feed("", 0, True)
        else:
            self.ctx.revert()


class UntaggedJson:
    """A JSON value that may be a call (or a list of calls); decided when it is complete."""

    def __init__(
        self, ctx: Context, block: Block, closer: regex.Pattern[str] | None = None, *, labelled: bool = False
    ) -> None:
        self.ctx = ctx
        self.block = block
        self.closer = closer
        """The closer of the tag around the value, if one is (`WRAPPED`)."""
        self.labelled = labelled
        """A label the model writes its action under opened the value (``Action:``): a call of no tool there
        (``directly-answer``, `answers_directly`) is the model's choice of no tool (markup), as it is opening the
        message; in prose, such a value stays text."""
        self.opens = not ctx.shown
        """Nothing visible came before the value: it opens the message, where a protocol puts its "no tool" marker."""
        block.next_body = lambda: UntaggedJson(ctx, block)  # glued `}{`: another candidate
        self.json = JsonCandidate(ctx, revert=False, bare_names=True)  # `feed` reverts, or reads a short value
        self.complete = False
        """The value is whole; what follows it is still to be seen."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.complete:
            new, status = self.json.scan(text, pos, final)
            if status is not Status.DONE and status is not Status.MORE:
                # The fence closes, on a line of its own, a value short of its closing brackets only (Llama 4 left
                # one `}` out): the fence bounds the value, so those brackets are all that is missing.
                short = self.json.scanner.completable() and self.json.text().rstrip(" \t").endswith("\n")
                if short and self.block.fence:
                    if not final and len(text) - new < 3 and "```".startswith(text[new:]):
                        return new, MORE  # `` ` `` at a chunk's end: the fence may be closing
                    if text.startswith("```", new):
                        return new, self._classify(self.json.scanner.closers())
                elif short and status is Status.ERROR and self._ends_with_its_line():
                    return new, self._classify(self.json.scanner.closers())
                self.ctx.revert()
            if status is not Status.DONE:
                return new, (MORE if status is Status.MORE else None)
            self.complete = True
            pos = new
        # What follows decides: JSON glued to a backtick is inline code (`{"name": …}` in docs), so text.
        if pos >= len(text) and not final:
            return pos, MORE
        if pos < len(text) and text[pos] == "`":
            if self.block.fence:  # inside a fence, its closer glued to the value (```json{…}```: a one-line log)
                if not final and len(text) - pos < 3 and "```".startswith(text[pos:]):
                    return pos, MORE
                if text.startswith("```", pos):
                    return pos, self._classify("")
            self.ctx.revert()
            return pos, None
        if pos < len(text) and text[pos] in "\"'" and text[pos + 1 :].strip() == "":
            # A quote glued after the value, the output's last character (`}}}"`: Llama 3.2 3B): stray, read with the
            # value (the grammar's STRAY_QUOTE), so a call takes it as its markup and text gets it back.
            if not final:
                return pos, MORE
            self.ctx.consume(text[pos])
            self.json.body.append(text[pos])
            pos += 1
        return pos, self._classify("")

    def _ends_with_its_line(self) -> bool:
        """The value opening the message ends with its line, short of its outer closing brackets only, where the
        next line cannot continue it (MemGPT's local models: ``{"function": …, "params": {…}⏎`` with the outer ``}``
        left out, then an invented ``FUNCTION RETURN {…}`` line, letta PR #288): its inner value closed that line
        (``}`` or ``]``), so only the brackets that close around it are missing. (The caller checked that the value
        is whole but for closing brackets, up to a line break, and that the next line's first character is no
        JSON there.)"""
        return self.opens and self.json.text().rstrip()[-1:] in ("}", "]")

    def _classify(self, added: str, body: str | None = None) -> Next:
        body = self.json.text() + added if body is None else body
        content, shapes = message_of(body, self.ctx)
        shapes = shapes or calls_of(body, self.ctx, bare_names=True)
        if not shapes and self.labelled:
            tool = _tool_taking(body, self.ctx)
            shapes = [CallShape(tool[0], tool[1], canonical=False)] if tool is not None else []
        if not shapes:
            if (self.labelled or self.opens) and answers_directly(body, self.ctx):
                # the model chose no tool: the action block (or the protocol's marker opening the reply) is markup
                self.ctx.markup("")
                return AfterBody(self.ctx, self.block)
            self.ctx.revert()
            return None
        if content:  # a whole assistant message as the output: its content is the visible text
            self.ctx.text(content, self.ctx.take_raw())
        for shape in shapes:
            self.ctx.end_call(shape.name, shape.arguments, streamed=False)
        if self.closer is not None:
            return TagCloser(self.ctx, self.block, self.closer)
        return AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        if self.complete and not truncated:
            self._classify("")
        elif not truncated and self.json.scanner.completable():
            self._classify(self.json.scanner.closers())
        elif not truncated and self.json.scanner.in_string and (body := _escaped_from_a_key(self.json.text())):
            self._classify("", body)
        else:
            self.ctx.revert()


_ESCAPED_KEY = regex.compile(r'[{,][ \t\r\n]*"[^"\\\r\n]{1,64}\\"[ \t]*:')
"""A key whose closing quote is escaped (``"parameters\":``): from there on the model wrote its JSON escaped."""


def _escaped_from_a_key(body: str) -> str | None:
    """``body`` read with every quote after a key whose own closing quote is escaped unescaped (Llama 3.2 3B wrote
    ``{"name":"get_weather","parameters\":{\"city\":\"Brussels\"}}``): the string that key opens never closes,
    so the value runs to the end of the output. None when no key is so written."""
    found = _ESCAPED_KEY.search(body)
    if found is None:
        return None
    return body[: found.start()] + body[found.start() :].replace('\\"', '"')


class TagCloser:
    """After a call held by a tag that is no call tag: that tag's closer is markup; anything else ends as usual."""

    def __init__(self, ctx: Context, block: Block, closer: regex.Pattern[str]) -> None:
        self.ctx = ctx
        self.block = block
        self.closer = closer

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        at = _BLANKS.match(text, pos)
        end = at.end() if at is not None else pos
        if end >= len(text) and not final:
            return pos, MORE
        found = self.closer.match(text, end, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:  # more calls may follow inside the tag: its closer after them is markup too
            self.ctx.expect_outer(self.closer)
            self.block.outer = self.closer  # and a comma between them is a separator (`<tools>{…}, {…}</tools>`)
            return pos, AfterBody(self.ctx, self.block)
        self.ctx.markup(text[pos : found.end()])
        fence = self.block.fence and not found.group().lstrip().startswith("`")  # a fence closer closes the fence
        return found.end(), Closed(self.ctx, fence=fence, outer=self.block.outer)

    def finish(self, truncated: bool) -> None:
        self.ctx.markup_as_text()


_BLANKS = regex.compile(r"[ \t\r\n]+")


def calls_of(body: str, ctx: Context, *, bare_names: bool = False) -> list[CallShape]:
    """The calls in an untagged value (one call, a list, a ``{"tool_calls": [...]}`` envelope): all of canonical
    shape naming known tools, or none. ``bare_names``: the scanner let a call's name stand without quotes (and
    nothing else): it counts only if it is an offered tool's name as it stands (``{"name": get_weather, …}``)."""
    shapes: list[CallShape] = []
    bare = False
    try:
        try:
            value = lenient_json.loads(body)
        except lenient_json.LenientJSONError:
            if not bare_names:
                raise
            value, bare = lenient_json.loads(body, bare_words=True), True
        items = call_items(value)
        for item in items:
            shape = to_call(item, ctx.tools)  # the tools: `{"get_weather": {…}}`, keyed by an offered name
            if not shape.canonical or not ctx.tools.is_known(shape.name):
                return []
            if bare and shape.name not in ctx.tools.specs:
                return []  # an unquoted word counts as a name only as the offered tool's own spelling
            shapes.append(shape)
    except (lenient_json.LenientJSONError, ShapeError):
        return []
    return shapes


def _tool_taking(body: str, ctx: Context) -> tuple[str, dict[str, Any]] | None:
    """An object under an action label holding the arguments alone, no name (tau-bench's ReAct runs: ``Action:``
    then ``{"reservation_id": …, "cabin": …, …}``): a call of the one offered tool whose schema declares every key
    and none of whose required keys is missing (`ToolIndex.taking`); None when no tool or more than one fits, or when
    the object has a call's own keys (a name, an arguments key: a damaged call, not bare arguments)."""
    try:
        value = lenient_json.loads(body)
    except lenient_json.LenientJSONError:
        return None
    if not isinstance(value, dict):
        return None
    arguments = cast("dict[str, Any]", value)
    if any(key in arguments for key in (*NAME_KEYS, *ARG_KEYS)):
        return None
    tool = ctx.tools.taking(arguments)
    return None if tool is None else (tool, arguments)


def answers_directly(body: str, ctx: Context, *, empty: bool = False) -> bool:
    """Every call in the value, of a call's whole shape, names no tool (`ToolIndex.declines`: ``{"tool": "none"}``,
    Command R's ``directly-answer``): the model's choice of no call, the block markup. ``empty``: an empty list of
    calls (``[]``, a call list format's answer when no tool fits, as pythonic prompts ask) says so too, with tools
    offered; only a reader that saw it alone on its line passes it (``tool_calls: [] (none)`` is a sentence)."""
    try:
        value = lenient_json.loads(body)
        shapes = [to_call(item, ctx.tools) for item in call_items(value)]
    except (lenient_json.LenientJSONError, ShapeError):
        return False
    if value == []:
        return empty and bool(ctx.tools)
    return bool(shapes) and all(shape.canonical and ctx.tools.declines(shape.name) for shape in shapes)


_ROLES = frozenset({"assistant", "model"})
_TEXT_KEYS = ("content", "text", "message", "assistant_message")
"""Keys of a message's text beside its calls: ``assistant_message`` is ContinueHFBridge's (``{"assistant_message": "…",
"tool_calls": […]}``)."""


def message_of(body: str, ctx: Context) -> tuple[str, list[CallShape]]:
    """A whole assistant message printed as the output: its text and its calls, all of canonical shape naming known
    tools; ``("", [])`` for anything else. The text is the ``content`` of a message with an assistant's role
    (``{"role": "assistant", "content": "Okay.", "tool_calls": […]}``, Granite 3.3 in an application's log, shown
    that shape by its prompt), or the ``content`` or ``text`` beside a list of calls under an envelope key
    (``{"mode": "message", "text": "…", "calls": [{…}]}``, LlamaSharp.ToolCallEnvelopes' grammar-bound reply, whose
    tests take its calls whatever its mode says). A message with no call is no call's envelope: its JSON stays
    text."""
    try:
        value = lenient_json.loads(body)
    except lenient_json.LenientJSONError:
        return "", []
    if not isinstance(value, dict):
        return "", []
    data = cast("dict[str, Any]", value)
    role = data.get("role")
    key = next((k for k in _TEXT_KEYS if isinstance(data.get(k), str) and str(data[k]).strip()), None)
    if key is None or (role is not None and role not in _ROLES) or (key != "content" and "content" in data):
        return "", []
    inner = {k: v for k, v in data.items() if k != key}
    items = call_items(inner)
    if role is None and len(items) == 1 and items[0] is inner:  # no role, and the rest no envelope of calls
        return "", []
    shapes = calls_of(json.dumps(inner), ctx)
    return (str(data[key]), shapes) if shapes else ("", [])


MARKUP_LABEL = regex.compile(r"(?:xml|html|function_calls?|tool_calls?|tool_code)[ \t]{0,4}\r?\n[ \t\r\n]{0,16}(?=<)")
"""A fence's first line naming a markup language or the block a call, on a line of its own right before a tag (the
info string written after a line break: ```` ```⏎xml⏎<command>… ````): the fence's markup if a call follows."""


class FenceStart:
    """After a ```json fence (or ```xml, or none): a JSON value makes it a candidate, and so does a tagged call
    (``<function_call>…</function_call>`` fenced by the model: the fence is its markup). A fence named by an
    offered tool of one parameter (goose's ```` ```execute ```` for ``code_execution__execute``) holding no JSON
    is a call of that tool, its body the parameter's value (`ToolFence`). A fence named by a word that is no
    language (```` ```freegent ````) may hold ``tool: NAME`` and that tool's ``key: value`` lines
    (`shim.parsing.readers.name_lines.header_lines`)."""

    def __init__(self, ctx: Context, block: Block, tool: str | None = None, *, named: bool = False) -> None:
        self.ctx = ctx
        self.block = block
        self.tool = tool
        self.named = named
        """The fence's opener names it by a word (no bare fence: a YAML example may sit in one)."""
        block.fence = True

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.tool is not None:
            start = _BLANK.match(text, pos)
            assert start is not None
            if start.end() >= len(text) and not final:
                return pos, MORE
            if start.end() >= len(text) or text[start.end()] not in "{[<":
                return pos, ToolFence(self.ctx, self.tool)
            self.tool = None
        pos = self.ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        if text[pos] in "{[":
            return pos, UntaggedJson(self.ctx, self.block)
        if self.named and text[pos].isalpha():
            lines = header_lines(self.ctx, self.block, text, pos, final)
            if lines is not None:  # ```freegent⏎tool: NAME⏎KEY: value…: the fence is the call's markup
                return lines
        label = FENCE_LABEL.match(text, pos, partial=not final)
        if label is not None and label.partial:
            return pos, MORE
        if label is not None:
            self.ctx.consume(label.group())
            return label.end(), self
        label = MARKUP_LABEL.match(text, pos, partial=not final)
        if label is not None and label.partial:
            return pos, MORE
        if label is not None:  # ```⏎xml⏎<tool_call>…: the fence's language on a line of its own
            self.ctx.consume(label.group())
            pos = label.end()
        if text[pos] == "<":  # a tagged call fenced by the model (```xml around <function_call>…): the fence is markup
            return tagged_inside(self.ctx, text, pos, final, fence=True)
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def tagged_inside(
    ctx: Context, text: str, pos: int, final: bool, *, fence: bool = False, outer: regex.Pattern[str] | None = None
) -> tuple[int, Next]:
    """A tagged call right at ``pos`` inside a wrapper that is no call's (a fence, a tag): read by its family, the
    wrapper's closer its markup; anything else: the wrapper was text."""
    found = ctx.markers.match(text, pos, final, fences=True)
    if found is PARTIAL:
        return pos, MORE
    row = found.dialect if found is not None and found.kind in ("open", "fence") else None
    # a call family's block, or a call in a tag of its own (`<tools>{…}</tools>`, `<command><run_command>…`): each ends
    # at its closer
    inner = row is not None and row.name in INNER_UNTAGGED
    if (
        found is None
        or row is None
        or row.reader is None
        or not (row.kind == "call" or row.name in (WRAPPED.name, WRAPPED_CALL.name) or inner)
    ):
        ctx.revert()
        return pos, None
    if outer is not None:
        # The wrapper's opener is markup until text shows before its closer; that closer, after the calls (one or
        # several) with only blanks between, is markup: the core takes it (the inner reader knows no wrapper).
        ctx.hold_wrapper(outer)
        ctx.expect_outer(outer, fence=fence)
    ctx.consume(found.match.group())
    block = Block(row if row.kind == "call" else None, fence=fence, outer=outer)
    return found.match.end(), row.reader(ctx, block, found.match)


class _WrappedTag:
    """After ``<TAG>`` of no call family: a tagged call right inside makes the tag its markup."""

    def __init__(self, ctx: Context, tag: str | None, *, fence: bool = False) -> None:
        """``tag`` None: a prolog with no closer (an XML declaration) before the call. ``fence``: the tag sits in
        a ``` fence, whose closer after the tag's is markup too."""
        self.ctx = ctx
        self.close = (
            None if tag is None else compile_marker(rf"<[ \t]{{0,8}}/[ \t]{{0,8}}{regex.escape(tag)}[ \t]{{0,8}}>")
        )
        self.fence = fence

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        pos = self.ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        return tagged_inside(self.ctx, text, pos, final, fence=self.fence, outer=self.close)

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open_wrapped_tag(ctx: Context, block: Block, match: regex.Match[str]) -> _WrappedTag:
    return _WrappedTag(ctx, match.groupdict().get("tag"), fence=block.fence)


class ToolFence(WholeToEnd):
    """The body of a fence named by an offered tool, to its closing fence (or the output's end), decided whole:
    the value of the tool's one parameter; the fence is the call's markup."""

    END = regex.compile(r"(?:\r?\n)?[ \t]{0,3}```")

    def __init__(self, ctx: Context, tool: str) -> None:
        super().__init__(ctx)
        self.tool = tool

    def _decide(self) -> None:
        body = "".join(self.body)
        arguments = one_parameter(self.ctx.tools, self.tool, body) if body.strip() else None
        if arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.tool, arguments, streamed=False)


_BLANK = regex.compile(r"[ \t\r\n]*")
_FENCE_WORD = regex.compile(r"```[ \t]{0,2}(?P<word>[A-Za-z][\w+#.\-]{0,31})")


def _fence_tool(ctx: Context, opener: str) -> str | None:
    """The offered tool a fence's word names, if it takes one parameter a body can be (None: no such tool)."""
    found = _FENCE_WORD.match(opener)
    if found is None or not ctx.tools.is_known(found.group("word")):
        return None
    name = ctx.tools.resolve(found.group("word"))
    return name if one_parameter(ctx.tools, name, "x") is not None else None


def _open_fence(ctx: Context, block: Block, match: regex.Match[str]) -> FenceStart:
    named = _FENCE_WORD.match(match.group()) is not None
    return FenceStart(ctx, block, _fence_tool(ctx, match.group()), named=named)


def _open_bare(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    return UntaggedJson(ctx, block)


def _open_bulleted(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    keep_line_break(ctx)  # the line break before the bullet stays text
    return UntaggedJson(ctx, block)  # the bullet is the call's markup if the value is a call, else text again


def _open_wrapped(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    tag = regex.escape(match.group("tag"))
    # A stray `>` glued after the call, before the closer (`}></@TOOL>`, qwen3.5-4b in supercoder): markup too.
    closer = compile_marker(rf"(?:>[ \t\r\n]{{0,8}})?<[ \t]{{0,8}}/[ \t]{{0,8}}{tag}[ \t]{{0,8}}>")
    ctx.hold_wrapper(closer)  # the tag's opener: markup until text shows before its closer
    return UntaggedJson(ctx, block, closer)


FENCE = Dialect("json_fence", FENCE_OPEN, r"```", kind="untagged", reader=_open_fence)
# A list of calls opens with an object, or with one encoded as a JSON string (Llama 3.3 70B on watsonx: `["{\"type\":
# …}", …]`, `shapes.call_items`): `[[ ## tool_calls ## ]]` (DSPy's field marker) starts no JSON call.
BARE = Dialect("bare_json", r"(?=\{|\[[ \t\r\n]{0,64}\"?\{)", None, kind="untagged", first="{[", reader=_open_bare)
_BULLET = r"(?:[-*\u2022]|\d{1,2}[.)])[ \t]{1,4}(?=\{)"
BULLETED = [
    Dialect(
        "bulleted_json",
        _BULLET,
        None,
        kind="untagged",
        start="message",
        first="-*\u20220123456789",
        reader=_open_bulleted,
    ),
    Dialect("bulleted_json_line", r"\n[ \t]{0,8}" + _BULLET, None, kind="untagged", first="\n", reader=_open_bulleted),
]
"""A call object as a list's item (``- {"name": …}``, ``1. {…}``), opening the message or a line: the bullet or
number is the call's markup, as the brackets of a list of calls are (offered tools only; else all of it is text)."""
WRAPPED = Dialect(
    "tag_around_json",
    r"<(?P<tag>@?[A-Za-z_][\w:.\-]{0,31})>[ \t]{0,64}\r?\n?[ \t]{0,64}(?=\{|\[[ \t\r\n]{0,64}\{)",
    None,
    kind="untagged",
    first="<",
    reader=_open_wrapped,
)
"""``<user>{"name": …}</user>``: a tag that is no call tag around a JSON call, a list of them, or several in a row
(offered tools only). The tag's name may carry an ``@`` (supercoder's prompt asks for ``<@TOOL>{…}</@TOOL>``)."""
_WRAPPER_ATTR = r"""[A-Za-z_][\w:.\-]{0,63}[ \t]{0,4}=[ \t]{0,4}(?:"[^"<>\n]{0,256}"|'[^'<>\n]{0,256}')"""
"""An attribute of a wrapper's opener (bolt.new's ``<boltArtifact id="a1" title="Setup">``)."""
WRAPPED_CALL = Dialect(
    "tag_around_call",
    rf"(?!{TURN_END.pattern})<(?P<tag>@?[A-Za-z_][\w:.\-]{{0,31}})(?:[ \t]{{1,8}}{_WRAPPER_ATTR}){{0,8}}[ \t]{{0,8}}>"
    r"(?=[ \t\r\n]{0,16}<[A-Za-z_|])",
    None,
    kind="untagged",
    first="<",
    reader=_open_wrapped_tag,
)
"""``<response><tools>{…}</tools></response>``: a tag that is no call tag right around a tagged call (Qwen2 in
mlx-omni-server#4), with attributes or none (``<boltArtifact id="a1">`` around bolt.new's actions): its opener and
closer are the call's markup; around anything else, text. A turn-end token
(``<end_of_turn>``, `TURN_END`) is no such tag: the model's turn structure, read by the ``turn_end`` row (a run of
them, ``<end_of_turn><end_of_turn>``, is markup)."""
XML_DECLARATION = Dialect(
    "xml_declaration",
    r"<\?xml[ \t][^<>?]{0,200}\?>(?=[ \t\r\n]{0,64}<[A-Za-z_|@])",
    None,
    kind="untagged",
    first="<",
    reader=_open_wrapped_tag,
)
"""``<?xml version="1.0"?>`` right before a tagged call or a tag around one (mlx-omni-server's tests): the document's
prolog, the call's markup; before anything else, text."""


def _open_inside_tag(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    return UntaggedJson(ctx, block, _TAG_END)


_TAG_END = regex.compile(r"[ \t]{0,8}/?>")
INSIDE_TAG = Dialect(
    "json_inside_tag",
    r"<(?P<tag>[A-Za-z_][\w:.\-]{0,31})[ \t]{1,8}(?=\{)",
    None,
    kind="untagged",
    first="<",
    reader=_open_inside_tag,
)
"""``<functioncall {"name": …}>``: the call written inside a tag's brackets, as an attribute would be (a Home
Assistant user's local model): the brackets are the call's markup when the value is a call (offered tools only)."""
