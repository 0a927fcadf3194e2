"""ReAct, as LangChain's agents prompt for: ``Action: NAME`` then ``Action Input: {…}`` (or a plain string).

The same shape with other labels (a name label, then an input label on the next line) is read the same way:
Qwen-Agent's ``✿FUNCTION✿: NAME`` / ``✿ARGS✿: {…}``, and Functionary v2's ``<|recipient|>NAME`` /
``<|content|>{…}`` (special tokens, anywhere in the message).

Lenient forms of plain words, so the evidence is strict: ``Action:`` must begin the message or a line, the
name must be an offered tool (the opener is built from their names) and ``Action Input:`` must follow on the
next line. The input is a JSON object (the arguments), or a string up to the end of its line: the value of
the tool's one parameter (or its one required parameter), and a code fence opening on the next line continues
it up to the fence's closing line (``Action Input: Run this:`` then a ```` ```python ```` block, as LangChain's
conversational agent reads it); a JSON object wrapped in one call (``Tool({…})``) is the object; otherwise the
block goes back out as text, with no error. LangChain's JSON blob in a fence is `langchain_blob`'s.
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import Status
from shim.parsing.pythonic import parse_pythonic
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, keep_line_break, match_at
from shim.parsing.readers.bracket_action import takes_nothing
from shim.parsing.readers.json_body import CUT_OFF
from shim.parsing.readers.name_first import V2_HEADER, V2_ROWS
from shim.parsing.readers.tool_xml import NAMESPACES, tool_name_pattern
from shim.parsing.readers.untagged import JsonCandidate, UntaggedJson
from shim.parsing.shapes import ToolIndex, one_parameter

__all__ = ["ROWS", "ReactInput", "input_arguments", "lenient_loads", "string_arguments", "unquoted"]

_LINE_END = regex.compile(r"\r?\n")
_BLANKS = regex.compile(r"[ \t]+")
_BOLD_CLOSE = regex.compile(r"(?:\*\*|__)(?![*_])[ \t]*|[ \t]+")
"""Right after an input label's colon: the closer of its Markdown bold (``**Action Input:** {…}``), or blanks."""
_FLOWER_COLON = regex.compile(r"[ \t]*:?[ \t]*")
"""After ``✿ARGS✿``: its optional colon (the opener may end before it, where a chunk ends)."""
_NEXT_LINE_OBJECT = regex.compile(r"(?:\r?\n[ \t]*)?(?:```(?:json)?[ \t]*\r?\n[ \t]*)?\{")
"""``Action Input:`` with its JSON object on the next line, or in a ```` ```json ```` fence."""
_FENCE_END = regex.compile(r"[ \t\r\n]*```")
_RESULT_MARKER = regex.compile(r"[ \t]*(?:\r?\n[ \t]*)?✿RESULT✿[ \t]*:?[ \t]*\r?\n?")
"""Qwen-Agent's ``✿RESULT✿`` after a ``✿ARGS✿`` object, on its line: where the tool's result goes (the model stops
there), so it and its line breaks are the call's markup."""
_NEXT_LINE = regex.compile(r"\r?\n(?P<line>[^\r\n]*)\r?\n|\r?\n(?P<line>[^\r\n]+)\Z")
"""The line below a string input, whole (its line break seen, or the text's end)."""
_LABEL_LINE = regex.compile(r"[ \t]*(?:$|[*_#>`\-]|[^\s:]{1,24}(?:[ \t][^\s:]{1,24}){0,2}[ \t]*:)")
"""A line that ends a string input: blank, Markdown, or a label (``Observation:``, ``Final Answer:``, ``Thought:``).
Any other line goes on with the input (CrewAI and langchaingo read the input to the next label)."""
_LABEL_WORDS = ("Observation", "Thought", "Final Answer", "Action", "Question", "Answer")


def _ends_input(line: str) -> bool:
    """A label line, or a label word cut short where the text ends (a stop sequence: ``Obs``)."""
    word = line.strip()
    return _LABEL_LINE.match(line) is not None or any(
        w.casefold().startswith(word.casefold()) or word.casefold().startswith(w.casefold()) for w in _LABEL_WORDS
    )


