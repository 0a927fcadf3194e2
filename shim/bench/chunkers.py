"""Ways to cut a model output into the chunks a parser is fed.

A chunker turns one text into one or more chunkings (lists of strings that concatenate to the text). Several
chunkings per chunker (every split point, several random seeds) are scored together: a case passes a chunker
only if it passes every chunking.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import regex

__all__ = [
    "Chunker",
    "every_split",
    "fixed",
    "make_chunkers",
    "random_coarse",
    "token_like",
    "whole",
]

# GPT-2's pre-tokenizer pattern. Byte-level BPE tokenizers (GPT-2/4, Llama 3, Qwen, Mistral's tekken) first cut
# text into these pieces and then merge bytes only *within* a piece, so every boundary here is a boundary a
# real tokenizer can produce. Real tokens are finer inside long words and punctuation runs (``"}}</`` may be
# two tokens); this approximation is used because no tokenizer vocabulary ships with shim.
_PRETOKEN = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


@dataclass(frozen=True, kw_only=True)
class Chunker:
    """A named way to cut texts."""

    name: str
    doc: str
    split: Callable[[str], Iterator[list[str]]]


def whole(text: str) -> Iterator[list[str]]:
    """Everything in one chunk."""
    yield [text]


def fixed(n: int) -> Callable[[str], Iterator[list[str]]]:
    """Chunks of ``n`` characters (``n == 1``: one character at a time)."""

    def split(text: str) -> Iterator[list[str]]:
        yield [text[i : i + n] for i in range(0, len(text), n)] or [""]

    return split


def token_like(text: str) -> Iterator[list[str]]:
    """Chunks on the boundaries of a byte-level BPE pre-tokenizer (see ``_PRETOKEN``)."""
    yield [m.group() for m in _PRETOKEN.finditer(text)] or [""]


def random_coarse(seeds: tuple[int, ...], *, largest: int = 48) -> Callable[[str], Iterator[list[str]]]:
    """One chunking per seed with chunk sizes drawn uniformly from 1..``largest``."""

    def split(text: str) -> Iterator[list[str]]:
        for seed in seeds:
            rng = random.Random(seed)
            chunks: list[str] = []
            i = 0
            while i < len(text):
                n = rng.randint(1, largest)
                chunks.append(text[i : i + n])
                i += n
            yield chunks or [""]

    return split


def every_split(limit: int) -> Callable[[str], Iterator[list[str]]]:
    """Two chunks, cut at every split point; texts longer than ``limit`` get ``limit`` evenly spaced cuts."""

    def split(text: str) -> Iterator[list[str]]:
        if len(text) < 2:
            yield [text]
            return
        points: Sequence[int] = range(1, len(text))
        if len(points) > limit:
            step = len(points) / limit
            points = sorted({1 + int(k * step) for k in range(limit)})
        for i in points:
            yield [text[:i], text[i:]]

    return split


def make_chunkers(*, quick: bool = False) -> list[Chunker]:
    """The chunkers of a run, whole-message first (its result is the reference for chunk invariance)."""
    seeds = (1, 2) if quick else (1, 2, 3, 4, 5)
    limit = 60 if quick else 400
    return [
        Chunker(name="whole", doc="everything in one chunk", split=whole),
        Chunker(name="char", doc="one character per chunk", split=fixed(1)),
        Chunker(name="fixed4", doc="4 characters per chunk", split=fixed(4)),
        Chunker(name="fixed16", doc="16 characters per chunk", split=fixed(16)),
        Chunker(name="token", doc="BPE pre-token boundaries (GPT-2 pattern)", split=token_like),
        Chunker(name="random", doc=f"random 1-48 char chunks, seeds {seeds}", split=random_coarse(seeds)),
        Chunker(name="splits", doc=f"two chunks at every split point (max {limit} per case)", split=every_split(limit)),
    ]
