"""Python-style calls of offered tools outside the message's opening list: ``get_weather(city="Paris")`` on
its own, and ``[get_weather(city='Tokyo')]`` after some text (``Here's a call: [get_weather(…)]``).

Lenient forms of plain words, so the evidence is strict. The opener is built from offered tool names only.
A bare call counts where it opens the message or an unindented line (there with at least one argument:
``main()`` in code is no call), with keyword arguments of literal values only (read with `ast`, never
evaluated) and nothing but blanks after it on its line: ``print(get_weather(…))``,
``x = get_weather(…)`` or ``get_weather(…).json()`` stay text; prose glued to its ``)`` that no Python goes on
with (``)1. **Path**``, ``)The file``: a stream that lost a line break) is prose after the call. A list after
text counts when every item is such a call and it is not glued to what follows (a backtick, a ``(`` of a
Markdown link, a word): inline code stays text; the model's end-of-turn token right after it (``<|eot_id|>``,
``<|eot|>``) is markup. The list that opens a message is `pythonic_list`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, cast

import regex

from shim.parsing.pythonic import PythonicScanner, parse_pythonic
from shim.parsing.readers.base import (
    MORE,
    NAME_START,
    Block,
    Context,
    Dialect,
    Next,
    Reader,
    keep_line_break,
    message_and_line_rows,
)
from shim.parsing.readers.block_end import TURN_END, Closed, Revert
from shim.parsing.readers.prose import presents
from shim.parsing.readers.prose_call import in_prose
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.shapes import ToolIndex

__all__ = ["ROWS", "PythonicCalls", "schema_of", "spelled_as_string"]


def spelled_as_string(tools: ToolIndex, name: str, key: str) -> bool:
    """Whether an offered tool's parameter ``key`` is declared a string, or declared with no type at all (BFCL's
    ``any``): where a model's unquoted identifier is the string it spells."""
    props = tools.properties(tools.resolve(name))
    found: Any = props.get(key) if props is not None else None
    if not isinstance(found, dict):
        return False
    schema = cast(dict[str, Any], found)
    kinds: Any = schema.get("type")
    if kinds is None:
        return not any(k in schema for k in ("enum", "const", "anyOf", "oneOf", "allOf", "properties", "items"))
    return kinds == "string" or kinds == ["string"]


def declared_string(tools: ToolIndex, name: str, key: str) -> bool:
    """Whether an offered tool's parameter ``key`` is declared a string (``"type": "string"``), untyped not."""
    props = tools.properties(tools.resolve(name))
    found: Any = props.get(key) if props is not None else None
    kinds: Any = cast(dict[str, Any], found).get("type") if isinstance(found, dict) else None
    return kinds == "string" or kinds == ["string"]


def schema_of(
    tools: ToolIndex,
) -> tuple[Callable[[str], list[str]], Callable[[str, str], bool], Callable[[str, str], bool]]:
    """What `parse_pythonic` asks of the offered tools' schemas: a tool's parameter names in order (positional
    arguments bind to them), whether an identifier is the spelling of a parameter's string value, and whether a
    parameter is declared a string (a number written there is its text)."""
    return tools.parameter_names, partial(spelled_as_string, tools), partial(declared_string, tools)


_BLANKS = regex.compile(r"[ \t]*(?:;[ \t]*)?")
"""Blanks after a bare call, and the ``;`` that may end its statement (NexusRaven's ``a(…); b(…); ``)."""
_TOKEN = regex.compile(r"<\|?/?[A-Za-z_][\w|]{0,23}\|?>")
"""A special token (``<bot_end>``, ``<|eot_id|>``, ``</s>``) written right after a call."""
_SENTENCE = regex.compile(r"\p{Lu}[\p{Ll}'\u2019 ]")
"""A sentence's start: a capital, then a small letter, an apostrophe (typographic too) or a blank (``I have``)."""
_NO_CODE = regex.compile(r"\d{1,3}[.)][ \t]|#{1,6}[ \t]|\p{Lu}\p{Ll}")
"""Text glued to a bare call's ``)`` that continues no Python expression (``)1. **Path**``, ``)## Done``,
``)The file``): prose whose line break the stream lost; ``).json()``, ``)[0]``, ``) or x`` are code."""
_GLUED = regex.compile(r"[\w`'\"(\[{<]")  # what may not follow a list in prose