_FENCE_NEXT = regex.compile(r"\r?\n[ \t]{0,3}```[^\r\n`]{0,32}\r?\n")
"""A code fence opening on the line right after a string input: it continues the input (LangChain reads the
input to the end of the output), up to `_FENCE_CLOSE`."""
_FENCE_CLOSE = regex.compile(r"\r?\n[ \t]{0,3}```")
_WRAPPED_OBJECT = regex.compile(r"[A-Za-z_][\w.]{0,63}[ \t]*\([ \t]*(?P<object>\{.*\})[ \t]*\)", regex.DOTALL)
"""An input that wraps its JSON object in one call of a class or the tool (``QueryEngineTool({…})``, seen by
LlamaIndex, whose ReAct parser reads the object between the first ``{`` and the last ``}``): the object."""
_EMPHASIS = r"(?:\*\*|__)?"


def _label(words: str, *, closed: bool = True) -> str:
    """A plain-word label and its colon, either or both in Markdown bold (``**Action:**``, ``**Action**:``). An
    input label ends at its colon (``closed`` False): the bold's closer after it is `ReactInput`'s to skip, so a
    chunk ending right after the colon does not end the opener there."""
    return rf"{_EMPHASIS}{words}[ \t]{{0,8}}{_EMPHASIS}:" + (_EMPHASIS if closed else "")


def _input(words: str) -> str:
    return _label(words, closed=False)


_LABELS = [
    (_label("Action"), _input(r"Action[ \t]{0,8}Input")),
    (r"✿FUNCTION✿[ \t]{0,8}:?", r"✿ARGS✿[ \t]{0,8}:?"),
    (_label(r"Tool[ \t]{0,8}Name"), _input(r"Tool[ \t]{0,8}Input")),
    (_label(r"(?:(?:Tool|Function)(?:[ \t]{0,8}Call)?|Call)"), _input(r"(?:Arguments|Args|Parameters|Params|Input)")),
]
"""Name and input labels of the forms read here: ReAct's, and Qwen-Agent's function-calling prompt
(``✿FUNCTION✿: NAME`` / ``✿ARGS✿: {…}``, then ``✿RESULT✿``). The flower markers are tokens no prose writes, so
their colon is optional (``✿FUNCTION✿read_file`` / ``✿ARGS✿{…}``, as agents that strip it print them); a plain
word label needs its colon. BeeAI's agents write ``Tool Name: NAME`` / ``Tool Caption: …`` / ``Tool Input: {…}``: the
caption line between is the call's display text, markup with it. Agents' own text protocols write ``Tool: NAME`` (or
``Function: NAME``, ``Tool call: NAME``) / ``Arguments: {…}`` (``Args:``, ``Parameters:``, ``Input:``; LocalCowork's LFM
prompt; ``Call: NAME``). A plain-word label may be in Markdown bold, as chat-tuned models write their labels."""
_CAPTION = r"(?:Tool[ \t]{0,8}(?:Caption|Description)[ \t]{0,8}:[^\r\n]{0,240}(?:\r?\n[ \t]{0,8}){1,2})?"
_NAME_LABEL = "|".join(name for name, _ in _LABELS)
_INPUT_LABEL = "|".join(label for _, label in _LABELS)
_BULLET = r"(?:[-*\u2022][ \t]{1,4})?"
_WRAP_OPEN = r"(?:(?P<square>\[)|(?P<quote>[`\"']))?"
_WRAP_CLOSE = r"(?(square)\]|(?(quote)(?P=quote)))"
"""A name in square brackets, backticks or quotes (``Action: [Search]``: LangChain's prompt lists the tool names as
``[{tool_names}]`` and models copy the brackets); the pair is markup."""
_HEAD = (
    rf"{_BULLET}(?:{_NAME_LABEL})[ \t]{{0,8}}(?:\r?\n[ \t]{{0,8}})?{_WRAP_OPEN}(?P<name>%s){_WRAP_CLOSE}"
    rf"(?:[ \t]{{0,8}}\([^()\r\n]{{0,160}}\))?"
    rf"(?:[ \t]{{1,8}}[-\u2013\u2014][ \t][^\r\n]{{0,240}})?[ \t]{{0,8}}"
    rf"(?:(?:(?:\r?\n[ \t]{{0,8}}){{1,6}}{_CAPTION}{_BULLET}|(?<=[ \t]))(?:{_INPUT_LABEL})[ \t]{{0,8}}"
    rf"|(?P<inline>(?:\r?\n[ \t]{{0,8}})?(?=\{{)))"
)
"""The name line (the name may be followed by a description or a signature in parentheses, ``Action: add (add two
numbers)``, and a dash and a description, as CrewAI prints its tools: ``Action: Internet Search Tool(user_query) -
Scrapes…``; or the name alone on the label's next line, ``Action:`` then ``dummy_tool``, gpt-4 in crewAI's
cassettes), then, after up to five blank lines, the input label; or the label on the same line after a blank
(``Action: foo Action Input: bar``, langchaingo's MRKL test); or no input label, a JSON object right after the
name on its line or the next (``Action: get_weather {"city": …}``, ``Call: NAME`` then ``{…}``): an object only.
Each label may be a list item (``- Action: NAME`` / ``- Action Input: …``, Llama 3 8B in Meta's ReAct notebook), its
bullet the call's markup."""
_FLOWER_HEAD = (
    rf"{_LABELS[1][0]}[ \t]{{0,8}}(?P<name>%s)[ \t]{{0,8}}(?:\r?\n[ \t]{{0,8}}){{0,6}}{_LABELS[1][1]}[ \t]{{0,8}}"
)
"""Qwen-Agent's markers with no line of their own: ``✿FUNCTION✿NAME`` then ``✿ARGS✿`` (colons optional)."""


