"""The tag side of the parser: `TagState` and marker matching that holds back markers split across chunks.

Markers (opening and closing tags of every dialect) are `regex` patterns matched with ``partial=True``: a
match that runs off the end of the buffer means "this could still be a marker", so the parser keeps those
few characters for the next chunk instead of emitting them as text. ``<functionality>`` or ``a < b``
fail the match at their first wrong character and are released at once.

This module knows rows only by the `MarkerRow` protocol (what matching needs of them), so the reader protocol
(`shim.parsing.readers.base`, whose `Dialect` is such a row) builds on it and nothing here imports back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Generic, Literal, Protocol, TypeAlias, TypeVar

import regex

__all__ = ["PARTIAL", "MarkerMatch", "MarkerRow", "Markers", "TagState", "first_chars"]


class TagState(Enum):
    """Where the parser is relative to a block: the state `StreamParser` dispatches on (``StreamParser.state``).

    Readers report the transitions through the parser's context: an opener matched (``START``), a call
    started or reasoning streamed (``INSIDE``), a call ended or failed (``END``), and the block over (``NONE``).
    """

    NONE = "none"
    """In visible text."""
    START = "start"
    """An opening marker was seen; the body has not begun (it may still turn out to be prose)."""
    INSIDE = "inside"
    """Inside a body: JSON, XML-style parameters, reasoning, or a failed block being skipped."""
    END = "end"
    """A body is complete; waiting for a closing marker, another call of the same block, or text."""


class MarkerRow(Protocol):
    """What marker matching needs of a row of the family table (`shim.parsing.readers.base.Dialect`)."""

    @property
    def name(self) -> str: ...
    @property
    def open(self) -> str: ...
    @property
    def close(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def start(self) -> str: ...
    @property
    def inside(self) -> tuple[str, ...]: ...
    @property
    def first(self) -> str | None: ...
    @property
    def words(self) -> tuple[str, ...]: ...
    def compiled_open(self) -> Opener: ...
    def compiled_close(self) -> regex.Pattern[str] | None: ...


R = TypeVar("R", bound=MarkerRow)

_LEADING_GROUPS = regex.compile(r"^(?:\((?:\?:|\?P<\w+>)?)+")
"""Group openings a pattern begins with (``(?:<a>|<b>)``), skipped to find its first literal character."""
_NAMED_GROUP = regex.compile(r"\(\?P<\w+>")


def first_chars(row: MarkerRow) -> str:
    """Where the text scanner must stop to look for this row's opener."""
    if row.first is not None:
        return row.first
    pattern = _LEADING_GROUPS.sub("", row.open)
    return pattern[1] if pattern.startswith("\\") else pattern[0]


class _Partial(Enum):
    PARTIAL = "partial"


PARTIAL = _Partial.PARTIAL
"""Returned by `Markers.match` when the buffer ends inside what may be a marker."""

MarkerKind: TypeAlias = Literal["open", "close", "fence"]


@dataclass(frozen=True)
class MarkerMatch(Generic[R]):
    """A marker found at a position: what it is, whose it is, and the regex match (its text and end)."""

    kind: MarkerKind
    dialect: R | None
    match: regex.Match[str]


_Candidate: TypeAlias = tuple[MarkerKind, R | None, "Opener"]


def _overtaken(candidates: Sequence[_Candidate[R]], groups: Sequence[int], ranks: Mapping[str, int]) -> list[list[int]]:
    """For each candidate, the later ones of its group that the default table (``ranks``) tries before it, in the
    table's order: the rows a profile's preference moved it ahead of. Openers (never closers) of rows the table
    holds; a row of the profile's own (a template's derived syntax) overtakes nothing."""

    ranked = [
        None if kind == "close" or dialect is None else ranks.get(dialect.name) for kind, dialect, _ in candidates
    ]
    # The lowest rank after each place: a row with none lower after it (most rows: the table's own order) overtook
    # nothing, and only the few moved ahead are compared with the rows after them.
    lowest: list[float] = [float("inf")] * (len(ranked) + 1)
    for i in range(len(ranked) - 1, -1, -1):
        mine = ranked[i]
        lowest[i] = lowest[i + 1] if mine is None else min(lowest[i + 1], mine)
    result: list[list[int]] = []
    for i, mine in enumerate(ranked):
        if mine is None or lowest[i + 1] >= mine:
            result.append([])
            continue
        later = [
            (r, j)
            for j in range(i + 1, len(ranked))
            if groups[j] == groups[i] and (r := ranked[j]) is not None and r < mine
        ]
        result.append([j for _, j in sorted(later)])
    return result


