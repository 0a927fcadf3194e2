"""MiniCPM: ``<function name="get_weather"><param name="city">Paris</param></function>``, values maybe in CDATA.

The opener names the tool, so the call starts at once; the body is read to ``</function>`` (a ``</param>``
or ``</function>`` inside ``<![CDATA[…]]>`` is value text). Values are typed by the tool's input schema
(``[1, 2]`` for an array parameter, ``true`` for a boolean one), text otherwise; a value written whole as one
CDATA section is its content, taken as written and typed alike (`shim.parsing.xml_values`); a value mixing CDATA
and text is text; other values lose the whitespace around them.

The same element family is what the Berkeley leaderboard's XML return formats ask for (BFCL's ``concise_xml``
and ``verbose_xml``), so a ``<param>`` may carry more attributes, in any order, quoted or not:

- ``<param name="k" type="integer">5</param>``: the value is the element's text;
- ``<param name="k" value="5" type="integer"/>``: the value is the ``value`` attribute (self-closing or not);
- ``type`` is the JSON type the model declares (BFCL's names: ``float``, ``dict``, ``tuple`` too), used where
  the schema gives none;
- ``<parameter name="k">`` and Qwen3-Coder's ``<parameter=k>…</parameter>`` for ``<param>`` (Qwen3.8-27B in q27's
  captures mixes this opener with its own parameters);
- ``<params>…</params>`` around the parameters is markup, and so is a stray ``</param>`` or ``</params>``
  with no parameter open (``<params>…</param>``: the wrapper closed by its singular).
"""

from __future__ import annotations

from typing import Any

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.json_body import CUT_OFF, NamedStart
from shim.parsing.xml_values import typed_value

__all__ = ["ROWS"]

_OPEN = r"""<function[ \t]{1,8}name[ \t]{0,4}=[ \t]{0,4}["'](?P<name>[^"'<>\n]{1,128})["'][ \t]{0,8}>"""
_CLOSE = r"<[ \t]{0,8}/[ \t]{0,8}function[ \t]{0,8}>"
_NEXT = regex.compile(rf"<!\[CDATA\[|{_CLOSE}", regex.IGNORECASE)
_CDATA_END = regex.compile(r"\]\]>")
_ATTR = (
    r"""[ \t\r\n]{1,8}[A-Za-z_][\w.:\-]{0,31}[ \t]{0,4}=[ \t]{0,4}"""
    r"""(?:"[^"\n]{0,4096}"|'[^'\n]{0,4096}'|(?:[^\s"'<>=/]|/(?!>)){1,4096})"""
)
_PARAM = regex.compile(
    rf"<param(?:eter)?(?P<attrs>(?:{_ATTR}){{1,8}})[ \t\r\n]{{0,8}}(?P<closed>/)?>"
    r"|<parameter=(?P<key>[^<>\n]{1,128})>"
    r"|(?P<end></[ \t]{0,8}param(?:eter)?[ \t]{0,8}>)"
    r"|(?P<wrap><[ \t]{0,8}/?[ \t]{0,8}params[ \t]{0,8}>)",
    regex.IGNORECASE,
)
_ONE_ATTR = regex.compile(
    r"""(?P<attr>[A-Za-z_][\w.:\-]{0,31})[ \t]{0,4}=[ \t]{0,4}"""
    r"""(?:"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s"'<>=]+))"""
)
_DECLARED = {
    "float": "number",
    "double": "number",
    "int": "integer",
    "bool": "boolean",
    "dict": "object",
    "tuple": "array",
    "list": "array",
}
"""The type names a ``type`` attribute may use for JSON's (BFCL's own list: string, integer, float, boolean, array,
dict, tuple)."""


def _attributes(text: str) -> dict[str, str]:
    """A tag's attributes, lower-cased names to values (the first of a repeated name wins)."""
    found: dict[str, str] = {}
    for attr in _ONE_ATTR.finditer(text):
        value = attr.group("dq") if attr.group("dq") is not None else attr.group("sq")
        found.setdefault(attr.group("attr").lower(), attr.group("bare") if value is None else value)
    return found


