"""The reader protocol: what a dialect family implements, and what the core `StreamParser` does for it.

A family is a `Dialect` row (where a block may start: an opening pattern, and the evidence it needs) plus
a `Reader` that reads the block's body. Like httpx's content decoders, a reader is small and sans-IO:

- ``feed(text, pos, final) -> (pos, next)``: read ``text`` from ``pos``; return how far it got and who
  reads on: ``self`` (or another reader, the next phase of the block), ``None`` (the block is over, back
  to text) or `MORE` (the input ends inside something that may still grow: the core carries ``text[pos:]``
  over to the next chunk, so a split marker is never seen in pieces).
- ``finish(truncated)``: the stream ended while this reader was active: complete, fail or revert.

Everything a reader consumes goes through the `Context` (``consume``), which is the core parser itself:
it keeps the raw accounting (every character ends up in exactly one event's ``raw``), makes ids, builds
events, merges runs of text, and formats the error message a model gets back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

import regex

from shim.parsing.tags import Markers, Opener, TagState, compile_marker, compile_opener, first_chars

if TYPE_CHECKING:
    from shim.parsing.shapes import ToolIndex

__all__ = [
    "INNER_UNTAGGED",
    "LINE_END",
    "MORE",
    "RESULT_TAG",
    "Block",
    "Context",
    "Dialect",
    "Next",
    "Reader",
    "ReaderFactory",
    "TagState",
    "WholeToCloser",
    "WholeToEnd",
    "first_chars",
    "match_at",
    "next_line",
]


class _More(Enum):
    MORE = "more"


MORE = _More.MORE
"""Returned by `Reader.feed`: the input ends inside something that may still grow; call again with more."""


class Reader(Protocol):
    """Reads the body of one block (or one phase of it)."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        """Read from ``pos``; ``final`` means no more input will follow."""
        ...

    def finish(self, truncated: bool) -> None:
        """End of stream inside this reader: emit the call, the error, or revert the block to text."""
        ...


Next: TypeAlias = "Reader | _More | None"


class Context(Protocol):
    """The services of the core parser a reader uses (`StreamParser` implements it)."""

    @property
    def tools(self) -> ToolIndex: ...

    @property
    def markers(self) -> Markers[Dialect]: ...

    @property
    def state(self) -> TagState:
        """Where the parser is relative to the block; the context methods below move it."""
        ...

    @property
    def call_open(self) -> bool:
        """A `ToolCallStart` is out and its call has not ended yet."""
        ...

    @property
    def shown(self) -> bool:
        """Visible text other than whitespace went out: a block opening now does not open the message."""
        ...

    @property
    def last_call_raw(self) -> str:
        """The input the last call's events carried (its opener and body as written)."""
        ...

    @property
    def in_fence(self) -> bool:
        """The visible text so far opened a Markdown fence and has not closed it."""
        ...

    def consume(self, piece: str) -> None:
        """Input read as part of the block: it goes out in the ``raw`` of the block's next event (and the block's
        body has begun: `TagState.INSIDE`)."""
        ...

    def take_raw(self, extra: str = "") -> str: ...

    def tail(self) -> str:
        """The end of the text shown before the block (a few dozen characters): what the opener stands after."""
        ...

    def example_shown(self, form: str) -> None:
        """A block of the row named ``form`` shown as an example ends here: another of the same form right after it,
        in the same paragraph, is shown too."""
        ...

    def text(self, text: str, raw: str | None = None) -> None: ...

    def reasoning(self, text: str, raw: str) -> None: ...

    def markup(self, marker: str) -> None:
        """A marker (a closing tag) read after the body: it ends the block invisibly."""
        ...

    def markup_as_text(self) -> None:
        """The block ends with no closer: keep the whitespace consumed after it visible."""
        ...

    def turn_over(self, token: str) -> bool:
        """``token``, a turn-end token (`shim.parsing.readers.block_end.TURN_END`), already went out as markup in this
        message: the model's turn ended there and it wrote on past its stop, so the token written again is its own."""
        ...

    def open_wrapper(self, closer: str) -> None:
        """A wrapper of the reply (``<response>``) went out as markup where the message began: its ``closer`` ends
        the reply (`wrapper_open`)."""
        ...

    def wrapper_open(self, closer: str) -> bool:
        """``closer`` (blanks aside) closes a reply wrapper whose opener went out as markup (`open_wrapper`): the
        same tag after text that never opened it (``prose\n<response>…</response>``) is the text's own."""
        ...

    def revert(self) -> None:
        """The block was not a call: everything consumed for it is text."""
        ...

    def skip_ws(self, text: str, pos: int) -> int: ...

    def unskip(self, blanks: str) -> None:
        """Give back ``blanks``, the end of what `skip_ws` took last: the text there is read again."""
        ...

    def reread(self, text: str, *, reasoning: bool = False) -> None:
        """At the end of the stream: read ``text`` (held back by the active reader, not consumed) as the
        message's own, from the text state; with ``reasoning``, its text is reasoning up to a reasoning closer
        (the calls a think block held, read as calls)."""
        ...

    def expect_outer(self, closer: regex.Pattern[str], *, fence: bool = False) -> None:
        """A wrapper of no call family holds the calls being read (``<tools>{…}\n{…}</tools>``): its ``closer``, met
        in text with only whitespace since the last call, is markup (and, with ``fence``, the closer of the ``` fence
        around that wrapper after it)."""
        ...

    def hold_wrapper(self, closer: regex.Pattern[str]) -> None:
        """The input consumed so far is the opener of a tag of no call family right before a call (``<response>``
        before ``<tool_call>``): markup for now, its ``closer`` due after the calls. Visible text other than
        blanks before that closer (or the output's end, when a call came before the tag) gives the opener back as
        text, where that text goes on: it was no wrapper."""
        ...

    def start_call(self, name: str) -> None: ...

    def chunk(self, arguments_chunk: str) -> None: ...

    def end_call(self, name: str, arguments: dict[str, Any], *, streamed: bool) -> None: ...

    def fail_call(self, problem: str, extra_raw: str = "") -> None: ...


