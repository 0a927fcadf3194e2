# ruff: noqa: RUF001  (DeepSeek's real tokens use full-width bars)
"""Throughput and scaling of `StreamParser`, measured beside a bare tag scanner in the same process.

The bare scanner is the limit for pure Python: it finds ``<`` and ``[`` with one regular expression, tries
one alternation of every marker there (holding a marker split across chunks back) and does nothing else:
no JSON, no events. On a shared machine absolute timings are noisy, so what this prints are ratios
measured in one process, each the best of a few runs of CPU time (`time.process_time`):

- prose at 4-character chunks: parser time / bare scanner time (target: within 8x);
- one call whose argument is a large file body, at 16-character chunks: parser / bare (target: within 20x);
- for every family, a stream of its blocks between prose at 16-character chunks: time per byte at 10x the
  size / time per byte (target: at most 1.2; a parser that rescans what it buffered shows ratios near 10);
- building a parser (once per request) for a tool set it has built one for before / reading a 1.6 KB reply with
  it (target: within 1x: its marker patterns are compiled once per process, not per request);
- the first reply read with a new tool set, building its parser included / the same reply with a tool set seen
  before, with 30 and 1,000 tools: printed, no target yet (what remains is building the layout, and compiling the
  one row whose call the reply makes).

    python benchmarks/parser_throughput.py            # 100 KB streams, scaling 20 KB -> 200 KB
    python benchmarks/parser_throughput.py --full     # 1 MB streams, scaling 100 KB -> 1 MB
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import regex

from shim.parsing.readers import DEFAULT_DIALECTS
from shim.parsing.stream import StreamParser

_STR = {"type": "string"}
TOOLS = [  # with schemas: tool-name XML reads only declared parameters
    {"name": "get_weather", "inputSchema": {"properties": {"city": _STR, "days": {"type": "integer"}}}},
    {"name": "write_file", "inputSchema": {"properties": {"path": _STR, "content": _STR}}},
]

_PROSE = (
    "The forecast for the coming week is mild, with light rain on Tuesday and sunshine after that. "
    "Pack a jacket for the evenings, and check again before you leave since plans can change quickly.\n"
)

FAMILIES: dict[str, str] = {
    "function_call": '<function_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</function_call>',
    "tool_call (Hermes)": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    "qwen3-coder xml": "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
    "llama <function=>": '<function=get_weather>{"city": "Paris"}</function>',
    "python_tag": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
    "tool_request": '[TOOL_REQUEST]{"name": "get_weather", "arguments": {"city": "Paris"}}[END_TOOL_REQUEST]',
    "mistral list": '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    "mistral [ARGS]": '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    "json fence": '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```',
    "deepseek v3.1": '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}'
    "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "kimi k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
    '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    "glm 4.5": "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
    "minimax <invoke>": '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Paris</parameter>'
    "</invoke></minimax:tool_call>",
    "harmony": "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
    '{"city": "Paris"}<|call|>',
    "reasoning": "<think>The user wants the weather; call the tool with the city name.</think>",
    "tool-name xml": "<get_weather>\n<city>Paris</city>\n<days>3</days>\n</get_weather>",
    "react": 'Action: get_weather\nAction Input: {"city": "Paris"}',
    "pythonic call on a line": 'get_weather(city="Paris", days=3)',
    "closer, opener missing": '{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
    # -- w-fam1 families --
    "gemma4": '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>',
    "functiongemma": "<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>",
    "gemma tool_code": '```tool_code\nget_weather(city="Paris", days=3)\n```',
    "granite": '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    "phi4 functools": 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    "lfm2": '<|tool_call_start|>[get_weather(city="Paris", days=3)]<|tool_call_end|>',
    "llama4 python_start": "<|python_start|>[get_weather(city='Paris')]<|python_end|>",
    "olmo3": '<function_calls>get_weather(city="Paris")\nget_weather(city="Lima")</function_calls>',
    "minicpm": '<function name="get_weather"><param name="city">Paris</param></function>',
    # -- end w-fam1 --
}


def family_stream(block: str, size: int) -> str:
    unit = _PROSE + block + "\n"
    return (unit * (size // len(unit) + 1))[:size]


def pythonic_stream(size: int) -> str:
    """A pythonic list opening the message (it only counts there) whose argument grows with the size."""
    head, tail = "[get_weather(city='Paris', days=3), write_file(path='big.txt', content='", "')]"
    line = "The quick brown fox jumps over the lazy dog.\\n"
    return head + (line * (size // len(line) + 1))[: max(size - len(head) - len(tail), 0)] + tail


def prose(size: int) -> str:
    return (_PROSE * (size // len(_PROSE) + 1))[:size]


def huge_argument(size: int) -> str:
    head = '<function_call>{"name": "write_file", "arguments": {"path": "big.txt", "content": "'
    tail = '"}}</function_call>'
    line = "The quick brown fox jumps over the lazy dog. \\n"
    body = (line * (size // len(line) + 1))[: max(size - len(head) - len(tail), 0)]
    return head + body.rstrip("\\") + tail


class BareScanner:
    """Find markers in a stream and nothing else: the floor for a pure-Python tag scanner."""

    def __init__(self) -> None:
        markers = [f"(?:{d.open})" for d in DEFAULT_DIALECTS if d.kind != "untagged"]
        markers += [f"(?:{d.close})" for d in DEFAULT_DIALECTS if d.close and d.kind != "untagged"]
        self._stop = regex.compile(r"[<\[]")
        self._marker = regex.compile("|".join(markers), regex.IGNORECASE)
        self._carry = ""

    def feed(self, chunk: str) -> list[str]:
        text, self._carry = self._carry + chunk, ""
        out: list[str] = []
        pos = 0
        while True:
            stop = self._stop.search(text, pos)
            if stop is None:
                out.append(text[pos:])
                return out
            at = stop.start()
            out.append(text[pos:at])
            found = self._marker.match(text, at, partial=True)
            if found is None:
                out.append(text[at])
                pos = at + 1
            elif found.partial:
                self._carry = text[at:]
                return out
            else:
                out.append(found.group())
                pos = found.end()


def _pieces(text: str, chunk: int) -> list[str]:
    return [text[i : i + chunk] for i in range(0, len(text), chunk)]


def time_parser(text: str, chunk: int, repeat: int = 3) -> float:
    pieces = _pieces(text, chunk)
    best = float("inf")
    for _ in range(repeat):
        parser = StreamParser(TOOLS)
        start = time.process_time()
        for piece in pieces:
            parser.feed(piece)
        parser.close()
        best = min(best, time.process_time() - start)
    return best


def time_bare(text: str, chunk: int, repeat: int = 3) -> float:
    pieces = _pieces(text, chunk)
    best = float("inf")
    for _ in range(repeat):
        scanner = BareScanner()
        start = time.process_time()
        for piece in pieces:
            scanner.feed(piece)
        best = min(best, time.process_time() - start)
    return best


def versus_bare(kind: str, text: str, chunk: int, target: float) -> bool:
    parser, bare = time_parser(text, chunk), time_bare(text, chunk)
    ratio = parser / bare
    ok = ratio <= target
    print(
        f"{kind:<26} {chunk:>5} {len(text):>10,} {len(text) / parser / 1e6:>9.2f} {len(text) / bare / 1e6:>9.2f} "
        f"{ratio:>7.1f}x {'<=' if ok else '> '} {target:.0f}x"
    )
    return ok


def scaling(kind: str, make: Callable[[int], str], small: int, chunk: int = 16, target: float = 1.2) -> bool:
    little, big = make(small), make(small * 10)
    per_byte_small = time_parser(little, chunk, repeat=7) / len(little)
    per_byte_big = time_parser(big, chunk, repeat=3) / len(big)
    ratio = per_byte_big / per_byte_small
    ok = ratio <= target
    print(
        f"{kind:<26} {len(little):>10,} {len(big):>10,} {len(big) / per_byte_big / len(big) / 1e6:>9.2f} {ratio:>8.2f}"
    )
    return ok


def construction(target: float = 1.0, repeat: int = 20) -> bool:
    """A parser is built per request: for a tool set seen before, building it must cost less than reading a
    short reply (a new tool set compiles its tool-built openers once, shown beside)."""
    reply = _PROSE * 4 + FAMILIES["tool_call (Hermes)"] + _PROSE * 4
    fresh = [[{**tool, "name": f"{tool['name']}_{i}"} for tool in TOOLS] for i in range(repeat)]
    start = time.process_time()
    for tools in fresh:
        StreamParser(tools)
    first = (time.process_time() - start) / repeat
    start = time.process_time()
    for _ in range(repeat):
        StreamParser(TOOLS)
    again = (time.process_time() - start) / repeat
    read = time_parser(reply, 16, repeat=repeat)
    ratio = again / read
    ok = ratio <= target
    print(
        f"{'build (tools seen before)':<26} {again * 1e3:>8.2f} ms  {'build (new tools)':<18} {first * 1e3:>8.2f} ms"
        f"  read {len(reply):,} B {read * 1e3:>6.2f} ms  {ratio:>5.2f}x {'<=' if ok else '> '} {target:.0f}x"
    )
    return ok


def first_reply(count: int, repeat: int = 5) -> None:
    """A server gets a new tool set with a request now and then: the first reply read with it (building the parser
    included) / the same reply with a tool set seen before. Openers holding the offered names are compiled only
    where their text may be (`shim.parsing.tags.ScreenedOpener`), so this stays near the cost of building the
    parser's layout: a stream cut right after a line break or an opener compiles no names (the screens' partial
    match waits for the next chunk), and the reply's one call compiles its own row."""
    reply = _PROSE * 4 + FAMILIES["tool_call (Hermes)"] + _PROSE * 4
    chunks = _pieces(reply, 16)

    def read(tools: list[dict[str, Any]]) -> float:
        start = time.process_time()
        parser = StreamParser(tools)
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
        return time.process_time() - start

    def tool_set(tag: str) -> list[dict[str, Any]]:
        return [*TOOLS, *({"name": f"tool_{tag}_{i}", "parameters": {"type": "object"}} for i in range(count))]

    read(tool_set("warm"))  # the process's first parser compiles what every tool set shares
    first = min(read(tool_set(f"new{i}")) for i in range(repeat))
    seen = tool_set("seen")
    read(seen)
    again = min(read(seen) for _ in range(repeat))
    print(
        f"{f'first reply, {count + len(TOOLS)} new tools':<32} {first * 1e3:>8.2f} ms  tools seen before"
        f" {again * 1e3:>6.2f} ms  {first / again:>6.1f}x (measured, no target yet)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="1 MB streams (slower)")
    args = ap.parse_args()
    size, small = (1_000_000, 100_000) if args.full else (100_000, 20_000)
    print(f"{'parser vs bare scanner':<26} {'chunk':>5} {'size':>10} {'MB/s':>9} {'bare MB/s':>9} {'ratio':>8}")
    results = [
        versus_bare("prose", prose(size), 4, 8.0),
        versus_bare("one call, large argument", huge_argument(size), 16, 20.0),
    ]
    print(f"\n{'scaling at 16-char chunks':<26} {'size':>10} {'10x size':>10} {'MB/s':>9} {'ratio':>8}  (<= 1.2)")
    for name, block in FAMILIES.items():
        results.append(scaling(name, lambda n, block=block: family_stream(block, n), small))
    results.append(scaling("pythonic list", pythonic_stream, small))
    results.append(scaling("prose", prose, small))
    print()
    results.append(construction())
    first_reply(30)
    first_reply(1000)
    print("\nall targets met" if all(results) else "\nsome targets missed (a busy machine inflates ratios)")


if __name__ == "__main__":
    main()
