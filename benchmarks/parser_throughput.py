"""Throughput and scaling of `StreamParser` (issue: linear work, no rescans).

Prints MB/s and microseconds per chunk for 1-, 4- and 16-character chunks over streams of growing size,
for two kinds of stream: mixed prose and calls, and one call whose argument is a huge file body; then
whole replies fed as one chunk (prose full of `<` and `[` decoys, and mixed prose and calls). The
scaling ratio is (time per byte at 10x the size) / (time per byte): about 1.0 means linear; a parser
that rescans what it has buffered shows ratios near 10.

    python benchmarks/parser_throughput.py            # 10 KB .. 1 MB
    python benchmarks/parser_throughput.py --full     # up to 10 MB (minutes at 1-character chunks)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from shim.parsing.stream import StreamParser

_BLOCK = (
    "Let me look that up for you. Comparing a < b and b > c is fine too.\n"
    '<function_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "units": "metric"}}</function_call>\n'
    "<think>The user wants a summary; keep it short.</think>The forecast is mild with light rain.\n"
)


def mixed_stream(size: int) -> str:
    return (_BLOCK * (size // len(_BLOCK) + 1))[:size]


def huge_argument(size: int) -> str:
    head = '<function_call>{"name": "write_file", "arguments": {"path": "big.txt", "content": "'
    tail = '"}}</function_call>'
    line = "The quick brown fox jumps over the lazy dog. \\n"
    body = (line * (size // len(line) + 1))[: max(size - len(head) - len(tail), 0)]
    body = body.rstrip("\\")  # never end the body on a lone backslash
    return head + body + tail


def decoy_prose(size: int) -> str:
    """Prose full of characters that could start a tag (`a < b`, `[d]`): each is looked at and released."""
    return ("Compare a < b and c [d] with <div> too. " * (size // 40 + 1))[:size]


def run_once(text: str, chunk: int) -> float:
    parser = StreamParser()
    pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    start = time.perf_counter()
    for piece in pieces:
        parser.feed(piece)
    parser.close()
    return time.perf_counter() - start


def report(kind: str, make: Callable[[int], str], chunk: int | None, sizes: list[int]) -> None:
    """One row per size; ``chunk=None`` feeds each stream as one chunk (a whole, non-streamed reply)."""
    previous: float | None = None
    for size in sizes:
        text = make(size)
        size_of_chunk = chunk or len(text)
        seconds = run_once(text, size_of_chunk)
        per_byte = seconds / len(text)
        ratio = f"{per_byte / previous:.2f}" if previous else "-"
        previous = per_byte
        chunks = (len(text) + size_of_chunk - 1) // size_of_chunk
        print(
            f"{kind:<20} {chunk or 'all':>5} {len(text):>10,} {len(text) / seconds / 1e6:>8.2f} "
            f"{seconds / chunks * 1e6:>9.2f} {ratio:>14}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="include 10 MB streams")
    args = ap.parse_args()
    sizes = [10_000, 100_000, 1_000_000] + ([10_000_000] if args.full else [])
    kinds: dict[str, Callable[[int], str]] = {"mixed prose+calls": mixed_stream, "one huge argument": huge_argument}
    print(f"{'stream':<20} {'chunk':>5} {'size':>10} {'MB/s':>8} {'us/chunk':>9} {'scaling (10x)':>14}")
    for kind, make in kinds.items():
        for chunk in (1, 4, 16):
            report(kind, make, chunk, [size for size in sizes if chunk > 1 or size <= 1_000_000])
    # Whole replies in one chunk: the text of a single feed must not be copied again for every piece of it.
    report("decoy prose", decoy_prose, None, sizes)
    report("mixed prose+calls", mixed_stream, None, sizes)


if __name__ == "__main__":
    main()