@dataclass
class Block:
    """State shared by the phases of one block (opener, body, what follows it)."""

    dialect: Dialect | None
    """The row whose opener started the block; None for untagged candidates."""
    fence: bool = False
    """The block sits in a ``` fence."""
    array: bool = False
    """Inside ``[ … ]`` of calls."""
    name: str | None = None
    """The opener named the tool (``[TOOL_CALLS]NAME[ARGS]``, ``<function=NAME>``): the body is the arguments."""
    next_body: Callable[[], Reader] | None = None
    """What reads a ``{`` right after a body (another call of the same block); None: it ends the block."""
    outer: regex.Pattern[str] | None = None
    """The closer of a tag of no call family around the block (``<response><tools>…</tools></response>``): markup
    right after the block's own closer."""


ReaderFactory = Callable[["Context", Block, "regex.Match[str]"], Reader]
"""Makes the reader of a block once its opener matched (the opener is already consumed)."""


@dataclass(frozen=True)
class Dialect:
    """One way of marking a block in model output: a row of the family table."""

    name: str
    open: str
    """Pattern of the opening marker. A named group ``name`` means the marker itself names the tool."""
    close: str | None
    """Pattern of the closing marker; None when the block simply ends with its body."""
    kind: Literal["call", "reasoning", "untagged", "markup", "prose"] = "call"
    """``untagged``: a lenient form that counts only when tools are known and it names one of them;
    ``markup``: a token of the model's turn structure, never visible text (an orphan ``</think>``);
    ``prose``: text whose inside is never read for calls (a code fence, an inline code span)."""
    body: Literal["json", "xml", "json_or_xml", "mistral"] = "json_or_xml"
    """For rows without a ``reader``: ``json``: an object or array of calls; ``xml``: ``<parameter=K>V</parameter>``
    (the opener names the tool); ``json_or_xml``: either, JSON or a nested ``<function=NAME>``; ``mistral``:
    JSON or ``NAME[ARGS]{…}``."""
    reader: ReaderFactory | None = None
    """The family's reader; None picks one from ``body``."""
    start: Literal["marker", "message", "inside"] = "marker"
    """``marker``: the opener may appear anywhere in text; ``message``: only where the message begins;
    ``inside``: only right after the opener (or after a body) of a row named in ``inside``."""
    inside: tuple[str, ...] = ()
    """Names of rows whose blocks may hold this form (``<invoke …>`` inside ``<function_calls>``): there its
    opener is tried where a body may begin, and the wrapper's closer ends the block."""
    first: str | None = None
    """The characters the opener can begin with (default: the pattern's first literal character, which is
    wrong for an alternation whose branches begin differently: give them here)."""
    open_for_tools: Callable[[ToolIndex], str | None] | None = None
    """Builds the opener from the offered tools (``<read_file>`` for a tool ``read_file``); None: no row."""
    words_for_tools: Callable[[ToolIndex], tuple[str, ...]] | None = None
    """Builds the words where the text scanner stops for this row from the offered tools, for an opener that begins
    with an offered tool's name anywhere in prose (`words`); None: the pattern's leading word, or ``first``."""
    words: tuple[str, ...] = ()
    """The words `words_for_tools` built (`shim.parsing.readers.rows_for`): the scanner stops at each, not at every
    character a name may begin with."""
    example: str | None = None
    """How one call is written in this family, for the message a model gets when its call cannot be used."""
    glued: bool = False
    """The opener joins the call to the prose before it with no blank between (``…do it:NAME{…}``, where a control
    token was dropped): no document presents an example so, so the words before it that present one (`presents`)
    do not make it text."""
    opens_each_call: bool = False
    """The opener prefixes each call (``[TOOL_CALLS]NAME{…}[TOOL_CALLS]NAME{…}``) rather than wrapping a block of
    calls (``<tool_call>…</tool_call>``): the same call written again under it is another call, not a repeat."""
    built_for_tools: bool = False
    """The opener was built from the offered tools (`open_for_tools`): compiled only once its text may be there
    (`shim.parsing.tags.ScreenedOpener`), as a new tool set's openers would cost milliseconds each to compile."""

    def __hash__(self) -> int:
        # Each parser looks its layout up by its rows (`shim.parsing.stream`): hashing every field of two hundred
        # rows cost about a millisecond a parser. A row never changes, so its hash is worked out once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def compiled_open(self) -> Opener:
        return compile_opener(self.open) if self.built_for_tools else compile_marker(self.open)

    def compiled_close(self) -> regex.Pattern[str] | None:
        return compile_marker(self.close) if self.close else None


