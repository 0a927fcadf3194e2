"""Readers every family shares for the end of a block: after a body, after a closer, and skipping a failed body.

- `AfterBody`: a body is complete and its `ToolCallEnd` is out. A closing marker, stray brackets, commas
  between calls or a closing fence are absorbed; ``{`` starts another call of the same block (when the
  family says so); a new opener or anything else ends the block (the closer is optional). The block's own
  opener followed by the very call just read (whitespace aside), before the block closed, is the call
  written twice (Laguna, in Ollama's parser tests: one call): markup, and the block goes on to its closer.
- `Closed`: the closer was read; only a duplicated closer is still the block's markup.
- `Skip`: the body failed; everything up to the next call marker belongs to the failed block, which is
  reported once as a `ParseIssue` carrying all of it.
- `Markup`: a row of kind ``markup`` matched in text (an orphan ``</think>``): it goes out invisible.

The model's own end-of-turn tokens right after a call (`TURN_END`: ``<|eot_id|>``, ``<|im_end|>``, ``</s>``,
``<end_of_turn>``, ``<|END_OF_TURN_TOKEN|>``…, and any closing special token such as ``<|/tool_call|>``) belong to
the block too: markup, never visible text; so is another role's header after such a token when it ends the
message (``<|observation|>\n<|user|>``: the model wrote on past its stop, `_LastRole`).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from shim.parsing.readers.base import MORE, Block, Context, Next, match_at
from shim.parsing.tags import PARTIAL, MarkerMatch, compile_marker

__all__ = [
    "TURN_END",
    "AfterBody",
    "Closed",
    "Markup",
    "Revert",
    "Skip",
    "TurnEnd",
    "closed_by",
    "damaged_closer",
    "open_inner",
    "open_markup",
    "open_turn_end",
]

TURN_END = regex.compile(
    r"<\|(?:eot_id|eom_id|eot|eom|im_end|end|endoftext|end_of_[a-z]{1,8}|END_OF_TURN_TOKEN|END_RESPONSE|END_ACTION|return|call)\|>"
    r"|<end_of_turn>|</s>|<eos>|<\|end_of_turn\|>|\[/?(?:END_?TOOL_?REQUEST|TOOL_?REQUEST_?END)\]|<\|tool_response>"
    r"|<start_(?:function|tool)_response>"  # FunctionGemma opens the tool's answer after its call: a stop token
    r"|<\|observation\|>"  # so does GLM's header of the tool's turn (a stop token of its template)
    r"|<\|/[A-Za-z_][\w.:-]{0,31}\|>|<\|[A-Za-z_][\w.:-]{0,31}[_:]end\|>"
    r"|<\|end_[a-z][a-z_]{0,23}\|>"  # a closer named ``end_`` first: Llama 3's `<|end_header_id|>`, `<|end_of_role|>`
    r"|<[A-Za-z_][\w.:-]{0,31}\|>"  # Gemma 4's closers, the bar after the name: `<turn|>`, `<tool_response|>`
    r"|<\|close\|>(?:tools|message)<\|sep\|>"  # Kimi K3's section and message closers
    r"|\[UNUSED_TOKEN_\d{1,6}\]"  # a special token a runtime could not render (InternLM2 in Ollama)
    r"|<\|>",  # an empty token: the fragment of one a model left after its call (MemGPT's `{…}<|>`)
    regex.IGNORECASE,
)
"""Turn-structure tokens a model writes after its call: markup when they follow a call block. Besides the named
ones, any closing special token (``<|/tool_call|>``, ``<|tool_calls_end|>``, ``<|end_header_id|>``, Gemma 4's
``<turn|>``): a closer of the model's own vocabulary, which no visible text is written with. Gemma's ``<eos>``
(printed after its ``<end_of_turn>`` when a notebook decodes without skipping special tokens) ends the sequence as
``</s>`` does."""


PROMPT_CLOSER = regex.compile(
    r"<[ \t]{0,4}/[ \t]{0,4}(?:tools|functions|available_tools|available_functions|tool_list|function_list)[ \t]{0,4}>"
    r"|\[/(?:AVAILABLE_TOOLS|TOOLS|FUNCTIONS)\]",
    regex.IGNORECASE,
)
"""The closer of the prompt's own list of tools (Hermes' ``</tools>``, ``</functions>``, Mistral's
``[/AVAILABLE_TOOLS]``): a model that goes on printing its prompt's structure after its calls writes it last."""
_TRAILING_BLANKS = regex.compile(r"[ \t\r\n]*")
_NEXT_LIST = regex.compile(r',[ \t\r\n]{0,8}(?=\[[ \t\r\n]{0,8}\{[ \t\r\n]{0,8}")')
"""A comma after a list of calls with the next list of call objects right after it."""