def _first_of(pattern: str) -> str | None:
    """The character a pattern's match must begin with, when it is a plain literal (None: any)."""
    body = _LEADING_GROUPS.sub("", pattern)
    if not body:
        return None
    if body[0] == "\\":
        return body[1] if len(body) > 1 and not body[1].isalnum() else None
    return None if body[0] in "[(.^$|?*+{" else body[0]


@lru_cache(maxsize=4096)
def compile_marker(pattern: str) -> regex.Pattern[str]:
    """A marker pattern compiled once per process (case-insensitive, as every marker is matched).

    A parser compiles about 150 marker patterns, two of them unions of every opener that take tens of
    milliseconds each; ``regex``'s own cache holds 500 patterns and is cleared in bulk when tool-built openers
    overflow it, so without this every parser (every request) paid for them again.
    """
    return regex.compile(pattern, regex.IGNORECASE)


class ScreenedOpener:
    """An opener built from the offered names, compiled only once its text may be there.

    ``(?P<name>get_weather|read[-_]file|…)`` costs about 45 µs per name to compile, in each of the thirty-odd rows
    whose opener holds the names: with every new tool set (a server's request, a benchmark's case) every reply
    paid milliseconds, and a thousand tools seconds, before its first character was read. Two screens go first,
    each matching (fully or partly) wherever the next one does, so where one finds nothing the next is never
    compiled: the pattern with any word in place of the names (`screen`, the same for every tool set, compiled
    once per process), then with the names' first two characters and any word characters after (`prefixes`,
    cheap to compile: a stream cut after ``\nThe`` needs no thousand names to know no ``tool_…`` starts there).

    Where the real pattern matches, the answer is its own. At the end of an unfinished text (``partial``) the
    screens' partial match is the answer while no name in it has been read in full: a cut right after a line
    break or an opener may begin a call, and the next characters usually show it does not, without the names
    ever being compiled. The caller then waits, at most to the end of a word, for text the real pattern might
    not have waited for; the events are the same. Once a name has been read, the real pattern decides (a screen
    would go on matching `<tool_call>{…` for any word, and hold a whole call back).
    """

    __slots__ = ("_prefixed", "_real", "_screen", "pattern", "prefixes", "screen")

    def __init__(self, pattern: str, screen: str, prefixes: str) -> None:
        self.pattern, self.screen, self.prefixes = pattern, screen, prefixes
        self._screen = compile_marker(screen)
        self._prefixed: regex.Pattern[str] | None = None
        self._real: regex.Pattern[str] | None = None

    def _screened(
        self, string: str, pos: int | None, endpos: int | None, partial: bool, search: bool
    ) -> regex.Match[str] | None:
        """What the screens find (where the real pattern matches, fully or partly, they do): None where one finds
        nothing; the second screen's match otherwise."""
        screen = self._screen
        if (screen.search if search else screen.match)(string, pos, endpos, partial=partial) is None:
            return None
        if self._prefixed is None:
            self._prefixed = compile_marker(self.prefixes)
        prefixed = self._prefixed
        return (prefixed.search if search else prefixed.match)(string, pos, endpos, partial=partial)

    def _answer(
        self, string: str, pos: int | None, endpos: int | None, partial: bool, search: bool
    ) -> regex.Match[str] | None:
        """The real pattern's answer, compiled only where the screens match in full; where they match only up to
        the end of an unfinished text, their partial match (the caller waits for more text, which decides)."""
        real = self._real
        if real is None:
            found = self._screened(string, pos, endpos, partial, search)
            if found is None or (found.partial and not _name_read(found)):
                return found
            real = self._real = compile_marker(self.pattern)
        return (real.search if search else real.match)(string, pos, endpos, partial=partial)

    def match(
        self, string: str, pos: int | None = None, endpos: int | None = None, *, partial: bool = False
    ) -> regex.Match[str] | None:
        real = self._real
        if real is not None:
            return real.match(string, pos, endpos, partial=partial)
        return self._answer(string, pos, endpos, partial, False)

    def search(
        self, string: str, pos: int | None = None, endpos: int | None = None, *, partial: bool = False
    ) -> regex.Match[str] | None:
        # A search that finds nothing is final: where the real pattern matches, each screen matches there too.
        return self._answer(string, pos, endpos, partial, True)

    @property
    def screen_pattern(self) -> regex.Pattern[str]:
        """The first screen, compiled: it matches (fully or partly) wherever the opener does."""
        return self._screen

    @property
    def compiled(self) -> bool:
        """Whether the pattern with the names was needed (and compiled) yet."""
        return self._real is not None

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self._screen.groupindex  # the same groups: only the names' alternation differs