INNER_UNTAGGED = frozenset({"tool_name_xml", "typed_action"})
"""Untagged rows a wrapper tag may hold as it holds a call family's block: a tool's own tag (``<tool-use><shell>ls
</shell></tool-use>``, gptme), an action tag typed by a tool (``<boltArtifact …><boltAction type="shell">``)."""


RESULT_TAG = r"(?![\w:.\-]{0,40}?(?i:result|output|response))"
"""Put where a tag's name begins in an opener of any name: a tag whose name says it holds what a call gave back
(``<tool_result name="bash">``, ``<function_response>``, ``<tool_output>``, ``<toolResult>``) opens no call, whatever
its attributes name: a result echoed or shown (amplifier's Copilot provider tests), never a request."""


NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
"""The characters a tool's name may begin with: the ``first`` of rows whose opener is the name itself."""


def message_and_line_rows(
    name: str,
    opener: Callable[[str], Callable[[ToolIndex], str | None]],
    *,
    reader: ReaderFactory,
    open: str,
    first: str | None = None,
    after: str = "_line",
    indent: str = r"[ \t]{0,8}",
    example: str | None = None,
) -> list[Dialect]:
    """The two rows of a form that opens the message or a line: ``name`` where the message begins (``open`` and
    ``first`` say where the scanner stops: a leading word, or the characters), and ``name + after`` after a line
    break and ``indent``. ``opener(prefix)`` builds the form's opener from the offered tools behind ``prefix``."""
    return [
        Dialect(
            name,
            open,
            None,
            kind="untagged",
            start="message",
            first=first,
            reader=reader,
            open_for_tools=opener(""),
            example=example,
        ),
        Dialect(
            name + after,
            r"\n",
            None,
            kind="untagged",
            first="\n",
            reader=reader,
            open_for_tools=opener(r"\n" + indent),
            example=example,
        ),
    ]


def keep_line_break(ctx: Context, blanks: str = "\r\n") -> tuple[str, int]:
    """Take an opener that begins with the line break it stands after (a row that opens only where a line begins
    starts its pattern with the break, so the text scanner stops at line breaks, not at every letter): the break
    (and, with ``blanks`` holding them, the indent) stays text, the rest is the call's markup. Returns the opener as
    written and how many of its characters stayed text."""
    opener = ctx.take_raw()
    lead = len(opener) - len(opener.lstrip(blanks))
    ctx.text(opener[:lead])
    ctx.consume(opener[lead:])
    return opener, lead


