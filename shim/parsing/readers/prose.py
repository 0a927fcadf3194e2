"""One rule for prose, applied by the core to every family: a call shown, quoted or presented is text.

- A Markdown fence of a programming language (```` ```python ````…) holds code shown in prose: everything in
  it is text, tags included (`shim.parsing.readers.code_fence`, a ``prose`` row: on whether tools are offered
  or not).
- An inline code span (`` `<tool_call>…</tool_call>` ``, `` `<think>` ``) names markup, it does not write it:
  text up to its closing backtick on the same line (`InlineCode`). A backtick with no partner on its line
  (``it`s``) opens no span: the text after it is read as usual.
- A block that opens on a quoted line (``> …``), inside a quotation opened at a line's start and not yet closed
  (``"I found it.\nget_weather(city="Paris")``: a model's words quoted in a document), or right after words
  that present an example (``for example``, ``e.g.``, ``such as``, ``the format is``, ``like this:``, a
  hypothetical ``you would respond:``, ``the syntax is``, the user's words reported: ``The user typed:``; in a
  Chinese prompt ``例如``, ``格式化为``; in Japanese ``例えば``, ``以下のような形式で出力する``), that describe
  what a model (``モデルは…を出力する。``, ``模型会输出…``)
  writes as a rule (``If it wants a tool, it outputs a JSON object:``, ``The model … decides which to call, and
  emits``) or that tell the reader what to write (``To call a function, emit:``) is shown, not made: the core
  hands it to `Quoted`, which passes it through as text up to the row's closer (or, for a row with none, the
  paragraph's end). `presents` decides from the visible text just before the opener.
- A call after a line that opens the user's turn (``USER:``, ``Human:``, ``ユーザー:``, ``用户:``, either
  colon) is part of a transcript (`TRANSCRIPT`: OpenHands' and Cherry Studio's in-context examples): text, for the
  rest of the message.
- So is a call on a line labelled as an example (``Correct:``, ``INCORRECT:``, ``Bad example:``, ``Example
  output:``): documentation contrasting right and wrong calls shows both.
- A fence of plain text (```` ```text ````, ``plaintext``, ``txt``, ``console``) that the prose just before it
  presents (``should look like the following:``) shows what a model printed, a transcript: it is text up to
  its closing fence, whatever it holds (``shown_fence``). Unpresented, only its opener is text and its content
  is read as usual.

- A call whose tool name is a template's placeholder (``function_name``, ``tool_name``, ``<function-name>``,
  ``your_function``, ``example_tool``) of no offered tool is an instruction showing the format, in any form:
  the core withholds its events and shows its every character (`placeholder`).

A call of a tool that was not offered is text in every untagged form already: those rows need offered tools.
"""

from __future__ import annotations

import regex

from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.code_fence import CodeFence

__all__ = ["PRESENTED_ONLY", "ROWS", "TRANSCRIPT", "InlineCode", "Quoted", "placeholder", "presents"]

_SPAN_LIMIT = 240
"""An inline code span longer than this is no span (a stray backtick): the hold-back stays bounded."""
_SPAN_END = regex.compile(r"[`\n]")