class PythonicCalls:
    """One bare call, or one list of calls, decided once it is complete and what follows it is seen."""

    def __init__(
        self,
        ctx: Context,
        block: Block,
        opener: str,
        *,
        bare: bool,
        line: bool = False,
        emphasis: str = "",
        fenced: bool = False,
        ending: bool = False,
        labelled: bool = False,
    ) -> None:
        self.ctx = ctx
        self.labelled = labelled
        """Written under a label that says it is a call (``Tool call:``): its values may be words without quotes."""
        self.bare = bare
        self.line = line
        self.emphasis = emphasis
        """The Markdown emphasis (``**``) the call opened inside: its closing twin after the call is markup too."""
        self.fenced = fenced
        """Opened by a fence on its line (BrowserGym's ```` ```click('81')``` ````): its closing fence is markup."""
        self.ending = ending
        """The fence stands on a line of its own, the call on the next: that block is the action only where the
        output's end cuts it open (the stop sequence BrowserGym's harness sets, ``)`` or the fence, cut the rest); a
        whole fenced call is a snippet shown (a document's "will catch" example), text."""
        self.scanner = PythonicScanner(apostrophes=labelled)
        self.scanner.feed(opener, 0)  # the opener (`name(` or `[name(`) was consumed by the core
        self.body = [opener]
        self.calls: list[tuple[str, dict[str, Any]]] | None = None
        self.opening = not ctx.shown
        """The calls open the message: prose may follow them on their line (LFM2.5's ``[…]I'm scheduling…``)."""
        self.done: list[tuple[str, dict[str, Any]]] = []
        """Calls read before this one on its line (``a(x=1); b(y=2)``, ``<<function>>a(…)<<function>>b(…)``)."""

    def _next_call(self, text: str, found: regex.Match[str]) -> int | None:
        """Another call on the line after a ``;`` or under the label again: read it as part of the run (the
        whole run reverts to text unless every call in it is one); None: what follows is no call's start."""
        name = found.group("name")
        if not self.ctx.tools.is_known(name):
            return None
        assert self.calls is not None
        self.done, self.calls = self.calls, None
        label = (found.group("label") or "").strip()
        self.emphasis = label if label in _EMPHASIS_END else ""
        self.ctx.consume(found.group())
        self.scanner = PythonicScanner(apostrophes=self.labelled)
        opener = f"{name}("
        self.scanner.feed(opener, 0)
        self.body = [opener]
        return found.end()

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.calls is None:
            new = self.scanner.feed(text, pos)
            self.ctx.consume(text[pos:new])
            self.body.append(text[pos:new])
            if not self.scanner.done:
                return new, self
            body = "".join(self.body)
            # A list opening the message is its call block: bare values read as text there (`pythonic.py`).
            lenient = self.opening and not self.bare
            calls = parse_pythonic(
                f"[{body}]" if self.bare else body,
                *schema_of(self.ctx.tools),
                lenient=lenient,
                words=self.opening,
                unquoted=self.labelled,
            )
            if not calls or not all(self.ctx.tools.is_known(name) and (args or not self.line) for name, args in calls):
                self.ctx.revert()
                return new, None
            self.calls = self.done + calls
            pos = new
        if self.emphasis:
            closing = _EMPHASIS_END[self.emphasis].match(text, pos, partial=not final)
            if closing is not None and closing.partial:
                return pos, MORE
            if closing is not None:
                self.ctx.consume(closing.group())
                pos = closing.end()
            self.emphasis = ""
        if self.bare:
            more = _NEXT_CALL.match(text, pos, partial=not final)
            if more is not None and more.partial:
                return pos, MORE
            if more is not None and (more.group("sep") or more.group("label") or more.group("blank")):
                nxt = self._next_call(text, more)
                if nxt is not None:
                    return nxt, self
        if self.fenced:
            fence = _FENCE_END.match(text, pos, partial=not final)
            if fence is not None and fence.partial:
                return pos, MORE
            if fence is not None:  # the closing fence (often cut by the stop sequence ```) is the call's markup
                self.ctx.consume(fence.group())
                pos = fence.end()
                self.fenced = False
                if self.ending:  # a whole fenced block ending a reply: a snippet shown (a document's example)
                    self.ctx.revert()
                    return pos, None
        if self.ending:  # the output's end must cut the fence open: anything after the call makes it a snippet
            if not _TRAILING.fullmatch(text, pos):
                self.ctx.revert()
                return pos, None
            if not final:
                return pos, MORE
        blanks = _BLANKS.match(text, pos)
        assert blanks is not None
        after = blanks.end()
        bracket: int | None = None
        if after >= len(text) and not final:
            return pos, MORE  # what follows decides: look again with more input
        if self.bare:
            # `Read(…)]<|tool_call_end|>` opening the message: a call list's tail, its opener cut off (a log
            # quoting the output from inside the list): the `]` before the list's closing token is markup too.
            start = after + 1 if self.opening and text.startswith("]", after) else after
            token = _TOKEN.match(text, start, partial=not final)
            if start > after and token is not None and not token.partial:
                bracket = after
            while token is not None and not token.partial:  # `…)<bot_end>`, `…)<|eot_id|>`: the model's end-of-turn
                after = token.end()  # token (and any more after it) ends the line
                token = _TOKEN.match(text, after, partial=not final)
            if token is not None and token.partial:
                return pos, MORE
            alone = after >= len(text) or text[after] in "\r\n"
        else:
            turn = TURN_END.match(text, pos, partial=not final)
            if turn is not None and turn.partial:
                return pos, MORE
            alone = pos >= len(text) or turn is not None or _GLUED.match(text, pos) is None
        if not alone and self.opening and (after > pos or not self.bare):
            # Calls that open the message, then a sentence: a call, then prose (a bare call needs a blank
            # before it, `get_weather(…).json()` is code; a list may be glued to it).
            sentence = _SENTENCE.match(text, after, partial=not final)
            if sentence is not None and sentence.partial:
                return pos, MORE
            alone = sentence is not None
        if not alone and self.bare and (self.line or self.opening) and after == pos:
            # A call opening a line, then text glued to its `)` that no Python goes on with (a numbered item,
            # a heading, a capitalised word): the model's stream lost the line break between call and answer.
            glued = _NO_CODE.match(text, pos, partial=not final)
            if glued is not None and glued.partial:
                return pos, MORE
            alone = glued is not None
        if not alone:
            self.ctx.revert()
            return pos, None
        semi = text.find(";", pos, after) if self.bare else -1
        if semi >= 0:  # `a(…); ` ending the line: the statement's separator is the call's markup
            self.ctx.consume(text[pos : semi + 1])
            pos = semi + 1
        for name, arguments in self.calls:
            self.ctx.end_call(name, arguments, streamed=False)
        if bracket is not None and bracket >= pos:
            self.ctx.markup(text[pos : bracket + 1])
            pos = bracket + 1
        if not self.bare:
            return pos, Closed(self.ctx)  # `[…]<|eot_id|>`: the model's end-of-turn token is markup
        return pos, None

    def finish(self, truncated: bool) -> None:
        body = "".join(self.body)
        cut = body.rstrip()[-1:] in (",", "(", "=")  # an argument not written yet: cut off, not closed
        if self.calls is None and self.fenced and not truncated and not cut and self.scanner.only_closer_missing:
            # the output ends after a fenced call's last argument: only its `)` is missing (BrowserGym's
            # ```click('81'), the stop sequence ``` cutting the rest)
            calls = parse_pythonic(f"[{body})]", *schema_of(self.ctx.tools))
            if self.ctx.tools.offers_all(calls):
                self.calls = calls
        listed = self.scanner.with_list_closed(body)
        if self.calls is None and not self.bare and self.opening and not truncated and listed is not None:
            # a list opening the message, the output ending after its last call's `)` (`PythonicList` reads
            # the same when it holds the list)
            calls = parse_pythonic(listed, *schema_of(self.ctx.tools))
            if self.ctx.tools.offers_all(calls):
                self.calls = calls
        if self.calls is None or truncated:
            self.ctx.revert()
        else:
            self.feed("", 0, True)