Opener: TypeAlias = "regex.Pattern[str] | ScreenedOpener"
"""A compiled opener: what matching at a place needs (``match``, ``groupindex``)."""

_ANY_NAME = r"[A-Za-z_][\w.\-]{0,127}"
"""Every offered name that can be written as a word, in any of the spellings `tool_name_pattern` allows."""
_IS_NAME = regex.compile(_ANY_NAME)
_NAME_TAIL = r"[\w.\-]{0,126}"
"""What may follow a name's first two characters (`_ANY_NAME` holds at most 128)."""
_ESCAPED = regex.compile(r"\\(.)")
_UNIT = regex.compile(r"\\.|\[-_\]|.")
"""One character of an escaped name as written in a pattern: an escape, ``[-_]``, or itself."""
_NAME_LIST = regex.compile(r"(?<!\\)\((?P<head>\?:|\?i:|\?P<\w+>)(?P<names>(?:\w|\\[^\w\s]|\[-_\]|\|)+)\)")
"""A group holding only an alternation of literal names (escaped punctuation, ``[-_]`` between parts)."""
_POSSESSIVE = regex.compile(r"(?:[*+?]|\{\d*(?:,\d*)?\})\+")


def _narrowing_spans(pattern: str) -> list[tuple[int, int]]:
    """The groups of ``pattern`` inside which a wider name could fail where a name matches: atomic groups,
    negative lookarounds and possessively repeated groups, as (start, end) offsets."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":  # ``[]…]``: a ``]`` right after the bracket is a member
                i += 1
        elif char == "(":
            opened.append(i)
        elif char == ")" and opened:
            start = opened.pop()
            if pattern.startswith(("(?>", "(?!", "(?<!"), start) or _POSSESSIVE.match(pattern, i + 1):
                spans.append((start, i))
        i += 1
    return spans


@lru_cache(maxsize=4096)
def compile_opener(pattern: str) -> Opener:
    """An opener compiled on use: where its name group lists offered names, screened first (`ScreenedOpener`)."""
    screened = prefixed = pattern
    narrowing: list[tuple[int, int]] | None = None
    for found in reversed(list(_NAME_LIST.finditer(pattern))):
        names = found.group("names").split("|")
        if not all(_IS_NAME.fullmatch(_ESCAPED.sub(r"\1", n.replace("[-_]", "_"))) for n in names):
            continue
        narrowing = _narrowing_spans(pattern) if narrowing is None else narrowing
        if any(start <= found.start() < end for start, end in narrowing):
            continue
        head, (start, end) = found.group("head"), found.span()
        screened = f"{screened[:start]}({head}{_ANY_NAME}){screened[end:]}"
        # Each name's first two characters as written (an escape or ``[-_]`` is one), then any name characters.
        firsts = sorted({"".join(_UNIT.findall(n)[:2]) for n in names})
        # Named apart (`_PREFIX_GROUP`), so a partial match shows whether a name has been read in full.
        group = f"({head}(?:{'|'.join(firsts)}){_NAME_TAIL})"
        prefixed = f"{prefixed[:start]}(?P<{_PREFIX_GROUP}{start}>{group}){prefixed[end:]}"
    return compile_marker(pattern) if screened == pattern else ScreenedOpener(pattern, screened, prefixed)


_PREFIX_GROUP = "_shim_name"
"""The groups around the names' places in a `ScreenedOpener`'s second screen (numbered by place)."""


def _name_read(found: regex.Match[str]) -> bool:
    """Whether a partial match of the second screen went past a name of the offered tools (read it in full)."""
    return any(found.end(group) != -1 for group in found.re.groupindex if group.startswith(_PREFIX_GROUP))


_HEAD, _FEW, _HEADS_KEPT = 3, 3, 4096
"""`Markers._beginning`: how many characters of the text decide which rows may match there, from how many
candidates on, and how many such heads a parser keeps."""
_LOOKS_AROUND = regex.compile(r"\(\?<[=!]|\\[bBG]")
"""What makes a pattern's match depend on text before its place (a lookbehind, a word boundary)."""