def _prompt_closer(ctx: Context, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """A prompt's tool-list closer at ``pos`` after a call, with nothing after it but blanks and turn tokens to the
    end of the output: markup. Before any other text it stays text (``</tools> closes the list``)."""
    found = PROMPT_CLOSER.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial:
        return pos, MORE
    blanks = _TRAILING_BLANKS.match(text, found.end())
    assert blanks is not None
    if blanks.end() >= len(text):
        if not final:
            return pos, MORE
    elif (turn := TURN_END.match(text, blanks.end(), partial=not final)) is None:
        return None
    elif turn.partial:
        return pos, MORE
    ctx.markup(found.group())
    return found.end(), Closed(ctx)


OWN_TURN = regex.compile(
    r"(?:(?:<\|im_start\|>|<\|start_header_id\|>|<start_of_turn>)[ \t]{0,2})+"
    r"(?:(?P<role>assistant|model)\b[ \t]{0,4}(?:<\|end_header_id\|>|<\|im_sep\|>)?)?"
    r"|<\|start_header_id\|>|(?P<bare>assistant)<\|end_header_id\|>"
)
"""The model's own turn opened again after its call: a run of a template's turn openers with the model's role or
none (``<|im_start|>``, ``<|im_start|><|im_start|>assistant<|end_header_id|>``: Hermes 2 Theta, a Llama 3 model
on ChatML, writing the opener where ``<tool_call>`` belongs and looping): markup. Another role's header is not this
(``<|im_start|>user``: a transcript, `shim.parsing.readers.prose.TRANSCRIPT`)."""

_ROLE_NAME = regex.compile(r"[ \t]{0,2}[A-Za-z]")
_AHEAD = 32
"""How far past a turn opener the text must reach before it is decided (more openers or a role may follow)."""


def _own_turn(ctx: Context, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """The model's own turn opened again at ``pos`` after a call (`OWN_TURN`): markup; None: not one.

    A header naming the model's role re-opens its turn: the very call just read, written again right after it
    (whitespace aside), is that turn regenerated by a runaway loop, not a second call: markup with the header. A
    call written again without the turn re-opened (``<tool_call>A</tool_call><tool_call>A</tool_call>``) stays a
    call of its own, as the model may mean it twice."""
    found = OWN_TURN.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial or (len(text) - found.end() < _AHEAD and not final):
        return pos, MORE  # a run of openers, or the role after them, may go on
    role = bool(found.group("role") or found.group("bare"))
    if not role and _ROLE_NAME.match(text, found.end()):
        return None  # another role's name follows the opener (`<|im_start|>user`): not the model's own turn
    end = found.end()
    while role:  # more openers after the role's header (`…assistant<|end_header_id|><|im_start|>`) are the header's
        more = OWN_TURN.match(text, _skip_blanks(text, end), partial=not final)
        if more is not None and (more.partial or (len(text) - more.end() < _AHEAD and not final)):
            return pos, MORE
        if more is None or more.group("role") or more.group("bare"):
            break
        if _ROLE_NAME.match(text, more.end()):
            break
        end = more.end()
    if role:
        again = _repeated(ctx.last_call_raw, text, end, final)
        if again is MORE:
            return pos, MORE
        if isinstance(again, int):
            ctx.markup(text[pos:again])
            return again, Closed(ctx)
    ctx.markup(text[pos:end])
    return end, Closed(ctx)


def _skip_blanks(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _turn_end(ctx: Context, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """A turn token at ``pos`` after a call: absorbed as markup (then `Closed` reads on); None: not one. So is a
    prompt's tool-list closer that ends the output (`_prompt_closer`), and the model's own turn opened again
    (`_own_turn`)."""
    found = TURN_END.match(text, pos, partial=not final)
    if found is None:
        own = _own_turn(ctx, text, pos, final)
        if own is not None:
            return own
        return _prompt_closer(ctx, text, pos, final)
    if found.partial:
        return pos, MORE
    ctx.markup(found.group())
    return found.end(), _LastRole(ctx)


def open_inner(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """Where a body may begin: a form that another row declares it takes inside this block's row (None: none)."""
    if block.dialect is None:
        return None
    for row, pattern in ctx.markers.inner(block.dialect.name):
        found = pattern.match(text, pos, partial=not final)
        if found is None or row.reader is None:
            continue
        if found.partial:
            return pos, MORE
        ctx.consume(found.group())
        return found.end(), row.reader(ctx, block, found)
    return None


_CLOSER_LIKE = regex.compile(r"(?P<lt><)?[ \t]{0,8}(?P<slash>/)?[ \t]{0,8}(?P<tag>[\w:.|-]{1,64})[ \t]{0,8}(?P<gt>>)?")


def damaged_closer(block: Block, text: str, pos: int, final: bool) -> tuple[regex.Match[str] | None, bool]:
    """The block's closer misspelled by one trailing ``s`` (``</tool_calls>`` for ``</tool_call>``, or the
    other way), written without its ``<`` or its ``/`` (``/function>``, ``<function>``), a closer token
    ``<end_X>`` written as ``</end_X>``, or cut anywhere after its ``</`` at the very end of the stream:
    ``(match, False)``; ``(None, True)`` when the text ends where it may still be one; ``(None, False)`` when it
    is not."""
    close = block.dialect.compiled_close() if block.dialect is not None else None
    if close is not None and final:  # the output ends inside the closer: `</tool` for `</tool_call>` (blanks after it)
        rest = text[pos:].rstrip(" \t\r\n")
        # Three letters of a name at least: `</b` may begin any prefixed closer (`</b:tool_call>`).
        cut = close.match(rest, partial=True) if regex.match(r"</[ \t]*\w{3}", rest) else None
        if cut is not None and cut.partial:
            return regex.compile(regex.escape(rest)).match(text, pos), False
    found = _CLOSER_LIKE.match(text, pos, partial=not final) if close is not None else None
    if close is None or found is None or not (found.group("lt") or found.group("slash")):
        return None, False
    if found.partial or (not final and found.end() >= len(text)):  # `</tool_call` may still grow
        return None, True
    if not final and found.group("gt") is None and not text[found.end() :].strip(" \t\r\n"):
        return None, True  # `</tool_` then blanks: the output may end there (a closer cut off)
    if found.group("gt") is None and (found.end() < len(text) or not found.group("lt")):
        return None, False
    tag = found.group("tag")
    if not (found.group("lt") and found.group("slash")):
        # One of the closer's marks left out, the other kept: `/function>` or `<function>` for `</function>`
        # (Llama on Groq); slashless, only where that is no opener of the block's own row.
        own = block.dialect.compiled_open() if block.dialect is not None else None
        slashless = found.group("lt") and own is not None and own.match(found.group()) is not None
        return (found if close.fullmatch(f"</{tag}>") and not slashless else None), False
    fixed = (tag, tag[:-1] if tag[-1:] in "sS" else tag + "s")
    if any(close.fullmatch(f"</{t}>") for t in fixed):
        return found, False
    # A closer token that is a word in brackets written as an XML end tag: `</end_function_call>` for
    # `<end_function_call>` (FunctionGemma prompted without its special tokens).
    return (found if found.group("gt") is not None and close.fullmatch(f"<{tag}>") else None), False


def _repeated(previous: str, text: str, pos: int, final: bool) -> int | Next:
    """Where the text at ``pos`` stops repeating ``previous`` in full (whitespace aside); `MORE`: it may still;
    None: it does not."""
    i, j = 0, pos
    while True:
        while i < len(previous) and previous[i].isspace():
            i += 1
        if i >= len(previous):
            return j if previous.strip() else None
        while j < len(text) and text[j].isspace():
            j += 1
        if j >= len(text):
            return None if final else MORE
        if text[j] != previous[i]:
            return None
        i, j = i + 1, j + 1


def _closed_in(block: Block, raw: str) -> bool:
    """``raw``, a call's input as its events carried it, ends with its block's closer: the reader read it."""
    close = block.dialect.compiled_close() if block.dialect is not None else None
    end = len(raw.rstrip())
    return close is not None and any(found.end() == end for found in close.finditer(raw, max(0, end - 64)))


def _closes_after(block: Block, text: str, pos: int, final: bool) -> int | Next:
    """``pos`` when the block's closer (or, for a wrapper, the end of the output) follows it, whitespace aside;
    `MORE`: it may still; None: it does not. Otherwise an opener after a call starts the next call, even one that
    repeats it (``[TOOL_CALLS]A{}`` twice is two calls)."""
    close = block.dialect.compiled_close() if block.dialect is not None else None
    if close is None:
        return None
    j = pos
    while j < len(text) and text[j].isspace():
        j += 1
    found = close.match(text, j, partial=not final)
    if found is None:
        # The output ends in the repeat: one call for a wrapper (`<tool_call>…<tool_call>…`); a per-call
        # prefix (`[TOOL_CALLS]`) opens each call, so a repeat under it is another call.
        wrapper = block.dialect is not None and not block.dialect.opens_each_call
        return pos if final and j >= len(text) and wrapper else None
    if found.partial:
        return MORE
    return pos


_STRAY_TEXT = 200
"""How much text on one line between a call and its block's closer still leaves that closer the block's."""


def _text_then_closer(block: Block, text: str, pos: int, final: bool) -> tuple[regex.Match[str] | None, bool]:
    """Words on the call's line right before the block's own closer (``</function> some junk </tool_call>``, as
    Rapid-MLX's Nemotron tests keep them), or on a line of their own right before it (LmDotnetTools' tests:
    ``{…}\nMore text after.\n</tool_call>``): the text is the model's, the closer still closes the block. Anything
    else on the way (a tag, a new line) leaves the block ended where its calls end. ``(match, partial)``."""
    return _before_closer(
        block,
        rf"(?P<text>[^<\n]{{1,{_STRAY_TEXT}}}?)(?P<close>[ \t]{{0,8}}\r?\n?[ \t]{{0,64}}(?:{{close}}))",
        text,
        pos,
        final,
    )


def _closers_then_closer(block: Block, text: str, pos: int, final: bool) -> tuple[regex.Match[str] | None, bool]:
    """Closers of the call's inner tags written again after the call was complete, right before the block's own
    closer (``</function></parameter>\n</function>\n</tool_call>``, Qwen3.5 in vllm.rs's tests): all of it is the
    block's markup. A tag that opens, or words, on the way leave the block ended where its calls end.
    ``(match, partial)``."""
    return _before_closer(
        block, r"(?:</[ \t]{0,4}[A-Za-z_][\w:.\-]{0,40}[ \t]{0,4}>[ \t\r\n]{0,8}){1,4}(?:{close})", text, pos, final
    )


def _before_closer(
    block: Block, pattern: str, text: str, pos: int, final: bool
) -> tuple[regex.Match[str] | None, bool]:
    """``pattern`` (its ``{close}`` the block's own closer) matched at ``pos``: ``(match, partial)``; no match
    where the block's row has no closer."""
    close = block.dialect.close if block.dialect is not None else None
    if not close:
        return None, False
    found = compile_marker(pattern.replace("{close}", close)).match(text, pos, partial=not final)
    if found is not None and found.partial:
        return None, True
    return found, False


class AfterBody:
    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return _after_blanks(self.ctx, text, pos, final, self._feed)

    def _feed(self, text: str, start: int, pos: int, final: bool) -> tuple[int, Next]:
        ctx, block = self.ctx, self.block
        if pos >= len(text):
            return pos, self
        inner = open_inner(ctx, block, text, pos, final)
        if inner is not None:  # another call of the same wrapper (`<invoke>` after `</invoke>`)
            return inner
        char = text[pos]
        tagged = block.dialect is not None
        if char in "}]" or (char == "," and (tagged or block.array or block.outer is not None)):
            if char == "]":
                block.array = False
            ctx.consume(char)  # stray closers, separators between calls
            return pos + 1, self
        if char == "," and not tagged:  # `[{…}], [{…}]`: lists of calls joined as items of one (Mistral 7B)
            joined = _NEXT_LIST.match(text, pos, partial=not final)
            if joined is not None and joined.partial:
                return pos, MORE
            if joined is not None:
                ctx.consume(joined.group())  # the separator is the calls' markup: its blanks stay text
                return joined.end(), self
        if char == "{" and block.next_body is not None:
            return pos, block.next_body()
        # Llama 3.x: `{…}; {…}`, bare or after <|python_tag|> (vLLM); a comma the same (a list, its brackets left out)
        if char in ";," and block.next_body is not None:
            nxt = pos + 1
            while nxt < len(text) and text[nxt] in " \t\r\n":
                nxt += 1
            if nxt >= len(text) and not final:
                return pos, MORE
            if nxt < len(text) and text[nxt] == "{":
                ctx.consume(text[pos:nxt])
                return nxt, block.next_body()
        if char == ">" and tagged:  # `{…}}>`: the closer's last character alone where the closer belongs (Phi-4-mini)
            if pos + 1 >= len(text) and not final:
                return pos, MORE
            if pos + 1 >= len(text) or text[pos + 1] in " \t\r\n<":
                ctx.markup(char)
                return pos + 1, Closed(ctx)
        if char in "\"'" and tagged:  # `{…}"</tool_call>`: a stray quote glued after the call (Llama 3.2 3B)
            nxt = len(text) - len(text[pos + 1 :].lstrip(" \t\r\n"))
            if nxt >= len(text) and not final:
                return pos, MORE
            if nxt >= len(text) or text[nxt] == "<":
                ctx.markup(char)
                return pos + 1, self
        if char == "/" and tagged:  # `{…}/function>`: the closer with its `<` left out
            damaged, partial = damaged_closer(block, text, pos, final)
            if partial:
                return pos, MORE
            if damaged is not None:
                ctx.markup(damaged.group())
                return damaged.end(), Closed(ctx)
        if char in "<[" and block.outer is not None:  # the wrapper's closer, the block's own left out: markup too
            outer = match_at(block.outer, text, pos, final)
            if outer is MORE:
                return pos, MORE
            if outer is not None:
                ctx.markup(outer.group())
                return outer.end(), Closed(ctx, fence=block.fence)
        if char in "<[`":
            fences = char == "`" and (block.fence or tagged)
            found = ctx.markers.match(text, pos, final, closes=True, fences=fences)
            if found is PARTIAL:
                return pos, MORE
            if (
                found is not None
                and found.dialect is not None
                and (found.dialect.reader is open_turn_end or found.dialect.name == "own_turn_header")
            ):  # after a call: the block's own end, or its turn opened again (`_own_turn`)
                found = None
            if found is not None:
                if found.kind == "open":
                    nested = found.dialect is block.dialect
                    # A call that read its own closer (`<function …>…</function>`) is whole: the same call written
                    # again after it is another call (a model may mean it twice), not the repeat of an open one.
                    repeat = nested and not _closed_in(block, ctx.last_call_raw)
                    again = _repeated(ctx.last_call_raw, text, pos, final) if repeat else None
                    if isinstance(again, int):  # two openers, one closer: the repeat must end the open block
                        again = _closes_after(block, text, again, final)
                    if again is MORE:
                        return pos, MORE
                    if isinstance(again, int):  # the same call written again under a second opener
                        ctx.markup(text[pos:again])
                        return again, self
                    ctx.markup_as_text()
                    return pos, None
                ctx.markup(found.match.group())
                if found.kind == "close":
                    # the fence stays open unless this closer was the fence's own (```), which closes it
                    fence = block.fence and not found.match.group().startswith("`")
                    return found.match.end(), closed_by(ctx, found.match.group(), fence=fence, outer=block.outer)
                return found.match.end(), None if block.fence else self
            damaged, partial = damaged_closer(block, text, pos, final)
            if partial:
                return pos, MORE
            if damaged is not None:  # `</function_calls>` for `</function_call>`, `</tool_call` cut at the end
                ctx.markup(damaged.group())
                return damaged.end(), Closed(ctx)
            if char == "<" and tagged:
                stray, partial = _closers_then_closer(block, text, pos, final)
                if partial:
                    return pos, MORE
                if stray is not None:  # `</parameter></function>` again before `</tool_call>`: markup
                    ctx.markup(stray.group())
                    return stray.end(), Closed(ctx)
            turn = _turn_end(ctx, text, pos, final) if char != "`" else None
            if turn is not None:  # `{…}<|eot_id|>`: the model's end of turn
                return turn
        if tagged and char not in "<\n":
            stray, partial = _text_then_closer(block, text, pos, final)
            if partial:
                return pos, MORE
            if stray is not None:  # `</function> some junk </tool_call>`: the words are text, the closer markup
                ctx.markup_as_text()
                ctx.text(stray.group("text"))
                ctx.markup(stray.group("close"))
                return stray.end(), Closed(ctx)
        return _ends(ctx, text, start, pos), None  # the block simply ends: its closer is optional

    def finish(self, truncated: bool) -> None:
        self.ctx.markup_as_text()


def _after_blanks(
    ctx: Context, text: str, pos: int, final: bool, feed: Callable[[str, int, int, bool], tuple[int, Next]]
) -> tuple[int, Next]:
    """``feed`` after the blanks at ``pos`` (taken as the block's): where it waits for more text right after them, or
    only blanks came, they are given back and read again with what follows, so where the block ends (`_ends`) does
    not depend on how the text was cut."""
    start, after = pos, ctx.skip_ws(text, pos)
    result = (after, MORE) if after >= len(text) and not final else feed(text, start, after, final)
    if result[1] is MORE and result[0] == after and after > start:
        ctx.unskip(text[start:after])
        return start, MORE
    return result


def _ends(ctx: Context, text: str, start: int, pos: int) -> int:
    """The block ends before ``pos``, after the blanks skipped from ``start``: those up to their last line break are
    text with the block's markup; from that line break on the text is read again, so a form that opens a line
    (``\n``-led rows: ``Action:``, ``NAME {…}``, ``- {…}``) may begin there, as it could after any text."""
    cut = text.rfind("\n", start, pos)
    if cut >= 0:
        ctx.unskip(text[cut:pos])
    ctx.markup_as_text()
    return pos if cut < 0 else cut


class Closed:
    def __init__(self, ctx: Context, *, fence: bool = False, outer: regex.Pattern[str] | None = None) -> None:
        self.ctx = ctx
        self.fence = fence
        """The block sits in a ``` fence: its closing fence is the block's markup too."""
        self.outer = outer
        """The closer of a tag around the block (`Block.outer`): the block's markup too."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        return _after_blanks(self.ctx, text, pos, final, self._feed)

    def _feed(self, text: str, start: int, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if pos >= len(text):
            return pos, self
        if self.outer is not None:
            found_outer = self.outer.match(text, pos, partial=not final)
            if found_outer is not None and found_outer.partial:
                return pos, MORE
            if found_outer is not None:
                ctx.markup(found_outer.group())
                self.outer = None
                return found_outer.end(), self
        if self.fence and text[pos] == "`":
            found = ctx.markers.match(text, pos, final, opens=False, closes=True, fences=True)
            if found is PARTIAL:
                return pos, MORE
            if found is not None:  # a fence's closer (as a fence row's or a fenced family's own: ```)
                ctx.markup(found.match.group())
                return found.match.end(), None
        if text[pos] in "<[":
            found = ctx.markers.match(text, pos, final, opens=False, closes=True)
            if found is PARTIAL:
                return pos, MORE
            if found is not None:
                ctx.markup(found.match.group())
                if TURN_END.fullmatch(found.match.group()) is not None:  # a turn token: what may follow it
                    return found.match.end(), closed_by(ctx, found.match.group(), fence=self.fence, outer=self.outer)
                return found.match.end(), self
            turn = _turn_end(ctx, text, pos, final)
            if turn is not None:
                return turn
        return _ends(ctx, text, start, pos), None

    def finish(self, truncated: bool) -> None:
        self.ctx.markup_as_text()


class Skip:
    def __init__(self, ctx: Context, error: str) -> None:
        self.ctx = ctx
        self.error = error

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        found = ctx.markers.search_call_marker(text, pos, final)
        if found is None or (found.partial and found.start() >= len(text)):
            ctx.consume(text[pos:])
            return len(text), self
        ctx.consume(text[pos : found.start()])
        if found.partial:
            return found.start(), MORE
        marker = ctx.markers.match(text, found.start(), True, closes=True, opens=False)
        if isinstance(marker, MarkerMatch):
            ctx.fail_call(self.error, found.group())
            return found.end(), Closed(ctx)
        ctx.fail_call(self.error)  # a new opener: this block ends here, the next begins
        return found.start(), None

    def finish(self, truncated: bool) -> None:
        self.ctx.fail_call(self.error)


class Markup:
    """A ``markup`` row's token was read in text: it ends invisibly, and text goes on."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        self.ctx.markup("")
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.ctx.markup("")


class _LastRole(Closed):
    """After a turn token that followed a call: another role's header ending the message (`_LAST_ROLE`) is markup."""

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        end = pos
        while end < len(text) and text[end] in " \t\r\n":
            end += 1
        if end >= len(text) and not final:
            return pos, MORE
        last = match_at(_LAST_ROLE, text, end, final) if end < len(text) else None
        if last is MORE:
            return pos, MORE
        if last is not None and last.end() >= len(text):
            self.ctx.consume(text[pos : last.end()])
            self.ctx.markup("")
            return last.end(), None
        return super().feed(text, pos, final)


def closed_by(ctx: Context, marker: str, *, fence: bool = False, outer: regex.Pattern[str] | None = None) -> Closed:
    """The reader after a block's closing ``marker``: after a turn token, another role's header ending the message is
    markup too (`_LastRole`)."""
    if TURN_END.fullmatch(marker) is not None:
        return _LastRole(ctx, fence=fence, outer=outer)
    return Closed(ctx, fence=fence, outer=outer)


def open_markup(ctx: Context, block: Block, match: regex.Match[str]) -> Markup:
    return Markup(ctx)


_ROLE = regex.compile(r"<\|(?:assistant|user|system)\|>[ \t]{0,4}(?:\r?\n)?")
"""A role header opening the next turn (Phi's ``<|assistant|>``)."""
_LAST_ROLE = regex.compile(r"<\|(?:user|system|observation)\|>[ \t\r\n]*")
"""A header of another role's turn, the last thing in the message after a turn token (GLM's ``<|observation|>\n
<|user|>`` after its call): the model wrote on where its generation should have stopped; markup with it."""


_MIRRORED = regex.compile(r"<(?P<name>[A-Za-z_][\w.:-]{0,31})\|>|<\|/(?P<name>[A-Za-z_][\w.:-]{0,31})\|>")
"""A closer spelled as its opener mirrored: Gemma 4's ``<NAME|>`` for ``<|NAME>``, ``<|/NAME|>`` for ``<|NAME|>``."""


def _opened_in_text(tail: str, token: str) -> bool:
    """Whether ``token`` closes a pair whose opener went out as visible text just before it, with no closer since
    (``<|tool_response>response:search_web{…}<tool_response|>``: a tool's answer quoted whole, local-lizard's tests):
    the pair is the text's own, its closer as much as its opener."""
    found = _MIRRORED.fullmatch(token)
    if found is None:
        return False
    name = found.group("name")
    opener = f"<|{name}>" if token.endswith("|>") and not token.startswith("<|") else f"<|{name}|>"
    lower = tail.lower()
    at = lower.rfind(opener.lower())
    return at >= 0 and token.lower() not in lower[at:]


class TurnEnd:
    """A turn-end token (`TURN_END`) read in text: the model's own turn structure, markup, when the message ends
    there, another special token or a block's opener follows right against it (``…may have.<|eot_id|>``,
    ``….<|end|><|start|>assistant …``, ``<end_of_turn><tool_call>``), or more turn ends follow (a run,
    ``<end_of_turn><end_of_turn>``, blanks between them); any other text after it makes it a token named in prose,
    which stays text; so does the closer of a pair whose opener the text shows (`_opened_in_text`). Once the token
    went out as markup, the model wrote on past its stop: the same token written again is markup wherever it stands
    (``<end_of_turn>\n<end_of_turn>restrial\n<end_of_turn>``, `Context.turn_over`).
    """

    def __init__(self, ctx: Context, token: str) -> None:
        self.ctx = ctx
        self.token = token

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        # Only a token right against it counts: ``<|im_end|>\n<|im_start|>user`` is a transcript in prose.
        role = match_at(_ROLE, text, pos, final)
        if role is MORE:
            return pos, MORE
        if role is not None:  # `<|/tool_call|><|assistant|>`: the next turn's header is markup with it
            self.ctx.consume(text[pos : role.end()])
            self.ctx.markup("")
            return role.end(), None
        if self.ctx.turn_over(self.token):
            self.ctx.markup("")
            return pos, None
        if _opened_in_text(self.ctx.tail(), self.token):
            self.ctx.revert()  # the closer of a pair the text shows (`<|tool_response>…<tool_response|>`): text too
            return pos, None
        end = pos
        while end < len(text) and text[end] in " \t\r\n":
            end += 1
        adjacent = text[pos : pos + 2]
        if not final and (end >= len(text) or (pos + 2 > len(text) and "<|".startswith(adjacent))):
            return pos, MORE  # the message may end here, or `<|` may follow
        if end >= len(text) or adjacent == "<|":
            self.ctx.markup("")
            return pos, None
        if adjacent[:1] == "<":  # a block's opener right against it (`<end_of_turn><tool_call>`): the turn's structure
            opener = self.ctx.markers.match(text, pos, final)
            if opener is PARTIAL:
                return pos, MORE
            if opener is not None and opener.dialect is not None and opener.dialect.kind != "prose":
                self.ctx.markup("")
                return pos, None
        after = match_at(TURN_END, text, end, final)  # `<|close|>message<|sep|>\n<|end_of_msg|>`: two turn ends
        if after is MORE:
            return pos, MORE
        last = match_at(_LAST_ROLE, text, end, final) if after is None else None
        if last is MORE:
            return pos, MORE
        if last is not None and last.end() >= len(text):  # `<|observation|>\n<|user|>` ending the message
            self.ctx.consume(text[pos : last.end()])
            self.ctx.markup("")
            return last.end(), None
        if after is not None:
            self.ctx.markup("")
        else:
            self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        if _opened_in_text(self.ctx.tail(), self.token):
            self.ctx.revert()
        else:
            self.ctx.markup("")


def open_turn_end(ctx: Context, block: Block, match: regex.Match[str]) -> TurnEnd:
    return TurnEnd(ctx, match.group())


class Revert:
    """The opener matched but the evidence is missing (an untagged form naming no offered tool): it is text."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()