def _names(tools: ToolIndex) -> str | None:
    """Every offered name (any script: ``加法``; words with single blanks between, as CrewAI names its tools:
    ``Internet Search Tool``), longest first, as one alternation, a template's namespace before it or not
    (``functions.NAME``); the label before it is the evidence."""
    names = sorted((n for n in tools.specs if n and _ONE_LINE.fullmatch(n)), key=len, reverse=True)
    alternation = "|".join(regex.escape(n).replace("\\ ", "[ \t]") for n in names)
    return rf"(?:{NAMESPACES}\.)?(?:{alternation})" if alternation else None


_ONE_LINE = regex.compile(r"\S+(?: \S+)*")


def string_arguments(tools: ToolIndex, name: str, value: str) -> dict[str, Any] | None:
    """A string input as arguments: the value of the tool's only parameter, or of its only required one."""
    return one_parameter(tools, name, value)


_INPUT_PARAMETERS = ("input", "tool_input", "action_input")
"""A parameter named for the input label itself: where a string input cannot be the tool's one parameter, it is
this one's value (antbot's harness hands a raw ``Action Input`` over as ``{"input": …}``)."""


def input_arguments(tools: ToolIndex, name: str, value: Any, raw: str | None = None) -> dict[str, Any] | None:
    """An action input as arguments: an object, JSON object text, keyword pairs (``k="v", k2=1``) of declared
    parameters, or another value (a string, a list) for the one parameter.

    An object (``raw``: its text as written) of more keys than the tool declares parameters, not all of them
    declared, for a tool that takes one string (its only parameter, or its only required one), is that string as
    written: LangChain hands a tool of one input the input whole (gpt-4 in LangChain's OpenAPI planner:
    ``requests_get`` takes ``{"url": …, "output_instructions": …}`` as its one ``text``)."""
    if isinstance(value, dict):
        return _object_input(tools, name, cast("dict[str, Any]", value), raw)
    if value is None:
        return {}
    if isinstance(value, str):
        text = value.strip()
        wrapped = _WRAPPED_OBJECT.fullmatch(text)
        if wrapped is not None:
            inner = lenient_loads(wrapped.group("object"))
            if isinstance(inner, dict):
                return inner  # pyright: ignore[reportUnknownVariableType]
        if text.startswith("{"):
            try:
                return input_arguments(tools, name, lenient_json.loads(text), text)
            except lenient_json.LenientJSONError:
                pass
        pairs = _keyword_pairs(tools, name, text)
        if pairs is not None:
            return pairs
        arguments = string_arguments(tools, name, value) or _input_parameter(tools, name, value)
        if arguments is None and "{" in text:  # `** {…}`: one JSON object after a stray mark
            inner = lenient_loads(text[text.index("{") : text.rindex("}") + 1] if "}" in text else "")
            if isinstance(inner, dict):
                return inner  # pyright: ignore[reportUnknownVariableType]
        return arguments
    one = one_parameter(tools, name, "x")  # a list or a number: the value of the one parameter
    return {next(iter(one)): value} if one else None