_MODEL_NOUN = r"(?:model|llm|assistant|agent)s?"
_MODEL = rf"(?:it|they|the (?:\w+ )?{_MODEL_NOUN})"
_EMITS = r"(?:outputs|emits|produces|generates|returns|prints|writes|(?:responds|replies) with)\b"
"""A verb of writing in the present, third person: said of a model (``it outputs``, ``the model emits``), it
describes the format as a rule; a model making its call says what it will do (``I'll call``), not what a model does.
Only the ``-s`` form: ``the assistant output was empty`` is a noun."""
_EMIT = r"(?:output|emit|produce|generate|return|print|write|(?:respond|reply) with)\b"
_ME = r"\b(?:I|I'?ll|I'?m|I'?ve|I'?d|me|my|we|we'?ll|let'?s|us|our)\b"
_NOT_ME = rf"(?<!{_ME}[^.!?\n]{{0,200}})"
_GAP = rf"(?:(?!{_ME})[^.!?\n])"
"""A sentence that speaks in the first person is the model's own (``I'll ask the research agent, which returns``):
no description of what models do, whatever its words."""
_CUE = regex.compile(
    r"(?:\bfor (?:example|instance)|\be\.g\.|\bsuch as"
    r"|\bthe (?:\w+ )?format(?: (?:for|of) [^.!?\n:]{1,40})? (?:is|looks like)"
    r"|\bthe (?:\w+ )?syntax(?: (?:for|of) [^.!?\n:]{1,40})? (?:is[ \t]*:|looks like)"  # not ``the syntax is right``
    # the user's words reported right after the verb (``The user typed: {…}``): the user wrote it, not the model
    # (``The user asked for the weather:`` before a call is the model restating the request: not this)
    r"|\bthe (?:user|customer|human|client) (?:typed|wrote|said|sent|entered|pasted|types|writes|says|sends|pastes)"
    r"(?=[ \t]*:?[ \t]*(?:\r?\n[ \t]*){0,2}$)"
    r"|\bin (?:this|the following) (?:\w+ )?(?:format|form|way)|\bas follows|\bexample(?: call| output)?s?"
    r"|\bhere(?:'s| is| are) (?:the|an?) (?:\w+ )?(?:structure|format|syntax|template|example)"
    r"|\b(?:here(?:'s| is) )?how (?:you|one) (?:can|could|would|should|might)\b"  # told to the reader: not done
    r"|\b(?:you|one) (?:can|could|may|might|should|would) (?:call|invoke|write|emit|output|send|type|try|use|run)\b"
    # the reader is told how, or what to try: not done ("you could write something like:", "You could try {…}")
    r"|\b(?:return|write|respond|reply|enclose|wrap)\b[^.!?\n]{0,120}?\btags?(?=[ \t]*:)"
    r"|\blike (?:this|so)|\b(?:looks?|be) like"
    r"|\binstead of (?:returning|writing|emitting|outputting|producing|printing|calling|making|sending)\b"
    r"|\bin (?:two|three|four|five|several|different|many|various|\d{1,2}) (?:\w+ )?"
    r"(?:formats|forms|ways|syntaxes|dialects|styles)\b"
    r"|\b(?:you|one|it|the (?:model|assistant|agent)) would (?:respond|reply|write|answer|output|return|say)"
    r"|\bwhat (?:I|we|you|one|it|the (?:model|assistant|agent))(?:'d| would) (?:do|say|write|send|call|run|output)"
    # A model described in the third person (what it does, as a rule), or the reader told what to write to call:
    rf"|{_NOT_ME}\b(?:if|when|whenever|once) {_MODEL}\b{_GAP}{{0,80}}?,"
    rf"[ \t]*(?:{_MODEL}[ \t]+{_EMITS}|they[ \t]+{_EMIT})"
    rf"|{_NOT_ME}\b(?:the|an?|your|each) (?:\w+ )?{_MODEL_NOUN}\b{_GAP}{{0,120}}?\b{_EMITS}"
    rf"|\bto (?:call|invoke|use) (?:(?:a|an|the|any|one) )?(?:\w+ )?(?:function|tool)s?[ \t]*,[ \t]*"
    r"(?:simply |just )?(?:emit|output|write|print|respond|reply|return|produce|generate|send|use)\b"
    r"|例如|比如|譬如|示例|格式(?:化)?(?:为|是|如下)|如下"  # a Chinese prompt's "for example", "format it as"
    # Japanese: "for example"; "(in) the following (kind of) format / example", which points forward past the
    # end of its sentence (``以下のような形式で出力する。``: "it outputs in a format like the following.")
    r"|例えば|たとえば|(?:以下|次)の(?:ような)?(?:形式|フォーマット|書式|例)(?:[^.!?\n\u3002]{0,40}\u3002)?"
    # A model described in the third person in Japanese or Chinese, what it writes as a rule, the sentence ended
    # (``モデルは…を出力するように学習されています。``: "the model is trained to output …"; ``模型会输出…``); a sentence
    # in the first person (私, 我) is the model's own.
    r"|(?<![私僕我][^\n\u3002]{0,60})(?:モデル|LLM|AI|エージェント|アシスタント)(?:は|が)[^\n\u3002私僕我]{0,100}?(?:出力|生成|返)[^\n\u3002]{0,40}\u3002?"
    r"|(?<![私僕我][^\n\u3002]{0,60})(?:模型|LLM|AI|助手|智能体)[^\n\u3002私我]{0,60}?(?:输出|生成|返回)[^\n\u3002]{0,40}\u3002?)"
    # `Qwen2.5` ends no sentence; a `{` ends what the words present (the example written out on their line:
    # `Example of a bad call: {"name": …}` presents that object, not a block on the next line; `Quoted`)
    r"(?:[^.!?\n\u3002\uff01\uff1f{]|[.!?](?=\S)){0,72}?[:,]?[ \t]*(?:\r?\n[ \t]*){0,2}"
    r"(?:(?<=:[ \t]*\r?\n[ \t\r\n]*)[^\n:]{1,40}:[ \t]*(?:\r?\n[ \t]*){0,2})?$",  # and a label line ("GLM5:")
    regex.IGNORECASE,
)
_INSTRUCTION = regex.compile(
    r"\b(?:(?:in|use|using|follow|with) (?:this|the following)|in the) (?:\w+ )?(?:format|syntax|structure)\b"
    r"(?:[^.!?\n]|[.!?](?=\S)){0,160}?:[ \t]*(?:\r?\n[ \t]*){0,2}$",
    regex.IGNORECASE,
)
"""An instruction naming the format to write in (``your response MUST use the following format, …:``, ``in the
format:``), its sentence running on to the colon before the block: what follows is the format shown, not a call."""
_HEADING = regex.compile(
    r"(?:^|\n)[ \t]{0,3}#{1,6}[ \t]+[^\n]{0,40}?\b(?:(?:action|tool|function|command)s? space|available \w+"
    r"|(?:output|response|call|answer) format|syntax|usage|examples?|signatures?)\b[^\n]{0,40}"
    r"\r?\n(?:[ \t]*\r?\n){0,2}[ \t]*$",
    regex.IGNORECASE,
)
"""A Markdown heading of a document's section that lists what can be written (``## Action Space``, ``## Available
Tools``, ``### Output format``, ``## Examples``) right before the block: a catalogue of signatures, not a call."""
_LABEL = regex.compile(
    r"(?:^|\n)[ \t]*(?:[-*]|\d{1,2}[.)])?[ \t]*(?:(?:in)?correct|wrong|bad|good|(?:in)?valid|example|sample)"
    r"(?:[ \t]+\w+){0,2}[ \t]*:[ \t]*(?:\r?\n[ \t]*)?$",
    regex.IGNORECASE,
)
_ROLE = r"(?:system|user|human|tool|ipython|developer)"
_SPECIAL = r"(?:<[|\uff5c][^|\uff5c<>\s]{1,30}[|\uff5c]>|<\|[a-z_]{1,30}>|<[a-z]{2,16}(?:_[a-z]{2,16}){1,4}>|\]~b\])"
"""A chat template's special token that can open a turn: ``<|im_start|>``, DeepSeek's full-width ``<|User|>``,
Gemma 4's ``<|turn>``, ``<start_of_turn>``, ``<beginning_of_sentence>``, MiniMax's ``]~b]``."""
TRANSCRIPT = regex.compile(
    # each alternative opens on a literal: fast (the user's label in English, Japanese, Chinese, Korean)
    rf"\n[ \t]{{0,3}}(?:\*\*)?(?:user|human|ユーザー?|用户|用戶|使用者|사용자)(?:\*\*)?[ \t]{{0,3}}[:\uff1a]"
    # ReAct's question line after a prompt's text (a model may restate the question first in its own turn)
    rf"|Question[ \t]{{0,3}}:(?<=\S[ \t]{{0,3}}\r?\n(?:[ \t]{{0,3}}\r?\n){{0,2}}[ \t]{{0,3}}Question[ \t]{{0,3}}:)"
    rf"|{_SPECIAL}[ \t]{{0,2}}{_ROLE}(?=[ \t]{{0,4}}(?:\r?\n|<|[\w-]{{1,32}}=))"  # <|im_start|>user, ]~b]system
    rf"|<[|\uff5c](?:{_ROLE}|{_ROLE}_token)[|\uff5c]>"  # <|user|>, <|USER_TOKEN|>, full-width bars
    r"|\[INST\]",
    regex.IGNORECASE,
)
"""A line opening the user's turn (``USER:``, ``User:``, ``Human:``, ReAct's ``Question:`` after a prompt's text), or
a chat template's header of a turn that is not the model's (system, user, tool: ``<|im_start|>user``,
``<|start_header_id|>system<|end_header_id|>``, ``<start_of_turn>user``, ``[INST]``): what follows is a transcript
of a conversation (in-context examples in a prompt, a rendered prompt in a doc, a log), not the model's own turn,
so every call after it is shown, not made. A model writes its own turn, never the user's or the system's."""
_QUOTED_LINE = regex.compile(r"(?:^|\n)[ \t]{0,3}>[ \t][^\n]*$")
_QUOTATION = regex.compile(
    r"\n[ \t]{0,3}[\"\u201c](?=\S)[^\"\u201c\u201d\n]{1,160}"
    r"(?:\r?\n[ \t]*[^\"\u201c\u201d\s][^\"\u201c\u201d\n]{0,160}){0,3}(?:\r?\n[ \t]*)?\Z"
)
"""A quotation opened at a line's start and not closed before the opener (``Model output:\n"I found some results.
Let me search.\nSearchDatabase(query="x")\nThe results show…"``): a model's words quoted, the call in them shown."""
_NEXT_LABEL = regex.compile(r"(?:^|\n)[ \t]*[^\s:][^\n:]{0,39}:[ \t]*(?:\r?\n[ \t]*){0,2}$")
"""A short label line ending in a colon (``DeepSeek:``, ``Llama 3.1 (JSON):``) right before a block."""
_PARAGRAPH_END = regex.compile(r"\r?\n[ \t]*\r?\n")


