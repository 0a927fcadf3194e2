"""Qwen3-Coder ``<function=NAME><parameter=K>V</parameter></function>``; Llama 3.1 ``<function=NAME>{…}</function>``.

Bare or inside ``<tool_call>``. Values are raw text, typed by the tool's input schema where it says
(``"42"`` becomes 42 for an integer parameter, stays ``"42"`` for a string one); without a schema it stays
text (`shim.parsing.xml_values`, the one rule of every XML family). Arguments stream one parameter at a
time, as JSON text that concatenates to the final object. A ``{`` right after the opener is Llama's form:
the body is the arguments object (also in a list of one, ``[{…}]``, its ``]`` maybe left out; and after
``<function=NAME `` with the opener's ``>`` left out, Llama 3.3 on Groq).

Damaged forms that the tool's schema confirms (written by models prompted for this format, quoted by
ai-sdk-tool-call-middleware's tests), read only for a parameter the offered tool declares:

- ``<parameter=KEY`` with its ``>`` left out, the value on the next line (beam's Qwen tests);
- a property tag ``<path>a.py</path>`` in place of ``<parameter=path>`` (Qwen2.5);
- a nameless tag ``<parameter>city</parameter>`` followed by the value as text, up to the next parameter or
  the call's closer (Qwen2.5, Llama 3.1);
- inside ``<tool_call>``: ``<call=NAME>…</call>`` for ``<function=NAME>…</function>``; the opener's ``<`` left
  out (``function=NAME>``, GLM-4.7), the name as element text
  (``<function>NAME</function>``, Llama 3.1), or the bare name followed by property tags and closed by
  ``</NAME>`` (GLM-4.7), or by a declared key's tag with its value quoted inside it, the tag's ``>`` often
  left out (``<location="Rome"</location>``, GLM-4's "attr" style in mlx-manager's golden outputs); a
  ``</NAME>`` closer after a parameter ends any call of the tool ``NAME`` (inside a value it is the value's
  text: an ``html`` tool's markup holds ``</html>``).

A blank where an ``=`` belongs is the same markup, for any key (MiniMax-M3 in xalgorix's tests): ``<parameter KEY>``
(the key one identifier), ``<parameter = KEY>``, ``<function = NAME>``.

An opener left empty right before another call (``<function=a> <function=b>{…}``, llm-gateway's tests), both of
offered tools, is that call's markup; a JSON body may be closed by a tag named for its tool
(``<function=foo>{…}</foo>``, the same tests), as an XML body may.

A ``</parameter>`` with more text right after it on its line (no tag, no line break), or with another
``</parameter>`` right after it, is the value's own text: the value goes on to the next closer.
"""

from __future__ import annotations

import json
from typing import Any, cast

import regex

from shim.parsing import lenient_json
from shim.parsing.json_scan import ARG_KEYS, JsonScanner, Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader
from shim.parsing.readers.block_end import AfterBody, Closed, Skip
from shim.parsing.readers.json_body import CUT_OFF, JsonBody
from shim.parsing.tags import PARTIAL, compile_marker
from shim.parsing.xml_values import layout_newline, typed_value, unlaid

__all__ = ["FUNCTION_OPEN", "ROWS", "SelfClosed", "XmlBody", "open_function"]