def _open_bare(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicCalls:
    opener, lead = keep_line_break(ctx, "\r\n \t")  # the line break before the call stays text
    label = match.start("name") - match.start() - lead if "label" in match.groupdict() else 0
    call = opener[lead + label :]  # after a label (`Call: `, `<<function>>`): the call itself
    emphasis = opener[lead : lead + label].strip()
    emphasis = emphasis if emphasis in _EMPHASIS_END else ""
    labelled = match.groupdict().get("said") is not None
    return PythonicCalls(ctx, block, call, bare=True, line=lead > 0 and not label, emphasis=emphasis, labelled=labelled)


def _open_after_word(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    """``Path: search_tool(…)``: a colon after one word that opens the message or a line (`_WORD_LABEL`, the text
    just before it), then an offered tool's call. The label and its colon stay text, the call is read as a bare call
    opening a line (with arguments, alone on its line); a label presenting an example (``Example:``, `presents`)
    keeps it all text; after a sentence's colon (``First create a file: create_file({…})``) the call is read as one
    in prose (`shim.parsing.readers.prose_call.in_prose`: a JSON object of declared keys, or text)."""
    tail = ctx.tail()
    label = _WORD_LABEL.search(tail)
    opener = ctx.take_raw()
    lead = match.start("name") - match.start()
    ctx.text(opener[:lead])
    ctx.consume(opener[lead:])
    if presents(tail + ":"):
        return Revert(ctx)
    if label is None or (label.start() == 0 and len(tail) >= _TAIL_SPAN):  # a sentence's colon: a call in prose?
        return in_prose(ctx, match.group("name"), paren=True)
    return PythonicCalls(ctx, block, opener[lead:], bare=True, line=True)


def _open_list(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicCalls:
    opener = match.group()
    emphasis = opener[:2] if opener[:2] in _EMPHASIS_END else ""
    return PythonicCalls(ctx, block, opener[len(emphasis) :], bare=False, emphasis=emphasis)


def _open_fenced(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicCalls:
    opener, _ = keep_line_break(ctx)  # the line break before the fence stays text
    name = match.start("name") - match.start()
    ending = match.group("own") is not None
    return PythonicCalls(ctx, block, opener[name:], bare=True, fenced=True, ending=ending)


def _action_opener(tools: ToolIndex) -> str | None:
    names = tool_name_pattern(tools)
    # the opener begins with its literal word, so the text scanner's fast path stops only at that word
    return None if names is None else rf"Action(?P<label>[ \t]{{0,4}}[:\uff1a])[ \t]{{0,4}}(?P<name>{names})\("


def _open_bracket(ctx: Context, block: Block, match: regex.Match[str]) -> PythonicCalls:
    # `[CALL NAME(…)]`: the word is the bracket's label, markup; the rest is a list of one call
    return PythonicCalls(ctx, block, "[" + match.group()[match.start("name") - match.start() :], bare=False)


def _opener(prefix: str, *, labelled: bool = False) -> Any:
    def build(tools: ToolIndex) -> str | None:
        names = tool_name_pattern(tools)
        if names is not None and tools.tails:  # `doDeleteByQuery(…)` for `Tests.doDeleteByQuery`: the class left out
            names += "|" + "|".join(regex.escape(m) for m in sorted(tools.tails, key=len, reverse=True))
        label = rf"(?P<label>(?P<said>{_CALL_LABEL})|{_LABEL})[ \t]{{0,4}}" if labelled else ""
        # `Tool call: NAME (…)`: after a label saying it is a call, a blank may part the name and its `(` (ReAct's
        # `Action: add (add two numbers)` is a name and its description)
        gap = r"(?(said)[ \t]{0,4})" if labelled else ""
        return None if names is None else rf"{prefix}{label}(?P<name>{_TOOLS}(?:{names}){_BUILT_IN}){gap}\("

    return build


_TOOLS = r"(?:tools\.)?"
"""A ``tools.`` namespace before the offered name (``tools.get_weather(city="Paris")``: Gemini 2.5 Flash leaking its
tool code, Maliev's tests), as a template's ``functions.`` or ``default_api.`` is (`tool_name_pattern`); the name
after it is matched as any other, and `ToolIndex.resolve` takes the namespace off."""
_BUILT_IN = r"(?:\.call)?"
"""Llama 3.1's built-in call, ``brave_search.call(query="…")``, written with no ``<|python_tag|>`` before it (an API
that drops special tokens returns the call alone): the offered tool's name then ``.call``, which `ToolIndex.resolve`
reads as the tool's."""
_ACTION = r"Action[ \t]{0,4}[:\uff1a]"
_CALL_LABEL = r"(?:Calling[ \t]{1,4}(?:tool|function)|(?:(?:tool|function)[ _]?)?Call)[ \t]{0,4}:"
"""A label saying the call is one (``Tool call:``, ``Call:``, ``Calling tool:``): its values may be words."""
_LABEL = (
    rf"(?:Calling[ \t]{{1,4}}(?:tool|function)|(?:(?:tool|function)[ _]?)?Call|tool|function)[ \t]{{0,4}}:"
    rf"|<<function>>|\*\*|__|{_ACTION}"
)
"""Labels models put before a Python-style call: NexusRaven's ``Call: NAME(…)``, Gorilla OpenFunctions'
``<<function>>NAME(…)``, the ``Calling tool: NAME(…)`` line of a chat history's call record (qMLX), ``tool:
NAME({…})`` (beauford's prompt; ``Function:``, ``Tool call:`` alike), Markdown's bold (``**NAME(…)**``, Llama 3.2 3B
and Qwen2.5 1.5B in BFCL's result files, whose closing twin right after the call is its markup too), GUI agents'
``Action: click(start_box='(10,20)')`` (UI-TARS, whose Chinese outputs may write the full-width colon U+FF1A);
ReAct's ``Action: NAME`` with no parenthesis is `react`'s."""
_WORD_LABEL = regex.compile(rf"(?:^|\n)[ \t]{{0,8}}(?!(?:{_LABEL})$)\p{{L}}[\p{{L}}\p{{N}}_\-]{{0,31}}[ \t]{{0,4}}$")
"""One word opening the message or a line, right before a colon and a call (SwiftAgentKit's tests: ``Path:
search_tool(…)``, ``Processing: …``, ``Query: …``): the line's label, text (the labels of `_LABEL` are markup,
read by the ``labelled_call`` rows)."""
_TAIL_SPAN = 120
"""A label matched at the start of the recent text counts only where that text is the whole message so far (the
core keeps its last 160 characters)."""
_EMPHASIS_END = {"**": regex.compile(r"[ \t]{0,4}\*\*"), "__": regex.compile(r"[ \t]{0,4}__")}

_TRAILING = regex.compile(r"[ \t\r\n]*")
_FENCE_END = regex.compile(r"[ \t]{0,4}(?:\r?\n[ \t]{0,3})?```")
_FENCE = r"```[ \t]{0,4}(?P<own>\r?\n[ \t]{0,8})?"
"""A fence opened right before a call on its line, with no language: BrowserGym's action block; or the fence alone
on its line and the call on the next (OpenHands' browsing agent, its stop sequence cutting the call's `)`), which
counts only where the output's end cuts the fence open."""

_BRACKET_WORD = r"(?:(?:tool|function)[ _]?)?call[ \t]{0,4}:?"
"""The word that labels a bracketed call: ``[CALL NAME(…)]``, ``[TOOL_CALL NAME(…)]``, ``[Function call: NAME(…)]``."""

_NEXT_CALL = regex.compile(
    rf"(?P<blank>[ \t]{{0,8}})(?P<sep>[;,][ \t]{{0,8}})?(?P<label>(?:{_LABEL})[ \t]{{0,4}})?"
    rf"(?P<name>[A-Za-z_][\w.\-]{{0,127}})\("
)
"""Another call on the same line: after Python's statement separator (NexusRaven's ``a(…); b(…)``), a comma
(Gorilla OpenFunctions v2's README: ``a(…), b(…)``), under the label again (Gorilla's
``<<function>>a(…)<<function>>b(…)``) or after blanks alone (Qwen2.5 3B in BFCL: ``a(…) b(…)``); one of them is
needed, and every call of the run must be one."""


ROWS = [
    # get_weather(city="Paris") opening the message or a line, alone on it.
    *message_and_line_rows("pythonic_call", _opener, reader=_open_bare, open="call", first=NAME_START, indent=""),
    # Call: get_weather(city="Paris") / <<function>>get_weather(…), opening the message or a line.
    *message_and_line_rows(
        "labelled_call",
        lambda prefix: _opener(prefix, labelled=True),
        reader=_open_bare,
        open="call",
        first="CcAaTtFf<*_",
    ),
    # Path: search_tool(query="x", path="/usr"): a one-word label opening the message or a line, its colon, a call.
    # Read from the colon (a stop of the text scanner already), the word before it from the recent text: a row at
    # every line's first word would hold back each line's start in prose.
    Dialect(
        "word_label_call",
        ":",
        None,
        kind="untagged",
        first=":",
        reader=_open_after_word,
        open_for_tools=_opener(r":[ \t]{1,4}"),
    ),
    # Thought: … close it. Action: click(start_box='(962,108)'): a GUI agent's Action label after its thought on one
    # line (UI-TARS's parser splits at the label); the call must still end its line.
    Dialect(
        "action_call_inline",
        "Action",
        None,
        kind="untagged",
        reader=_open_bare,  # no `first`: the scanner stops at the leading word, not at every `a` of prose
        open_for_tools=_action_opener,
    ),
    # ```click('81')```: a call fenced on its own line, opening the message or a line (BrowserGym, OpenHands).
    Dialect(
        "fenced_call",
        "```",
        None,
        kind="untagged",
        start="message",
        first="`",
        reader=_open_fenced,
        open_for_tools=_opener(_FENCE),
    ),
    Dialect(
        "fenced_call_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open_fenced,
        open_for_tools=_opener(rf"\r?\n{_FENCE}"),
    ),
    # [CALL CreateFile('a.java', '…')]: a call word labels the bracket (OllamAssist's BracketCallParser).
    Dialect(
        "bracket_call",
        r"\[",
        None,
        kind="untagged",
        first="[",
        reader=_open_bracket,
        open_for_tools=_opener(rf"\[[ \t]{{0,4}}{_BRACKET_WORD}[ \t]{{1,4}}"),
    ),
    # Here's a call: [get_weather(city='Tokyo')]
    Dialect(
        "pythonic_list_inline",
        r"\[",
        None,
        kind="untagged",
        first="[",
        reader=_open_list,
        open_for_tools=_opener(r"\[[ \t]{0,8}"),
    ),
    # **[get_weather(city='Tokyo')]**: the list in Markdown's bold, which is its markup.
    Dialect(
        "pythonic_list_bold",
        r"\*\*|__",
        None,
        kind="untagged",
        first="*_",
        reader=_open_list,
        open_for_tools=_opener(r"(?:\*\*|__)\[[ \t]{0,8}"),
    ),
]
