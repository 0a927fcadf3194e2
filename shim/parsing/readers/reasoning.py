"""Reasoning blocks (``<think>``, ``<thinking>``, ``<reasoning>``, Command R's ``<|START_THINKING|>``, Magistral's
``[THINK]``, Reflection's ``<reflection>``, Apertus's ``<|inner_prefix|>``, Kimi-VL's ``◁think▷``, OpenThoughts'
``<|begin_of_thought|>``): all inside is
reasoning; calls there are drafts.

A closer met in text, with no block open (``plan</think>{…}``: a template opened the block in the prompt, or the
model closed one it never opened), is the model's markup: it goes out invisible (`ORPHAN_CLOSERS`).
"""

from __future__ import annotations

import json
from typing import cast

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, match_at
from shim.parsing.readers.block_end import TurnEnd, open_markup
from shim.parsing.readers.tagged_json import tag
from shim.parsing.readers.tool_xml import tool_name_pattern
from shim.parsing.tags import PARTIAL

__all__ = ["AFTER_LIMIT", "ORPHAN_CLOSERS", "ROWS", "ReasoningBody"]


class ReasoningBody:
    """Everything up to ``closer`` is reasoning (or, with ``visible``, text: a message's content), streamed.

    With ``watch_calls`` (think blocks), a call opener inside the block holds the rest back: if the stream ends
    first, the block was never closed and the call was the model's own (``<think>plan<tool_call>…``), so the held
    text is read again as the message's. If the closer follows and no call block was closed inside, it was
    reasoning. If a call block naming an offered tool was closed inside
    (``<think>plan<tool_call>…</tool_call></think>``), the model may have put its call in its reasoning (Qwen3
    does; vllm-mlx's reasoning parser promotes it) or drafted one it then writes after: what follows the closer
    decides. A call opener there (within `AFTER_LIMIT`
    characters) means drafts, all reasoning; none up to the end of the stream means the block's calls were the
    calls, read again as calls, its other text still reasoning. A call the sentence before it weighs rather than
    makes (``Maybe I should call <…>``, ``I could call``, ``whether to call``: `HEDGE`) is a draft whatever follows.
    """

    def __init__(
        self, ctx: Context, closer: regex.Pattern[str] | None, *, visible: bool = False, watch_calls: bool = False
    ) -> None:
        self.ctx = ctx
        self.closer = closer
        self.emit = ctx.text if visible else ctx.reasoning
        self.watch_calls = watch_calls
        self.held: list[str] | None = None
        self.pending: tuple[str, str] | None = None
        """The held text from the first call opener, and the closer: waiting for what follows the block."""
        self.after: str = ""
        self.before: str = ""
        """The end of the reasoning just before the first call opener held: whether its sentence hedges."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.pending is not None:
            return self._after(text, pos, final)
        if self.held is not None:
            return self._holding(text, pos, final)
        found = self.closer.search(text, pos, partial=not final) if self.closer is not None else None
        open_end = found is None or (found.partial and found.start() >= len(text))
        if self.watch_calls:
            # Up to a whole closer; where the closer is only begun (a `<` ending the chunk), to the end: what follows
            # may complete a call opener instead (`<|open|>call tool="x"<` + `|sep|>`), which is waited for.
            end = len(text) if found is None or found.partial else found.start()
            opener = self.ctx.markers.search_call_opener(text, pos, end, final or end < len(text))
            if opener is not None and found is not None and opener.start() >= found.start():
                opener = None  # the closer begun there comes first (its rest is waited for below)
            if opener is not None:
                self.emit(text[pos : opener.start()], text[pos : opener.start()])
                self._note(text, pos, opener.start())
                if opener.partial:
                    return opener.start(), MORE
                self.held = []
                return self._holding(text, opener.start(), final)
        if found is None or open_end:
            self.emit(text[pos:], text[pos:])
            self._note(text, pos, len(text))
            return len(text), self
        self.emit(text[pos : found.start()], text[pos : found.start()])
        if found.partial:
            self._note(text, pos, found.start())
            return found.start(), MORE
        self.emit("", found.group())
        return found.end(), None

    def _note(self, text: str, start: int, end: int) -> None:
        """Keep the end of the reasoning streamed (``text[start:end]``) for `HEDGE`."""
        if self.watch_calls:
            self.before = (self.before + text[max(start, end - _BEFORE) : end])[-_BEFORE:]

    def _holding(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        assert self.held is not None and self.closer is not None
        found = self.closer.search(text, pos, partial=not final)
        if found is None or (found.partial and found.start() >= len(text)):
            self.held.append(text[pos:])
            return len(text), self
        self.held.append(text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        held, self.held = "".join(self.held), None
        if self._closes_a_call(held) and HEDGE.search(self.before) is None:
            self.pending = (held, found.group())
            return found.end(), MORE  # what follows decides: carried over until it does
        self.emit(held, held)
        self.emit("", found.group())
        return found.end(), None

    def _closes_a_call(self, held: str) -> bool:
        """A call block closed in ``held`` that names an offered tool (without offered tools: drafts)."""
        names = tool_name_pattern(self.ctx.tools)
        # The name whole, or under the `functions.` namespace the call tokens of Kimi K2 and gpt-oss write it in.
        if names is None or not regex.search(rf"(?:(?<![\w.-])|(?<=(?<![\w.-])functions\.))(?:{names})(?![\w-])", held):
            return False
        return any(closer.search(held) for _, closer in self.ctx.markers.call_closers) or _ends_with_object(held)

    def _after(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        """After a block holding closed calls: a call opener, or `AFTER_LIMIT` characters without one, makes
        them drafts; the end of the stream first makes them the calls (`finish`)."""
        assert self.pending is not None
        end = min(len(text), pos + AFTER_LIMIT)
        opener = self.ctx.markers.search_call_opener(text, pos, end, final)
        if opener is not None and opener.partial:
            return pos, MORE
        if opener is None and end - pos < AFTER_LIMIT:
            if not final:
                return pos, MORE
            self.after = text[pos:]
            return len(text), self
        (held, closer), self.pending = self.pending, None
        self.emit(held, held)
        self.emit("", closer)
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.emit("", self.ctx.take_raw())
        if self.pending is not None:
            (held, closer), self.pending = self.pending, None
            self.ctx.reread(held + closer + self.after, reasoning=True)
            return
        if self.held is not None:
            held, self.held = "".join(self.held), None
            self.ctx.reread(held)


_OBJECTS_TRIED = 8


def _ends_with_object(held: str) -> bool:
    """``held`` (from a call opener to the reasoning's closer) ends with a whole JSON object or list of objects,
    blanks aside: the call of a family whose block has no closer of its own (Mistral's ``[TOOL_CALLS]NAME[ARGS]{…}``,
    ``[TOOL_CALLS][{…}]``) ended there, as a closer would say. The value may begin at any of the first few brackets."""
    body = held.rstrip()
    if body[-1:] not in ("}", "]"):
        return False
    starts = [i for i, char in enumerate(body) if char in "{["][:_OBJECTS_TRIED]
    for start in starts:
        try:
            value = json.loads(body[start:])
        except ValueError:
            continue
        items: list[object] = cast("list[object]", value) if isinstance(value, list) else [value]
        if items and all(isinstance(item, dict) for item in items):
            return True
    return False


_BEFORE = 96
HEDGE = regex.compile(
    r"(?:\b(?:maybe|perhaps|possibly|might|could|whether|should (?:I|we)|or (?:I|we) (?:can|could))\b"
    r"|(?:可能|也许|或许|是否))[^.!?\n\u3002\uff01\uff1f]{0,80}$",
    regex.IGNORECASE,
)
"""The sentence before a call in reasoning weighs it (``Maybe I should call``, ``I could call``, ``whether to call``,
``should I call``) rather than makes it: a draft, like a call followed by another."""

AFTER_LIMIT = 4096
"""How far past a reasoning block holding closed calls a call opener is looked for before they count as drafts
(the visible text after such a block waits until then)."""


def open_reasoning(ctx: Context, block: Block, match: regex.Match[str]) -> ReasoningBody:
    """The opener goes out as the raw of the reasoning it starts."""
    ctx.reasoning("", ctx.take_raw())
    assert block.dialect is not None
    return ReasoningBody(ctx, block.dialect.compiled_close(), watch_calls=True)


def _think_token(edge: str) -> str:
    # `<|begin_of_thought|>` / `<|end_of_thought|>`: the tokens OpenThoughts' and Bespoke-Stratos' models write
    words = "think|thinking|reasoning"
    return rf"<[|\uff5c](?:(?:{words})[:_ ](?:{edge})|(?:{edge})[:_ ](?:{words})|(?:{edge})_of_thought)[|\uff5c]>"


ROWS = [
    # A mode after the word is still reasoning: K2-V3's `<ifm|think_fast>…</ifm|think_fast>`, Seed's GUI agents'
    # `<think_never_used>…</think_never_used>` (two words) and `<thinkt>…</thinkt>` (UI-TARS).
    Dialect("think", *tag(r"think(?:t|_[a-z]{1,12}(?:_[a-z]{1,12})?)?"), kind="reasoning", reader=open_reasoning),
    Dialect("thinking", *tag("thinking"), kind="reasoning", reader=open_reasoning),
    Dialect("reasoning", *tag("reasoning"), kind="reasoning", reader=open_reasoning),
    # Harnesses that ask for the reasoning in a <thought> block (duoneural's "system override" prompt, Gemma).
    Dialect("thought", *tag("thought"), kind="reasoning", reader=open_reasoning),
    # A reasoning tag named for what it reasons about: `<tool_call_reasoning>` (qMLX's parser tests),
    # `<internal_thinking>`.
    Dialect(
        "named_reasoning",
        *tag(r"[a-z]{1,16}(?:_[a-z]{1,16}){0,3}_(?:reasoning|thinking)"),
        kind="reasoning",
        reader=open_reasoning,
    ),
    # Reflection-70B's self-check inside (or after) its <thinking>: reasoning, never the answer.
    Dialect("reflection", *tag("reflection"), kind="reasoning", reader=open_reasoning),
    # Mistral's reasoning models (Magistral) write their thinking between bracket tokens: [THINK]…[/THINK].
    Dialect("bracket_think", r"\[THINK\]", r"\[/THINK\]", kind="reasoning", reader=open_reasoning),
    # Kimi-VL-Thinking's reasoning between triangle marks: ◁think▷…◁/think▷.
    Dialect("triangle_think", "\u25c1think\u25b7", "\u25c1/think\u25b7", kind="reasoning", reader=open_reasoning),
    Dialect(
        "command_thinking", r"<\|START_THINKING\|>", r"<\|END_THINKING\|>", kind="reasoning", reader=open_reasoning
    ),
    # A special token of either bar style whose words say reasoning and start / end: Solar Open's
    # `<|think:start|>…<|think:end|>`, and the same words joined by `_` or in the other order.
    Dialect("think_token", _think_token("start|begin"), _think_token("end"), kind="reasoning", reader=open_reasoning),
    # Apertus's inner monologue between prefix / suffix tokens: `<|inner_prefix|>…<|inner_suffix|>` (and the same
    # tokens named for thinking or reasoning).
    Dialect(
        "inner_prefix",
        r"<\|(?:inner|think|thinking|reasoning)_prefix\|>",
        r"<\|(?:inner|think|thinking|reasoning)_suffix\|>",
        kind="reasoning",
        reader=open_reasoning,
    ),
    # Kimi K3's think channel, in its open / close grammar: `<|open|>think<|sep|>…<|close|>think<|sep|>`.
    Dialect(
        "think_channel",
        r"<\|open\|>(?:think|thinking|reasoning)<\|sep\|>",
        r"<\|close\|>(?:think|thinking|reasoning)<\|sep\|>",
        kind="reasoning",
        reader=open_reasoning,
    ),
    # Reasoning only a template opens, closed by an answer marker: Apriel 1.5 / 1.6's generation prompt ends with
    # "Here are my reasoning steps:\n", so the output starts inside its reasoning and ends it with
    # `[BEGIN FINAL RESPONSE]`. No opener is written in the output (the row contributes its closer, read only when
    # the parser is told the output starts inside reasoning); in text the marker is left as written.
    Dialect(
        "final_response_marker", r"(?!)", r"\[BEGIN FINAL RESPONSE\]", kind="reasoning", first="", reader=open_reasoning
    ),
]

_SENTENCE_GOES_ON = regex.compile(r"[ \t]\p{Ll}{1,24}[ \t,;]")
"""A space, a word in small letters and its space after a closer: the sentence naming the token goes on."""


def _named_in_a_sentence(ctx: Context, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """After a token: where the sentence goes on, the token was named in prose and is given back to the text; MORE
    while that is not known yet; None where the token stands as markup."""
    goes_on = match_at(_SENTENCE_GOES_ON, text, pos, final)
    if goes_on is MORE:
        return pos, MORE
    if goes_on is not None:
        ctx.revert()
        return pos, None
    return None


class _Orphan:
    """A reasoning closer met in text, no block open: markup, unless the sentence it stands in goes on right after
    it (``Use </think> to close the thought block.``): then the token is named in prose, and stays text."""

    def __init__(self, ctx: Context, block: Block, match: regex.Match[str]) -> None:
        self.ctx = ctx
        self.markup = open_markup(ctx, block, match)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        named = _named_in_a_sentence(self.ctx, text, pos, final)
        if named is not None:
            return named
        return self.markup.feed(text, pos, final)

    def finish(self, truncated: bool) -> None:
        self.markup.finish(truncated)


ORPHAN_CLOSERS = [
    Dialect(
        f"orphan_{row.name}",
        row.close,
        None,
        kind="markup",
        first=row.close[1] if row.close[0] == "\\" else row.close[0],
        reader=_Orphan,
    )
    for row in ROWS
    if row.close is not None
]
"""A reasoning closer in text, with no block open: markup (listed after every opener in the table), unless named in
a sentence that goes on after it."""

_ANSWER_LAYOUT = regex.compile(r"[ \t]{0,4}(?:\r?\n)?")
_REPLY_WORDS = r"answer|response|assistant"
_PROSE_AHEAD = r"(?=[ \t\r\n]{0,64}[^\s{\[<])"
"""Where ``<response>`` / ``<assistant>`` open the reply, prose follows: around a JSON value or a tag
(``<response>\n{"message": …}``, ``<response><tools>…``) the tag is another rule's (`untagged.WRAPPED`) or text."""
"""The words of a reply's wrapper tag: ``<answer>`` (DeepSeek-R1-Zero's template, UI-TARS, Hunyuan), ``<response>``
(ERNIE 4.5's thinking template: ``</think>\n\n<response>\n…\n</response>``), ``<assistant>`` (the role's own
name as a tag, OpenOrca's parser tests)."""
_REPLY_TOKEN = r"<\|(?:[A-Z]{1,4}_?)?(?:Response|RESPONSE|response)_?(?:Begin|BEGIN|begin|Start|START|start)\|>"
"""A special token whose words say the reply begins (Seed's ``<|FCResponseBegin|>`` before its answer): markup where
the message begins, as the tag is."""
_WORD = regex.compile(r"<(?P<word>[a-z]+)>")


class _AnswerOpen:
    """After a reply's wrapper opening the message: it and the line break after it are markup; its closer right
    after a call is markup too. A sentence that goes on right after it (``<response> is the root element``) names
    the tag: text."""

    def __init__(self, ctx: Context, opener: str) -> None:
        self.ctx = ctx
        word = _WORD.fullmatch(opener)
        self.close = regex.compile(rf"</{word.group('word')}>") if word is not None else None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        named = _named_in_a_sentence(self.ctx, text, pos, final)
        if named is not None:
            return named
        layout = _ANSWER_LAYOUT.match(text, pos, partial=not final)
        assert layout is not None
        if not final and (layout.partial or layout.end() >= len(text)) and not layout.group().endswith("\n"):
            return pos, MORE  # a line break may still follow
        self.ctx.consume(layout.group())
        self.ctx.markup("")
        if self.close is not None:  # `<answer>{call}</answer> Done.`: its closer right after a call is markup
            self.ctx.expect_outer(self.close)
            self.ctx.open_wrapper(self.close.pattern)
        return layout.end(), None

    def finish(self, truncated: bool) -> None:
        self.ctx.markup("")


def _open_answer(ctx: Context, block: Block, match: regex.Match[str]) -> _AnswerOpen:
    return _AnswerOpen(ctx, match.group())


_BLANKS = regex.compile(r"[ \t\r\n]*")


class _AnswerClose(TurnEnd):
    """A reply wrapper's closer: markup where a turn-end token is (`TurnEnd`: the message ends, a special token
    follows), and also where a call block opens after it, blanks between (``<assistant>Intro</assistant>\n
    <tool_call>…``: the reply's text ends and its call follows). Only ``</answer>`` is one with no opener read
    (Seed's token opened the reply, or the prompt did); the other words close only the wrapper that opened the
    message (`Context.wrapper_open`): after prose, ``<response>…</response>`` is the text's own."""

    def _unopened(self) -> bool:
        return not self.token.strip().lower().endswith("</answer>") and not self.ctx.wrapper_open(self.token)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self._unopened():
            self.ctx.revert()
            return pos, None
        blanks = _BLANKS.match(text, pos)
        assert blanks is not None
        end = blanks.end()
        if end >= len(text) and not final:
            return pos, MORE
        if end > pos and end < len(text) and text[end] == "<":
            opener = self.ctx.markers.match(text, end, final)
            if opener is PARTIAL:
                return pos, MORE
            if opener is not None and opener.dialect is not None and opener.dialect.kind == "call":
                self.ctx.markup("")
                return pos, None
        return super().feed(text, pos, final)

    def finish(self, truncated: bool) -> None:
        if self._unopened():
            self.ctx.revert()
        else:
            super().finish(truncated)


def _open_answer_close(ctx: Context, block: Block, match: regex.Match[str]) -> _AnswerClose:
    return _AnswerClose(ctx, match.group())


ANSWER = [
    # `<think>…</think>\n<answer>…</answer>`: the reply's wrapper in the format reasoning models are trained and
    # prompted with (DeepSeek-R1-Zero's template, UI-TARS, Hunyuan; ERNIE's `<response>`, a role tag
    # `<assistant>`, Seed's `<|FCResponseBegin|>`): the opener where the message begins (after the reasoning) and
    # the closer where the message ends or a call follows are markup; named anywhere else, they stay text.
    Dialect(
        "answer_open",
        rf"<answer>|<(?:response|assistant)>{_PROSE_AHEAD}|{_REPLY_TOKEN}",
        None,
        kind="untagged",
        start="message",
        reader=_open_answer,
    ),
    Dialect(
        "answer_close",
        rf"(?:\r?\n)?</(?:{_REPLY_WORDS})>",
        None,
        kind="markup",
        first="\r\n<",
        reader=_open_answer_close,
    ),
]