# ``<function=NAME>``; Llama 3.x also writes ``<function=NAME={…}`` (an ``=`` where ``>`` belongs) before a JSON body.
# Blanks around the opener's `=` (`<function = NAME>`, MiniMax-M3 in xalgorix's tests) are the same opener.
# Llama 3.3 on Groq leaves the `>` out altogether: `<function=NAME {…}</function>`, the name one identifier and a blank
# before the JSON (or a list holding it, `[{…}`).
FUNCTION_OPEN = regex.compile(
    r"<function[ \t]{0,4}=[ \t]{0,4}(?:(?P<name>[^\W\d][\w.\-]{0,127})[ \t]{1,4}(?=\[?[ \t]{0,4}\{)"
    r"|(?P<name>[^>\n=]{1,128})(?:>|=(?=[ \t]*\{)))",
    regex.IGNORECASE,
)
_WS = regex.compile(r"[ \t\r\n]+")
_NAME = regex.compile(r"[^\W\d][\w.\-:]{0,127}")  # an identifier, in any script (`获取天气`)
_PARAM_NAMED = r"<parameter[ \t]+name[ \t]*=[ \t]*[\"']"
"""``<parameter name="K">``: the MiniMax spelling of a parameter inside Qwen3-Coder's ``<function=NAME>`` (MiniMax
M2.7 in Strix writes the two families' markup mixed)."""
_PARAM_SPACED = r"<parameter[ \t]{1,4}(?P<key>[^\W\d][\w.\-]{0,63})[ \t]{0,4}>"
"""``<parameter KEY>``: a blank where the ``=`` belongs (MiniMax-M3 in xalgorix's tests); the key one identifier."""
_PARAM_OPEN = regex.compile(
    rf"<parameter[ \t]{{0,4}}=[ \t]{{0,4}}(?P<key>[^>\n]{{1,128}})>"
    rf"|{_PARAM_NAMED}(?P<key>[^\"'>\n]{{1,128}})[\"'][ \t]*>|{_PARAM_SPACED}",
    regex.IGNORECASE,
)
_PARAM_CLOSE = r"<[ \t]{0,8}/[ \t]{0,8}parameter[ \t]{0,8}>"
_PARAM_INLINE = regex.compile(
    r"<parameter=(?P<key>[\w.\-]{1,64})=(?P<value>[^<>\n]{0,512})<[ \t]{0,8}/[ \t]{0,8}parameter[ \t]{0,8}>", regex.I
)
"""The opener's ``>`` left out, name and value joined by ``=``: ``<parameter=command=str_replace</parameter>``
(OpenHands' recovery test); a key never holds ``=``, so the first one splits them."""
_FUNC_CLOSE = r"<[ \t]{0,8}/[ \t]{0,8}(?:function|call)[ \t]{0,8}>"
"""``</function>``, or ``</call>`` closing a ``<call=NAME>`` (ai-sdk-tool-call-middleware's Qwen3-Coder tests)."""
_FUNC_CLOSE_RE = regex.compile(_FUNC_CLOSE, regex.IGNORECASE)
_FUNC_END = regex.compile(rf"{_FUNC_CLOSE}|/[ \t]{{0,8}}function[ \t]{{0,8}}>", regex.IGNORECASE)
"""Where the call's closer is looked for between parameters: ``</function>``, or ``/function>`` with its ``<`` left
out (Llama on Groq: ``<function=NAME>/function>``, a call with no arguments). Not inside a value."""
_PARAM_CLOSE_RE = regex.compile(_PARAM_CLOSE, regex.IGNORECASE)
_VALUE_GOES_ON = regex.compile(rf"[ \t]*(?:[\w'\"]|{_PARAM_CLOSE})", regex.IGNORECASE)
"""Text on the same line right after a value's closer, no tag: the value holds the closer (``x = '</parameter>
still here'</parameter>``, a file that writes the markup), and goes on to the next closer. So does the closer written
again right after it (``<parameter=content>x</parameter></parameter>``, beam's Qwen tests): a value that ends in the
markup, closed once more; a parameter is never closed twice."""


