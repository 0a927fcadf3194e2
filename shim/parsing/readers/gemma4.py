"""Gemma 4 and FunctionGemma: ``call:NAME{key:value,…}`` between special tokens, strings in special quotes.

- Gemma 4: ``<|tool_call>call:get_weather{location:<|"|>Paris<|"|>}<tool_call|>``; its reasoning is a
  ``<|channel>thought …<channel|>`` block.
- FunctionGemma: ``<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>``.
- With the special tokens stripped by the engine: ``call:get_weather{location:Paris}`` opening the message,
  only for an offered tool (untagged evidence); ``Call: get_weather {"location": "Paris"}`` too (the word in any
  case, as every opener is matched, and JSON arguments).

Keys are bare words; strings sit between two ``<|"|>`` (or ``<escape>``) and are taken literally (a ``"`` or
``\\`` inside is the character itself); other values are JSON literals, objects ``{k:v}`` and lists; a bare
word where a value belongs (quotes stripped) is a string, and so is a value in plain JSON double quotes
(``{command:"ls"}``, the special quotes rendered as ``"``); a key written right before a quoted value has its
colon left out (``{thought<|"|>ok<|"|>}``). The closer is optional. Between the call tokens,
``call:NAME(k="v")`` with Python-style arguments is read too (`shim.parsing.readers.pycall`), and the ``call:``
prefix may be left out before an offered tool's name (``<start_function_call>NAME{}``). Inside another family's
call tag (``<tool_call>call:NAME{…}``) the body is read the same way.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from shim.parsing import lenient_json
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import AfterBody, Revert
from shim.parsing.readers.json_body import CUT_OFF, JsonBody
from shim.parsing.readers.pycall import PyCall
from shim.parsing.readers.reasoning import open_reasoning

__all__ = ["ROWS", "to_json"]

_QUOTES = r'<\|"\|>|<escape>'
_NAME = r"[A-Za-z_](?:[A-Za-z0-9_.\-]|:(?=[A-Za-z_])){0,127}"
"""A tool's name; a colon joins the parts of an MCP client's namespaced name (``google-workspace:list_events``,
``mcp.calendar:list_events``: mlx-vlm's Gemma 4 parser tests), never ends it."""
_CALL = regex.compile(rf"(?i:call)[ \t]{{0,4}}:[ \t]{{0,4}}(?P<name>{_NAME})[ \t]{{0,4}}(?=\{{)")
_PAREN_CALL = regex.compile(rf"(?i:call)[ \t]{{0,4}}:[ \t]{{0,4}}(?P<name>{_NAME})[ \t]{{0,4}}\(")
"""``call:NAME(k="v")``: parentheses for braces, Python-style arguments (Gemma 4 E4B under load, vllm-mlx's
tests); read inside the family's call tokens only."""
_ARGS_AHEAD = r"(?=\{[ \t]{0,4}(?:\}|[A-Za-z_][\w\-]{0,63}[ \t]{0,4}:))"
"""Gemma's arguments begin: ``{}``, or ``{KEY:``."""
_BARE_CALL = regex.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127})[ \t]{0,4}(?=\{)")
"""``NAME{`` with the ``call:`` prefix left out (a model prompted with the tokens but not the prefix)."""
_NEXT = regex.compile(rf"{_QUOTES}|[{{}}]", regex.IGNORECASE)
# A string in plain double quotes (the special quotes' stand-in when a template or a client renders them, as
# oMLX shows ``{command:"ls"}``) is one token, commas and colons inside included; a lone quote is a token too.
_TOKEN = regex.compile(
    r'"(?:[^"\\\n]|\\.)*"|(?<=:[ \t]{0,4})\'[^\'\n]*\'(?=[ \t]{0,4}[,}\]])|[{}\[\],:]|[^{}\[\],:"]+|"'
)
_CLOSED_QUOTE = regex.compile(r"""(?:^|[:\[,])[ \t]{0,4}(?:'[^'\n]*'|"[^"\n]*")[ \t]{0,4}$""")
"""A value closed in plain quotes right before a special quote token: that token is stray (Gemma 4 E4B wrote
``pattern:':\\s*\\w+'<|"|>``, ollama#15315, which Ollama's parser later repaired)."""
_LITERAL = regex.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


_KEY_AFTER_SPACE = regex.compile(r"\s[A-Za-z_]\w*\s*$")
"""A bare value whose last word, after a space, looks like a key: the colon after it starts a pair (``{a:1 b:2}``,
a comma left out), not part of the value (``14:00:00``, ``https://…``)."""


def _json_string(word: str) -> bool:
    """``word`` is a whole JSON string literal (``"ls"``): kept as it is rather than quoted again."""
    if len(word) < 2 or word[0] != '"' or word[-1] != '"':
        return False
    try:
        return isinstance(json.loads(word), str)
    except ValueError:
        return False


def to_json(parts: list[tuple[bool, str]]) -> str:
    """JSON text for a body given as (is_string, text) parts: strings quoted, bare keys and words quoted.

    A bare value runs to the next ``,`` or closer, colons included (``datetime:2025-06-06 14:00:00``, a value the
    model left unescaped), unless a key-like word after a space precedes the colon (``{a:1 b:2}`` stays an
    error). A top-level parameter whose value is the bare word ``None`` is left out: Python's filler for a
    parameter not given (FunctionGemma's fine-tuning data fills every unused one so); JSON ``null`` stays null.

    Raises:
        ValueError: a token where none belongs (``{a:1 b}``).
    """
    out: list[str] = []
    stack: list[str] = []
    expect: str = "value"
    word: str | None = None  # a bare value being read: its text so far, until a `,` or a closer ends it
    pair = 0  # where the current top-level pair starts in `out`
    skip_comma = False
    for is_string, text in parts:
        if is_string:
            if expect == "colon":  # `{thought<|"|>ok<|"|>}`: a key right before its quoted value, no colon
                out.append(":")
                expect = "value"
            out.append(json.dumps(text, ensure_ascii=False))
            expect = "colon" if expect == "key" else "after"
            continue
        for token in _TOKEN.findall(text):
            if word is not None and token == ":" and not _KEY_AFTER_SPACE.search(word):
                word += token  # a colon inside a bare value (a time, a URL): part of it
                continue
            if word is not None and token not in "{}[],:" and token.strip():
                word += token
                continue
            if word is not None:
                if stack == ["{"] and word.strip() == "None":
                    del out[pair:]  # Python's filler: the parameter was not given
                    skip_comma = True
                else:
                    out.append(_bare_value(word.strip()))
                word = None
            if token in "{[":
                stack.append(token)
                expect = "key" if token == "{" else "value"
            elif token in "}]":
                stack = stack[:-1]
                expect = "after"
            elif token == ",":
                expect = "key" if stack[-1:] == ["{"] else "value"
                if skip_comma and stack == ["{"]:
                    skip_comma = False
                    pair = len(out)
                    continue
            elif token == ":" and expect == "colon":
                expect = "value"
            elif not token.strip():
                pass
            elif expect == "value":
                word, expect = token, "after"
                continue
            elif expect == "key":
                key = token.strip()
                if stack == ["{"]:
                    pair = len(out)
                token = key if _json_string(key) else json.dumps(key, ensure_ascii=False)
                expect = "colon"
            else:
                raise ValueError(f"unexpected {token.strip()[:40]!r}")
            out.append(token)
    if word is not None:
        out.append(_bare_value(word.strip()))
    return "".join(out)


def _bare_value(word: str) -> str:
    """A bare value's JSON: a literal as it is, a string in JSON or plain single quotes unquoted, a word quoted."""
    if _LITERAL.fullmatch(word) or _json_string(word):
        return word
    if len(word) >= 2 and word[0] == word[-1] == "'":
        word = word[1:-1]  # a value in plain single quotes: the text inside them
    return json.dumps(word, ensure_ascii=False)


_CLOSING = {q: regex.compile(regex.escape(q)) for q in ('<|"|>', "<escape>")}
"""The closers of Gemma 4's two special quotes."""


class GemmaArgs:
    """The ``{…}`` after ``call:NAME``: read to its matching brace, aware of the special quotes."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.depth = 0
        self.quote: str | None = None
        self.parts: list[tuple[bool, list[str]]] = []
        self.string: list[str] = []
        self.closing = _CLOSING
        ctx.start_call(name)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        while True:
            if self.quote is not None:
                found = self.closing[self.quote].search(text, pos, partial=not final)
            else:
                found = _NEXT.search(text, pos, partial=not final)
            end = len(text) if found is None else found.start()
            ctx.consume(text[pos:end])
            (self.string.append if self.quote is not None else self._raw)(text[pos:end])
            if found is None:
                return end, self
            if found.partial:
                return end, MORE
            token, pos = found.group(), found.end()
            ctx.consume(token)
            if self.quote is None and token not in "{}" and self._closed_plain():
                continue  # a stray special quote after a value the model closed in plain quotes
            if self.quote is not None:
                self.parts.append((True, self.string))
                self.string, self.quote = [], None
            elif token in "{}":
                self.depth += 1 if token == "{" else -1
                self._raw(token)
                if self.depth == 0:
                    return pos, self._done()
            else:
                self.quote = "<escape>" if token.lower() == "<escape>" else token
        return pos, self  # pragma: no cover - the loop returns

    def _closed_plain(self) -> bool:
        if not self.parts or self.parts[-1][0]:
            return False
        return _CLOSED_QUOTE.search("".join(self.parts[-1][1])[-400:]) is not None

    def _raw(self, text: str) -> None:
        if not text:
            return
        if self.parts and not self.parts[-1][0]:  # raw text split by chunks is read as one
            self.parts[-1][1].append(text)
        else:
            self.parts.append((False, [text]))

    def _done(self) -> Next:
        try:
            value: Any = lenient_json.loads(to_json([(q, "".join(t)) for q, t in self.parts]))
            if not isinstance(value, dict):
                raise ValueError("the arguments are not an object")
        except (ValueError, lenient_json.LenientJSONError) as exc:
            self.ctx.fail_call(f"the arguments of {self.name!r} could not be read: {exc}")
        else:
            self.ctx.end_call(self.name, value, streamed=False)  # pyright: ignore[reportUnknownArgumentType]
        return GemmaStart(self.ctx, self.block, after=True)

    def finish(self, truncated: bool) -> None:
        self.ctx.fail_call(CUT_OFF if truncated else f"the call to {self.name!r} ends before its closing brace")


class GemmaStart:
    """After the opener (``call:NAME{``, or a JSON object), or after a call (another ``call:``, or the end)."""

    def __init__(self, ctx: Context, block: Block, *, after: bool = False, known_only: bool = False) -> None:
        self.ctx = ctx
        self.block = block
        self.after = after
        self.known_only = known_only
        block.next_body = lambda: JsonBody(ctx, block)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        start = pos
        pos = ctx.skip_ws(text, pos)
        if pos < len(text) and text[pos] == ":" and not self.after and not self.known_only:
            ctx.consume(":")  # `<|tool_call>:call:NAME{…}`: a stray colon after the opener (vLLM's Gemma 4 tests)
            pos = ctx.skip_ws(text, pos + 1)
        if pos >= len(text):
            return pos, self
        found = _CALL.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is not None and (not self.known_only or ctx.tools.is_known(found.group("name"))):
            ctx.consume(found.group())
            return found.end(), GemmaArgs(ctx, self.block, found.group("name"))
        paren = None if self.known_only else _PAREN_CALL.match(text, pos, partial=not final)
        if paren is not None and paren.partial:
            return pos, MORE
        if paren is not None:
            ctx.consume(paren.group())
            return paren.end(), PyCall(ctx, self.block, paren.group("name"))
        if found is None and not self.known_only:  # `call:` left out: an offered tool's name, then `{`
            bare = _BARE_CALL.match(text, pos, partial=not final)
            if bare is not None and bare.partial:
                return pos, MORE
            if bare is not None and ctx.tools.is_known(bare.group("name")):
                ctx.consume(bare.group())
                return bare.end(), GemmaArgs(ctx, self.block, bare.group("name"))
        if self.after:
            return pos, AfterBody(ctx, self.block)
        if text[pos] == "{" and not self.known_only:
            return pos, JsonBody(ctx, self.block)
        ctx.revert()  # the marker was mentioned (code, docs): text
        return start if self.known_only else pos, None

    def finish(self, truncated: bool) -> None:
        if self.after:
            self.ctx.markup_as_text()
        else:
            self.ctx.revert()


def _tagged(ctx: Context, block: Block, match: regex.Match[str]) -> GemmaStart:
    return GemmaStart(ctx, block)


def _in_tag(ctx: Context, block: Block, match: regex.Match[str]) -> GemmaArgs:
    return GemmaArgs(ctx, block, match.group("name"))


def _stripped(ctx: Context, block: Block, match: regex.Match[str]) -> GemmaStart:
    return GemmaStart(ctx, block, known_only=True)


def _stripped_line(ctx: Context, block: Block, match: regex.Match[str]) -> GemmaStart:
    opener = ctx.take_raw()
    ctx.text(opener)  # the line break (and indent) before the call stays text
    return GemmaStart(ctx, block, known_only=True)


def _fragment(ctx: Context, block: Block, match: regex.Match[str]) -> GemmaArgs | Revert:
    name = match.group("name")
    return GemmaArgs(ctx, block, name) if ctx.tools.is_known(name) else Revert(ctx)


ROWS = [
    Dialect("gemma4", r"<\|tool_call>", r"<tool_call\|>", reader=_tagged),
    Dialect("function_gemma", r"<start_function_call>", r"<end_function_call>", reader=_tagged),
    # `call:NAME{…}` as the body of another family's call tag (SmallCTL's Gemma 4 runs write the template's
    # opener as Hermes' `<tool_call>`, then `call:NAME{…}<tool_call|>`).
    Dialect(
        "gemma4_in_tag", _CALL.pattern, None, start="inside", inside=("tool_call", "function_call"), reader=_in_tag
    ),
    Dialect("gemma4_thought", r"<\|channel>thought", r"<channel\|>", kind="reasoning", reader=open_reasoning),
    Dialect(
        # `call:NAME{`: a brace after the name (`Call: NAME(…)` is NexusRaven's, read by `pythonic_calls`).
        "gemma4_stripped",
        rf"(?=call[ \t]{{0,4}}:[ \t]{{0,4}}{_NAME}[ \t]{{0,4}}\{{)",
        None,
        kind="untagged",
        start="message",
        first="cC",
        reader=_stripped,
    ),
    Dialect(
        # The same on a line of its own after prose (vLLM's Gemma 4 tests): an offered tool's name only.
        "gemma4_stripped_line",
        rf"\n[ \t]{{0,8}}(?=call[ \t]{{0,4}}:[ \t]{{0,4}}{_NAME}[ \t]{{0,4}}\{{)",
        None,
        kind="untagged",
        first="\n",
        reader=_stripped_line,
    ),
    Dialect(
        # `<call>NAME{k:<|"|>v<|"|>}`: the call token come out in pieces (vLLM: multimodal inputs fragment it), the
        # arguments in the family's own syntax; an offered tool's name only.
        "gemma4_fragment",
        rf"<call>[ \t]{{0,4}}(?P<name>{_NAME})[ \t]{{0,4}}{_ARGS_AHEAD}",
        None,
        kind="untagged",
        first="<",
        reader=_fragment,
    ),
]
