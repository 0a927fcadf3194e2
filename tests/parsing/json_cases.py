"""What the lenient JSON tests share: the streaming scanner fed chunk by chunk as a reader feeds it, every split of a
text, and the grammar's reading."""

from __future__ import annotations

from typing import Any

from shim.parsing.json_scan import JsonScanner, Status
from shim.parsing.lenient_json import LenientJSONError, loads

__all__ = ["grammar", "scan", "splits"]


def scan(chunks: list[str], *, bare_words: bool) -> tuple[Status, str]:
    """Feed ``chunks`` as a reader does (a token cut at a chunk's end is handed back), the value being the
    arguments object; the final status and the streamed argument text."""
    scanner = JsonScanner(args_only=True, stop_chars="", bare_words=bare_words)
    held, status = "", Status.MORE
    out: list[str] = []
    for index, chunk in enumerate(chunks):
        held += chunk
        pos, status = scanner.feed(held, 0, final=index == len(chunks) - 1)
        held = held[pos:]
        out.append(scanner.take_arguments())
        if status in (Status.DONE, Status.ERROR):
            break
    if status is Status.MORE and scanner.completable():
        scanner.complete()
        out.append(scanner.take_arguments())
        status = Status.DONE
    return status, "".join(out)


def splits(text: str) -> list[list[str]]:
    return [[text], list(text), *([text[:cut], text[cut:]] for cut in range(1, len(text)))]


def grammar(text: str, *, bare_words: bool) -> Any:
    try:
        return loads(text, bare_words=bare_words)
    except LenientJSONError:
        return LenientJSONError
