"""The one place that decides what a secret looks like and hides it: traces, logs, the audit log, error
messages and terminal output all go through `redact`.

What is hidden, with the marker ``[REDACTED]``:

- *known secrets*: values passed in, values registered for the process (`register_secrets`, the scoped
  `secrets_registered` that each MCP connection holds for its config's ``env`` and ``headers``), and the
  values of environment variables whose name says they hold one (``OPENAI_API_KEY``, ``HF_TOKEN``,
  ``*_SECRET``, ``*_PASSWORD``...). Each is matched raw, JSON-escaped (once and twice), ``repr``-escaped,
  URL-encoded and base64-encoded (at each of the three alignments inside a longer base64 text), in any letter
  case, and split across lines (a line break, raw or JSON-escaped, between any two of its characters), so a
  secret holding ``"``, ``\\`` or a newline is found in a JSON line or a query string too, and a model that
  repeats it upper-cased, encoded or wrapped does not get it out.
  An ``Authorization``-style value ``Bearer TOKEN`` also hides ``TOKEN`` alone;
- ``user:password@`` in any ``scheme://`` URL (the scheme and host stay readable);
- credential-shaped strings nobody named: ``Bearer`` and ``Basic`` credentials, ``sk-...``, GitHub and Slack tokens.

Text that arrives in pieces (a model repeating a secret four characters at a time) goes through
`StreamRedactor` or `PiecesRedactor`: they hold back the tail that could still be the start of a secret and
release a piece only once no secret can span its end, so no piece ever shows part of one.

Importing this module puts `RedactFilter` on shim's loggers (see `install_log_redaction`).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
from collections import Counter, deque
from collections.abc import Generator, Hashable, Iterable, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Generic, TypeVar
from urllib.parse import quote, quote_plus

__all__ = [
    "MARK",
    "PiecesRedactor",
    "RedactFilter",
    "StreamRedactor",
    "install_log_redaction",
    "known_secrets",
    "names_a_secret",
    "redact",
    "redact_data",
    "register_secrets",
    "secrets_registered",
]

MARK = "[REDACTED]"
"""What a secret is replaced with."""

MIN_SECRET = 4
"""Shorter values are not treated as secrets: hiding every ``1`` or ``true`` would garble the text."""

_ENV_MIN = 8
"""Environment values are only taken as secrets from this length (names like ``*_AUTH`` also hold flags)."""

_ENV_NAME = re.compile(r"(?i)(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)(?:$|_)")
_SCHEME_WORD = re.compile(r"(?i)^(?:bearer|basic|token|apikey)\s+(\S+)$")
_SHAPES = (
    r"(?P<url>\b[a-z][a-z0-9+.-]*://)[^\s/?#\"'<>\\]+(?=@)"  # userinfo of a URL; the greedy run stops at the last @
    # After its scheme word a credential holds a digit, a sign or an inner capital (base64, JWT), while
    # "a basic introduction" or "Basic Introduction" stays readable.
    r"|(?P<bearer>\b(?:bearer|basic)\s+)(?-i:(?=[A-Za-z0-9._~+/=-][a-z]*[A-Z0-9._~+/=-]))[A-Za-z0-9._~+/=-]{8,}"
    r"|\b(?:sk-[A-Za-z0-9_-]{12,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abp]-[A-Za-z0-9-]{10,})"
)
_WORD_CAP = 1024
"""A trailing word longer than this is released even though a credential shape might continue it."""

_registered: Counter[str] = Counter()


def names_a_secret(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret (``OPENAI_API_KEY``, ``HF_TOKEN``...)."""
    return _ENV_NAME.search(name) is not None


def register_secrets(values: Iterable[str]) -> None:
    """Hide ``values`` for the rest of the process (API keys given as flags)."""
    _registered.update(v for v in values if len(v) >= MIN_SECRET)


@contextmanager
def secrets_registered(values: Iterable[str]) -> Generator[None, None, None]:
    """Hide ``values`` while the block runs (an MCP server's ``env`` and ``headers`` while it is connected)."""
    held = [v for v in values if len(v) >= MIN_SECRET]
    _registered.update(held)
    try:
        yield
    finally:
        _registered.subtract(held)
        for value in held:
            if _registered[value] <= 0:
                del _registered[value]


def known_secrets(extra: Iterable[str] = ()) -> frozenset[str]:
    """Every value `redact` hides besides the credential shapes: ``extra``, the registered ones and the
    environment's."""
    values = {*extra, *_registered}
    values.update(v for k, v in os.environ.items() if len(v) >= _ENV_MIN and _ENV_NAME.search(k))
    for value in list(values):
        if (word := _SCHEME_WORD.match(value)) is not None:
            values.add(word.group(1))  # "Bearer TOKEN" is often written without its scheme word
    return frozenset(v for v in values if len(v) >= MIN_SECRET)