class XmlBody:
    """One XML-style call; the opener gave its name (the call starts at once)."""

    def __init__(self, ctx: Context, block: Block, name: str, *, unclosed: bool = False) -> None:
        """``unclosed``: the opener's ``>`` was left out (``<function=NAME {…}``); bare, only an offered tool's."""
        self.ctx = ctx
        self.block = block
        self._unclosed = unclosed
        # Bare (no <tool_call> around it), the opener alone is weak evidence: code and docs quote
        # `<function=NAME>`. The call starts once a body follows; inside a wrapper, at once.
        self._bare = block.dialect is not None and block.dialect.name == "qwen_xml"
        self._raw_name = name
        if not self._bare:
            ctx.start_call(name)
        self.name = ctx.tools.resolve(name)
        self.arguments: dict[str, Any] = {}
        props = ctx.tools.properties(self.name) or {}
        keys = "|".join(regex.escape(k) for k in sorted(props, key=len, reverse=True) if "\n" not in k)
        self._param_open = _PARAM_OPEN
        self._func_close = _FUNC_END
        self._tag_inline: regex.Pattern[str] | None = None
        # `query="…" numResults=5` in place of <parameter=…> blocks (Qwen3.6 on oMLX, issue 3153): declared keys only.
        self._key_value = (
            regex.compile(
                rf"(?P<key>{keys})[ \t]{{0,4}}=[ \t]{{0,4}}(?:\"(?P<dq>(?:[^\"\\\n]|\\.){{0,4000}})\""
                rf"|'(?P<sq>[^'\n]{{0,4000}})'|(?P<bare>[^\s<>\"'=]{{1,512}}))(?=[ \t\r\n<]|\Z)"
            )
            if keys
            else None
        )
        opens, closes = [r"<parameter=", _PARAM_NAMED, _PARAM_SPACED], [_PARAM_CLOSE]
        if keys and _NAME.fullmatch(self.name):
            # The schema's own names as tags (`<path>`, `<parameter>path</parameter>`), and `</NAME>` as closer.
            # A declared key's opener whose `>` was left out, the value on the next line (`<parameter=path⏎/tmp/a`,
            # beam's Qwen test: "the model sometimes drops it"): the line break ends the key.
            self._param_open = compile_marker(
                rf"{_PARAM_OPEN.pattern}|<(?P<tag>{keys})[ \t]{{0,8}}>"
                rf"|<parameter>[ \t\r\n]{{0,8}}(?P<bare>{keys})[ \t\r\n]{{0,8}}</parameter>"
                rf"|<parameter=(?P<key>{keys})[ \t]{{0,4}}(?=\r?\n)"
            )
            self._func_close = compile_marker(rf"{_FUNC_END.pattern}|</{regex.escape(self.name)}[ \t]{{0,8}}>")
            self._tag_inline = regex.compile(
                rf"<(?P<key>{keys})[ \t]{{0,4}}=[ \t]{{0,4}}(?P<quote>[\"'])(?P<value>[^\n]{{0,512}}?)(?P=quote)"
                rf"[ \t]{{0,4}}>?[ \t]{{0,4}}</(?P=key)[ \t]{{0,8}}>"
            )
            opens += [rf"<(?:{keys})[ \t]{{0,8}}>", r"<parameter>"]
            closes += [rf"</(?:{keys})[ \t]{{0,8}}>"]
        self._param_close = compile_marker("|".join(f"(?:{e})" for e in closes))
        self._opens_next = compile_marker("|".join(f"(?:{e})" for e in opens))
        ends = [*closes, *opens, _FUNC_CLOSE] + [p.pattern for _, p in ctx.markers.call_closers]
        self._value_end = compile_marker("|".join(f"(?:{e})" for e in ends))
        # A value opened by `<parameter=K>` ends only at the format's own markers and a wrapper's closing tag: a
        # tag named like a key inside it is the value's text (UI-TARS's `<parameter=point><point>17 58</point>`),
        # and so is a code fence (a README's text holds ```).
        canonical = [_PARAM_CLOSE, r"<parameter=", _PARAM_NAMED, _PARAM_SPACED, r"<parameter>", _FUNC_CLOSE]
        canonical += [p.pattern for _, p in ctx.markers.call_closers if not p.pattern.startswith("`")]
        self._canonical_end = compile_marker("|".join(f"(?:{e})" for e in canonical))
        self._canonical = False
        self._in_value = False
        self._key = ""
        self._value: list[str] = []
        self._finished = False
        # Whether this call closed a value with </parameter>, and whether one value was ended by the next
        # <parameter= instead: a call that never writes the closer may end its last value with the output.
        self._closed_any = False
        self._opened_next = False
        self._chunks: list[str] = []  # argument text read, sent once the input it came from is consumed

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        if not self.arguments and not self._in_value:
            pos = ctx.skip_ws(text, pos)
            if pos >= len(text):
                return pos, self
            if self._bare:
                begins = _body_begins(text, pos, final, (self._param_open, self._func_close))
                if begins is None:
                    return pos, MORE
                again = _opener_again(ctx, self._raw_name, text, pos, final) if not begins else False
                if again is None:
                    return pos, MORE
                if again:  # `<function=a> <function=b>{…}`: an opener left empty before a call is its markup
                    ctx.markup("")
                    return pos, None
                if (
                    not begins
                    or not _NAME.fullmatch(self._raw_name.strip())
                    or (self._unclosed and not ctx.tools.is_known(self._raw_name.strip()))
                ):
                    ctx.revert()  # a mention of the syntax, not a call: text, with no error
                    return pos, None
                self._bare = False
                ctx.start_call(self._raw_name)
            if text[pos] == "{":  # Llama 3.1's `<function=NAME>{…}</function>`: the body is the arguments
                self.block.name = self.name
                return pos, JsonBody(ctx, self.block, then=self._named_close)
            listed = _LISTED.match(text, pos, partial=not final)
            if listed is not None and listed.partial:
                return pos, MORE
            if listed is not None:  # `[{…}]`: a list of the one arguments object (its `]` `AfterBody`'s to eat)
                ctx.consume(listed.group())
                self.block.name = self.name
                return listed.end(), JsonBody(ctx, self.block, then=self._named_close)
        new, outcome = self._read(text, pos, final)
        if new > pos:
            ctx.consume(text[pos:new])
        self._flush()
        if outcome == "more":
            return new, MORE
        if outcome == "error":
            return new, Skip(ctx, f"expected <parameter=NAME> or </function>, found {text[new]!r}")
        ctx.end_call(self.name, self.arguments, streamed=True)
        return new, AfterBody(ctx, self.block)

    def _named_close(self) -> Reader:
        return _NamedClose(self.ctx, self.block, (self._raw_name, self.name))

    def _read(self, text: str, pos: int, final: bool) -> tuple[int, str]:
        """ "done" stops before a wrapping closer (``</tool_call>``), leaving it unread."""
        n = len(text)
        while pos < n:
            if self._in_value:
                ends = self._canonical_end if self._canonical else self._value_end
                found = ends.search(text, pos, partial=not final)
                if found is None or (found.partial and found.start() >= n):
                    self._value.append(text[pos:])
                    return n, "more"
                self._value.append(text[pos : found.start()])
                if found.partial:
                    return found.start(), "more"
                closes_param = self._param_close.fullmatch(found.group()) is not None
                if closes_param:
                    goes_on = _VALUE_GOES_ON.match(text, found.end(), partial=not final)
                    if goes_on is not None and goes_on.partial:
                        return found.start(), "more"
                    if goes_on is not None:  # `</parameter> still here'</parameter>`: the closer is the value's
                        self._value.append(found.group())
                        pos = found.end()
                        continue
                self._end_param()
                self._closed_any = self._closed_any or closes_param
                self._opened_next = self._opened_next or self._opens_next.fullmatch(found.group()) is not None
                pos = found.end() if closes_param else found.start()
                continue
            ws = _WS.match(text, pos)
            if ws is not None:
                pos = ws.end()
                continue
            inline = _PARAM_INLINE.match(text, pos, partial=not final)
            if inline is not None and inline.partial:
                return pos, "more"
            if inline is not None:
                self._key, self._value = inline.group("key"), [inline.group("value")]
                self._end_param()
                pos = inline.end()
                continue
            if self._tag_inline is not None:
                attr = self._tag_inline.match(text, pos, partial=not final)
                if attr is not None and attr.partial:
                    return pos, "more"
                if attr is not None:  # <location="Rome"</location>: a declared key, its value quoted in its tag
                    self._key, self._value = attr.group("key"), [attr.group("value")]
                    self._end_param()
                    pos = attr.end()
                    continue
            if self._key_value is not None:
                pair = self._key_value.match(text, pos, partial=not final)
                if pair is not None and pair.partial:
                    return pos, "more"
                if pair is not None:  # key="value" key=5: a declared key, its value quoted or one bare word
                    self._key = pair.group("key")
                    quoted = pair.group("dq")
                    self._value = [
                        regex.sub(r"\\(.)", r"\1", quoted)
                        if quoted is not None
                        else pair.group("sq") or pair.group("bare")
                    ]
                    self._end_param()
                    pos = pair.end()
                    continue
            param = self._param_open.match(text, pos, partial=not final)
            if param is not None and param.partial:
                return pos, "more"
            if param is not None:
                self._key = (param.group("key") or param.group("tag") or param.group("bare") or "").strip()
                self._canonical = param.group("key") is not None
                self._in_value = True
                self._value = []
                pos = param.end()
                continue
            close = self._func_close.match(text, pos, partial=not final)
            if close is not None and close.partial:
                return pos, "more"
            if close is not None:
                self._complete()
                return close.end(), "done"
            wrapper = self.ctx.markers.match(text, pos, final, opens=False, closes=True)
            if wrapper is PARTIAL:
                return pos, "more"
            if wrapper is not None:  # </tool_call> with </function> forgotten
                self._complete()
                return pos, "done"
            return pos, "error"
        return pos, "more"

    def _flush(self) -> None:
        for chunk in self._chunks:
            self.ctx.chunk(chunk)
        self._chunks.clear()

    def _complete(self) -> None:
        if not self._finished:
            self._finished = True
            self._chunks.append("}" if self.arguments else "{}")

    def _end_param(self) -> None:
        raw = _unlaid("".join(self._value))
        spread = self._spread(raw)
        for key, value in spread.items() if spread is not None else [(self._key, self._typed(raw))]:
            prefix = "{" if not self.arguments else ", "
            self.arguments[key] = value
            dumped = json.dumps(value, ensure_ascii=False)
            self._chunks.append(f"{prefix}{json.dumps(key, ensure_ascii=False)}: {dumped}")
        self._in_value = False
        self._value = []

    def _spread(self, raw: str) -> dict[str, Any] | None:
        """The arguments, when the value is the whole arguments object under an arguments key the tool does not
        declare (``<parameter=arguments>{"command": "ls"}``: Qwen3.8 in q27's captures, JSON in the XML); else None.
        Up to three surplus closing braces after the object are the model's (``…}}``)."""
        props = self.ctx.tools.properties(self.name)
        if not props or self._key in props or self._key.casefold() not in ARG_KEYS or not raw.lstrip().startswith("{"):
            return None
        text = raw.strip()
        for _ in range(4):
            try:
                value = lenient_json.loads(text)
            except lenient_json.LenientJSONError:
                if not text.endswith("}"):
                    return None
                text = text[:-1].rstrip()
                continue
            return cast("dict[str, Any]", value) if isinstance(value, dict) else None
        return None

    def _typed(self, raw: str) -> Any:
        return typed_value(self.ctx.tools, self.name, self._key, raw)

    def finish(self, truncated: bool) -> None:
        if self._bare:  # nothing of a body came: the opener was text
            self.ctx.revert()
            return
        if truncated:
            self.ctx.fail_call(CUT_OFF)
            return
        if self._in_value:
            raw = _unlaid("".join(self._value))
            whole = self._spread(raw) is not None and _closed_object(raw)  # a whole arguments object: finished
            if (self._closed_any or not self._opened_next) and not whole:  # one open value: cut off or finished
                self.ctx.fail_call("the call ends inside a parameter value")
                return
            self._end_param()  # this call writes no </parameter>: the output's end ends its last value too
        self._complete()
        self._flush()
        self.ctx.end_call(self.name, self.arguments, streamed=True)


