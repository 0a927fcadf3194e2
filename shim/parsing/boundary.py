"""Boundary tokens a model leaks into its text (MiniMax-M3's ``]<]minimax[>[`` before every tag of a call): taken
out before the text is read, put back into the raw of the events, so the stream stays lossless.

Such a token is the model's own token structure, never text and never part of a value: with it between every tag
(``]<]minimax[>[<invoke name="read_file">]<]minimax[>[<path>a.rs]<]minimax[>[</path>``) no reader would find
the call, and a value would end with it. The form, ``]<]WORD[>[``, appears in no prose, so it is taken out
everywhere, whatever the family; one exception: a token is part of the tag it precedes, so where that tag is read
as text (an opener the output ends inside, ``]<]minimax[>[<tool_ca``; a tag of no call) the token is text with it.
A token split across chunks is held back until it is whole (or is not one).

Incremental like the other pieces of the parser: `strip` each chunk before it is read, `restore` the events
read from it. A token's place is kept as its distance past the text the events returned so far cover, which the
parser knows (what it holds back), so a stream with no token (nearly every one) costs one membership test a
chunk.
"""

from __future__ import annotations

import dataclasses

import regex

from shim.events import Event, TextDelta

__all__ = ["BoundaryTokens", "LastTurnEnd"]

_TOKEN = regex.compile(r"\]<\][A-Za-z][\w.\-]{0,31}\[>\[")
_START = "]<]"
_TAIL = 40
"""Longer than any token: how far from a chunk's end a token may begin."""


def _shown(text: str, at: int) -> bool:
    """A token right before a tag that was read as text (``]<]minimax[>[<tool_ca`` where the output ends: an
    opener cut off) belongs to that tag: text with it, as written. Anywhere else it is markup."""
    return text.startswith("<", at)


class BoundaryTokens:
    """Takes boundary tokens out of the text and gives them back in the raw of the events read from it."""

    def __init__(self) -> None:
        self.hold = ""
        """The end of the last chunk, held back because it may begin a token."""
        self.tokens: list[list[int | str]] = []
        """Tokens taken out and not yet given back: ``[distance, token]``, the distance counted in stripped text
        from the end of what the events returned so far cover."""

    def strip(self, chunk: str, *, ahead: int, final: bool) -> str:
        """``chunk`` without its boundary tokens (the end of it held back when it may begin one); ``ahead`` is how
        much stripped text the parser was given and has not returned in events yet."""
        text, self.hold = self.hold + chunk, ""
        if _START not in text and (final or "]" not in text[-_TAIL:]):
            return text
        pieces: list[str] = []
        pos = 0
        for found in _TOKEN.finditer(text):
            pieces.append(text[pos : found.start()])
            ahead += found.start() - pos
            self.tokens.append([ahead, found.group()])
            pos = found.end()
        if not final:
            partial = _TOKEN.search(text, max(pos, len(text) - _TAIL), partial=True)
            if partial is not None and partial.partial:
                self.hold = text[partial.start() :]
                text = text[: partial.start()]
        pieces.append(text[pos:])
        return "".join(pieces)

    def restore(self, events: list[Event], *, final: bool = False) -> list[Event]:
        """``events`` (read from the stripped text, in order, right after those returned before) with each token
        put back into the raw of the first event whose raw reaches its place; at the end of the stream, any left
        go out as raw of empty text."""
        out: list[Event] = []
        for event in events:
            size = len(event.raw)
            plain = isinstance(event, TextDelta) and bool(event.raw) and event.text == event.raw
            raw: list[str] = []
            shown: list[str] = []  # the event's text, with the tokens that stay text (`_shown`) put back
            last = 0
            # A token where a text event ends waits for the next event: the tag it precedes decides.
            while self.tokens and (int(self.tokens[0][0]) < size or (int(self.tokens[0][0]) == size and not plain)):
                at, token = self.tokens.pop(0)
                cut = max(int(at), 0)
                raw += [event.raw[last:cut], str(token)]
                shown += [event.raw[last:cut], str(token) if plain and _shown(event.raw, cut) else ""]
                last = cut
            for waiting in self.tokens:
                waiting[0] = int(waiting[0]) - size
            if raw:
                raw.append(event.raw[last:])
                if plain:
                    shown.append(event.raw[last:])
                    event = dataclasses.replace(event, raw="".join(raw), text="".join(shown))
                else:
                    event = dataclasses.replace(event, raw="".join(raw))
            out.append(event)
        if final and self.tokens:
            out.append(TextDelta(text="", raw="".join(str(token) for _, token in self.tokens)))
            self.tokens.clear()
        return out


_END_OF_TURN = (
    r"(?:<\|(?:im_end|eot_id|eom_id|eot|eom|end|endoftext|end_of_text|end_of_turn|END_OF_TURN_TOKEN)\|>"
    r"|</s>|<eos>|<end_of_turn>|<[|\uff5c]end[_\u2581]of[_\u2581]sentence[|\uff5c]>)"
)
_LAST_TOKENS = regex.compile(rf"(?:{_END_OF_TURN}[ \t\r\n]{{0,8}}){{1,4}}", regex.IGNORECASE)
_LAST_SPAN = 4 * (24 + 8)
"""Longer than any run `_LAST_TOKENS` matches: how far from the stream's end the run may begin."""


class LastTurnEnd:
    """The end-of-turn tokens a stream ends with (``…<|im_end|>``, ``…</s>\\n``, ``<|eot_id|><|end_of_text|>``):
    the engine's stop, printed because it did not skip special tokens. They end the message whatever is open
    there: an unclosed reasoning block ends before them, a call the output ends inside ends before them, text
    presented as an example ends before them; they are never a value's characters nor visible text (but in a
    transcript, where a template's every token is the document's, `shim.parsing.stream` gives them back as text).

    Only the last run counts: the same token with text after it is read as usual (in text,
    `shim.parsing.readers.block_end.TurnEnd` decides). So the end of each chunk that may begin such a run is held
    back until text follows it (it goes on to be read) or the stream ends (`take` then gives it).
    """

    def __init__(self) -> None:
        self.hold = ""
        """The end of the stream so far that is, or may begin, a run of end-of-turn tokens to the end."""

    def strip(self, chunk: str) -> str:
        """``chunk`` (after what was held) without the end that may begin a last run of end-of-turn tokens."""
        text, self.hold = self.hold + chunk, ""
        start = max(0, len(text) - _LAST_SPAN)
        at = text.find("<", start)
        while at >= 0:
            if _LAST_TOKENS.fullmatch(text, at, partial=True) is not None:
                self.hold = text[at:]
                return text[:at]
            at = text.find("<", at + 1)
        return text

    def take(self) -> str:
        """At the end of the stream: the held run if it is whole (to be markup), else nothing (the held text,
        a token cut off, is read as the rest of the stream: `rest`)."""
        run = self.hold if _LAST_TOKENS.fullmatch(self.hold) is not None else ""
        if run:
            self.hold = ""
        return run

    def rest(self) -> str:
        """What is held and is no whole run: the stream's own last characters."""
        rest, self.hold = self.hold, ""
        return rest