def _object_input(tools: ToolIndex, name: str, value: dict[str, Any], raw: str | None) -> dict[str, Any]:
    """An object input: the arguments, unless it is no object of the tool's parameters and the tool takes one
    string (`input_arguments`)."""
    tool = tools.resolve(name)
    props = tools.properties(tool)
    if raw is None or not props or all(key in props for key in value) or len(value) <= len(props):
        return value  # (one key for a tool of one parameter: that parameter misnamed, the arguments as written)
    one = one_parameter(tools, tool, raw.strip())
    key = next(iter(one)) if one else None
    return one if one and key is not None and tools.property_type(tool, key) == "string" else value


def _input_parameter(tools: ToolIndex, name: str, value: str) -> dict[str, Any] | None:
    """A string input as the value of the tool's parameter named for the input label (`_INPUT_PARAMETERS`)."""
    tool = tools.resolve(name)
    props = tools.properties(tool) or {}
    found = [key for key in _INPUT_PARAMETERS if key in props and tools.property_type(tool, key) in ("string", None)]
    return {found[0]: value} if len(found) == 1 else None


def _keyword_pairs(tools: ToolIndex, name: str, text: str) -> dict[str, Any] | None:
    """``location="Boston, MA", unit="fahrenheit"``: Python keyword arguments, each a declared parameter."""
    if "=" not in text:
        return None
    parsed = parse_pythonic(f"[_input({text})]")
    properties = tools.properties(name)
    if not parsed or properties is None:
        return None
    arguments = parsed[0][1]
    return arguments if arguments and all(key in properties for key in arguments) else None


