"""Tagged JSON calls: ``<function_call>{…}</function_call>`` (shim's own), Hermes ``<tool_call>``, and more.

The rows: ``<function_call>``, ``<tool_call>``, ``<functioncall>``, ``<tool>``, ``<tool-use>`` / ``<tool_use>``,
``<tool_calls>`` (Apriel), ``<TOOLCALL>`` (Nemotron Nano 2).

After the opener a body must begin: ``{`` (a call), ``[`` (a list of calls), a ```` ```json ```` fence or
the word ``json`` before it, or a nested Qwen3-Coder ``<function=NAME>``. Anything else means the tag was
mentioned in prose, and it goes back out as text. The closer is optional: a body ends at its last brace.
A list of calls may also come in the envelope of an OpenAI-style message, ``{"tool_calls": [{…}, …]}`` (Llama 3
on Groq writes it inside ``<tool-use>``): its items are read as the list's.
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import INNER_UNTAGGED, MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import AfterBody, Skip, open_inner
from shim.parsing.readers.damaged import damaged_start
from shim.parsing.readers.hy_v3 import END_OF_CALL, SEP
from shim.parsing.readers.json_body import JsonBody
from shim.parsing.readers.name_lines import name_lines
from shim.parsing.readers.prose import presents
from shim.parsing.readers.pycall import CALL_OPEN, inner_row, open_call
from shim.parsing.readers.qwen_xml import FUNCTION_OPEN, open_function
from shim.parsing.readers.xml_elements import ELEMENT_START, KEY_LINE_START, NAME_IN_TAG, XmlElements
from shim.parsing.tags import PARTIAL

__all__ = ["ELIDED", "ROWS", "Elided", "TaggedStart", "tag"]

_WS = r"[ \t]{0,8}"
_BODY_PREFIX = regex.compile(r"```[A-Za-z_]*[ \t]*\r?\n?|json", regex.IGNORECASE)
_LIST_TAG = "tag_around_call"
"""The row of a tag that is no call tag right around a tagged call (`shim.parsing.readers.untagged.WRAPPED_CALL`)."""
_WRAPPERS = frozenset({_LIST_TAG, "tag_around_json"})
"""Rows of a tag that is no call tag around a call (`WRAPPED_CALL`, and ``<tools>{…}</tools>``: `untagged.WRAPPED`):
inside a call tag, its opener and the call tag's are the call's markup; both go back out as text if no call follows."""
_ENVELOPE = regex.compile(
    r'\{\s*"(?:tool_calls?|function_calls?|tool_uses|calls|functions)"\s*:\s*\[', regex.IGNORECASE
)


def tag(name: str, *, prefix: str = ":") -> tuple[str, str]:
    """Opening and closing patterns of ``<name>…</name>``, with the spaces models put inside the brackets and a
    family's own prefix before the name, joined by one of ``prefix``'s characters or a bar (``<seed:tool_call>``,
    ``<seed:think>``, ``<minimax:tool_call>``, ``<ifm|tool_call>``; with ``_``: ``<longcat_tool_call>``). ``""``: no
    prefix."""
    # `start_`/`end_` are markers' own words (FunctionGemma's `<start_function_call>`), never a family's prefix.
    # A bar joins a prefix too, in every family that takes one: K2-V3 writes `<ifm|tool_call>`, `<ifm|think>`.
    ns = f"(?:(?!start_|end_)[A-Za-z]{{1,16}}[{regex.escape(prefix + '|')}])?" if prefix else ""
    # ...or after it: Hunyuan V3's open-source build writes `<tool_call:opensource>`, `<think:opensource>`.
    suffix = SUFFIX if prefix else ""
    # A stray quote before the opener's `>` (`<function_calls">`: Claude Sonnet 4.6 writing its legacy call form as
    # text, in rig's recordings) leaves it the opener; a stray slash before the closer's (`</tool_call/>`, the
    # closer of a block opened self-closing, in yunshu's tests) leaves it the closer.
    return f"<{_WS}{ns}{name}{suffix}{_WS}(?:[\"']{_WS})?>", f"<{_WS}/{_WS}{ns}{name}{suffix}{_WS}(?:/{_WS})?>"


SUFFIX = r"(?::[A-Za-z0-9]{1,16})?"
"""A family's namespace written after a tag's name (``<tool_call:opensource>``, Hunyuan V3; vLLM's `detect_token_suffix`
also meets a hash: ``:6124c78e``)."""


ELIDED = regex.compile(r"[\{\[]{1,2}[ \t]{0,4}(?:\.{2,4}|\u2026)[ \t]{0,4}[\}\]]{1,2}")
"""A body that is only an ellipsis in braces or brackets (``{...}``, ``[…]``; doubled as a format string or a Jinja
template escapes them, ``{{...}}``, or a list of one, ``[{...}]``): the call's format named in prose or a report with
its content left out (``vanilla emits valid <tool_call>{...}</tool_call>``), never a call a model makes."""


class Elided:
    """After an elided body (`ELIDED`): the block's closer right after it (whitespace aside) is the sample's too;
    the whole block is text, not a call and not a failed one."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.close = block.dialect.compiled_close() if block.dialect is not None else None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        at = pos
        while at < len(text) and text[at] in " \t":
            at += 1
        found = self.close.match(text, at, partial=not final) if self.close is not None else None
        if found is not None and found.partial:
            return pos, MORE
        if found is not None:
            self.ctx.consume(text[pos : found.end()])
            pos = found.end()
        self.ctx.revert()
        return pos, None

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