def read_to(
    ctx: Context, body: list[str], end: regex.Pattern[str], text: str, pos: int, final: bool
) -> tuple[int, regex.Match[str] | None]:
    """Read a body decided whole: consume ``text`` from ``pos`` up to ``end`` (or the text's end) into ``body``.

    Returns where reading stopped and the end's match, partial when the text ends inside what may be it.
    """
    found = end.search(text, pos, partial=not final)
    stop = len(text) if found is None else found.start()
    ctx.consume(text[pos:stop])
    body.append(text[pos:stop])
    return stop, found


class GivenBack:
    """A reader for an opener that turned out to be text (part of a longer word, damage quoted in a fence): it
    gives the opener back to the text and reads nothing more."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        del text, final
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


class WholeToEnd:
    """A body read to its end pattern (`end`, the class's `END` unless the opener chose another) or the output's
    end and decided whole by `_decide`: the end is the call's markup; cut short by the token limit, the whole is
    text again."""

    END: regex.Pattern[str]

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.body: list[str] = []
        self.end = self.END

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        stop, end = read_to(self.ctx, self.body, self.end, text, pos, final)
        if end is None:
            if final:
                self._decide()
                return stop, None
            return stop, self
        if end.partial:
            return stop, MORE
        self.ctx.consume(end.group())
        self._decide()
        return end.end(), None

    def _decide(self) -> None:
        raise NotImplementedError

    def finish(self, truncated: bool) -> None:
        if truncated:
            self.ctx.revert()
        else:
            self._decide()


class WholeToCloser:
    """A body consumed as it streams up to its closer and decided whole there by `decide` (``found``: the closer);
    past ``limit`` characters, or at the output's end with no closer, the opener and body are text again."""

    def __init__(self, ctx: Context, closer: regex.Pattern[str], limit: int) -> None:
        self.ctx = ctx
        self.closer = closer
        self.limit = limit
        self.body: list[str] = []
        self.size = 0

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = self.closer.search(text, pos, partial=not final)
        stop = len(text) if found is None else found.start()
        self.size += stop - pos
        if self.size > self.limit:
            self.ctx.revert()
            return pos, None
        self.ctx.consume(text[pos:stop])
        self.body.append(text[pos:stop])
        if found is None:
            if final:
                self.ctx.revert()
                return stop, None
            return stop, self
        if found.partial:
            return stop, MORE
        return self.decide(found)

    def decide(self, found: regex.Match[str]) -> tuple[int, Next]:
        raise NotImplementedError

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


LINE_END = regex.compile(r"[ \t]*(?:\r?\n|$)")
"""Blanks to the end of the line (or of the output): what follows a form that must stand alone on its line."""


def next_line(text: str, pos: int, final: bool) -> tuple[int, str, bool] | _More | None:
    """The line after the line break at ``pos``, seen whole (its own line break, or the output's end), as
    ``(stop, line, last)``: where a reader consuming it stops (before its ``\r\n``, which goes with the next line or
    stays text after a call), its text without the ``\r``, and whether the output ends with it; `MORE` until it is
    whole; None at the output's end."""
    if pos >= len(text):
        return None if final else MORE
    if text[pos] == "\r" and pos + 1 >= len(text) and not final:
        return MORE  # the `\n` of a `\r\n` may come next
    start = pos + (2 if text.startswith("\r\n", pos) else 1)
    end = text.find("\n", start)
    if end < 0 and not final:
        return MORE
    stop = len(text) if end < 0 else end
    line = text[start:stop].rstrip("\r")
    if end >= 0 and stop > start and text[stop - 1] == "\r":
        stop -= 1
    return stop, line, end < 0


def match_at(pattern: regex.Pattern[str], text: str, pos: int, final: bool) -> regex.Match[str] | _More | None:
    """Match ``pattern`` at ``pos``; `MORE` when the text ends where the match could still grow or change.

    A match that reaches the end of the text is held back too (unless ``final``): patterns with an optional
    or repeated tail (``NAME[ \t]*``) would otherwise match differently depending on where a chunk ends.
    """
    found = pattern.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial or (found.end() >= len(text) and not final):
        return MORE
    return found