class MiniCpmBody:
    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = ctx.tools.resolve(name)
        self.in_cdata = False
        self.parts: list[tuple[bool, list[str]]] = []  # (is CDATA content, its pieces)
        ctx.start_call(name)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        ctx = self.ctx
        while True:
            found = (_CDATA_END if self.in_cdata else _NEXT).search(text, pos, partial=not final)
            end = len(text) if found is None else found.start()
            if end > pos:
                ctx.consume(text[pos:end])
                if self.parts and self.parts[-1][0] == self.in_cdata:  # a run split by chunks is read as one
                    self.parts[-1][1].append(text[pos:end])
                else:
                    self.parts.append((self.in_cdata, [text[pos:end]]))
            if found is None:
                return end, self
            if found.partial:
                return end, MORE
            ctx.consume(found.group())
            pos = found.end()
            if self.in_cdata or found.group().startswith("<!"):
                self.in_cdata = not self.in_cdata
                continue
            try:
                arguments = self._arguments()
            except ValueError as exc:
                ctx.fail_call(str(exc))
            else:
                ctx.end_call(self.name, arguments, streamed=False)
            return pos, AfterBody(ctx, self.block)

    def _arguments(self) -> dict[str, Any]:
        arguments: dict[str, Any] = {}
        key: str | None = None
        declared: str | None = None
        value: list[tuple[bool, str]] = []
        for is_cdata, pieces in self.parts:
            text = "".join(pieces)
            if is_cdata:
                value.append((True, text))
                continue
            at = 0
            for tag in _PARAM.finditer(text):
                attrs = _attributes(tag.group("attrs")) if tag.group("attrs") else {}
                if tag.group("key"):  # Qwen3-Coder's `<parameter=K>` under this opener
                    attrs = {"name": tag.group("key")}
                if not (tag.group("end") or tag.group("wrap") or "name" in attrs):
                    continue  # `<param type="x">`: no parameter named, text
                value.append((False, text[at : tag.start()]))
                at = tag.end()
                if tag.group("wrap") and key is None:
                    continue  # `<params>` around the parameters: markup
                if key is not None:  # a </param>, or the next <param> where one was left out
                    arguments[key] = self._typed(key, value, declared)
                key, declared, value = None, None, []
                if tag.group("end") or tag.group("wrap"):
                    continue
                name, declared = attrs["name"].strip(), attrs.get("type")
                if "value" in attrs:  # `<param name="k" value="v"/>`: the attribute is the value
                    arguments[name] = self._typed(name, [(False, attrs["value"])], declared)
                    declared = None
                elif tag.group("closed"):
                    arguments[name] = self._typed(name, [(False, "")], declared)
                    declared = None
                else:
                    key = name
            value.append((False, text[at:]))
        if key is not None:
            raise ValueError(f"the parameter {key!r} of {self.name!r} has no </param>")
        return arguments

    def _typed(self, key: str, value: list[tuple[bool, str]], declared: str | None = None) -> Any:
        pieces = [text for _, text in value]
        if pieces and not value[0][0]:
            pieces[0] = pieces[0].lstrip()
        if pieces and not value[-1][0]:
            pieces[-1] = pieces[-1].rstrip()
        raw = "".join(pieces)
        kind = None if declared is None else declared.strip().lower()
        sections = [text for is_cdata, text in value if is_cdata]
        if sections:
            if len(sections) == 1 and not "".join(t for c, t in value if not c).strip():
                # one CDATA section is the whole value: its content, typed as any XML value is
                return typed_value(
                    self.ctx.tools, self.name, key, sections[0], declared=_DECLARED.get(kind or "", kind), literal=True
                )
            return raw  # text and CDATA mixed: text, whatever the schema says
        return typed_value(self.ctx.tools, self.name, key, raw, declared=_DECLARED.get(kind or "", kind))

    def finish(self, truncated: bool) -> None:
        self.ctx.fail_call(CUT_OFF if truncated else f"the call to {self.name!r} ends before </function>")


def _open(ctx: Context, block: Block, match: regex.Match[str]) -> NamedStart:
    name = match.group("name")
    return NamedStart(ctx, block, name, lambda: MiniCpmBody(ctx, block, name))


ROWS = [Dialect("minicpm", _OPEN, _CLOSE, reader=_open)]