_WORD = r"(?:function|func|fn|tool|method|action)"
_PLACEHOLDER = regex.compile(
    rf"(?:your|my|the|example|sample|some|an?)[_\- ]?{_WORD}(?:[_\- ]?(?:name|call))?"  # your_function, example_tool
    rf"|{_WORD}[_\- ]?name"  # function_name, tool-name
    rf"|<[ \t]*{_WORD}(?:[_\- ]?name)?[ \t]*>|\{{\{{?[ \t]*{_WORD}(?:[_\- ]?name)?[ \t]*\}}\}}?"  # <tool>, {{function}}
    r"|\[[ \t]*" + _WORD + r"(?:[_\- ]?name)?[ \t]*\]",
    regex.IGNORECASE,
)
"""A template's stand-in for a tool name: a word for "function" or "tool" with ``name`` after it, a placeholder
word before it, or brackets around it. A bare ``tool`` or ``function`` may be a real name: not this."""


_NUMBERED = regex.compile(r"[_\- ]?\d{1,2}$")
"""A template numbers its stand-ins when it shows several calls (``func_name1``, ``function_name_2``)."""


_SLOT = regex.compile(r"\{\{?[ \t]*[A-Za-z_][\w \t.\-]{0,30}\}\}?|<[ \t]*[A-Za-z_][\w \t.\-]{0,30}>")
"""A template's slot anywhere in a name (``{name}:{index}``, ``mcp__{server}__{tool}``, ``functions.<name>``): no
tool's name holds braces or angle brackets, a format shown with its blanks to fill does."""