def _closed_object(raw: str) -> bool:
    """Whether ``raw`` opens with a JSON value that closes (its brackets balanced): no value cut off."""
    text = raw.strip()
    _, status = JsonScanner(stop_chars="", capture=False).feed(text, 0, final=True)
    return status is Status.DONE


def _unlaid(raw: str) -> str:
    """A parameter value without its layout.

    The format puts each value on its own lines: exactly one newline on each side is layout, and so is the
    indentation of a closer indented on its own line (`shim.parsing.xml_values.unlaid`). A one-line value written
    on its tag's line loses the blanks around it.
    """
    if not layout_newline(raw):
        raw = raw[: len(raw) - layout_newline(raw, end=True)]
        # A one-line value written beside its tag (``<parameter=path> a.txt``): the blanks around it are layout.
        return raw if "\n" in raw else raw.strip(" \t")
    return unlaid(raw)


_LISTED = regex.compile(r"\[[ \t\r\n]{0,8}(?=\{)")
"""The arguments object in a list of one (Llama 3.3 on Groq: ``<function=web_search [{"query": …}]``, its ``]``
sometimes left out), as the shapes read ``"parameters": [{…}]``."""


def _body_begins(
    text: str, pos: int, final: bool, patterns: tuple[regex.Pattern[str], ...] = (_PARAM_OPEN, _FUNC_CLOSE_RE)
) -> bool | None:
    """Whether a call body starts at ``pos`` (``{``, a parameter's opener, the call's closer); None: cannot tell
    yet."""
    if text[pos] == "{":
        return True
    listed = _LISTED.match(text, pos, partial=not final)
    if listed is not None:
        return None if listed.partial else True
    for pattern in patterns:
        found = pattern.match(text, pos, partial=not final)
        if found is not None:
            return None if found.partial else True
    return False