class ReactInput:
    """What follows ``Action Input:``: a JSON object, or a string to the end of the line."""

    def __init__(
        self,
        ctx: Context,
        block: Block,
        name: str,
        *,
        result_marker: bool = False,
        objects_only: bool = False,
        at_label: bool = False,
    ) -> None:
        self.ctx = ctx
        self.name = name
        self.objects_only = objects_only
        """Only a JSON object is the input (`_PLAIN_NAME_LABEL`): a string after the label is text."""
        self.result_marker = result_marker
        """The labels were Qwen-Agent's: a ``✿RESULT✿`` after the object belongs to the call."""
        self.read: tuple[Any, str] | None = None
        """The object, once read whole (the stream may end while a ``✿RESULT✿`` after it is awaited)."""
        self.json: JsonCandidate | None = None
        self.body: list[str] = []  # the string input, to the end of the line
        self.fenced = False  # the object sits in a ```json fence, whose end belongs to the call
        self.in_fence = False  # inside a code fence that continues a string input
        self.at_label = at_label
        """Reading starts right after the input label's colon, where the label's bold may close (`_BOLD_CLOSE`)."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if self.json is None and not self.body:
            after_label = _FLOWER_COLON if self.result_marker else _BOLD_CLOSE if self.at_label else _BLANKS
            blanks = after_label.match(text, pos, partial=not final)
            if blanks is not None and blanks.partial:
                return pos, MORE
            if blanks is not None:
                ctx.consume(blanks.group())
                pos = blanks.end()
            self.at_label = False
            if pos >= len(text) and not final:
                return pos, self
            below = _NEXT_LINE_OBJECT.match(text, pos, partial=not final)
            if below is not None and below.partial:
                return pos, MORE
            if below is not None:
                self.fenced = "`" in below.group()
                ctx.consume(text[pos : below.end() - 1])
                pos = below.end() - 1
            if text[pos : pos + 1] == "{":
                self.json = JsonCandidate(ctx, revert=False)
        if self.json is not None:
            new, status = self.json.scan(text, pos, final)
            if status is Status.MORE:
                return new, MORE
            if status is not Status.DONE:  # braces around no JSON (`{temperature in SF}`): a string input
                self.body, self.json = [self.json.text()], None
                return new, self

            if self.fenced:
                fence = match_at(_FENCE_END, text, new, final)
                if fence is MORE:  # the scanner is done: the next feed comes straight back here
                    return new, MORE
                if fence is not None:
                    ctx.consume(fence.group())
                    new = fence.end()
            value = lenient_loads(self.json.text())
            self.read = (value, self.json.text())
            if self.result_marker and input_arguments(ctx.tools, self.name, value) is not None:
                result = match_at(_RESULT_MARKER, text, new, final)
                if result is MORE:
                    return new, MORE
                if result is not None:
                    ctx.consume(result.group())
                    new = result.end()
            return new, self._decide(value, self.json.text())
        if self.in_fence:  # the code fence the input's line introduced, up to its closing line
            close = _FENCE_CLOSE.search(text, pos, partial=not final)
            stop = len(text) if close is None else close.start()
            ctx.consume(text[pos:stop])
            self.body.append(text[pos:stop])
            if close is None or close.partial:
                return stop, (self if close is None else MORE)
            ctx.consume(close.group())
            self.body.append(close.group())
            self.in_fence = False
            return close.end(), self._decide(unquoted("".join(self.body)))
        end = _LINE_END.search(text, pos)
        stop = len(text) if end is None else end.start()
        ctx.consume(text[pos:stop])
        self.body.append(text[pos:stop])
        if end is None and not final:
            return stop, self
        if end is not None:
            more = match_at(_NEXT_LINE, text, stop, final)
            if more is MORE:
                return stop, MORE
            if more is not None and not _ends_input(more.group("line")):  # the input goes on below
                ctx.consume(text[stop : more.start("line")])
                self.body.append(text[stop : more.start("line")])
                return more.start("line"), self
            if more is not None and not more.group("line").strip():  # a blank line: the input may go on to the end
                wait, rest = _rest_of_input(text[stop:], final)
                if wait:
                    return stop, MORE
                if rest is not None:
                    ctx.consume(rest)
                    self.body.append(rest)
                    return len(text), self._decide(unquoted("".join(self.body)))
            fence = _FENCE_NEXT.match(text, stop, partial=not final)
            if fence is not None and fence.partial:
                return stop, MORE
            if fence is not None:  # `Action Input: Run this:` then a fence on the next line: the fence is input
                ctx.consume(fence.group())
                self.body.append(fence.group())
                self.in_fence = True
                return fence.end(), self
        return stop, self._decide(unquoted("".join(self.body)))

    def _decide(self, value: Any, raw: str | None = None) -> Next:
        if self.objects_only and not isinstance(value, dict):
            self.ctx.revert()
            return None
        arguments = input_arguments(self.ctx.tools, self.name, value, None if self.objects_only else raw)
        if arguments is None:
            self.ctx.revert()
        else:
            self.ctx.end_call(self.name, arguments, streamed=False)
        return None

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.fail_call(CUT_OFF)
        elif self.json is None:
            self._decide(unquoted("".join(self.body)))
        elif self.read is not None:
            self._decide(*self.read)
        elif isinstance(value := lenient_loads(self.json.text()), dict):  # closers left out at the end
            self._decide(value)
        else:
            self.ctx.revert()


def _rest_of_input(rest: str, final: bool) -> tuple[bool, str | None]:
    """After a string input's line, a blank line: the rest of the output is still the input where every line of it
    is blank or no label (LangChain's MRKL parser reads the input to the output's end: gpt-3.5's GitLab agent wrote a
    file's name, a blank line, then its contents): ``(wait, rest)``, waiting to the output's end unless a label shows
    sooner."""
    lines = rest.splitlines()
    whole = lines if final else lines[:-1]  # the last line may still grow
    if any(line.strip() and _ends_input(line) for line in whole):
        return False, None
    if not final:
        return True, None
    return False, rest if any(line.strip() for line in lines) else None


def unquoted(text: str) -> str:
    """A string input without the quotes around it (``"Paris"``; ``'Paris'``, single quotes with no other inside,
    as the completion models of Eden AI's LangChain notebook wrote them), or without a stray double quote at an end
    that no other pairs with (``"Paris``); keyword pairs keep their own, and so does an input whose quotes pair up
    inside (``SELECT "UserName" … GROUP BY "UserName"``: the last quote closes an identifier, LangChain's MRKL
    test)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'" and "'" not in text[1:-1]:
        return text[1:-1]
    return text if "=" in text or text.count('"') % 2 == 0 else text.strip('"')


def lenient_loads(text: str) -> Any:
    try:
        return lenient_json.loads(text)
    except lenient_json.LenientJSONError:
        return None


class NoInput:
    """``Action: NAME`` with no input label after it, the name line ending the message (antbot's ReAct tests: the
    model stopped there): a call of a tool that takes no arguments. Anything but blanks after it: text.
    The blanks after it stay text."""

    def __init__(self, ctx: Context, name: str) -> None:
        self.ctx = ctx
        self.name = name

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if text[pos:].strip(" \t\r\n"):
            self.ctx.revert()
            return pos, None
        if not final:
            return pos, MORE
        self._decide()
        return pos, None

    def _decide(self) -> None:
        tools = self.ctx.tools
        spec = tools.specs.get(tools.resolve(self.name))
        if spec is None or not takes_nothing(spec.input_schema):
            self.ctx.revert()
        else:
            self.ctx.end_call(spec.name, {}, streamed=False)

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.revert()
        else:
            self._decide()


def _open_line(ctx: Context, block: Block, match: regex.Match[str]) -> ReactInput | NoInput:
    opener, _ = keep_line_break(ctx, "\r\n \t")  # the line break before `Action:` stays text
    if match.groupdict().get("alone") is not None:
        return NoInput(ctx, match.group("name"))
    objects_only = _PLAIN_NAME_LABEL.match(match.group()) is not None or match.groupdict().get("inline") is not None
    return ReactInput(
        ctx,
        block,
        match.group("name"),
        result_marker="✿" in opener,
        objects_only=objects_only,
        at_label=match.group().endswith(":"),  # no blank taken after the colon: the label's bold may close there
    )


_PLAIN_NAME_LABEL = regex.compile(
    rf"[\r\n \t]*{_BULLET}{_EMPHASIS}(?:(?:Tool|Function)(?:[ \t]{{0,8}}Call)?|Call)[ \t]{{0,8}}{_EMPHASIS}:"
)
"""``Tool: NAME`` / ``Function: NAME``: labels a document's prose writes too (``Function: get_weather`` /
``Parameters: city (string)``), so their input counts only as a JSON object of arguments, never a plain string."""


def _head(prefix: str) -> Any:
    def build(tools: ToolIndex) -> str | None:
        names = _names(tools)
        return None if names is None else prefix + _HEAD % names

    return build


_ALONE = (
    rf"{_BULLET}{_LABELS[0][0]}[ \t]{{0,8}}{_WRAP_OPEN}(?P<name>%s){_WRAP_CLOSE}"
    rf"(?P<alone>(?=[ \t]{{0,8}}(?:\r?\n|\Z)))"
)
"""``Action: NAME`` with nothing after it on its line: `NoInput` decides (after the rows with an input label, which a
chunk's end may still open: the table waits for them)."""


def _alone(prefix: str) -> Any:
    def build(tools: ToolIndex) -> str | None:
        names = _names(tools)
        return None if names is None else prefix + _ALONE % names

    return build


def _open_labelled_json(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    block.fence = match.group("fence") is not None  # its closing fence is the call's markup too
    return UntaggedJson(ctx, block, labelled=True)  # the label is the call's markup if the value is a call, else text


def _open_sigil_json(ctx: Context, block: Block, match: regex.Match[str]) -> UntaggedJson:
    keep_line_break(ctx)  # the line break before `$` stays text
    return UntaggedJson(ctx, block)  # `$` is the call's markup if the value is a call, else text again


_SIGIL = r"\$(?=[ \t]{0,2}\{)"
"""The ``$`` of a prompt's ``$JSON_BLOB`` placeholder, left before the JSON the model wrote in its place (the
agents course's ReAct prompt: models print ``${"action": …}``)."""


ROWS = [
    # Action:\n{"tool_name": …, "tool_arguments": …}: a JSON call after an `Action:` label (smolagents' JSON
    # agents), bare or in a ```json fence (the agents course's ReAct prompt); counts only as an untagged call does
    # (a call shape naming an offered tool).
    Dialect(
        "action_json",
        r"Action[ \t]{0,8}:[ \t]{0,8}(?:\r?\n[ \t]{0,8}){0,2}"
        r"(?P<fence>```(?:json)?[ \t]{0,8}\r?\n[ \t\r\n]{0,64})?\$?(?=[\{\[])",
        None,
        kind="untagged",
        reader=_open_labelled_json,
    ),
    # ${"action": …}: a JSON call in place of the prompt's `$JSON_BLOB`, its sigil kept, opening the message or a line.
    Dialect("sigil_json", _SIGIL, None, kind="untagged", start="message", reader=_open_sigil_json),
    Dialect("sigil_json_line", r"\n[ \t]{0,8}" + _SIGIL, None, kind="untagged", first="\n", reader=_open_sigil_json),
    # Action: NAME \n Action Input: … opening the message or a line; NAME an offered tool.
    Dialect(
        "react",
        "Action",
        None,
        kind="untagged",
        start="message",
        first="AaTtFfCc✿-*\u2022",  # the name line's label, or its bullet
        reader=_open_line,
        open_for_tools=_head(""),
    ),
    Dialect(
        "react_line", r"\n", None, kind="untagged", first="\n", reader=_open_line, open_for_tools=_head(r"\n[ \t]{0,8}")
    ),
    # Action: NAME alone on the message's last line: a tool that takes nothing (`NoInput`).
    Dialect(
        "react_alone",
        "Action",
        None,
        kind="untagged",
        start="message",
        first="Aa-*\u2022",
        reader=_open_line,
        open_for_tools=_alone(""),
    ),
    Dialect(
        "react_alone_line",
        r"\n",
        None,
        kind="untagged",
        first="\n",
        reader=_open_line,
        open_for_tools=_alone(r"\n[ \t]{0,8}"),
    ),
    # ✿FUNCTION✿NAME ✿ARGS✿{…} anywhere (right after the ✿RESULT✿ of the call before it, say): Qwen-Agent's markers
    # are tokens, not words, so they need no line of their own; NAME an offered tool.
    Dialect(
        "qwen_agent_fncall",
        "✿FUNCTION✿",
        None,
        kind="untagged",
        first="✿",
        reader=_open_line,
        open_for_tools=lambda tools: None if (names := _names(tools)) is None else _FLOWER_HEAD % names,
    ),
    # Functionary v2: <|recipient|>NAME\n<|content|>{…}; special tokens, but the name must be an offered tool
    # (``<|recipient|>all`` addresses the user).
    *V2_ROWS,
    Dialect(
        "functionary_v2",
        r"<\|recipient\|>",
        None,
        reader=_open_line,
        open_for_tools=lambda tools: (
            None
            if (names := tool_name_pattern(tools)) is None
            else rf"{V2_HEADER}(?P<name>{names})[ \t]{{0,4}}\r?\n?[ \t]{{0,4}}<\|content\|>[ \t]{{0,4}}"
        ),
    ),
]
