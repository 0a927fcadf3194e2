"""The family table and the reader protocol: a family is a row plus a small reader, and the core does the rest."""

from __future__ import annotations

import regex

from shim.events import ToolCallEnd
from shim.parsing.readers import DEFAULT_DIALECTS, MORE, Block, Context, Dialect, Next, register_dialect
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.tagged_json import TaggedStart
from shim.parsing.shapes import ToolIndex
from shim.parsing.stream import StreamParser
from tests.parsing.chunking import parse_everywhere

_PAIR_END = regex.compile(r";|</act>")


class PairsReader:
    """A toy family: ``<act name="NAME">k=v;k=v</act>``, values as text. It consumes its own closer."""

    def __init__(self, ctx: Context, block: Block, name: str) -> None:
        self.ctx = ctx
        self.block = block
        self.name = name
        self.arguments: dict[str, str] = {}
        self.pending: list[str] = []
        ctx.start_call(name)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = _PAIR_END.search(text, pos, partial=not final)
        if found is None or found.partial:
            end = len(text) if found is None else found.start()
            self.ctx.consume(text[pos:end])
            self.pending.append(text[pos:end])
            return end, MORE if found is not None else self
        self.ctx.consume(text[pos : found.end()])
        key, _, value = "".join([*self.pending, text[pos : found.start()]]).partition("=")
        self.pending = []
        if key.strip():
            self.arguments[key.strip()] = value
        if found.group() == ";":
            return found.end(), self
        self.ctx.end_call(self.name, self.arguments, streamed=False)
        return found.end(), AfterBody(self.ctx, self.block)

    def finish(self, truncated: bool) -> None:
        self.ctx.fail_call("the call ends before </act>")


def _open_act(ctx: Context, block: Block, match: regex.Match[str]) -> PairsReader:
    return PairsReader(ctx, block, match.group("name"))


ACT = Dialect("act", r'<act name="(?P<name>[a-z_]{1,40})">', r"</act>", reader=_open_act)
CALLS = Dialect("calls", r"<calls>", r"</calls>", reader=lambda ctx, block, match: TaggedStart(ctx, block))
INNER_ACT = Dialect("inner_act", ACT.open, None, start="inside", inside=("calls",), reader=_open_act)


def test_a_family_is_a_row_and_a_reader_and_is_read_at_every_split_point() -> None:
    text = 'Go <act name="jump">h=2;style=high</act> now.'
    result = parse_everywhere(text, dialects=[ACT])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("jump", {"h": "2", "style": "high"})]
    assert result["text"] == "Go  now."


def test_a_form_declared_inside_a_wrapper_is_read_only_there_and_several_share_one_block() -> None:
    text = '<calls>\n<act name="a">x=1</act>\n<act name="b">y=2</act>\n</calls> <act name="c">z=3</act>'
    result = parse_everywhere(text, dialects=[CALLS, INNER_ACT])
    assert [(c["name"], c["arguments"]) for c in result["calls"]] == [("a", {"x": "1"}), ("b", {"y": "2"})]
    assert result["text"] == ' <act name="c">z=3</act>'


def test_an_opener_built_from_the_offered_tools_exists_only_with_them() -> None:
    def opener(tools: ToolIndex) -> str | None:
        return "(?:" + "|".join(regex.escape(f"<{name}>") for name in tools.specs) + ")" if tools else None

    row = Dialect("tool_tag", "<", None, open_for_tools=opener, reader=lambda ctx, block, m: TaggedStart(ctx, block))
    text = '<lookup>{"name": "lookup", "arguments": {"q": 1}}'
    known = parse_everywhere(text, ["lookup"], dialects=[row], every_split=False)
    assert [c["name"] for c in known["calls"]] == ["lookup"]
    assert parse_everywhere(text, dialects=[row], every_split=False)["calls"] == []


def test_register_dialect_adds_a_row_for_parsers_created_afterwards_and_replaces_one_of_the_same_name() -> None:
    # A parser made before the row was added keeps the table it was made with; each later one reads the table
    # as it is then (parsers share what they derive from equal tables, never from a table since changed).
    saved = list(DEFAULT_DIALECTS)
    text = '<act name="jump">h=2</act>'
    before = StreamParser()
    assert parse_everywhere(text, every_split=False)["calls"] == []
    try:
        register_dialect(ACT)
        register_dialect(ACT)
        assert [d.name for d in DEFAULT_DIALECTS].count("act") == 1
        result = parse_everywhere(text, every_split=False)
        assert [c["name"] for c in result["calls"]] == ["jump"]
        assert not [e for e in before.feed(text) + before.close() if isinstance(e, ToolCallEnd)]
    finally:
        DEFAULT_DIALECTS[:] = saved
    assert parse_everywhere(text, every_split=False)["calls"] == []


def test_every_row_of_the_table_has_a_unique_name_and_compiling_patterns() -> None:
    names = [d.name for d in DEFAULT_DIALECTS]
    assert len(names) == len(set(names))
    for row in DEFAULT_DIALECTS:
        row.compiled_open()
        row.compiled_close()
        assert row.reader is not None, f"{row.name!r} names no reader"