_OPENER_THEN_BODY = regex.compile(
    rf"(?:{FUNCTION_OPEN.pattern})[ \t\r\n]{{0,8}}(?:\[?[ \t\r\n]{{0,8}}\{{|{_PARAM_OPEN.pattern})", regex.IGNORECASE
)


def _opener_again(ctx: Context, name: str, text: str, pos: int, final: bool) -> bool | None:
    """Whether another ``<function=NAME>`` and its body follow at ``pos``, both names offered tools: the opener before
    it, with nothing in it, was left empty (llm-gateway's tests: ``<function=a> <function=b>{…}``, only ``b`` is a
    call), and is the call's markup; None: cannot tell yet. An opener before prose, or one of no offered tool, is
    text as before."""
    if not ctx.tools.is_known(name.strip()):
        return False
    found = _OPENER_THEN_BODY.match(text, pos, partial=not final)
    if found is None:
        return False
    if found.partial:
        return None
    return ctx.tools.is_known(found.group("name").strip())


class _NamedClose:
    """After ``<function=NAME>``'s JSON arguments: ``</NAME>``, a closer named for the tool (llm-gateway's tests:
    ``<function=foo>{"a":1}</foo>``; the ``]`` of a listed ``[{…}]`` before it), is the call's closer, as it is
    after an XML body (``</NAME>`` in `XmlBody`); any other text is read on as after any body (`AfterBody`)."""

    def __init__(self, ctx: Context, block: Block, names: tuple[str, ...]) -> None:
        self.ctx = ctx
        self.block = block
        alternation = "|".join(regex.escape(n.strip()) for n in sorted(set(names), key=len, reverse=True) if n.strip())
        self.closer = regex.compile(
            rf"[ \t]{{0,8}}(?:\][ \t]{{0,8}})?<[ \t]{{0,4}}/[ \t]{{0,4}}(?:{alternation})[ \t]{{0,4}}>", regex.I
        )

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = self.closer.match(text, pos, partial=not final)
        if found is not None and found.partial:
            return pos, MORE
        if found is None:
            return pos, AfterBody(self.ctx, self.block)
        self.ctx.markup(found.group())
        return found.end(), Closed(self.ctx, fence=self.block.fence, outer=self.block.outer)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.markup_as_text()