_SPLIT_MIN = 8
"""Secrets shorter than this are not matched split across lines (too many chance matches in prose)."""
_BREAK = r"(?:\r?\n|(?:\\r)?\\n)?"
"""What may come between two characters of a secret split across lines: a line break, raw or JSON-escaped."""


def _base64_forms(secret: str) -> set[str]:
    """The base64 text ``secret`` becomes inside a longer base64 text, at each alignment: only the characters
    that depend on the secret's bytes alone (standard and URL-safe alphabets)."""
    data = secret.encode("utf-8")
    forms: set[str] = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + data).decode("ascii")
        start = 4 if offset else 0  # the first group mixes in the bytes before the secret
        end = 4 * ((offset + len(data)) // 3)  # the last partial group mixes in the bytes after it
        core = encoded[start:end]
        if len(core) >= _SPLIT_MIN:
            forms.update({core, core.replace("+", "-").replace("/", "_")})
    return forms


def _split_pattern(secret: str) -> str:
    """A regex for ``secret`` with an optional line break between any two characters."""
    return _BREAK.join(re.escape(c) for c in secret)


def _forms(secret: str) -> set[str]:
    """How ``secret`` can be written: raw, JSON-escaped (once, twice), repr-escaped, URL-encoded, base64."""
    escaped = json.dumps(secret)[1:-1]
    forms = {
        secret,
        escaped,
        json.dumps(secret, ensure_ascii=False)[1:-1],
        json.dumps(escaped)[1:-1],
        repr(secret)[1:-1],
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        *_base64_forms(secret),
    }
    return {f for f in forms if len(f) >= MIN_SECRET}


class _Redactor:
    """One compiled pattern for one set of secrets."""

    def __init__(self, secrets: frozenset[str]) -> None:
        forms = sorted({f for s in secrets for f in _forms(s)}, key=len, reverse=True)
        split = sorted((s for s in secrets if len(s) >= _SPLIT_MIN), key=len, reverse=True)
        alternatives = [re.escape(f) for f in forms] + [_split_pattern(s) for s in split]
        literal = "|".join(alternatives)
        self.pattern = re.compile((f"(?i:{literal})|" if literal else "") + f"(?i:{_SHAPES})")
        longest = max([len(f) for f in forms] + [5 * len(s) for s in split] or [1])
        self.hold = longest - 1
        """How many trailing characters could still be the start of a known secret."""

    def spans(self, text: str, start: int = 0) -> list[tuple[int, int, int]]:
        """``(match start, hidden from, end)`` of every match in ``text[start:]``."""
        found: list[tuple[int, int, int]] = []
        for m in self.pattern.finditer(text, start):
            kept = m.end("url") if m.group("url") else m.end("bearer") if m.group("bearer") else m.start()
            found.append((m.start(), kept, m.end()))
        return found

    def sub(self, text: str) -> str:
        out: list[str] = []
        pos = 0
        for _, hidden, end in self.spans(text):
            out.append(text[pos:hidden])
            out.append(MARK)
            pos = end
        out.append(text[pos:])
        return "".join(out)

    def safe_end(self, text: str, start: int = 0) -> int:
        """How much of ``text`` is final: nothing appended later can make a secret that starts before it
        (``text[:start]`` is already hidden)."""
        end = len(text) - self.hold
        word = len(text)
        while word > 0 and not text[word - 1].isspace():
            word -= 1
        prefix = re.search(r"(?i)\b(?:bearer|basic)\s+\Z", text[max(0, word - 64) : word])
        if prefix is not None:
            word -= len(prefix.group(0))
        if len(text) - word <= _WORD_CAP:
            end = min(end, word)  # a credential shape (sk-..., a URL's user:password@) may still be growing
        for begin, _, stop in self.spans(text, start):
            if begin < end < stop:
                end = begin
        return max(end, 0)


@lru_cache(maxsize=32)
def _compiled(secrets: frozenset[str]) -> _Redactor:
    return _Redactor(secrets)


def _redactor(extra: Iterable[str]) -> _Redactor:
    return _compiled(known_secrets(extra))


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every secret (see the module docstring) replaced by ``[REDACTED]``.

    Args:
        text: any text: a log message, an error, a JSON line.
        secrets: values to hide besides the registered and environment ones.
    """
    return _redactor(secrets).sub(text)


def redact_data(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of a JSON-like value with `redact` applied to every string in it, keys included (other objects
    become their redacted ``str``)."""
    redactor = _redactor(secrets)

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return redactor.sub(item)
        if isinstance(item, Mapping):
            return {walk(k) if isinstance(k, str) else k: walk(v) for k, v in item.items()}  # pyright: ignore[reportUnknownVariableType]
        if isinstance(item, (list, tuple)):
            return [walk(v) for v in item]  # pyright: ignore[reportUnknownVariableType]
        if item is None or isinstance(item, (bool, int, float)):
            return item
        return redactor.sub(str(item))  # what json.dumps(default=str) would write

    return walk(value)


class _Pieces:
    """One text arriving in pieces; releases each piece redacted once no secret can span its end."""

    def __init__(self, secrets: tuple[str, ...]) -> None:
        self._secrets = secrets
        self._pieces: deque[str] = deque()
        self._skip = 0
        """Characters at the start of the first piece already hidden by the marker of an earlier piece."""
        self.ended = False
        """No piece will follow: every pending piece can be released."""

    def __bool__(self) -> bool:
        return bool(self._pieces)

    def push(self, piece: str) -> None:
        self._pieces.append(piece)

    def ready(self, *, final: bool) -> bool:
        if not self._pieces:
            return False
        if final or self.ended:
            return True
        text = "".join(self._pieces)
        return len(self._pieces[0]) <= _redactor(self._secrets).safe_end(text, self._skip)

    def pop(self) -> str:
        """The first piece, redacted (call after `ready`)."""
        text = "".join(self._pieces)
        size = len(self._pieces.popleft())
        out: list[str] = []
        pos = self._skip
        for start, hidden, end in _redactor(self._secrets).spans(text, self._skip):
            if start >= size:
                break
            # A match that starts in this piece is replaced here whole; later pieces skip what it covered.
            out.append(text[pos:hidden])
            out.append(MARK)
            pos = end
        out.append(text[pos:size])
        self._skip = max(pos - size, 0)
        return "".join(out)


class StreamRedactor:
    """Redacts text that arrives in pieces: ``feed(piece) -> str`` returns what is safe to show now,
    ``flush() -> str`` the rest at the end of the stream."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._pieces = _Pieces(tuple(secrets))

    def feed(self, piece: str) -> str:
        self._pieces.push(piece)
        out: list[str] = []
        while self._pieces.ready(final=False):
            out.append(self._pieces.pop())
        return "".join(out)

    def flush(self) -> str:
        out: list[str] = []
        while self._pieces:
            out.append(self._pieces.pop())
        return "".join(out)


T = TypeVar("T")


class PiecesRedactor(Generic[T]):
    """Redacts records (trace lines, events) that each carry pieces of one or more streamed texts.

    ``feed(item, {stream: piece, ...})`` queues the record and returns, in order, the records now safe to
    write with their pieces redacted; a secret spanning several records is replaced in the first and removed
    from the others, so the records keep their number and order. ``flush()`` releases the rest.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets = tuple(secrets)
        self._streams: dict[Hashable, _Pieces] = {}
        self._queue: deque[tuple[T, tuple[tuple[Hashable, _Pieces], ...]]] = deque()

    def feed(self, item: T, pieces: Mapping[Hashable, str]) -> list[tuple[T, dict[Hashable, str]]]:
        streams: list[tuple[Hashable, _Pieces]] = []
        for key, piece in pieces.items():
            stream = self._streams.setdefault(key, _Pieces(self._secrets))
            stream.push(piece)
            streams.append((key, stream))
        self._queue.append((item, tuple(streams)))
        return self._release(final=False)

    def end(self, key: Hashable) -> list[tuple[T, dict[Hashable, str]]]:
        """Say that stream ``key`` has ended (a later piece under that key starts a new text); returns the
        records this releases."""
        stream = self._streams.pop(key, None)
        if stream is None:
            return []
        stream.ended = True  # its pending pieces stay reachable through the queued records
        return self._release(final=False)

    @property
    def streams(self) -> list[Hashable]:
        """The keys of the streams still open."""
        return list(self._streams)

    def flush(self) -> list[tuple[T, dict[Hashable, str]]]:
        released = self._release(final=True)
        self._streams.clear()
        return released

    def _release(self, *, final: bool) -> list[tuple[T, dict[Hashable, str]]]:
        out: list[tuple[T, dict[Hashable, str]]] = []
        while self._queue:
            item, streams = self._queue[0]
            if not all(stream.ready(final=final) for _, stream in streams):
                break
            self._queue.popleft()
            out.append((item, {key: stream.pop() for key, stream in streams}))
        return out


class RedactFilter(logging.Filter):
    """Applies `redact` to a log record's message and traceback (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the logging module's to report
            return True
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_FILTER = RedactFilter()
_LOGGERS = ("shim", "shim.server", "shim.routing", "shim.audit", "shim.mcp_client", "shim.agent", "httpx", "httpx2")
"""shim's loggers, and the HTTP clients' (their INFO lines name every request's URL)."""


def install_log_redaction(*names: str) -> None:
    """Put `RedactFilter` on the named loggers, on shim's own and on every ``shim.*`` logger created so far.

    A logger's filter only sees records logged on that very logger (not its children's), so each one needs
    it; importing this module does it for shim's loggers and the HTTP clients'.
    """
    existing = [n for n in logging.root.manager.loggerDict if n == "shim" or n.startswith("shim.")]
    for name in {*names, *_LOGGERS, *existing}:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


install_log_redaction()