def placeholder(name: str) -> bool:
    """``name`` is a template's stand-in for a tool name (``function_name``, ``<tool-name>``, ``example_tool``,
    numbered: ``func_name1``, or a name with a slot in it: ``{name}:{index}``), not a name: a call of it (of no
    offered tool) shows the format and is text."""
    name = name.strip()
    return (
        _PLACEHOLDER.fullmatch(name) is not None
        or _PLACEHOLDER.fullmatch(_NUMBERED.sub("", name)) is not None
        or _SLOT.search(name) is not None
    )


_FENCE_TAIL = regex.compile(r"\n[ \t]{0,3}(?:`{3,}|~{3,})[\w+#.\-]{1,20}[ \t]*\r?\n[ \t]*$")
"""A fence's opening line right before the opener (backticks or tildes, three or more, as Markdown allows): layout,
the sentence before it presents what the fence holds."""


def presents(before: str) -> bool:
    """The text just before an opener quotes it (a ``>`` line) or presents it as an example (directly, or with
    a fence's opening line between them)."""
    before = _FENCE_TAIL.sub("\n", _unix(before))
    rules = (_QUOTED_LINE, _QUOTATION, _CUE, _INSTRUCTION, _LABEL, _HEADING)
    return any(rule.search(before) is not None for rule in rules)


def continues_examples(before: str) -> bool:
    """After a block shown as an example in this message, the text just before the next opener is a label line:
    a list of examples goes on (a document showing one call in several families' formats, each under its name)."""
    return _NEXT_LABEL.search(_unix(before)) is not None