class SelfClosed:
    """``<function=NAME />``: a call with no arguments in one tag (Llama on Groq), if NAME is an offered tool."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        if not self.ctx.tools.is_known(self.name):
            self.ctx.revert()  # `<function=x />` of no offered tool: a mention, text
            return pos, None
        self.ctx.end_call(self.name, {}, streamed=False)
        return pos, AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        self.feed("", 0, True)


def open_function(ctx: Context, block: Block, match: regex.Match[str]) -> XmlBody | SelfClosed:
    """The reader after ``<function=NAME>`` (or the self-closed ``<function=NAME />``)."""
    name = match.group("name")
    if name.endswith("/") and match.group().endswith(">"):  # `<function=NAME />`: self-closed, no body
        return SelfClosed(ctx, block, name[:-1].strip())
    return XmlBody(ctx, block, name, unclosed=not match.group().endswith((">", "=")))


_IN_CALL = ("tool_call",)
_ARGS_ELEMENT = "|".join(ARG_KEYS)
_EXAMPLE = "<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>"
ROWS = [
    # Qwen3-Coder: <function=NAME><parameter=K>V</parameter></function>, bare or inside <tool_call>.
    Dialect("qwen_xml", FUNCTION_OPEN.pattern, _FUNC_CLOSE, body="xml", reader=open_function),
    # Inside <tool_call> only: `function=NAME>` with its `<` left out, `<function>NAME</function>`. Not before an
    # arguments element (gogen's tests: `<function>NAME</function><parameters>{…}</parameters>`): that is a name
    # element and its arguments, the element body's (`xml_elements`).
    Dialect(
        "qwen_xml_damaged",
        r"(?:function=(?P<name>[^<>\n=]{1,128})>|<function>[ \t\r\n]{0,8}(?P<name>[^\W\d][\w.\-:]{0,127})"
        rf"[ \t\r\n]{{0,8}}</function>(?![ \t\r\n]{{0,8}}<[ \t]{{0,4}}(?i:{_ARGS_ELEMENT})[ \t]{{0,4}}>))",
        None,
        start="inside",
        inside=_IN_CALL,
        first="f<",
        reader=open_function,
        example=_EXAMPLE,
    ),
    # Inside <tool_call>: `<call=NAME>` for `<function=NAME>`, closed by `</call>`.
    Dialect(
        "qwen_xml_call",
        r"<call=(?P<name>[^<>\n=]{1,128})>",
        None,
        start="inside",
        inside=_IN_CALL,
        first="<",
        reader=open_function,
        example=_EXAMPLE,
    ),
    # Inside <tool_call>: the bare name, then a tag (a parameter the schema must declare: `<path>`).
    Dialect(
        "qwen_xml_bare_name",
        r"(?P<name>[^\W\d][\w.\-:]{0,127}?)"
        r"(?=[ \t]{0,8}\r?\n?[ \t\r\n]{0,8}<(?!arg_key[ \t]{0,4}>|tool_sep>|parameter[=>]|function[=>])"
        r"[A-Za-z_][\w.\-]{0,63}[ \t]{0,8}(?:>|=[ \t]{0,4}[\"']))",
        None,
        start="inside",
        inside=_IN_CALL,
        reader=open_function,
        example=_EXAMPLE,
    ),
]