def _anonymous(pattern: str) -> str:
    return _NAMED_GROUP.sub("(?:", pattern)


def _union_of(rows: Sequence[tuple[MarkerRow, MarkerKind]]) -> str:
    """One alternation of the rows' closers (as written) and openers (their groups anonymous), in order."""
    return "|".join(f"(?:{row.close if kind == 'close' else _anonymous(row.open)})" for row, kind in rows)


def _sees_end(pattern: Opener, text: str, found: regex.Match[str]) -> bool:
    """Whether ``found`` may hold only because the text ends where it does: an opener that looks at the text's end
    (``<tool_use server="x">(?=\\s*\\Z)``: a call cut off at its opener) with only blanks after it. Where the text is
    unfinished that end is a chunk's, not the output's: the match waits for the text after it, so that another row
    reads the same opener (``<tool type="read_file">BODY</tool>``) whatever the chunking."""
    return "\\Z" in pattern.pattern and not text[found.end() :].strip()


_WORD = regex.compile(r"[A-Za-z]{3,}|[A-Za-z]{2}=")
"""An untagged opener's leading literal word, where the text scanner stops (``commentary``, ``to=``: two letters only
with the ``=`` that makes them no word of prose)."""


class Markers(Generic[R]):
    """Every marker of a set of dialects, compiled once per parser.

    Args:
        dialects: the rows, in the order they are tried (the first whose opener matches wins).
        ranks: each row's place in the default table (by name), when ``dialects`` puts some rows ahead of it (a
            profile's preferred rows): a row moved ahead then keeps the rows it overtook ahead of it where their
            opener is a longer match at the same place (`match`). None: the order is the table's.
    """

    def __init__(self, dialects: Sequence[R], ranks: Mapping[str, int] | None = None) -> None:
        self._ranks = ranks
        anywhere = [d for d in dialects if d.start == "marker"]
        # Openers are compiled when a character they may begin with is first met (`_candidates`): openers built
        # from the offered names differ per tool set, and most never get the chance to match in one reply.
        self.call_openers = [d for d in anywhere if d.kind == "call"]
        fences = [d for d in dialects if d.kind == "untagged" and d.start == "marker"]
        self.fence_openers = fences
        """Openers of untagged blocks that may appear anywhere (a ```json fence): only with known tools."""
        self.fence_closers = [(d, c) for d in fences if (c := d.compiled_close())]
        self.reasoning_openers = [d for d in anywhere if d.kind == "reasoning"]
        self.markup_openers = [d for d in anywhere if d.kind == "markup"]
        self.late_markup_openers = (
            [d for d in self.markup_openers if d.name != "turn_end"],
            [d for d in self.markup_openers if d.name == "turn_end"],
        )
        """Markup rows before the untagged openers, and after them (the turn tokens after text)."""
        self.prose_openers = [d for d in anywhere if d.kind == "prose"]
        self.call_closers = [(d, c) for d in dialects if d.kind == "call" and (c := d.compiled_close())]
        self._call_opener_rows: list[tuple[R, MarkerKind]] = [(d, "open") for d in self.call_openers]
        closer_rows: list[tuple[R, MarkerKind]] = [(d, "close") for d in dialects if d.kind == "call" and d.close]
        self._call_marker_rows = closer_rows + self._call_opener_rows
        """Every call closer then opener, and the openers alone: the rows of the two unions below, in their order
        (`_search` tries them one at a time where a union's screen matches)."""
        self._any_call_marker_pattern = _union_of(self._call_marker_rows)
        self._any_call_opener_pattern = _union_of(self._call_opener_rows) or r"(?!)"
        """The unions of every call marker are compiled on first use: they take tens of milliseconds, hold the
        tool-built openers (so differ per tool set), and only a reasoning block or a damaged one needs them."""
        self.opener_chars = "".join(sorted({c for d in anywhere if d.kind != "untagged" for c in first_chars(d)}))
        """First characters of every opener: where the text scanner must stop and look."""
        self.fence_chars = "".join(sorted({c for d in fences for c in first_chars(d)}))
        self._opener_lower, self._fence_lower = self.opener_chars.lower(), self.fence_chars.lower()
        words = [(d, _WORD.match(d.open) if d.first is None else None) for d in fences]
        self.fence_stops = sorted(
            {w for d in fences for w in d.words}
            | {m.group() for _, m in words if m}
            | {c for d, m in words if not m and not d.words for c in first_chars(d)}
        )
        """Where the text scanner stops for untagged openers: the row's own words (offered names, `Dialect.words`), or
        a literal leading word (``commentary``) where the pattern has one, so prose is not stopped at every ``c``;
        else the first characters."""
        literal = {m.group().lower() for _, m in words if m}
        self.bounded_stops = frozenset(w for d in fences for w in d.words if w.lower() not in literal)
        """The stops that open only where a word begins (offered names: a call's name stands as a word), so the
        scanner passes them inside a longer word (``target``, ``rewrite``)."""
        self._by_char: dict[tuple[bool, bool, bool, str], list[_Candidate[R]]] = {}
        self._by_head: dict[tuple[bool, bool, bool, str], list[tuple[int, _Candidate[R]]]] = {}
        self._overtaken: dict[tuple[bool, bool, bool, str], list[list[int]]] = {}
        self._inner_rows: dict[str, list[R]] = {}
        for d in dialects:
            for wrapper in d.inside:
                self._inner_rows.setdefault(wrapper, []).append(d)
        self._inner: dict[str, list[tuple[R, Opener]]] = {}

    def inner(self, wrapper: str) -> list[tuple[R, Opener]]:
        """The rows whose forms a block of the row named ``wrapper`` may hold, with their openers."""
        found = self._inner.get(wrapper)
        if found is None:
            found = self._inner[wrapper] = [(d, d.compiled_open()) for d in self._inner_rows.get(wrapper, ())]
        return found

    def match(
        self, text: str, pos: int, final: bool, *, opens: bool = True, closes: bool = False, fences: bool = False
    ) -> MarkerMatch[R] | _Partial | None:
        """Match a marker at ``pos``: a full match, `PARTIAL` (could still be one), or None."""
        if pos >= len(text):
            return None if final else PARTIAL
        candidates = self._candidates(opens, closes, fences, text[pos])
        head = text[pos : pos + _HEAD]
        tried = (
            self._beginning(opens, closes, fences, head, candidates)
            if len(candidates) > _FEW and len(head) == _HEAD
            else enumerate(candidates)
        )
        for i, (kind, dialect, pattern) in tried:
            found = pattern.match(text, pos, partial=not final)
            if found is None:
                continue
            # It may still match, and would then win over every later candidate: wait for it, whatever the chunking.
            if found.partial or (not final and _sees_end(pattern, text, found)):
                return PARTIAL
            if self._ranks is not None:
                return self._narrowest(text, pos, final, (opens, closes, fences, text[pos]), i, found)
            return MarkerMatch(kind, dialect, found)
        return None

    def _narrowest(
        self, text: str, pos: int, final: bool, key: tuple[bool, bool, bool, str], i: int, found: regex.Match[str]
    ) -> MarkerMatch[R] | _Partial:
        """The match of candidate ``i`` (``found``), unless a row it was moved ahead of (a profile's preference)
        has a longer opener at ``pos``: that narrower row is read, as the default table would (the first such in
        the table's order; one that may still match is waited for, whatever the chunking). A profile orders the
        rows whose openers match the same text; it never makes a broad opener (``{``) shadow a specific one
        (``{"function="NAME">``)."""
        candidates = self._by_char[key]
        for j in self._overtaken[key][i]:
            kind, dialect, pattern = candidates[j]
            longer = pattern.match(text, pos, partial=not final)
            if longer is None:
                continue
            if longer.partial:
                return PARTIAL
            if longer.end() > found.end():
                return MarkerMatch(kind, dialect, longer)
        kind, dialect, _ = candidates[i]
        return MarkerMatch(kind, dialect, found)

    def _beginning(
        self, opens: bool, closes: bool, fences: bool, head: str, candidates: list[_Candidate[R]]
    ) -> list[tuple[int, _Candidate[R]]]:
        """The candidates (with their places) that may match where the text begins with ``head``: most stops at a
        line break in prose begin a word no line-start row can take, and each of twenty-odd rows tried in turn
        cost more than the rest of reading the line. Kept once per flags and head (a few thousand at most)."""
        key = (opens, closes, fences, head)
        found = self._by_head.get(key)
        if found is None:
            found = [
                (i, candidate)
                for i, candidate in enumerate(candidates)
                # A pattern that looks before its place or at a word's edge may match where the head alone cannot.
                if _LOOKS_AROUND.search(candidate[2].pattern) or candidate[2].match(head, partial=True) is not None
            ]
            if len(self._by_head) < _HEADS_KEPT:
                self._by_head[key] = found
        return found

    def may_open(self, char: str, *, fences: bool = False) -> bool:
        """Whether an opener may begin where ``char`` is (if not, `match` there finds nothing): the first
        characters `_candidates` tries, without building its list."""
        lower = char.lower()
        return lower in self._opener_lower or (fences and lower in self._fence_lower)

    def _candidates(self, opens: bool, closes: bool, fences: bool, char: str) -> list[_Candidate[R]]:
        """The markers that may match where ``char`` is, in table order (built once per flags and character:
        a stop in prose tries the few markers that can begin there, not the whole table)."""
        key = (opens, closes, fences, char)
        cached = self._by_char.get(key)
        if cached is not None:
            return cached
        # In table order, each group with its rows: a closer's with their compiled closers, an opener's bare.
        groups: list[tuple[MarkerKind, list[tuple[R, regex.Pattern[str]]] | list[R]]] = []
        if closes:
            groups.append(("close", self.call_closers))
        if opens:
            groups.append(("open", self.call_openers + self.reasoning_openers + self.late_markup_openers[0]))
            groups.append(("open", self.prose_openers))
        if fences:
            groups.append(("fence", self.fence_closers) if closes else ("fence", self.fence_openers))
        if opens:  # a turn token that may also open an untagged form (`<|call|>NAME<|args|>{…}`): tried after it
            groups.append(("open", self.late_markup_openers[1]))
        lower = char.lower()
        result: list[_Candidate[R]] = []
        group_of: list[int] = []
        for group, (kind, rows) in enumerate(groups):
            for row in rows:
                if isinstance(row, tuple):  # a closer: compiled already (closers do not depend on the tools)
                    d, p = row
                    can = _first_of(d.close or "")
                    if can is None or lower in can.lower():
                        result.append((kind, d, p))
                        group_of.append(group)
                elif lower in first_chars(row).lower():
                    result.append((kind, row, row.compiled_open()))
                    group_of.append(group)
        if self._ranks is not None:
            self._overtaken[key] = _overtaken(result, group_of, self._ranks)
        self._by_char[key] = result
        return result

    def search_call_opener(self, text: str, pos: int, end: int, final: bool) -> regex.Match[str] | None:
        """Find the next call opener in ``text[pos:end]`` (a partial one at the very end unless ``final``)."""
        return self._search(
            self._any_call_opener_pattern, self._call_opener_rows, text, pos, end, not final and end >= len(text)
        )

    def search_call_marker(self, text: str, pos: int, final: bool) -> regex.Match[str] | None:
        """Find the next call opener or closer (used to skip past a block that failed to parse)."""
        return self._search(self._any_call_marker_pattern, self._call_marker_rows, text, pos, len(text), not final)

    def _search(
        self, union: str, rows: Sequence[tuple[R, MarkerKind]], text: str, pos: int, end: int, partial: bool
    ) -> regex.Match[str] | None:
        """``union``'s search (the leftmost full match, the first of its rows there; else, when ``partial``, the
        leftmost partial one). The union holds every tool-built opener: compiled with a new tool set's names it
        took a third of a second. Where it can be screened, the full match is found one row at a time at each
        place its screen matches, which compiles only the rows whose own screens match there in full."""
        opener = compile_opener(union)
        if not isinstance(opener, ScreenedOpener):
            return opener.search(text, pos, end, partial=partial)
        screen, at = opener.screen_pattern, pos
        while (hit := screen.search(text, at, end)) is not None:
            at = hit.start()
            for row, kind in rows:
                marker = row.compiled_open() if kind == "open" else row.compiled_close()
                found = marker.match(text, at, end) if marker is not None else None
                if found is not None:
                    return found
            at += 1
        # No full match: the union's partial one, if any (the screens answer unless one matches in full).
        return opener.search(text, pos, end, partial=True) if partial else None