def _unix(text: str) -> str:
    """Windows line breaks as ``\n``: the rules read line ends as ``\n``, and an opener that begins at a line break
    leaves its ``\r`` at the end of the text before it."""
    return text.replace("\r", "")


class Quoted:
    """A block shown in prose: its opener and all up to its closer (or the paragraph's end) stay text. A block of
    no closer that is a JSON value written on the line of the words presenting it (``Example of a bad call:
    {"name": …}``) is shown up to that value's end: the value delimits itself and is all those words present, so a
    call on the next line is the model's own (open-agent-harness's test of a bad example, then the real tagged
    call). A value opening a line under them (``For example:\n{…}``) is shown to the paragraph's end, as a list of
    examples may go on."""

    def __init__(self, ctx: Context, dialect: Dialect, opener: str = "") -> None:
        self.ctx = ctx
        self.form = dialect.name
        self.end = dialect.compiled_close() or _PARAGRAPH_END
        tail = ctx.tail()
        # words before it on its line (an opener that begins a line of its own, `\n1. {`, has none)
        self.inline = "\n" not in opener and bool(tail[tail.rfind("\n") + 1 :].strip())
        """On the line of the words presenting it: all those words present (a block on the next line is not)."""
        inline = self.inline and not dialect.close
        self.value: JsonScanner | None = JsonScanner(stop_chars="", capture=False) if inline else None
        """Reads the shown value of a block of no closer; None once it is known to be none (or the block has one)."""
        self.begun = False

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if self.value is not None:
            if not self.begun:
                if pos >= len(text):
                    return (pos, MORE) if not final else self._whole(pos)
                self.begun = True
                if text[pos] not in "{[":
                    self.value = None
            if self.value is not None:
                new, status = self.value.feed(text, pos, final=final)
                self.ctx.consume(text[pos:new])
                if status is Status.MORE:
                    return (new, MORE) if not final else self._whole(new)
                if status is Status.DONE:
                    return self._whole(new)
                self.value, pos = None, new  # not JSON after all: shown to the paragraph's end
        ctx = self.ctx
        found = self.end.search(text, pos, partial=not final)
        if found is None or (found.partial and found.start() >= len(text)):
            ctx.consume(text[pos:])
            ctx.revert()
            return len(text), self
        ctx.consume(text[pos : found.start()])
        if found.partial:
            ctx.revert()
            return found.start(), MORE
        ctx.consume(found.group())
        ctx.revert()
        if not self.inline:  # a block under the words: the paragraph may show more
            ctx.example_shown(self.form)
        return found.end(), None

    def _whole(self, pos: int) -> tuple[int, Next]:
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


class InlineCode:
    """After a backtick: text up to the closing backtick on the same line, or, if there is none, nothing."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = _SPAN_END.search(text, pos, min(len(text), pos + _SPAN_LIMIT))
        if found is not None and found.group() == "`":
            self.ctx.consume(text[pos : found.end()])
            self.ctx.revert()
            return found.end(), None
        if found is None and not final and len(text) - pos < _SPAN_LIMIT:
            return pos, MORE  # the span may still close in the next chunk
        self.ctx.revert()  # no partner on this line: only the backtick was text
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def _inline(ctx: Context, block: Block, match: regex.Match[str]) -> InlineCode:
    del block, match
    return InlineCode(ctx)


def _shown(ctx: Context, block: Block, match: regex.Match[str]) -> CodeFence:
    del block, match
    return CodeFence(ctx)


PRESENTED_ONLY = frozenset({"shown_fence"})
"""Prose rows that hold only where the text before them presents them (`presents`); else the opener is text."""

ROWS = [
    # A fence whose first line is a chat template's turn header (any role): a quoted conversation, text to its
    # closing fence. A model's own turn never holds its header inside a Markdown fence.
    Dialect(
        "turn_fence",
        rf"```[\w-]{{0,20}}[ \t]*\r?\n(?=[ \t]{{0,4}}{_SPECIAL}[ \t]{{0,2}}(?:{_ROLE}|assistant|model)\b)",
        None,
        kind="prose",
        first="`",
        reader=_shown,
    ),
    Dialect(
        "shown_fence", r"```(?:text|plaintext|txt|console)[ \t]*\r?\n", None, kind="prose", first="`", reader=_shown
    ),
    Dialect("inline_code", r"`(?=[^`\n])", None, kind="prose", first="`", reader=_inline),
]