class TaggedStart:
    """After the opener, before the body; families with another body form override `named_body`."""

    def __init__(self, ctx: Context, block: Block) -> None:
        self.ctx = ctx
        self.block = block
        self.prefix_seen = False
        block.next_body = self.json_body

    def json_body(self) -> JsonBody:
        """The reader of a JSON body in this block (each of ``{…}; {…}`` too)."""
        return JsonBody(self.ctx, self.block)

    def named_body(self, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
        """A family-specific form at the start of the body (None: not one)."""
        return None

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx, block = self.ctx, self.block
        pos = ctx.skip_ws(text, pos)
        if pos >= len(text):
            return pos, self
        char = text[pos]
        if char == "<" and not block.array and block.name is None and not self.prefix_seen:
            empty = _empty_block(ctx, block, text, pos, final)
            if empty is not None:
                return empty
        if char == "{" and not block.array and block.name is None:
            found = _ENVELOPE.match(text, pos, partial=not final)
            if found is not None and found.partial:
                return pos, MORE
            if found is not None:  # {"tool_calls": [ … ]}: its items are the calls; `AfterBody` eats the `]}`
                ctx.consume(found.group())
                block.array = True
                return found.end(), self
        if char in "{[" and not block.array:
            elided = ELIDED.match(text, pos, partial=not final)
            if elided is not None and (elided.partial or (elided.end() >= len(text) and not final)):
                return pos, MORE
            if elided is not None:  # `<tool_call>{...}</tool_call>`: the format named with its body left out
                ctx.consume(elided.group())
                return elided.end(), Elided(ctx, block)
        if char == "{":  # a form this block's row takes inside it may open with a brace (`{"function=NAME>`)
            return (
                open_inner(ctx, block, text, pos, final)
                or damaged_start(ctx, block, text, pos, final)
                or (pos, self.json_body())
            )
        if char == "[" and not block.array:
            ctx.consume(char)
            block.array = True
            return pos + 1, self
        if char == "]" and block.array:
            ctx.consume(char)
            block.array = False
            return pos + 1, AfterBody(ctx, block)
        if block.name is None and (char.isalpha() or char == "_"):
            named = (
                self.named_body(text, pos, final)
                or _name_first(ctx, block, text, pos, final)
                or name_lines(ctx, block, text, pos, final)
            )
            if named is not None:
                return named
        if (block.array or block.name is not None) and (char != "`" or self.prefix_seen):  # a fence may open it
            return pos, Skip(ctx, "expected a JSON object {...} for each call")
        if char == "<" and block.dialect is not None and block.dialect.close:
            named_tag = NAME_IN_TAG.match(text, pos, partial=not final)
            if named_tag is not None and named_tag.partial:
                return pos, MORE
            if named_tag is not None:  # <tool><name=NAME</name><arguments>…</arguments></tool>
                return pos, XmlElements(ctx, block)
        inner = open_inner(ctx, block, text, pos, final)
        if inner is not None:
            return inner
        if char == "<" and block.dialect is not None and block.dialect.body == "json_or_xml":
            found = FUNCTION_OPEN.match(text, pos, partial=not final)
            if found is not None and found.partial:
                return pos, MORE
            if found is not None:  # Qwen3-Coder's XML inside <tool_call>
                ctx.consume(found.group())
                return found.end(), open_function(ctx, block, found)
        if char == "<" and block.dialect is not None and block.dialect.close:
            element = ELEMENT_START.match(text, pos, partial=not final)
            if element is not None and element.partial:
                return pos, MORE
            if element is not None:  # <tool_call><name>NAME</name><arguments>…</arguments></tool_call>
                return pos, XmlElements(ctx, block)
        if block.dialect is not None and block.dialect.close and block.name is None and char.isalpha():
            lines = KEY_LINE_START.match(text, pos, partial=not final)
            if lines is not None and lines.partial:
                return pos, MORE
            if lines is not None:  # <tool_call>\nname: NAME\narguments: {…}\n</tool_call>
                return pos, XmlElements(ctx, block, lines=True)
        if char in "<[" and not self.prefix_seen:
            again = ctx.markers.match(text, pos, final)
            if again is PARTIAL:
                return pos, MORE
            if again is not None and again.dialect is not None and again.dialect.kind == "call":
                ctx.markup("")  # `<function_call><function_call>{…}`: the first is a stray
                return pos, None
            inner = ctx.markers.match(text, pos, final, fences=True) if char == "<" and again is None else None
            if inner is PARTIAL:
                return pos, MORE
            closer = block.dialect.compiled_close() if block.dialect is not None else None
            if (
                inner is not None
                and inner.dialect is not None
                and inner.dialect.name in _WRAPPERS
                and inner.dialect.reader
            ):
                # `<TOOLCALL><functions><function name=…>` (BFCL's XML return formats), `<tool_call><tools>{…}</tools>`
                # (Qwen3-Coder 30B copying its prompt's tag): a tag around the calls inside the call tag; both tags
                # stay pending, so if no call follows they go back out as text.
                ctx.consume(inner.match.group())
                return inner.match.end(), inner.dialect.reader(ctx, block, inner.match)
            if inner is not None and inner.dialect is not None and inner.dialect.name in INNER_UNTAGGED and closer:
                ctx.markup("")  # `<tool-use><shell>ls</shell></tool-use>` (gptme): the tool's own tags inside
                ctx.expect_outer(closer)
                return pos, None
        named = self.named_body(text, pos, final)
        if named is not None:
            return named
        if not self.prefix_seen:
            found = _BODY_PREFIX.match(text, pos, partial=not final)
            if found is not None and (found.partial or (found.end() >= len(text) and not final)):
                return pos, MORE  # a fence may still grow (```json\n) across the chunk boundary
            if found is not None and found.group().lower() == "json":  # the word, not `jsonify`
                end = found.end()
                if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                    found = None
            if found is not None:
                ctx.consume(found.group())
                self.prefix_seen = True
                return found.end(), self
        if not self.prefix_seen and block.dialect is not None and block.dialect.close and char not in "<\n":
            lead = _PROSE_THEN_FUNCTION.match(text, pos, partial=not final)
            if lead is not None and lead.partial:
                return pos, MORE
            name = lead.group("name") or lead.group("json_name") if lead is not None else None
            if lead is not None and ctx.tools.is_known((name or "").strip()) and not presents(lead.group("text")):
                ctx.markup("")  # `<tool_call>Let me check.<function=NAME>`: the opener is the call's markup
                ctx.text(lead.group("text"))
                return lead.end("text"), self
        ctx.revert()  # `<function_call>` mentioned in prose
        return pos, None

    def finish(self, truncated: bool) -> None:
        if self.ctx.call_open:
            self.ctx.fail_call("the stream ended before the call's arguments")
        else:
            self.ctx.revert()


_AFTER_EMPTY = regex.compile(r"[ \t]{0,8}(?:\r?\n|<|\Z)")


def _empty_block(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """``<tool_call>\n</tool_call>`` on a line of its own (or glued to the next block): an empty call block, the
    model's markup around no call (Qwen3.6 writes one before or after its call, inferq's tests; GLM's), invisible. In a
    sentence (``within <tool_call></tool_call> XML tags``) it names the tags: text. None: no such block here."""
    closer = block.dialect.compiled_close() if block.dialect is not None else None
    if closer is None:
        return None
    found = closer.match(text, pos, partial=not final)
    if found is None:
        return None
    if found.partial:
        return pos, MORE
    after = _AFTER_EMPTY.match(text, found.end(), partial=not final)
    if after is not None and (after.partial or (after.end() >= len(text) and not final)):
        return pos, MORE
    tail = ctx.tail()
    line = tail[tail.rfind("\n") + 1 :]
    if after is None or line.strip() or (ctx.shown and "\n" not in tail) or presents(tail):
        return None  # in a sentence, or after words presenting an example (``Wrap it:``): the tags named
    ctx.consume(found.group())
    ctx.markup("")
    return found.end(), None


_PROSE_THEN_FUNCTION = regex.compile(
    r"(?P<text>[^<\n{]{1,200})(?=<function=(?P<name>[^>\n=]{1,128})>"
    r"|\{[ \t]{0,4}\"(?:name|function|tool_name)\"[ \t]{0,4}:[ \t]{0,4}\"(?P<json_name>[^\"\\\n]{1,128})\")",
    regex.IGNORECASE,
)
"""A sentence between a call tag's opener and the call of an offered tool on the same line, ``<function=NAME>``
(Nemotron, in Rapid-MLX's parser tests) or a JSON call (``<tool_call>Here is the tool call: {"name": …}``, mlx tests):
the model's prose, visible; the tag still holds the call."""


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> TaggedStart:
    return TaggedStart(ctx, block)


_NAME_THEN_JSON = regex.compile(
    rf"(?!json\b)(?P<name>[A-Za-z_][\w.\-]{{0,127}}?)(?:[ \t]{{0,4}}:?|{SEP})[ \t]{{0,4}}(?:\r?\n[ \t]{{0,8}})?(?=\{{)"
)
"""A name, then a colon or a separator token (HY V3's ``<tool_sep>``), then the JSON arguments."""


def _name_first(ctx: Context, block: Block, text: str, pos: int, final: bool) -> tuple[int, Next] | None:
    """Any call tag's body may name the tool first: ``NAME(k="v")`` (a Python-style call, also in ``[…]``) or
    ``NAME`` then its JSON arguments (``get_weather {…}``, ``get_weather:\n{…}``, ``get_weather<tool_sep>{…}``), for an
    offered tool (tags such as ``<function_calls>`` also wrap code in prose: ``os.remove(path='x')`` there stays
    text)."""
    for pattern in (CALL_OPEN, _NAME_THEN_JSON):
        found = pattern.match(text, pos, partial=not final)
        if found is not None and (found.partial or (found.end() >= len(text) and not final)):
            return pos, MORE
        if found is None or not ctx.tools.is_known(found.group("name")):
            continue
        ctx.consume(found.group())
        if pattern is CALL_OPEN:
            return found.end(), open_call(True)(ctx, block, found)
        block.name = found.group("name")
        return found.end(), JsonBody(ctx, block)
    return None


# A call tag's underscore may be written as a space (`<tool call>`: aurora's proxy normalises it): no markup or HTML
# tag has a space in its name. A hyphen is no such variant: `<tool-call>` is a valid HTML custom element's name.
_CALL_OPEN, _CALL_CLOSE = tag("tool[_ ]call", prefix=":_")
ROWS = [
    # The format shim's own prompt asks for.
    Dialect("function_call", *tag("function[_ ]call", prefix=":_"), reader=_open),
    # Hermes / Qwen 2.5 / Qwen3; HY V3 ends each call with <end_of_tool_call> (`shim.parsing.readers.hy_v3`).
    Dialect("tool_call", _CALL_OPEN, f"(?:{_CALL_CLOSE}|{END_OF_CALL})", reader=_open),
    Dialect("functioncall", *tag("functioncall"), reader=_open),
    Dialect("tool", *tag("tool", prefix=""), reader=_open),
    # Llama 3 on Groq (its failed_generation): <tool-use>{"tool_calls": [...]}</tool-use>.
    Dialect("tool_use", *tag("tool[-_]use"), reader=_open),
    # Apriel 1.5 / 1.6: <tool_calls>[{…}]</tool_calls>; Nemotron Nano 2: <TOOLCALL>[{…}]</TOOLCALL>.
    Dialect("tool_calls", *tag("tool[_ ]calls", prefix=":_"), reader=_open),
    Dialect("toolcall", *tag("toolcall"), reader=_open),
    # A call tag written self-closing as the opener (clawlite's tests): `<tool_call/>` then the JSON call, no closer.
    # Like any opener it needs a body right after it; `<tool_call/>` before prose is text.
    Dialect(
        "self_closing_call_tag",
        rf"<{_WS}(?:tool_call|function_call|functioncall|tool[-_]use){_WS}/{_WS}>",
        None,
        first="<",
        reader=_open,
    ),
    # The next Python-style call of a tag's list: <tool_call>[a(x=1), b(y=2)]</tool_call>.
    inner_row(
        "tagged_pycall",
        ("function_call", "tool_call", "functioncall", "tool", "tool_use", "tool_calls", "toolcall", "python_tag"),
        known_only=True,
    ),
]
